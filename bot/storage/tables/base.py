"""What every table operation stands on: rows made into :mod:`~bot.storage.models` records, reading a table inside a
transaction, and the fenced read that every write changing a table starts with (:meth:`TableBase._driven`).

Also the public reads of tables: :meth:`~TableBase.get_table`, :meth:`~TableBase.active_table_in`,
:meth:`~TableBase.list_active_tables`.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.storage.core import Core, Leg
from bot.storage.errors import InvalidState, NotFound
from bot.storage.models import LogEntry, Seat, Table, TableStatus
from bot.storage.tx import All, Many, One, Row, Scalar


def _seat(row: Row) -> Seat:
    return Seat(
        id=row["id"],
        table_id=row["table_id"],
        position=row["position"],
        user_id=row["user_id"],
        bot_name=row["bot_name"],
        stack=row["stack"],
        buy_in=row["buy_in"],
        away=bool(row["away"]),
        joined_at=row["joined_at"],
        display_name=row["display_name"],
        bot_level=row["bot_level"],
    )


def _table(row: Row, seats: Sequence[Seat]) -> Table:
    return Table(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        host_id=row["host_id"],
        status=row["status"],
        stake=row["stake"],
        buy_in=row["buy_in"],
        rules=json.loads(row["rules"]),
        practice=bool(row["practice"]),
        message_id=row["message_id"],
        message_created_at=row["message_created_at"],
        record=row["record"],
        lang=row["lang"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        seats=tuple(seats),
        opening=row["opening"],
        checkpoint_seq=row["checkpoint_seq"],
        pot=row["pot"],
        parent_id=row["parent_id"],
        pace=row["pace"],
        turn_seconds=row["turn_seconds"],
        turn_started_at=row["turn_started_at"],
        pinged={int(k): int(v) for k, v in json.loads(row["pinged"] or "{}").items()},
        deal_limit=row["deal_limit"],
    )


def _check_status(table_id: int, status: TableStatus, statuses: tuple[TableStatus, ...]) -> None:
    if status not in statuses:
        raise InvalidState(
            "storage.table_not_active",
            f"table {table_id} is {status}, not {' or '.join(statuses)}",
            table_id=table_id,
            status=status,
            expected=statuses,
        )


def _no_table(table_id: int) -> NotFound:
    return NotFound("storage.no_table", f"no table {table_id}", table_id=table_id)


def _log_rows(table_id: int, entries: Sequence[LogEntry]) -> Many:
    return Many(
        "INSERT INTO table_log (table_id, seq, kind, seat, deal, body) VALUES (?, ?, ?, ?, ?, ?)",
        [(table_id, e.seq, e.kind, e.seat, e.deal, e.body) for e in entries],
    )


class TableBase(Core):
    """The pieces shared by the table operations (each module of :mod:`bot.storage.tables` adds a mixin on top)."""

    # ------------------------------------------------------------------ reading, inside a transaction or read

    async def _table_row(self, table_id: int) -> Table:
        """The table with its current seats, or :class:`NotFound` (inside a transaction or read)."""
        row = await One("SELECT * FROM tables WHERE id = ?", (table_id,))
        if row is None:
            raise _no_table(table_id)
        seats = await All("SELECT * FROM seats WHERE table_id = ? AND left_at IS NULL ORDER BY position", (table_id,))
        return _table(row, [_seat(s) for s in seats])

    async def _active_id_in(self, channel_id: int) -> int | None:
        table_id: int | None = await Scalar(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')", (channel_id,)
        )
        return table_id

    async def _driven(self, table_id: int, now: float, *statuses: TableStatus) -> Table:
        """The table with its current seats, if it is in one of ``statuses`` and this process holds its lease (the
        fencing check, :meth:`Core._fence`); the lease is read with the table's row (no round trip of its own).
        The first step of every write that changes a table (inside its transaction)."""
        row = await One(
            "SELECT t.*, l.owner AS lease_owner FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id"
            " WHERE t.id = ?",
            (table_id,),
        )
        if row is None:
            raise _no_table(table_id)
        _check_status(table_id, row["status"], statuses)
        seats = await All("SELECT * FROM seats WHERE table_id = ? AND left_at IS NULL ORDER BY position", (table_id,))
        await self._hold(table_id, row["lease_owner"], now)
        return _table(row, [_seat(s) for s in seats])

    async def _check_driven(self, table_id: int, now: float, *statuses: TableStatus) -> None:
        """The checks of :meth:`_driven` without reading the table's record and seats (a plain move needs neither),
        in one lookup: the table's status and its lease's owner."""
        row = await One(
            "SELECT t.status, l.owner FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id WHERE t.id = ?",
            (table_id,),
        )
        if row is None:
            raise _no_table(table_id)
        _check_status(table_id, row[0], statuses)
        await self._hold(table_id, row[1], now)

    @staticmethod
    def _return_legs(seat: Seat) -> list[Leg]:
        """The legs paying a seat's whole stack back to its wallet (or the house, for a bot)."""
        back = Leg("wallet", seat.stack, user_id=seat.user_id) if seat.user_id is not None else Leg("house", seat.stack)
        return [Leg("seat", -seat.stack, user_id=seat.user_id, seat_id=seat.id), back]

    # ------------------------------------------------------------------ public reads

    async def get_table(self, table_id: int) -> Table | None:
        """The table and its seats, or None."""

        async def read() -> Table | None:
            try:
                return await self._table_row(table_id)
            except NotFound:
                return None

        return await self._read(read)

    async def active_table_in(self, channel_id: int) -> Table | None:
        """The lobby or playing table in a channel, if any."""

        async def read() -> Table | None:
            table_id = await self._active_id_in(channel_id)
            return None if table_id is None else await self._table_row(table_id)

        return await self._read(read)

    async def list_active_tables(self, guild_id: int | None = None) -> list[Table]:
        """Every lobby or playing table (of one guild, or all: what a restart resumes)."""
        where = "status IN ('lobby', 'playing')" + ("" if guild_id is None else " AND guild_id = ?")
        params = () if guild_id is None else (guild_id,)

        async def read() -> tuple[list[Row], list[Row]]:
            rows = await All(f"SELECT * FROM tables WHERE {where} ORDER BY id", params)
            seats = await All(
                "SELECT s.* FROM seats s JOIN tables t ON t.id = s.table_id"
                f" WHERE s.left_at IS NULL AND t.{where} ORDER BY s.table_id, s.position",
                params,
            )
            return rows, seats

        rows, seats = await self._read(read)
        by_table: dict[int, list[Seat]] = {}
        for s in seats:
            by_table.setdefault(s["table_id"], []).append(_seat(s))
        return [_table(row, by_table.get(row["id"], [])) for row in rows]
