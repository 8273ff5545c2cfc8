"""Hachi-Hachi Trick actions and their text form.

| Text | Who, when | Meaning |
|---|---|---|
| ``mizuten`` / ``no-mizuten`` | the start player, before the deal (when Mizuten is offered) | Declare Mizuten (見ず転): he must then play this round; or not. |
| ``play`` / ``fold`` | the player whose turn it is to declare, clockwise from the start player | Play (出る) or fold (降りる) and pay the fold fee. A Mizuten start player can only ``play``. |
| ``split`` / ``fight`` | both declarers at once, when exactly two play | Offer to split the pot, or insist on playing it out (one ``fight`` is enough). Secret until both chose. |
| ``card Qh`` | the declarer whose turn it is in trick play | Play one card (must follow suit). |

Cards use the project's French notation (``Qh``, ``Ts``); ``10s``, ``QH`` and ``Q♥`` are read too, and printed
back as ``Ts``, ``Qh``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.core.actions import Action, ActionCodec
from games.core.cards import FrenchCard
from games.core.errors import NotationError


@dataclass(frozen=True)
class Mizuten(Action):
    """The start player declares Mizuten before the deal (and must play this round)."""

    verb: ClassVar[str] = "mizuten"


@dataclass(frozen=True)
class NoMizuten(Action):
    """The start player does not declare Mizuten."""

    verb: ClassVar[str] = "no-mizuten"


@dataclass(frozen=True)
class Play(Action):
    """Declare Play (出る)."""

    verb: ClassVar[str] = "play"


@dataclass(frozen=True)
class Fold(Action):
    """Declare Fold (降りる): discard the hand and pay the fold fee into the pot."""

    verb: ClassVar[str] = "fold"


@dataclass(frozen=True)
class Split(Action):
    """Two declarers: offer to split the pot (it is split only if both offer)."""

    verb: ClassVar[str] = "split"


@dataclass(frozen=True)
class Fight(Action):
    """Two declarers: play the round out (settle hands, play tricks)."""

    verb: ClassVar[str] = "fight"


@dataclass(frozen=True)
class Card(Action):
    """Play one card to the trick."""

    verb: ClassVar[str] = "card"
    card: FrenchCard

    def args(self) -> list[str]:
        return [self.card.notation]

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Action:
        if len(args) != 1:
            raise NotationError(f"card takes one card, got {len(args)}")
        return cls(FrenchCard.parse(args[0]))


CODEC = ActionCodec([Mizuten, NoMizuten, Play, Fold, Split, Fight, Card])
"""Reads Hachi-Hachi Trick action text."""
