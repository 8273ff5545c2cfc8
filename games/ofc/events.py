"""What happens at an OFC table, step by step (see :mod:`games.core.events`).

Cards dealt face down, Turbo placements before their street is revealed, Fantasyland boards and every
discard reach only their owner (private events); everyone else learns how many cards moved, and sees the
cards when the rules turn them face up (:class:`StreetRevealed`, :class:`BoardsRevealed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.core.cards import FrenchCard
from games.core.events import Event
from games.ofc.actions import Target


@dataclass(frozen=True)
class DealerChosen(Event):
    kind: ClassVar[str] = "dealer_chosen"
    seat: int


@dataclass(frozen=True)
class Dealt(Event):
    """Cards dealt to a seat to place: ``cards`` in the private event (or a public one when dealt face up,
    as in variant a); the public event of a face-down deal only says how many."""

    kind: ClassVar[str] = "dealt"
    seat: int
    street: int
    """0-based street; -1 for a Fantasyland hand."""
    count: int
    cards: tuple[FrenchCard, ...] | None = None


@dataclass(frozen=True)
class Placed(Event):
    """A seat placed its cards: where each went (``placements``, discards included, for whoever may see
    them), or, in the public event of a face-down placement, only that it placed ``count`` cards."""

    kind: ClassVar[str] = "placed"
    seat: int
    count: int
    placements: tuple[tuple[FrenchCard, Target], ...] = ()
    face_down: bool = False


@dataclass(frozen=True)
class StreetRevealed(Event):
    """Every normal player placed a Turbo street: the face-down cards turn up (seat, card, row)."""

    kind: ClassVar[str] = "street_revealed"
    street: int
    cards: tuple[tuple[int, FrenchCard, str], ...]


@dataclass(frozen=True)
class BoardsRevealed(Event):
    """The hand is over: every board (Fantasyland ones included) is shown, as ``Board`` text by seat."""

    kind: ClassVar[str] = "boards_revealed"
    boards: tuple[str, ...]
