"""After a restart: every open table is back at once, its engine rebuilt on first use or in the background.

Start-up reads the table index (one query: tables and seats) and registers a session for each; lobbies get
their expiry timers back. Playing tables are rebuilt from their restart point (the last settled deal's
snapshot and the log since, so one deal's replay however old the table) in the background, a few at a time,
and at once for a table someone presses a button on. Once rebuilt, a table's timers, bots, owed results and
open panels carry on; its picture is redrawn through the usual updater, within the edit budget, so a
thousand tables do not flood the channel API at start-up.

Several processes may share one database, each connecting some of the bot's Discord shards (:mod:`bot.shards`):
a process restores only the tables of its shards' guilds, and only those whose lease it takes
(:mod:`bot.storage.leases`): a table another process holds (two processes configured with the same shards, or the
old lease of a process that was killed and has not run out yet) waits, and is taken up once its lease is free.
The leases of the tables this process drives are renewed every few seconds, in one statement; a table whose lease
was lost (this process was paused past its end, and another took the table) is forgotten at once, without a word
to its channel (the other process runs it now). A write refused for the same reason does the same.

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
from bot.storage import LeaseLost, StorageUnavailable, Table
from bot.tables.session import TableSession
from games.registry import get_game

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.storage import Database
    from bot.tables.background import Background
    from bot.tables.lobby import Lobby
    from bot.tables.panels import Panels
    from bot.tables.play import Play
    from bot.tables.registry import Registry
    from bot.tables.results import Results

log = logging.getLogger(__name__)

BACKGROUND_BATCH = 8
"""Tables rebuilt between two yields to the event loop."""

REVIVE_SECONDS = 5.0
"""How often a table left without its engine (the database was away) tries to be rebuilt."""

LEASE_RENEW_SECONDS = 10.0
"""How often this process renews its tables' leases (a lease lasts ``db.lease_seconds``, 30 s by default) and tries
again to take the tables it is waiting for."""


class Restorer:
    def __init__(
        self,
        db: Database,
        registry: Registry,
        *,
        owns: Callable[[int], bool],
        lobby: Lobby,
        panels: Panels,
        results: Results,
        background: Background,
    ) -> None:
        self.db = db
        self.registry = registry
        self.owns = owns
        self.lobby = lobby
        self.panels = panels
        self.results = results
        self.background = background
        self._play: Play | None = None
        self._task: asyncio.Task[None] | None = None
        self._to_revive: set[int] = set()
        self._reviver = tasks.loop(seconds=REVIVE_SECONDS)(self._revive_all)
        self._keeper = tasks.loop(seconds=LEASE_RENEW_SECONDS)(self._keep_leases)

    def attach(self, play: Play) -> None:
        """The play path a rebuilt table's follow-up goes through."""
        self._play = play

    @property
    def waiting(self) -> set[int]:
        """Tables of this process's shards whose lease another process holds: taken up once it is free."""
        return self.registry.waiting

    async def restore(self) -> None:
        """Register every open table of this process's shards whose lease it takes; rebuild the playing ones in the
        background. The leases are renewed from then on."""
        rows = [row for row in await self.db.list_active_tables() if self.owns(row.guild_id)]
        playing = await self._adopt(rows)
        self._task = asyncio.create_task(self._load_all(playing))
        if not self._keeper.is_running():
            self._keeper.start()

    async def _adopt(self, rows: list[Table]) -> list[TableSession]:
        """Take the leases of these tables and register those taken (lobbies get their expiry timers back);
        returns the playing ones, to rebuild. The others wait for their lease."""
        held = await self.db.acquire_leases(row.id for row in rows)
        playing: list[TableSession] = []
        for row in rows:
            if row.id not in held:
                if row.id not in self.waiting:
                    log.warning("table %s is run by another bot process (it holds its lease); waiting for it", row.id)
                self.waiting.add(row.id)
                continue
            self.waiting.discard(row.id)
            if row.id in self.registry.tables:
                continue
            try:
                spec = get_game(row.game)
                rules = spec.rules_model.model_validate(row.rules)
            except Exception:
                log.exception("table %s cannot be restored (unknown game or rules)", row.id)
                continue
            session = TableSession.from_row(row, rules)
            if row.status == "lobby" and row.channel_id < 0:
                # Opened for a thread that was never made (the process stopped in between): nobody can see it.
                self.background.spawn(self.lobby.abandon(session), f"cancelling unplaced lobby {row.id}")
                continue
            self.registry.add(session)
            if row.status == "lobby":
                self.lobby.arm_expiry(session)
            else:
                playing.append(session)
        return playing

    async def _keep_leases(self) -> None:
        if self._keeper.current_loop == 0:
            return  # the loop runs at once when started: restore has just taken the leases
        await self.keep_leases()

    async def keep_leases(self) -> None:
        """Renew this process's leases (one statement); forget the tables it no longer holds; take up the tables
        waiting for their lease if it is free now. Every ``LEASE_RENEW_SECONDS``."""
        driven = [s for s in self.registry.tables.values() if s.status in ("lobby", "playing")]
        try:
            held = await self.db.renew_leases()
            for session in driven:
                if (
                    session.id not in held
                    and self.registry.tables.get(session.id) is session
                    and session.status in ("lobby", "playing")
                ):
                    self.registry.lost(session)
            if self.waiting:
                rows = [row for row in await self.db.list_active_tables() if row.id in self.waiting]
                self.registry.waiting &= {row.id for row in rows}  # tables that ended meanwhile wait no more
                playing = await self._adopt(rows)
                for session in playing:
                    self.background.spawn(self.ensure(session), f"rebuilding table {session.id}")
        except StorageUnavailable as exc:
            log.warning("could not renew the table leases (%s); trying again in %.0f s", exc, LEASE_RENEW_SECONDS)
        except Exception:
            log.exception("renewing the table leases failed; trying again in %.0f s", LEASE_RENEW_SECONDS)

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
            session = self.registry.tables.get(table_id)
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
            if session.id in self.registry.tables and session.engine is None and session.status == "playing":
                try:
                    await self.ensure(session)
                except Exception:
                    log.exception("table %s could not be rebuilt", session.id)
            if index % BACKGROUND_BATCH == BACKGROUND_BATCH - 1:
                await asyncio.sleep(0)
        await self.results.retry()  # results owed from before the restart (tables since ended included)

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
                settled = await session.load(self.db)
        except LeaseLost:
            self.registry.lost(session)
            raise
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
        assert self._play is not None
        await self._play.restored(session, settled)
        await self.panels.adopt_stored(session)

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._reviver.cancel()
        self._keeper.cancel()
