"""What the runtime keeps per table beyond the game itself: its tasks, its picture's update state, its open panels.

One typed object per table (``TableSession.runtime``), each part owned by one module: the picture by
:mod:`bot.tables.public`, the panels by :mod:`bot.tables.panels`, the mover and turn timer by
:mod:`bot.tables.autoplay`, the lobby's expiry by :mod:`bot.tables.lobby`, the results under way by
:mod:`bot.tables.results`. None of it is durable: a restart rebuilds it from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.tables.budget import Ticket
    from bot.tables.panels import OpenPanel


@dataclass
class PictureState:
    """The public table message's update state (:mod:`bot.tables.public`)."""

    dirty: bool = False
    """A change has not been drawn yet."""
    repost: bool = False
    """The next update posts a new message at the bottom of the channel (and deletes the old one)."""
    last_edit: float = -1e9
    """When (loop time) the message was last updated: the edit window counts from there."""
    priority: int = 99
    """The most urgent reason the picture is stale (:mod:`bot.tables.budget`: a member to act, a member's move,
    bots' moves); 99 when nothing is pending."""
    age: int | None = None
    """When (an :meth:`~bot.tables.budget.EditBudget.age`) the picture became that urgent: its place in the budget's
    queue counts from then."""
    updater: asyncio.Task[None] | None = None
    failures: int = 0
    """Updates that failed in a row (each is tried again, later each time)."""
    ticket: Ticket | None = None
    """The picture's place in the budget while it waits for its turn (promoted when a member moves meanwhile)."""
    shown_serial: int = -1
    """The engine serial of the state the message last showed (or tried to: a failed edit does not hold bots up)."""

    def pending(self, priority: int, age: int | None) -> None:
        """A reason to draw again, this urgent since ``age``: the most urgent reason counts, from its oldest age."""
        if priority < self.priority:
            self.priority, self.age = priority, age
        elif priority == self.priority and age is not None and (self.age is None or age < self.age):
            self.age = age

    def showed(self, serial: int) -> None:
        self.shown_serial = max(self.shown_serial, serial)


@dataclass
class PanelFollow:
    """The open private panels of a table and the task that keeps them current (:mod:`bot.tables.panels`)."""

    open: dict[int, OpenPanel] = field(default_factory=dict)
    """Each seat's latest panel, by seat."""
    again: bool = False
    """Something changed while the follower was drawing: go round once more."""
    follower: asyncio.Task[None] | None = None
    notes: dict[int, str] = field(default_factory=dict)
    """Per seat, a line every drawing of their panel carries until their next press is answered: a press that did
    nothing (a double click) says so, and a panel redrawn by the follower keeps saying it."""
    noted_press: dict[int, int] = field(default_factory=dict)
    """Per seat, the interaction id of the press its note is about: only a press made after it clears the note."""


@dataclass
class TableRuntime:
    picture: PictureState = field(default_factory=PictureState)
    panels: PanelFollow = field(default_factory=PanelFollow)
    mover: asyncio.Task[None] | None = None
    """Moves for bots and away members (:mod:`bot.tables.autoplay`)."""
    timer: asyncio.Task[None] | None = None
    """The turn timer of the members to act."""
    lobby_timer: asyncio.Task[None] | None = None
    """The lobby's expiry."""
    results: asyncio.Task[Any] | None = None
    """The results message being posted: the next table message goes below it."""
    kept_messages: set[int] = field(default_factory=set)
    """Old table messages that became a deal's results: the next table message is posted below and they stay."""
    deal_pause_from: int | None = None
    """The engine serial at which a deal was settled: the next deal's first bot move waits a little longer, so people
    can read the results and the last trick (:mod:`bot.tables.autoplay`)."""

    def stop_play(self) -> None:
        """Stop the tasks that move the table on (bots, timers, the lobby's expiry); not the current task."""
        for name in ("mover", "timer", "lobby_timer"):
            _cancel(getattr(self, name))
            setattr(self, name, None)

    def stop_all(self) -> None:
        """Stop every task of the table (it is no longer this process's, or the bot shuts down). A results message
        under way is left to finish: it is owed to the channel whoever drives the table."""
        self.stop_play()
        _cancel(self.picture.updater)
        self.picture.updater = None
        _cancel(self.panels.follower)
        self.panels.follower = None


def _cancel(task: asyncio.Task[Any] | None) -> None:
    if task is None or task.done():
        return
    with contextlib.suppress(RuntimeError):  # no running loop (a shutdown after the loop closed)
        if task is asyncio.current_task():
            return
    task.cancel()
