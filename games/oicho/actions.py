"""Oicho-Kabu actions and their text form (``bet 2 15``, ``done``, ``draw`` …)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.core.actions import Action, ActionCodec


@dataclass(frozen=True)
class Bet(Action):
    """A child adds ``amount`` points on pile ``pile`` (1..4) during their betting turn."""

    verb: ClassVar[str] = "bet"
    pile: int
    amount: int


@dataclass(frozen=True)
class Done(Action):
    """A child ends their betting turn (with or without bets)."""

    verb: ClassVar[str] = "done"


@dataclass(frozen=True)
class Clear(Action):
    """A child withdraws every bet they placed in their still-open betting turn."""

    verb: ClassVar[str] = "clear"


@dataclass(frozen=True)
class Draw(Action):
    """Take the second extra: a pile's decider for the current pile, or the dealer for his own hand."""

    verb: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Stand(Action):
    """Take no further card: a pile's decider for the current pile, or the dealer for his own hand."""

    verb: ClassVar[str] = "stand"


@dataclass(frozen=True)
class Continue(Action):
    """The dealer keeps the bank for another round."""

    verb: ClassVar[str] = "continue"


@dataclass(frozen=True)
class Resign(Action):
    """The dealer ends his tenure; the deal passes to his left."""

    verb: ClassVar[str] = "resign"


CODEC = ActionCodec([Bet, Done, Clear, Draw, Stand, Continue, Resign])
"""Reads Oicho-Kabu action text."""
