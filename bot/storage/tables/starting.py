"""Starting a table (lobby → playing, with its opening record and first log rows), and the table row's stored record
and public message."""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from bot.storage.errors import StorageError
from bot.storage.models import LogEntry, Table
from bot.storage.tables.base import TableBase, _log_rows, _no_table
from bot.storage.tx import Exec


class StartOps(TableBase):
    async def start_table(self, table_id: int, *, record: str | None = None, entries: Sequence[LogEntry] = ()) -> Table:
        """Lobby → playing. Seat positions are renumbered 0..n-1 in order: they are the engine's seat indices.

        ``record`` is the opening record (JSON, without shuffles or actions) and ``entries`` the log rows of
        the steps the engine made by itself as the table opened (the first shuffles)."""
        log = _log_rows(table_id, entries) if entries else None

        async def tx(now: float) -> Table:
            table = await self._driven(table_id, now, "lobby")
            # Ascending order never collides: each seat moves down into a position already vacated.
            for index, seat in enumerate(table.seats):
                if seat.position != index:
                    await Exec("UPDATE seats SET position = ? WHERE id = ?", (index, seat.id))
            await Exec(
                "UPDATE tables SET status = 'playing', record = coalesce(?, record), opening = coalesce(?, opening),"
                " checkpoint_seq = 0, updated_at = ?, turn_started_at = ? WHERE id = ?",
                (record, record, now, now, table_id),
            )
            if log is not None:
                await log
            return await self._table_row(table_id)

        return await self._transaction(tx)

    async def save_record(
        self,
        table_id: int,
        record: str,
        *,
        message_id: int | None = None,
        message_created_at: float | None = None,
    ) -> None:
        """Store the table record (JSON text) after an action, and the public message if it was (re)posted."""

        async def tx(now: float) -> None:
            changed = await Exec(
                "UPDATE tables SET record = ?, message_id = coalesce(?, message_id),"
                " message_created_at = coalesce(?, message_created_at), updated_at = ? WHERE id = ?",
                (record, message_id, message_created_at, now, table_id),
            )
            if not changed:
                raise _no_table(table_id)
            await self._fence(table_id, now)  # (rolls the update back if the table is another process's)

        await self._transaction(tx)

    async def set_message(self, table_id: int, message_id: int | None, created_at: float) -> None:
        """Remember the table's public message (after posting or reposting it; None: the next update posts one)."""

        async def tx(now: float) -> None:
            changed = await Exec(
                "UPDATE tables SET message_id = ?, message_created_at = ?, updated_at = ? WHERE id = ?",
                (message_id, created_at, now, table_id),
            )
            if not changed:
                raise _no_table(table_id)
            await self._fence(table_id, now)  # (rolls the update back if the table is another process's)

        await self._transaction(tx)

    async def set_place(self, table_id: int, channel_id: int) -> None:
        """Name the channel (a thread made for it) a lobby lives in, once it exists; :class:`StorageError`
        ``storage.channel_busy`` if that channel has an active table already."""

        async def tx(now: float) -> None:
            await self._check_driven(table_id, now, "lobby")
            busy = await self._active_id_in(channel_id)
            if busy is not None and busy != table_id:
                raise StorageError(
                    "storage.channel_busy", f"channel {channel_id} already has table {busy}", table_id=busy
                )
            await Exec("UPDATE tables SET channel_id = ?, updated_at = ? WHERE id = ?", (channel_id, now, table_id))

        await self._transaction(tx)

    async def set_pinged(self, table_id: int, pinged: Mapping[int, int]) -> None:
        """Remember which decision each seat's member was last mentioned for (a correspondence table's pings)."""
        text = json.dumps({str(k): int(v) for k, v in pinged.items()}, separators=(",", ":"))

        async def tx(now: float) -> None:
            changed = await Exec("UPDATE tables SET pinged = ? WHERE id = ?", (text, table_id))
            if not changed:
                raise _no_table(table_id)
            await self._fence(table_id, now)  # (rolls the update back if the table is another process's)

        await self._transaction(tx)
