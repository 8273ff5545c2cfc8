"""Bots and timers: bot players and away members move on their own, at a pace people can follow.

Each table with a seat to move for (a bot, or a member marked away) runs one mover task. The mover looks at
the table under its lock, works out the move with the game's policy **off the event loop** (on the worker
pool: a worker process in production, so a slow policy holds neither the loop nor its interpreter lock),
waits the server's bot pace so the previous move stays on the table long enough to be seen, and submits the
move through the table's ``commit`` like any click (refused if anything changed meanwhile, then it looks
again). Each move is its own commit, so each appears on the table one at a time. A table of only bots and
away members plays on to the end without anyone clicking, and no table's bots hold up another table.

The turn timer: when a member to act does nothing for the server's turn time, they are marked away (the
policy plays for them from then on) until they press "My hand" again.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.render.runner import off_loop
from bot.storage import LeaseLost
from games.core.errors import GameError

if TYPE_CHECKING:
    from bot.tables.manager import TableManager
    from bot.tables.session import TableSession

log = logging.getLogger(__name__)

MAX_REFUSED = 3
"""A policy whose move is refused this many times in a row stops moving (and is logged): a bug, not a loop."""


class Autoplay:
    def __init__(self, manager: TableManager) -> None:
        self.m = manager

    # ------------------------------------------------------------------ movers

    def wake(self, session: TableSession) -> None:
        """Start the table's mover if a bot or an away member must move and none is running."""
        engine = session.engine
        if session.status != "playing" or engine is None:
            return
        if not any(session.seats[s].autoplayed for s in engine.to_act()):
            return
        task = session.runtime.get("mover")
        if task is not None and not task.done():
            return
        session.runtime["mover"] = asyncio.create_task(self._run(session))

    async def _pace(self, session: TableSession) -> float:
        if self.m.bot_pace is not None:
            return self.m.bot_pace
        config = await self.m.config(session.guild_id)
        return float(config.bot_pace_ms) / 1000

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
            pace = await self._pace(session)
            if pace > 0:
                await asyncio.sleep(pace)
            rng = random.Random(f"{session.id}:{serial}:{seat}")
            action = await off_loop(session.spec.policy, view, legal, rng)
            try:
                outcome = await session.commit(self.m.db, seat, action, by_policy=True, expect_serial=serial)
            except LeaseLost:
                self.m.lost(session)  # another bot process drives the table now
                return
            except UserError as error:
                if error.key == "table.stale_decision":
                    continue  # someone moved meanwhile (or the seat came back): look again
                log.warning("table %s: the bot move of seat %s was not saved (%s)", session.id, seat, error.key)
                if session.engine is None:
                    self.m.restorer.revive(session)  # the database is away: the table carries on once it is back
                    return
                refused += 1
            except GameError as error:
                log.error(
                    "table %s: the policy of seat %s chose a refused move %r: %s", session.id, seat, action.text, error
                )
                refused += 1
            else:
                refused = 0
                await self.m.after(session, outcome)
            if refused >= MAX_REFUSED:
                log.error("table %s: bot moves keep being refused; stopping its mover", session.id)
                return

    # ------------------------------------------------------------------ the turn timer

    def arm_timer(self, session: TableSession) -> None:
        old = session.runtime.pop("timer", None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        engine = session.engine
        if session.status != "playing" or engine is None or engine.is_over:
            return
        if not any(not session.seats[s].autoplayed for s in engine.to_act()):
            return
        session.runtime["timer"] = asyncio.create_task(self._timeout(session, engine.serial))

    async def _timeout(self, session: TableSession, serial: int) -> None:
        config = await self.m.config(session.guild_id)
        await asyncio.sleep(config.turn_timer_seconds)
        engine = session.engine
        if session.status != "playing" or engine is None or engine.serial != serial:
            return
        idle = [s for s in sorted(engine.to_act()) if not session.seats[s].autoplayed]
        try:
            outcome = await session.mark_away(self.m.db, idle, expect_serial=serial)
        except LeaseLost:
            self.m.lost(session)
            return
        except UserError:
            self.m.restorer.revive(session)  # (only acts when the write found the database away)
            return  # or someone moved just now: their commit re-armed the timer
        await self.m.after(session, outcome)
