"""What a finished Hachi-Hachi Trick round says: the results message reads it, the hand history stores it as JSON.

A round's result is a :class:`RoundResult`; a table stopped while the pot held chips ends with a
:class:`StoppedResult` (the pot goes back to whoever paid into it). :meth:`HachiResult.from_json` reads either.
Cards are text in the pack's notation (``Qh``), not card objects: the next round deals the same cards again.
See :mod:`games.core.results` for how these types map to JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Self

from games.core.results import DealSummary, Payment, Row

Outcome = Literal["void", "single", "split", "play"]


@dataclass(frozen=True)
class Declaration(Row):
    """One answer in the declarations, in speaking order: ``[seat, "play"]``, ``"fold"`` or ``"forced_out"``."""

    seat: int
    call: str


@dataclass(frozen=True)
class Choice(Row):
    """A declarer's split-or-fight choice: ``[seat, "split"]`` or ``[seat, "fight"]``."""

    seat: int
    choice: str


@dataclass(frozen=True)
class RevealedHand:
    """A hand shown at hand settlement: a forced-out player's Aces and yaku cards, or a declarer's yaku cards."""

    seat: int
    role: Literal["forced_out", "declarer"]
    yaku: tuple[str, ...]
    """Keys of the hand table's rows scored."""
    cards: tuple[str, ...]
    aces: int
    value: int
    """What the hand is worth on the table, before the field multiplier (its forced-out or normal column)."""


@dataclass(frozen=True)
class PlayedCard(Row):
    """One card of a trick: ``[seat, card]``."""

    seat: int
    card: str


@dataclass(frozen=True)
class LoggedTrick:
    """A trick of the round, the lead first."""

    trick: int
    leader: int
    winner: int
    plays: tuple[PlayedCard, ...]


@dataclass(frozen=True)
class PotShare(Row):
    """Chips the pot paid out: ``[seat, amount, how]``, ``how`` being ``single``, ``split``, ``tricks`` (the pot
    won) or ``refund`` (a void round's pot given back)."""

    seat: int
    amount: int
    how: str


@dataclass(frozen=True)
class Refund(Row):
    """What a seat had paid into a pot still unclaimed at the end of the game, given back: ``[seat, amount]``."""

    seat: int
    amount: int


@dataclass(frozen=True, kw_only=True)
class HachiResult(DealSummary):
    """What a Hachi-Hachi deal ends with: a round (:class:`RoundResult`) or a stop (:class:`StoppedResult`)."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        if cls is HachiResult:
            kind: type[HachiResult] = StoppedResult if data.get("outcome") == "stopped" else RoundResult
            loaded = kind.from_json(data)
            assert isinstance(loaded, cls)
            return loaded
        return super().from_json(data)


@dataclass(frozen=True)
class RoundResult(HachiResult):
    """One round. Lists are by seat unless said otherwise."""

    deal: int
    round: int | None
    """The round's number among those that count (None: a void round that does not count)."""
    rounds: int
    sp: int
    """The start player."""
    players: tuple[int, ...]
    """The seats dealt in, in speaking order."""
    mizuten: bool
    mizuten_paid: bool
    indicator: str | None
    """The turned card that named trumps (None when the round ended before it was turned)."""
    trump: str | None
    field: str
    """``plain``, ``oba`` or ``zetsuba``: the field, whose multiplier is ``mult``."""
    mult: int
    declarations: tuple[Declaration, ...]
    fees: tuple[int, ...]
    """Each seat's fold fee paid this round."""
    declarers: tuple[int, ...]
    forced_out: tuple[int, ...]
    outcome: Outcome
    """``void`` (nobody played), ``single`` (one declarer took the pot), ``split``, or ``play`` (tricks)."""
    choices: tuple[Choice, ...] | None
    hands: tuple[RevealedHand, ...]
    tricks: tuple[int, ...] | None
    """Tricks each seat took, when the round was played out; else None."""
    trick_log: tuple[LoggedTrick, ...]
    pot_before: int
    pot_in: int
    """Fees paid into the pot this round."""
    pot_to: tuple[PotShare, ...]
    pot_carried: int
    """The pot carried over to the next round (a void round's)."""
    end_refund: tuple[Refund, ...]
    payments: tuple[Payment, ...]
    owed: tuple[int, ...]
    deltas: tuple[int, ...]
    busts: tuple[int, ...]
    """Seats whose last chip this round took (counted before any end-of-game refund)."""
    next_sp: int | None
    game_over: bool


@dataclass(frozen=True)
class StoppedResult(HachiResult):
    """The table was stopped between rounds: the pot goes back to whoever paid into it (``end_refund``)."""

    deal: int
    outcome: Literal["stopped"]
    refund: bool
    pot: int
    end_refund: tuple[Refund, ...]
