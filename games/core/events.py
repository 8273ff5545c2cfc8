"""Events: what an action made happen, in the game's own terms, each with who may see it.

After pokerkit's operations: every step of a game (a bet placed, a card played, a trick won, a street
revealed, a deal settled) is a small frozen dataclass. ``Engine.apply`` returns the events of that action,
in order, including the steps that followed by themselves (dealing, paying, the next deal's shuffle). The
table narrates from them, bots' moves are shown from them, and a deal's public events are its hand history.

``to`` says who may see an event: ``None`` is everyone (onlookers included), otherwise the set of seats. A
private event (your own cards dealt, a face-down discard) must never be shown to anyone outside ``to``; the
conformance suite checks that no event shows a card hidden from a seat it is visible to.

The three events below are common to every game; each game adds its own in ``games/<game>/events.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar


@dataclass(frozen=True)
class Event:
    """Base of every event."""

    kind: ClassVar[str] = ""
    to: frozenset[int] | None = field(default=None, kw_only=True)

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: an onlooker) may see this event."""
        return self.to is None or (seat is not None and seat in self.to)

    @property
    def public(self) -> bool:
        return self.to is None


@dataclass(frozen=True)
class DealStarted(Event):
    """A new deal began (its shuffle is made; its commitment can be shown)."""

    kind: ClassVar[str] = "deal_started"
    deal: int


@dataclass(frozen=True)
class DealEnded(Event):
    """A deal finished and moved these points between seats (its seeds may now be revealed)."""

    kind: ClassVar[str] = "deal_ended"
    deal: int
    deltas: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over; ``stacks`` are the final stacks in points."""

    kind: ClassVar[str] = "game_ended"
    stacks: tuple[int, ...]
