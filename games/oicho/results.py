"""What a finished Oicho-Kabu round says: the results message reads it, the hand history stores it as JSON.

Cards are written in the pack's notation (the month, ``"10"``), as text: the next round deals the same cards
again, and a card object here would look like one of its hidden cards. See :mod:`games.core.results` for how
these types map to JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from games.core.results import OMIT_NONE, DealSummary, Row

Outcome = Literal["pile", "dealer", "push", "unbet"]


@dataclass(frozen=True)
class HandResult:
    """A hand as classified at the showdown (``kind`` ``plain`` or a special hand such as ``kuppin``, ``arashi``)."""

    kind: str
    points: int
    """The hand's points (0–9)."""
    tier: int
    """Its rank among special hands (0 for a plain hand)."""
    multiplier: int
    """What a win with it pays, as a multiple of the bet."""


@dataclass(frozen=True)
class Bet(Row):
    """One bet on a pile, in betting order: ``[seat, points]``."""

    seat: int
    points: int


@dataclass(frozen=True)
class PileResult:
    """One of the four piles at the end of the round."""

    number: int
    """1–4."""
    cards: tuple[str, ...]
    hand: HandResult
    bets: tuple[Bet, ...]
    decider: int | None
    """The seat that decided the pile's second extra card (None when nobody bet at all)."""
    drew: bool
    """Whether the pile took a second extra card."""
    outcome: Outcome
    """``pile`` won, ``dealer`` won, ``push``, or ``unbet``."""
    multiplier: int
    """The multiple of each bet paid (0 for a push or an unbet pile)."""


@dataclass(frozen=True)
class DealerHandResult:
    cards: tuple[str, ...]
    hand: HandResult


@dataclass(frozen=True)
class OichoResult(DealSummary):
    """One round. A void round (nobody bet) has no piles, dealer's hand or ``owed``."""

    round: int
    """The deal number (void rounds count)."""
    void: bool
    dealer: int
    cap: int
    """The most the round's bets could add up to (胴前)."""
    cap_used: int
    maki_fuda: tuple[str, ...]
    """The four face-up information cards, when the table uses them."""
    piles: tuple[PileResult, ...] | None = field(default=None, metadata=OMIT_NONE)
    dealer_hand: DealerHandResult | None = field(default=None, metadata=OMIT_NONE)
    owed: tuple[int, ...] | None = field(default=None, metadata=OMIT_NONE)
    """Each seat's result by the rules, in points (``deltas`` may be less: a stack pays only what it holds)."""
