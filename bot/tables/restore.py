"""After a restart: every open table is back at once, its engine rebuilt on first use or in the background.

Start-up reads the table index (one query: tables and seats) and registers a session for each; lobbies get
their expiry timers back. Playing tables are rebuilt from their restart point (the last settled deal's
snapshot and the log since, so one deal's replay however old the table) in the background, a few at a time,
and at once for a table someone presses a button on. Once rebuilt, a table's timers, bots, owed results and
open panels carry on; its picture is redrawn through the usual updater, within the edit budget, so a
thousand tables do not flood the channel API at start-up.

The same path brings a table back after the database was unreachable (a PostgreSQL restart): the table drops
its engine rather than run ahead of what was stored, refuses moves with a clear message meanwhile, and is
rebuilt every few seconds (or at the next click) once the database answers.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from discord.ext import tasks

from bot.errors import UserError
from bot.storage import StorageUnavailable
from bot.tables.session import Outcome, SeatInfo, TableSession
from games.registry import get_game

if TYPE_CHECKING:
    from bot.tables.manager import TableManager

log = logging.getLogger(__name__)

BACKGROUND_BATCH = 8
"""Tables rebuilt between two yields to the event loop."""

REVIVE_SECONDS = 5.0
"""How often a table left without its engine (the database was away) tries to be rebuilt."""


class Restorer:
    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self._task: asyncio.Task[None] | None = None
        self._to_revive: set[int] = set()
        self._reviver = tasks.loop(seconds=REVIVE_SECONDS)(self._revive_all)

    async def restore(self) -> None:
        """Register every open table; rebuild the playing ones in the background."""
        playing: list[TableSession] = []
        for row in await self.m.db.list_active_tables():
            try:
                spec = get_game(row.game)
                rules = spec.rules_model.model_validate(row.rules)
            except Exception:
                log.exception("table %s cannot be restored (unknown game or rules)", row.id)
                continue
            seats = [SeatInfo(s.user_id, s.name, bot=s.is_bot, away=s.away) for s in row.seats]
            session = TableSession(id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, game=row.game,
                                   host_id=row.host_id, rules=rules, stake=row.stake, buy_in=row.buy_in,
                                   practice=row.practice, lang=row.lang, status=row.status, seats=seats,
                                   message_id=row.message_id, message_created_at=row.message_created_at or 0.0)
            self.m.tables[session.id] = session
            if row.status == "lobby":
                self.m.lobby.arm_expiry(session)
            else:
                playing.append(session)
        self._task = asyncio.create_task(self._load_all(playing))

    def revive(self, session: TableSession) -> None:
        """Rebuild a table left without its engine (its write found the database away) once the database
        answers: tried every few seconds, so a table of only bots and away players, which nobody clicks,
        carries on by itself. A click meanwhile rebuilds it at once."""
        if session.status != "playing" or session.engine is not None:
            return
        self._to_revive.add(session.id)
        if not self._reviver.is_running():
            self._reviver.start()

    async def _revive_all(self) -> None:
        if self._reviver.current_loop == 0:
            return  # the loop runs at once when started; the first try waits one interval
        for table_id in sorted(self._to_revive):
            session = self.m.tables.get(table_id)
            if session is None or session.status != "playing" or session.engine is not None:
                self._to_revive.discard(table_id)
                continue
            try:
                await self.ensure(session)
            except UserError:
                return  # the database is still away: try them all again at the next interval
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
            self._to_revive.discard(table_id)
        if not self._to_revive:
            self._reviver.stop()

    async def _load_all(self, sessions: list[TableSession]) -> None:
        for index, session in enumerate(sessions):
            if session.id in self.m.tables and session.engine is None and session.status == "playing":
                try:
                    await self.ensure(session)
                except Exception:
                    log.exception("table %s could not be rebuilt", session.id)
            if index % BACKGROUND_BATCH == BACKGROUND_BATCH - 1:
                await asyncio.sleep(0)
        await self.m.results.retry()  # results owed from before the restart (tables since ended included)

    async def ensure(self, session: TableSession) -> None:
        """Rebuild the table now (or wait for the rebuild already under way)."""
        if session.engine is not None or session.status != "playing":
            return
        if session.loading is None:
            session.loading = asyncio.create_task(self._load(session))
        await asyncio.shield(session.loading)

    async def _load(self, session: TableSession) -> None:
        try:
            async with session.lock:
                settled = await session.load(self.m.db)
        except StorageUnavailable:
            # Not the record's fault: the database is away. The table stays as it is and is rebuilt once the
            # database answers again (the next click, or :meth:`revive`).
            log.warning("table %s: the database is unavailable; rebuilding it later", session.id)
            self.revive(session)
            raise UserError("storage.unavailable") from None
        except Exception:
            log.exception("table %s could not be rebuilt from its record", session.id)
            session.status = "broken"
            raise
        finally:
            session.loading = None
        await self.m.after(session, Outcome(None, None, settled=settled), restored=True)
        await self.m.panels.adopt_stored(session)

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._reviver.cancel()
