"""What happens at an Oicho-Kabu table, step by step (see :mod:`games.core.events`).

Cards the rules keep face down travel only in private events: the dealer's own cards reach the dealer alone
(:class:`DealerCardDealt`), and a bet pile's first extra reaches the children allowed to look at it
(:class:`FirstExtraSeen`) while everyone learns that it was dealt (:class:`FirstExtraDealt`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.core.cards import KabuCard
from games.core.events import Event


@dataclass(frozen=True)
class DealerChosen(Event):
    """The first dealer was drawn (§1.3): each pass of (seat, month) drawn, and who deals."""

    kind: ClassVar[str] = "dealer_chosen"
    passes: tuple[tuple[tuple[int, int], ...], ...]
    dealer: int


@dataclass(frozen=True)
class NewDealer(Event):
    """A seat takes the bank (親) for a tenure."""

    kind: ClassVar[str] = "new_dealer"
    seat: int


@dataclass(frozen=True)
class RoundDealt(Event):
    """The four piles' first cards (and the まき札, if the table uses them) are face up."""

    kind: ClassVar[str] = "round_dealt"
    deal: int
    piles: tuple[KabuCard, ...]
    maki_fuda: tuple[KabuCard, ...]
    cap: int


@dataclass(frozen=True)
class DealerCardDealt(Event):
    """A card to the dealer's own hand, face down: only the dealer sees it (until the showdown)."""

    kind: ClassVar[str] = "dealer_card"
    card: KabuCard


@dataclass(frozen=True)
class BetPlaced(Event):
    kind: ClassVar[str] = "bet"
    seat: int
    pile: int
    amount: int


@dataclass(frozen=True)
class BetsCleared(Event):
    kind: ClassVar[str] = "clear"
    seat: int


@dataclass(frozen=True)
class BettingDone(Event):
    kind: ClassVar[str] = "done"
    seat: int


@dataclass(frozen=True)
class RoundVoid(Event):
    """Nobody bet: the round is void and dealt again by the same dealer."""

    kind: ClassVar[str] = "void"
    deal: int


@dataclass(frozen=True)
class FirstExtraDealt(Event):
    """A pile got its first extra card; face down on a bet pile (see :class:`FirstExtraSeen`)."""

    kind: ClassVar[str] = "first_extra"
    pile: int
    card: KabuCard | None
    """The card when it is face up (an unbet pile), else ``None``."""


@dataclass(frozen=True)
class FirstExtraSeen(Event):
    """The face-down first extra of a bet pile, for the children allowed to look at it."""

    kind: ClassVar[str] = "first_extra_seen"
    pile: int
    card: KabuCard


@dataclass(frozen=True)
class PileDecided(Event):
    """A pile's second extra: drawn (face up) or not, by its decider or by the rules (``seat`` None)."""

    kind: ClassVar[str] = "pile_decided"
    pile: int
    seat: int | None
    drew: bool
    card: KabuCard | None


@dataclass(frozen=True)
class DealerDecided(Event):
    """The dealer drew a last card or stood (the cards stay face down until the showdown)."""

    kind: ClassVar[str] = "dealer_decided"
    seat: int
    drew: bool


@dataclass(frozen=True)
class Showdown(Event):
    """Every card face up: the dealer's hand and each pile's outcome against it."""

    kind: ClassVar[str] = "showdown"
    dealer_cards: tuple[KabuCard, ...]
    outcomes: tuple[tuple[str, int], ...]
    """Per pile: (``pile`` / ``dealer`` / ``push`` / ``unbet``, multiplier)."""


@dataclass(frozen=True)
class BankKept(Event):
    kind: ClassVar[str] = "continue"
    seat: int


@dataclass(frozen=True)
class BankPassed(Event):
    kind: ClassVar[str] = "resign"
    seat: int
