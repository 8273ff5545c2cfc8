"""Reads for ``/history`` and replays, and the deal starts replays keep (``deal_starts``, migration 0007).

:class:`HistoryQueries` wraps a :class:`~bot.storage.Database` (its reads and transactions), so this feature's SQL
lives here without growing the database class; each method is one read or one transaction, index-backed:

* a member's settled deals, newest first, a page at a time by hand id (``seats_user`` finds the member's tables,
  ``hand_history``'s ``(table_id, deal_no)`` key their deals), with the tables' seats and places;
* what replaying one deal needs, read together so it agrees: the deal's start if kept (else the nearest earlier one,
  else the table's opening), and the log from there to the end of the deal (along the log's primary key: up to the
  next deal's shuffles, which the move ending this deal made);
* keeping the starts a replay passed (``INSERT … ON CONFLICT DO NOTHING``: two replays may find the same start).
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.storage.models import HandRecord, LogEntry, Seat, Table
from bot.storage.tables.base import _seat, _table
from bot.storage.tx import All, Many, One, Row, Scalar

if TYPE_CHECKING:
    from bot.storage.core import Core

PAGE_LIMIT = 25
LOG_CHUNK = 500
"""Log rows read at a time while looking for the end of a deal."""


@dataclass(frozen=True)
class DealEntry:
    """One settled deal in a member's history: the hand (``position`` is the member's seat), where it was played,
    and who sat (by position)."""

    hand: HandRecord
    channel_id: int
    parent_id: int | None
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class DealsPage:
    entries: tuple[DealEntry, ...]
    newer: bool
    """Whether deals newer than the first shown exist (a previous page)."""
    older: bool
    """Whether deals older than the last shown exist (a next page)."""


@dataclass(frozen=True)
class ReplaySource:
    """What replaying one settled deal reads.

    ``origin`` is the record to walk from: the deal's own start (``origin_deal == hand.deal_no``), an earlier deal's
    start, or the table's opening (``origin_deal`` 0); ``origin_seq`` the last log row it includes, and ``rows`` the
    log rows after it that reach the end of the deal. A table stored before the log existed has its whole record as
    ``origin`` (shuffles and actions in it) and no rows."""

    table: Table
    hand: HandRecord
    origin: str
    origin_seq: int
    origin_deal: int
    rows: tuple[LogEntry, ...]


def _hand(row: Row, position: int | None = None) -> HandRecord:
    return HandRecord(
        id=row["id"],
        table_id=row["table_id"],
        guild_id=row["guild_id"],
        game=row["game"],
        deal_no=row["deal_no"],
        deltas=tuple(json.loads(row["deltas"])),
        summary=json.loads(row["summary"]),
        created_at=row["created_at"],
        position=position,
        posted=bool(row["posted"]),
    )


def _entries(rows: Sequence[Row]) -> tuple[LogEntry, ...]:
    return tuple(LogEntry(r["seq"], r["kind"], r["body"], r["seat"], r["deal"]) for r in rows)


def _marks(n: int) -> str:
    return ", ".join("?" * n)


class HistoryQueries:
    def __init__(self, db: Core) -> None:
        self.db = db

    # ------------------------------------------------------------------ /history

    async def member_deals(
        self,
        guild_id: int,
        user_id: int,
        *,
        game: str | None = None,
        before: int | None = None,
        after: int | None = None,
        limit: int = 10,
    ) -> DealsPage:
        """A page of the member's settled deals in the guild, newest first: the newest (neither ``before`` nor
        ``after``), the ones older than hand ``before``, or the ones newer than hand ``after``."""
        limit = max(1, min(limit, PAGE_LIMIT))
        # ``+h.guild_id``: the member's tables (``seats_user``) lead, then each table's deals by its key; SQLite would
        # otherwise walk every deal of the guild (``hand_history_guild``) checking each for the member.
        where = ["s.user_id = ?", "s.left_at IS NULL", "+h.guild_id = ?"]
        params: list[object] = [user_id, guild_id]
        if game is not None:
            where.append("h.game = ?")
            params.append(game)
        if before is not None:
            where.append("h.id < ?")
            params.append(before)
        if after is not None:
            where.append("h.id > ?")
            params.append(after)
        order = "ASC" if after is not None else "DESC"
        sql = (
            "SELECT h.*, s.position AS seat_position FROM seats s JOIN hand_history h ON h.table_id = s.table_id"
            f" WHERE {' AND '.join(where)} ORDER BY h.id {order} LIMIT ?"
        )
        base = [user_id, guild_id, *([game] if game is not None else [])]
        exists = (
            "SELECT 1 FROM seats s JOIN hand_history h ON h.table_id = s.table_id WHERE s.user_id = ?"
            " AND s.left_at IS NULL AND +h.guild_id = ?" + (" AND h.game = ?" if game is not None else "")
        )

        async def read() -> DealsPage:
            rows = list(await All(sql, (*params, limit + 1)))
            more = len(rows) > limit
            rows = rows[:limit]
            if after is not None:
                rows.reverse()
            if not rows:
                return DealsPage((), False, False)
            newest, oldest = rows[0]["id"], rows[-1]["id"]
            newer = more if after is not None else bool(await Scalar(exists + " AND h.id > ? LIMIT 1", (*base, newest)))
            older = more if after is None else bool(await Scalar(exists + " AND h.id < ? LIMIT 1", (*base, oldest)))
            tables = sorted({r["table_id"] for r in rows})
            places = await All(
                f"SELECT id, channel_id, parent_id FROM tables WHERE id IN ({_marks(len(tables))})", tables
            )
            seat_rows = await All(
                f"SELECT * FROM seats WHERE table_id IN ({_marks(len(tables))}) AND left_at IS NULL"
                " ORDER BY table_id, position",
                tables,
            )
            where_is = {p["id"]: (p["channel_id"], p["parent_id"]) for p in places}
            seats: dict[int, list[Seat]] = {}
            for s in seat_rows:
                seats.setdefault(s["table_id"], []).append(_seat(s))
            entries = tuple(
                DealEntry(
                    _hand(r, r["seat_position"]),
                    where_is[r["table_id"]][0],
                    where_is[r["table_id"]][1],
                    tuple(seats.get(r["table_id"], ())),
                )
                for r in rows
            )
            return DealsPage(entries, newer, older)

        return await self.db._read(read)

    # ------------------------------------------------------------------ replays

    async def replay_source(self, table_id: int, deal_no: int) -> ReplaySource | None:
        """What replaying the settled deal ``deal_no`` of the table reads; None when no such deal was settled."""

        async def read() -> ReplaySource | None:
            hand_row = await One("SELECT * FROM hand_history WHERE table_id = ? AND deal_no = ?", (table_id, deal_no))
            if hand_row is None:
                return None
            row = await One("SELECT * FROM tables WHERE id = ?", (table_id,))
            if row is None:
                return None
            seat_rows = await All(
                "SELECT * FROM seats WHERE table_id = ? AND left_at IS NULL ORDER BY position", (table_id,)
            )
            table = _table(row, [_seat(s) for s in seat_rows])
            hand = _hand(hand_row)
            if table.opening is None:
                # Stored before the log existed: the record is whole (it was never adopted into the log).
                return ReplaySource(table, hand, table.record or "{}", 0, 0, ())
            start = await One(
                "SELECT deal_no, seq, record FROM deal_starts WHERE table_id = ? AND deal_no <= ?"
                " ORDER BY deal_no DESC LIMIT 1",
                (table_id, deal_no),
            )
            origin, origin_seq, origin_deal = (
                (start["record"], start["seq"], start["deal_no"]) if start is not None else (table.opening, 0, 0)
            )
            rows = await self._to_end_of(table_id, origin_seq, deal_no)
            return ReplaySource(table, hand, origin, origin_seq, origin_deal, _entries(rows))

        return await self.db._read(read)

    async def _to_end_of(self, table_id: int, after: int, deal_no: int) -> list[Row]:
        """The log rows after ``after`` up to the end of ``deal_no``: on to the first shuffle of a later deal and the
        shuffles right after it (the move that ended the deal made them), read along the log's primary key a chunk
        at a time (inside a read). Only the deals walked are read, however long the table's log."""
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

    async def keep_starts(self, table_id: int, starts: Sequence[tuple[int, int, str]]) -> int:
        """Keep deal starts ``(deal_no, seq, record JSON)`` a replay found; ones already kept stay as they are.
        Returns how many were new."""
        rows = [(table_id, deal, seq, record) for deal, seq, record in starts]
        if not rows:
            return 0

        async def write(now: float) -> int:
            return await Many(
                "INSERT INTO deal_starts (table_id, deal_no, seq, record) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id, deal_no) DO NOTHING",
                rows,
            )

        return await self.db._transaction(write)

    async def kept_starts(self, table_id: int) -> list[int]:
        """The deals of the table whose start is kept (for tests and maintenance)."""
        rows = await self.db._read(
            lambda: All("SELECT deal_no FROM deal_starts WHERE table_id = ? ORDER BY deal_no", (table_id,))
        )
        return [int(r["deal_no"]) for r in rows]
