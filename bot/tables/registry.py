"""The live tables of this process, by id: finding one, and letting one go (it ended, or another process has it)."""

from __future__ import annotations

import logging

from bot.errors import UserError
from bot.tables.session import TableSession

log = logging.getLogger(__name__)


class Registry:
    def __init__(self) -> None:
        self.tables: dict[int, TableSession] = {}
        self.waiting: set[int] = set()
        """Tables of this process's shards whose lease another process holds: taken up once it is free."""

    def add(self, session: TableSession) -> None:
        self.tables[session.id] = session

    def get(self, table_id: int) -> TableSession:
        session = self.tables.get(table_id)
        if session is None:
            if table_id in self.waiting:  # another process holds its lease (or held it, and stopped)
                raise UserError("storage.lease_waiting")
            raise UserError("table.gone")
        return session

    def in_channel(self, channel_id: int) -> TableSession | None:
        """The live table of a channel (or of a thread: a table's place)."""
        return next((s for s in self.tables.values() if s.channel_id == channel_id), None)

    def in_threads_of(self, channel_id: int) -> list[TableSession]:
        """The live tables in the threads of a channel, oldest first."""
        return sorted((s for s in self.tables.values() if s.parent_id == channel_id), key=lambda s: s.id)

    def forget(self, session: TableSession) -> None:
        """The table is over (or no longer this process's): stop what moves it on, and drop it."""
        if session.status in ("lobby", "playing"):
            session.status = "ended"
        session.runtime.stop_play()
        if self.tables.get(session.id) is session:
            del self.tables[session.id]

    def lost(self, session: TableSession) -> None:
        """The table is driven by another bot process now (this one lost its lease, :mod:`bot.storage.leases`):
        stop driving it (timers, bots, panels, picture), without a word to its channel, and wait to take it up again
        should its lease become free (the other process stopped)."""
        if self.tables.get(session.id) is not session:
            return
        log.warning("table %s: another bot process holds its lease now; this one stops driving it", session.id)
        session.engine = None
        self.forget(session)
        session.runtime.stop_all()
        self.waiting.add(session.id)
