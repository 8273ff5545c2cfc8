"""Bots and timers: bot players and away members move on their own, at a pace people can follow.

Each table with a seat to move for (a bot, or a member marked away) runs one mover task. The mover looks at
the table under its lock, works out the move with the game's policy **off the event loop** (on the bots' worker
pool: worker processes in production, so a slow policy holds neither the loop nor its interpreter lock) at the
seat's level (a bot's own, chosen when the host added it; the strong level for an away member) while it waits the
server's bot pace (so the previous move stays on the table long enough to be seen, and a search of a few tens of
milliseconds, or a short queue of them at a busy moment, adds nothing people can notice), and submits the
move through the table's ``commit`` like any click, for the seat's decision (refused if that changed meanwhile,
then it looks again). When the bots' pool is busy, strong bots search less (:func:`effort`): under load a bot plays
weaker, never later. Each move is its own commit, so each appears on the table one at a time. A table of only bots and
away members plays on to the end without anyone clicking, and no table's bots hold up another table.

The turn timer: when a member to act does nothing for the server's turn time (at a correspondence table, the
hours the host gave each decision), they are marked away (the policy plays for them from then on) until they press
"My hand" again. It counts from when the turn began as stored with the change that began it, so a correspondence
table's deadline survives a restart; a live table's timer starts afresh after one (nobody could act meanwhile).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.render import runner
from bot.render.runner import think
from bot.storage import LeaseLost
from bot.tables.play import Stale
from games.core.errors import GameError
from games.registry import STRONG, decide

Shown = Callable[..., Awaitable[None]]

if TYPE_CHECKING:
    from bot.tables.play import Play
    from bot.tables.session import SeatInfo, TableSession
    from bot.tables.settings import ServerSettings

log = logging.getLogger(__name__)

MAX_REFUSED = 3
"""A policy whose move is refused this many times in a row stops moving (and is logged): a bug, not a loop."""
SHOWN_WAIT_SECONDS = 10.0
"""The longest a bot waits for the table's message to show the move before its own (a slow or failing channel must
not stop the table)."""
FULL_EFFORT_WAITING = 6
"""Decisions waiting for each bots' worker (or being worked out there) up to which a strong bot searches with its whole
budget: then its decision is back well within the pace, which it is worked out during. Beyond, each searches less in
proportion (see :func:`effort`), down to :data:`LEAST_EFFORT`."""
LEAST_EFFORT = 0.1
DEAL_PAUSE_PACES = 3
"""After a deal is settled, the next deal's first bot move waits this many paces: time to read the results and see
the deal's last trick."""


def effort(waiting: int, workers: int) -> float:
    """The share of its search budget a strong bot spends when ``waiting`` calls are ahead of it on ``workers``
    workers: all of it while the queue is short; beyond, the queue's work is kept to what it was then (at a thousand
    busy tables of strong bots, the queue would otherwise grow until bots moved seconds late, see
    ``bench/bench_capacity.py``). A bot under load plays weaker, never late."""
    room = FULL_EFFORT_WAITING * max(1, workers)
    if waiting < room:
        return 1.0
    return max(LEAST_EFFORT, room / (waiting + 1))


def level_of(seat: SeatInfo) -> str:
    """The level that moves for a seat: a bot's own, chosen when it was added; the strong one for an away member."""
    return seat.level if seat.bot else STRONG


