"""What happens at a Luk Fu table, step by step (see :mod:`games.core.events`).

Cards the rules keep hidden travel only in private events: a seat's dealt hand reaches that seat alone
(:class:`HandDealt` with ``to``), the sitter's single card the sitter alone, and the cards of a face-down follow
their player alone (:class:`Discarded` with ``cards``), while everyone learns that N cards were played face down
(:class:`Discarded` without cards). The dead card (3 players) is never shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.core.cards import LukFuCard
from games.core.events import Event


@dataclass(frozen=True)
class DealerChosen(Event):
    """The first dealer was drawn: each seat with chips drew one card (as text: the cards go back into the
    pack); the highest card (rank, then suit C < S < M < T; LT lowest) deals first."""

    kind: ClassVar[str] = "dealer_chosen"
    dealer: int
    draws: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class DealSetUp(Event):
    """A hand was dealt: who deals, who is parent (calls first, leads first), who sits out, who plays (in the
    counter-clockwise order of play, parent first)."""

    kind: ClassVar[str] = "deal_set_up"
    deal: int
    dealer: int
    parent: int
    sitter: int | None
    active: tuple[int, ...]


@dataclass(frozen=True)
class HandDealt(Event):
    """One seat's cards, for that seat only (the sitter gets his single card this way)."""

    kind: ClassVar[str] = "hand_dealt"
    seat: int
    cards: tuple[LukFuCard, ...]


@dataclass(frozen=True)
class Called(Event):
    """A call: ``play`` (the seat declares; the call is over) or pass."""

    kind: ClassVar[str] = "called"
    seat: int
    play: bool


@dataclass(frozen=True)
class AllPassed(Event):
    """All three passed: the hand is not played; no chips move; the deal moves to the right."""

    kind: ClassVar[str] = "all_passed"
    deal: int


@dataclass(frozen=True)
class TigersDeclined(Event):
    """After the call (``after_call`` timing) a seat answered ``keep`` (every active seat is asked)."""

    kind: ClassVar[str] = "tigers_declined"
    seat: int


@dataclass(frozen=True)
class Led(Event):
    """A lead, face up. ``play_kind``: single, triple, quad, run or tigers; ``unbeatable`` when nothing can
    beat it (1C, 1T or LT led singly, or the Five Tigers lead)."""

    kind: ClassVar[str] = "led"
    seat: int
    trick: int
    cards: tuple[LukFuCard, ...]
    play_kind: str
    unbeatable: bool


@dataclass(frozen=True)
class Followed(Event):
    """A face-up follow: it beats the play that was winning, and now wins the trick."""

    kind: ClassVar[str] = "followed"
    seat: int
    trick: int
    cards: tuple[LukFuCard, ...]


@dataclass(frozen=True)
class Discarded(Event):
    """A face-down follow of ``count`` cards: the public event has no cards; the private one (``to`` the player)
    names them."""

    kind: ClassVar[str] = "discarded"
    seat: int
    trick: int
    count: int
    cards: tuple[LukFuCard, ...] = ()


@dataclass(frozen=True)
class TrickWon(Event):
    """A trick is over: ``seat`` played the winning cards and is credited ``credited`` tricks (as many as were
    led), for ``total`` this hand."""

    kind: ClassVar[str] = "trick_won"
    seat: int
    trick: int
    cards: tuple[LukFuCard, ...]
    credited: int
    total: int


@dataclass(frozen=True)
class StopOffered(Event):
    """The trick winner holds 6 or more tricks and chooses to stop or continue."""

    kind: ClassVar[str] = "stop_offered"
    seat: int
    tricks: int


@dataclass(frozen=True)
class StopChosen(Event):
    kind: ClassVar[str] = "stop_chosen"
    seat: int
    stop: bool


@dataclass(frozen=True)
class FiveTigersRevealed(Event):
    """Five Tigers shown: the hand ends; ``credit`` = tricks already won + the Five Tigers tricks (at most 12)."""

    kind: ClassVar[str] = "five_tigers"
    seat: int
    cards: tuple[LukFuCard, ...]
    credit: int


@dataclass(frozen=True)
class HandResult(Event):
    """The hand is over and settled.

    ``winner`` None: nobody took 6 tricks (no chips move). ``share`` is S; ``deltas`` what each seat's stack
    changed by (after §0.4 capping). ``sitter_card`` is the sitter's card, revealed now (4 players)."""

    kind: ClassVar[str] = "hand_result"
    deal: int
    winner: int | None
    ended_by: str
    tricks: tuple[int, ...]
    share: int
    deltas: tuple[int, ...]
    sitter_card: LukFuCard | None
    sitter_bonus: bool
