"""Luk Fu actions and their text form.

| Text | Who, when | Meaning |
|---|---|---|
| ``play`` / ``pass`` | the active player whose turn it is in the call | Declare (the first ``play`` ends the call) or pass. |
| ``lead 5S`` | the leader | Lead one card. |
| ``lead 3S 4S 5S`` | the leader | Lead a triple, a quad or a run (or, with ``five_tigers_lead``, ``lead 1C 1S 1M 1T LT``). |
| ``follow 9S`` | a follower who can beat | Play a beating combination face up (as many cards as were led). |
| ``discard 2C 7M 4T`` | a follower who cannot beat | Play that many chosen cards face down. |
| ``stop`` / ``continue`` | a trick winner holding 6 or more tricks | End the hand now and win it, or play on. |
| ``tigers`` | the holder of 1C 1S 1M 1T LT, when the rules let him reveal | Reveal Five Tigers: the hand ends. |
| ``keep`` | every active player, right after the call (``five_tigers_timing = after_call``) | Do not reveal (asked of all three, so answering does not betray the holder). |

Cards in an action are written in a canonical order (suit C, S, M, T, then rank; LT last), whatever order they
were typed in, so equal actions print equally and make the same custom ids. Suits and ``LT`` may be lower case.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.core.actions import Action, ActionCodec
from games.core.cards import LukFuCard, lukfu_deck
from games.core.errors import NotationError
from games.luk_fu.combos import canonical

_BY_NOTATION: dict[str, LukFuCard] = {c.notation: c for c in lukfu_deck()}


def _read_card(text: str) -> LukFuCard:
    return _BY_NOTATION.get(text) or LukFuCard.parse(text)


@dataclass(frozen=True)
class CardsAction(Action):
    """An action naming one or more distinct cards (kept in canonical order)."""

    cards: tuple[LukFuCard, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", canonical(self.cards))

    def args(self) -> list[str]:
        return [c.notation for c in self.cards]

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Action:
        if not args:
            raise NotationError(f"{cls.verb} needs at least one card")
        cards = [_read_card(a) for a in args]
        if len(set(cards)) != len(cards):
            raise NotationError(f"{cls.verb}: a card is named twice")
        return cls(tuple(cards))


@dataclass(frozen=True)
class Play(Action):
    """Call: declare (play the hand)."""

    verb: ClassVar[str] = "play"


@dataclass(frozen=True)
class Pass(Action):
    """Call: pass."""

    verb: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Lead(CardsAction):
    """Lead one card, a triple, a quad, a run, or (option) the Five Tigers as one lead."""

    verb: ClassVar[str] = "lead"


@dataclass(frozen=True)
class Follow(CardsAction):
    """Follow face up with a combination that beats the play winning the trick now."""

    verb: ClassVar[str] = "follow"


@dataclass(frozen=True)
class Discard(CardsAction):
    """Follow face down with as many chosen cards as were led (only when nothing in hand beats)."""

    verb: ClassVar[str] = "discard"


@dataclass(frozen=True)
class Stop(Action):
    """A trick winner with 6 or more tricks ends the hand and wins it."""

    verb: ClassVar[str] = "stop"


@dataclass(frozen=True)
class Continue(Action):
    """A trick winner with 6 or more tricks plays on (and leads next)."""

    verb: ClassVar[str] = "continue"


@dataclass(frozen=True)
class Tigers(Action):
    """Reveal Five Tigers (1C 1S 1M 1T LT) and end the hand."""

    verb: ClassVar[str] = "tigers"


@dataclass(frozen=True)
class Keep(Action):
    """After the call (``five_tigers_timing = after_call``): do not reveal Five Tigers."""

    verb: ClassVar[str] = "keep"


CODEC = ActionCodec([Play, Pass, Lead, Follow, Discard, Stop, Continue, Tigers, Keep])
"""Reads Luk Fu action text."""