class Autoplay:
    def __init__(
        self,
        settings: ServerSettings,
        *,
        bot_pace: float | None,
        clock: Callable[[], float],
        shown: Shown | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock
        """Wall-clock seconds (the database's clock): a turn's deadline is stored as one."""
        self.shown = shown
        """Waits until a table's message shows a state (:meth:`bot.tables.public.PublicMessages.shown`)."""
        self.bot_pace = bot_pace
        """Seconds between bot moves for every table (tests); None: each server's ``bot_pace_ms``."""
        self._play: Play | None = None

    def attach(self, play: Play) -> None:
        """The play path the moves go through (built after this module: a move's follow-up wakes the bots)."""
        self._play = play

    @property
    def play(self) -> Play:
        assert self._play is not None, "Autoplay.attach(play) first"
        return self._play

    # ------------------------------------------------------------------ movers

    def wake(self, session: TableSession) -> None:
        """Start the table's mover if a bot or an away member must move and none is running."""
        engine = session.engine
        if session.status != "playing" or engine is None:
            return
        if not any(session.seats[s].autoplayed for s in engine.to_act()):
            return
        task = session.runtime.mover
        if task is not None and not task.done():
            return
        session.runtime.mover = asyncio.create_task(self._run(session))

    async def _pace(self, session: TableSession) -> float:
        if self.bot_pace is not None:
            return self.bot_pace
        config = await self.settings.get(session.guild_id)
        return float(config.bot_pace_ms) / 1000

    async def _wait_pace(self, session: TableSession, serial: int) -> None:
        """Wait the pace before a bot's move. It counts from when people could see the move before this one, not
        from when it was made: otherwise a burst of bot moves inside one edit window is never seen (a trick, a
        deal's end)."""
        pace = await self._pace(session)
        if pace <= 0:
            return
        if self.shown is not None:
            await self.shown(session, serial, at_most=SHOWN_WAIT_SECONDS)
        paused = session.runtime.deal_pause_from == serial
        await asyncio.sleep(pace * (DEAL_PAUSE_PACES if paused else 1))

    async def _run(self, session: TableSession) -> None:
        refused = 0
        while True:
            async with session.lock:
                engine = session.engine
                if session.status != "playing" or engine is None:
                    return
                movers = [s for s in sorted(engine.to_act()) if session.seats[s].autoplayed]
                if not movers:
                    return
                seat = movers[0]
                view, legal, serial = engine.view(seat), engine.legal_actions(seat), engine.serial
                decision, level = engine.decision_id(seat), level_of(session.seats[seat])
            rng = random.Random(f"{session.id}:{serial}:{seat}")
            share = effort(*runner.thinking())
            deciding = asyncio.ensure_future(think(decide, session.game, level, view, legal, rng, share))
            try:
                await self._wait_pace(session, serial)
                action = await deciding
            finally:
                deciding.cancel()  # the table closed meanwhile: a decision not yet started is not worked out
            try:
                # Made for the seat's decision, like a member's click: another seat's move meanwhile (a placement
                # at the same time in OFC) leaves it standing if it is still legal, as it would a member's button,
                # so the search is not run again for nothing. Refused if the seat has moved on, or its member came
                # back.
                await self.play.move(session, seat, action, by_policy=True, decision=decision)
            except Stale:
                continue  # the seat's decision changed meanwhile (or its member came back): look again
            except LeaseLost:
                return  # another bot process drives the table now
            except UserError as error:
                log.warning("table %s: the bot move of seat %s was not saved (%s)", session.id, seat, error.key)
                if session.engine is None:
                    return  # the database is away: the table is rebuilt, and carries on, once it is back
                refused += 1
            except GameError as error:
                if session.engine is not None and session.engine.serial != serial:
                    continue  # another seat's move meanwhile made it illegal: look again
                log.error(
                    "table %s: the policy of seat %s chose a refused move %r: %s", session.id, seat, action.text, error
                )
                refused += 1
            else:
                refused = 0
            if refused >= MAX_REFUSED:
                log.error("table %s: bot moves keep being refused; stopping its mover", session.id)
                return

    # ------------------------------------------------------------------ the turn timer

    def arm_timer(self, session: TableSession) -> None:
        runtime = session.runtime
        old = runtime.timer
        runtime.timer = None
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        engine = session.engine
        if session.status != "playing" or engine is None or engine.is_over:
            return
        if not any(not session.seats[s].autoplayed for s in engine.to_act()):
            return
        runtime.timer = asyncio.create_task(self._timeout(session, engine.serial))

    async def turn_seconds(self, session: TableSession) -> int:
        """How long the members to act have: a correspondence table's hours, else the server's turn timer."""
        if session.turn_seconds:
            return session.turn_seconds
        config = await self.settings.get(session.guild_id)
        return config.turn_timer_seconds

    async def deadline(self, session: TableSession) -> float:
        """When (wall clock) the members to act are marked away: the turn began when its change was written."""
        started = session.turn_started_at if session.turn_started_at is not None else self.clock()
        return started + await self.turn_seconds(session)

    async def _timeout(self, session: TableSession, serial: int) -> None:
        # Counted from the stored start of the turn, not from now: a restart (or another process taking the table
        # over) keeps a correspondence table's deadline.
        await asyncio.sleep(max(0.0, await self.deadline(session) - self.clock()))
        engine = session.engine
        if session.status != "playing" or engine is None or engine.serial != serial:
            return
        idle = [s for s in sorted(engine.to_act()) if not session.seats[s].autoplayed]
        try:
            await self.play.away(session, idle, expect_serial=serial)
        except (UserError, LeaseLost):
            # Someone moved just now (their move re-armed the timer), the table is another process's now, or the
            # database is away (the table is rebuilt once it is back): nothing more to do here.
            return
