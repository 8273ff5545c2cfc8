"""What a finished OFC hand says: the results message reads it, the hand history stores it as JSON.

Boards and cards are text in the pack's notation, not card objects: the next hand deals the same cards again.
See :mod:`games.core.results` for how these types map to JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.results import OMIT_NONE, DealSummary
from games.ofc.scoring import PairResult


@dataclass(frozen=True)
class OFCResult(DealSummary):
    """One hand: every board revealed, each pair of players' result, the points and chips moved. Lists are by seat."""

    hand: int
    dealer: int
    boards: tuple[str, ...]
    """Each finished board as text, ``front / middle / back`` (``Board.parse`` reads it)."""
    rows: tuple[tuple[str, str, str], ...]
    """Each board's row categories, front to back (``high_card``, ``pair``, … ``royal_flush``)."""
    fouled: tuple[bool, ...]
    royalties: tuple[int, ...]
    """Each board's royalties (0 for a fouled board)."""
    fantasyland: tuple[bool, ...]
    """Who played this hand in Fantasyland."""
    pairs: tuple[PairResult, ...]
    """Each pair of players: what ``a`` won from ``b`` row by row, the scoop and royalty difference, in points."""
    points: tuple[int, ...]
    """Each seat's result by the rules."""
    deltas: tuple[int, ...]
    """Each seat's stack change (``points`` limited by what each stack could pay)."""
    fantasyland_next: tuple[int, ...]
    """Cards each seat gets in Fantasyland next hand (0: none)."""
    fl_discards: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    """The cards each Fantasyland player left out ("" for everyone else). Summaries stored before the results
    compared a Fantasyland board with the best one possible lack it (None)."""
