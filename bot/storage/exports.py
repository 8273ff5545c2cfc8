"""Reads for ``/export`` (:mod:`bot.cogs.export`), a page at a time: an export never holds a server's whole ledger
or hand history in memory, only the page it is writing.

:class:`ExportQueries` wraps a :class:`~bot.storage.Database` (its reads) as :mod:`bot.storage.replays` does. Each
method is one read (one committed state), index-backed:

* the ledger: a server's movements in a period, oldest first, by ``(created_at, id)`` from ``movements_guild``, each
  with all of its legs (``ledger_movement``), so every page, and so every file, holds whole movements whose legs sum
  to zero;
* the tables whose deals an export walks: a server's tables by id, or a member's (``seats_user``), with their seats
  and how far their details were dropped (``details_purged_to``, :mod:`bot.storage.retention`);
* a table's settled deals in a period, by deal number (``hand_history``'s ``(table_id, deal_no)`` key);
* what replaying a run of a table's deals reads (:class:`Walk`): the nearest kept start at or before the first, the
  starts kept within the run, and the log from there to the end of the last deal, along the log's primary key.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.storage.models import HandRecord, LogEntry, Seat, Table
from bot.storage.tables.base import _seat, _table
from bot.storage.tx import All, One, Row

if TYPE_CHECKING:
    from bot.storage.core import Core

LOG_CHUNK = 1000
"""Log rows read at a time while looking for the end of a run of deals."""
MAX_PAGE = 1000


@dataclass(frozen=True)
class LedgerLeg:
    """One leg of a movement, with its movement: ``user_id`` is the wallet's member (or the seated member on a seat
    leg), ``bot`` the bot's name on a bot's seat leg; the movement's ``table_id`` is the pot's table on a pot leg."""

    movement_id: int
    created_at: float
    reason: str
    key: str
    note: str | None
    actor_id: int | None
    table_id: int | None
    account: str
    user_id: int | None
    seat_id: int | None
    bot: str | None
    delta: int


@dataclass(frozen=True)
class LedgerPage:
    legs: tuple[LedgerLeg, ...]
    movements: int
    """How many movements the page holds (a practice table's movements have no legs)."""
    cursor: tuple[float, int] | None
    """Where the next page begins (the last movement's ``(created_at, id)``); None when this was the last."""


@dataclass(frozen=True)
class ExportTable:
    table: Table
    purged_to: int
    """The last deal whose details are no longer kept (0: all are)."""


@dataclass(frozen=True)
class Walk:
    """What replaying a run of one table's settled deals reads: ``origin`` (a record JSON: the nearest kept start at
    or before the first deal, else the table's opening; a table stored before the log has its whole record here and
    no ``rows``), the last log row it includes and its deal (0: the opening), the starts kept for deals after it up to
    the last of the run ``{deal: (seq, record JSON)}``, and the log rows after ``origin_seq`` to the end of the last
    deal (and the shuffles the move that ended it made)."""

    origin: str
    origin_seq: int
    origin_deal: int
    starts: dict[int, tuple[int, str]]
    rows: tuple[LogEntry, ...]
    legacy: bool


def _marks(n: int) -> str:
    return ", ".join("?" * n)


def _hand(row: Row) -> HandRecord:
    return HandRecord(
        id=row["id"],
        table_id=row["table_id"],
        guild_id=row["guild_id"],
        game=row["game"],
        deal_no=row["deal_no"],
        deltas=tuple(json.loads(row["deltas"])),
        summary=json.loads(row["summary"]),
        created_at=row["created_at"],
        posted=bool(row["posted"]),
    )


def _period(column: str, since: float | None, until: float | None) -> tuple[str, list[float]]:
    where, params = "", []
    if since is not None:
        where += f" AND {column} >= ?"
        params.append(float(since))
    if until is not None:
        where += f" AND {column} < ?"
        params.append(float(until))
    return where, params


class ExportQueries:
    def __init__(self, db: Core) -> None:
        self.db = db

    # ------------------------------------------------------------------ the ledger

    async def ledger_page(
        self,
        guild_id: int,
        *,
        since: float | None = None,
        until: float | None = None,
        after: tuple[float, int] | None = None,
        limit: int = 500,
    ) -> LedgerPage:
        """Up to ``limit`` of the server's movements made in ``[since, until)``, oldest first, after the movement
        ``after`` (``(created_at, id)`` of the last one read), each with every leg."""
        limit = max(1, min(limit, MAX_PAGE))
        period, params = _period("created_at", since, until)
        where = f"guild_id = ?{period}"
        args: list[object] = [guild_id, *params]
        if after is not None:
            where += " AND (created_at > ? OR (created_at = ? AND id > ?))"
            args += [float(after[0]), float(after[0]), after[1]]
        sql = (
            "SELECT id, created_at, reason, idem_key, note, actor_id, table_id FROM movements"
            f" WHERE {where} ORDER BY created_at, id LIMIT ?"
        )

        async def read() -> LedgerPage:
            movements = await All(sql, (*args, limit))
            if not movements:
                return LedgerPage((), 0, None)
            ids = [m["id"] for m in movements]
            legs = await All(
                "SELECT l.movement_id, l.account, l.user_id, l.seat_id, l.delta, s.bot_name FROM ledger l"
                f" LEFT JOIN seats s ON s.id = l.seat_id WHERE l.movement_id IN ({_marks(len(ids))})"
                " ORDER BY l.movement_id, l.id",
                ids,
            )
            by_movement: dict[int, list[Row]] = {}
            for leg in legs:
                by_movement.setdefault(leg["movement_id"], []).append(leg)
            out = tuple(
                LedgerLeg(
                    movement_id=m["id"],
                    created_at=float(m["created_at"]),
                    reason=m["reason"],
                    key=m["idem_key"],
                    note=m["note"],
                    actor_id=m["actor_id"],
                    table_id=m["table_id"],
                    account=leg["account"],
                    user_id=leg["user_id"],
                    seat_id=leg["seat_id"],
                    bot=leg["bot_name"],
                    delta=int(leg["delta"]),
                )
                for m in movements
                for leg in by_movement.get(m["id"], ())
            )
            last = movements[-1]
            cursor = (float(last["created_at"]), int(last["id"])) if len(movements) == limit else None
            return LedgerPage(out, len(movements), cursor)

        return await self.db._read(read)

    # ------------------------------------------------------------------ tables and their deals

    async def tables_page(
        self, guild_id: int, *, after: int = 0, limit: int = 50, member: int | None = None
    ) -> list[ExportTable]:
        """The server's tables after table ``after`` that began play, by id, with their seats; ``member``: only the
        tables where that member sat for the game."""
        limit = max(1, min(limit, MAX_PAGE))
        if member is None:
            sql = (
                "SELECT t.* FROM tables t WHERE t.guild_id = ? AND t.id > ? AND t.status <> 'lobby'"
                " ORDER BY t.id LIMIT ?"
            )
            args: tuple[object, ...] = (guild_id, after, limit)
        else:
            sql = (
                "SELECT t.* FROM seats s JOIN tables t ON t.id = s.table_id WHERE s.user_id = ? AND s.left_at IS NULL"
                " AND s.table_id > ? AND t.guild_id = ? AND t.status <> 'lobby' ORDER BY s.table_id LIMIT ?"
            )
            args = (member, after, guild_id, limit)

        async def read() -> list[ExportTable]:
            rows = await All(sql, args)
            if not rows:
                return []
            ids = [r["id"] for r in rows]
            seat_rows = await All(
                f"SELECT * FROM seats WHERE table_id IN ({_marks(len(ids))}) AND left_at IS NULL"
                " ORDER BY table_id, position",
                ids,
            )
            seats: dict[int, list[Seat]] = {}
            for s in seat_rows:
                seats.setdefault(s["table_id"], []).append(_seat(s))
            return [ExportTable(_table(r, seats.get(r["id"], [])), int(r["details_purged_to"])) for r in rows]

        return await self.db._read(read)

    async def hands_page(
        self,
        table_id: int,
        *,
        since: float | None = None,
        until: float | None = None,
        after_deal: int = 0,
        limit: int = 50,
    ) -> list[HandRecord]:
        """Up to ``limit`` of the table's deals settled in ``[since, until)``, after deal ``after_deal``, in order."""
        limit = max(1, min(limit, MAX_PAGE))
        period, params = _period("created_at", since, until)
        rows = await self.db._read(
            lambda: All(
                f"SELECT * FROM hand_history WHERE table_id = ? AND deal_no > ?{period} ORDER BY deal_no LIMIT ?",
                (table_id, after_deal, *params, limit),
            )
        )
        return [_hand(r) for r in rows]

    async def walk(self, table: Table, first: int, last: int) -> Walk:
        """What replaying the table's deals ``first`` to ``last`` reads (see :class:`Walk`)."""

        async def read() -> Walk:
            if table.opening is None:
                whole = await One("SELECT record FROM tables WHERE id = ?", (table.id,))
                return Walk(str(whole["record"]) if whole else "{}", 0, 0, {}, (), True)
            start = await One(
                "SELECT deal_no, seq, record FROM deal_starts WHERE table_id = ? AND deal_no <= ?"
                " ORDER BY deal_no DESC LIMIT 1",
                (table.id, first),
            )
            if start is not None:
                origin, origin_seq, origin_deal = str(start["record"]), int(start["seq"]), int(start["deal_no"])
            else:
                opening = await One("SELECT opening FROM tables WHERE id = ?", (table.id,))
                origin, origin_seq, origin_deal = str(opening["opening"]) if opening else "{}", 0, 0
            kept = await All(
                "SELECT deal_no, seq, record FROM deal_starts WHERE table_id = ? AND deal_no > ? AND deal_no <= ?"
                " ORDER BY deal_no",
                (table.id, origin_deal, last),
            )
            rows = await self._to_end_of(table.id, origin_seq, last)
            entries = tuple(LogEntry(r["seq"], r["kind"], r["body"], r["seat"], r["deal"]) for r in rows)
            starts = {int(k["deal_no"]): (int(k["seq"]), str(k["record"])) for k in kept}
            return Walk(origin, origin_seq, origin_deal, starts, entries, False)

        return await self.db._read(read)

    async def _to_end_of(self, table_id: int, after: int, deal_no: int) -> list[Row]:
        """The log rows after ``after`` to the end of ``deal_no``: on to the first shuffle of a later deal and the
        shuffles right after it (the move that ended the deal made them), a chunk at a time (inside a read)."""
        rows: list[Row] = []
        next_deal = False
        while True:
            chunk = await All(
                "SELECT seq, kind, seat, deal, body FROM table_log WHERE table_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                (table_id, after, LOG_CHUNK),
            )
            for row in chunk:
                shuffle_after = row["kind"] == "shuffle" and row["deal"] > deal_no
                if next_deal and not shuffle_after:
                    return rows
                next_deal = next_deal or shuffle_after
                rows.append(row)
            if len(chunk) < LOG_CHUNK:
                return rows
            after = chunk[-1]["seq"]
