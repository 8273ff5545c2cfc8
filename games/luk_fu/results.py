"""What a finished Luk Fu hand says: the results message reads it, the hand history stores it as JSON.

Cards are text in the pack's notation (``7M``, ``LT``), not card objects: the next hand deals the same cards again.
See :mod:`games.core.results` for how these types map to JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from games.core.results import OMIT_NONE, DealSummary, Payment, Row

EndedBy = Literal["all_passed", "all_played", "stop", "five_tigers"]


@dataclass(frozen=True)
class Call(Row):
    """One answer in the call, in calling order: ``[seat, "play"]`` or ``[seat, "pass"]``."""

    seat: int
    call: Literal["play", "pass"]


@dataclass(frozen=True)
class Share:
    """The winner's share S, and how it was reached (§2.8)."""

    tricks: int
    base: int
    multiplier: int
    reds: int
    """Red cards counted for the red bonus (0 without it)."""
    share: int
    red_scope: str | None
    """``own_winning_cards`` or ``all_captured`` with the red bonus; None without it."""
    red_cards: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    """The red cards counted, listed only in the own-winning-cards scope (captured piles hold unseen cards)."""


@dataclass(frozen=True)
class FiveTigers:
    """Five Tigers (五虎) revealed: by whom, and the tricks they were credited."""

    seat: int
    credit: int


@dataclass(frozen=True)
class LoggedPlay:
    """One play of a trick: its cards if played face up, or only how many were discarded face down."""

    seat: int
    cards: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    face_down: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class LoggedTrick:
    """A trick of the hand, as played: the lead first, then the follows in order."""

    trick: int
    leader: int
    winner: int
    count: int
    """Tricks it credited to the winner (a lead of n cards is n tricks)."""
    plays: tuple[LoggedPlay, ...]


@dataclass(frozen=True)
class LukFuResult(DealSummary):
    """One hand. Lists are by seat unless said otherwise."""

    deal: int
    dealer: int
    parent: int
    sitter: int | None
    """With four at the table: the dealer's seat-out partner for the hand; else None."""
    active: tuple[int, ...]
    """The three seats that played the hand."""
    calls: tuple[Call, ...]
    declarer: int | None
    ended_by: EndedBy
    winner: int | None
    tricks: tuple[int, ...]
    winning_cards: tuple[tuple[str, ...], ...]
    """Each seat's own cards that won tricks, face up."""
    five_tigers: FiveTigers | None
    share: Share | None
    """None when nobody won."""
    parent_penalty: bool
    sitter_card: str | None
    sitter_bonus: bool
    sitter_matches: tuple[str, ...]
    """The winner's winning cards that match the sitter card's rank (what earned the sitter bonus)."""
    payments: tuple[Payment, ...]
    owed: tuple[int, ...]
    """Each seat's result by the rules, in points."""
    deltas: tuple[int, ...]
    trick_log: tuple[LoggedTrick, ...]
    next_dealer: int
