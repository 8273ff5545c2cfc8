"""Reads for ``/history`` and replays, and the deal starts replays keep (``deal_starts``, migration 0007).

:class:`HistoryQueries` wraps a :class:`~bot.storage.Database` (its reads and transactions), so this feature's SQL
lives here without growing the database class; each method is one read or one transaction, index-backed:

* a member's settled deals, newest first, a page at a time by hand id: one statement reading one range of the
  member's own rows of their deals (``deal_seats``, migration 0008, keyed by the member), which hold all a page shows;
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
from typing import TYPE_CHECKING, NamedTuple

from bot.storage.models import HandRecord, LogEntry, Table
from bot.storage.tables.base import _seat, _table
from bot.storage.tx import All, Many, One, Row

if TYPE_CHECKING:
    from bot.storage.core import Core

PAGE_LIMIT = 25
LOG_CHUNK = 500
"""Log rows read at a time while looking for the end of a deal."""


class DealLine(NamedTuple):
    """A settled deal as a history page lists it: a hand history row without its summary (a page never reads one;
    a replay reads its deal's), with ``position`` the member's seat and ``delta`` their chips. (Plain tuples: a page
    builds ten at each press of ◀ ▶.)"""

    id: int
    table_id: int
    guild_id: int
    game: str
    deal_no: int
    delta: int
    created_at: float
    position: int


class DealEntry(NamedTuple):
    """One settled deal in a member's history: the hand, where it was played, and who sat: ``seated``, their names by
    position as the history lists them (``"alice, bob, 🤖 Tanuki"``), written as the deal was settled."""

    hand: DealLine
    channel_id: int
    parent_id: int | None
    seated: str


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


def page_query(
    guild_id: int, user_id: int, *, game: str | None, before: int | None, after: int | None, limit: int
) -> tuple[str, tuple[object, ...]]:
    """The statement of :meth:`HistoryQueries.member_deals` and its parameters: a row per deal of the page (hand id,
    the member's position, table, deal number, game, the member's chips, time, who sat, channel, thread parent), and
    one more if the member has deals beyond the page in the direction read (:func:`_page` tells)."""
    member = "d.guild_id = ? AND d.user_id = ?" + (" AND d.game = ?" if game is not None else "")
    base: list[object] = [guild_id, user_id, *([game] if game is not None else [])]
    anchor: tuple[str, list[object]] = ("", [])
    if before is not None:
        anchor = (" AND d.hand_id < ?", [before])
    if after is not None:
        anchor = (anchor[0] + " AND d.hand_id > ?", [*anchor[1], after])
    # With a game, SQLite's planner (without statistics) would rather walk the member's whole key range, which holds
    # every column, than the game's index and a lookup per row: the hint (dropped for PostgreSQL) keeps it to a page.
    hint = " INDEXED BY deal_seats_member_game" if game is not None else ""
    # The limit is written into the statement, not passed: PostgreSQL then knows how few rows the page reads when it
    # plans the statement once for every call (a generic plan), instead of planning it again at each call.
    sql = (
        "SELECT d.hand_id, d.position, d.table_id, d.deal_no, d.game, d.delta, d.created_at, d.seated, d.channel_id,"
        f" d.parent_id FROM deal_seats d{hint} WHERE {member}{anchor[0]}"
        f" ORDER BY d.hand_id {'ASC' if after is not None else 'DESC'} LIMIT {int(limit) + 1}"
    )
    return sql, (*base, *anchor[1])


def _page(rows: Sequence[Row], guild_id: int, limit: int, *, before: int | None, after: int | None) -> DealsPage:
    """A page from the rows of :func:`page_query`, newest first (read by position: a page is built on every press of
    ◀ ▶). Read towards older deals (the first page, or ``before`` a deal), an extra row says there are older ones,
    and the anchor that there are newer; read towards newer ones (``after`` a deal), the other way round."""
    more = len(rows) > limit
    rows = rows[:limit]
    if after is not None:
        newer, older = more, True
        rows = rows[::-1]
    else:
        newer, older = before is not None, more
    if not rows:
        return DealsPage((), False, False)
    entries = []
    for hand_id, position, table_id, deal_no, game, delta, created_at, seated, channel_id, parent_id in rows:
        line = DealLine(hand_id, table_id, guild_id, game, deal_no, delta, created_at, position)
        entries.append(DealEntry(line, channel_id, parent_id, seated))
    return DealsPage(tuple(entries), newer, older)


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
        ``after``), the ones older than hand ``before``, or the ones newer than hand ``after``.

        One statement (:func:`page_query`): the page is one range of ``deal_seats`` by the member's key (with the game:
        its own index), read from its anchor, whose rows hold everything a line shows, and one row more to know
        whether the member has deals beyond it. Its cost is one page's, however many deals the
        member or the server has played. Who sat is as the deal was settled (a member who has left the table since is
        still named)."""
        limit = max(1, min(limit, PAGE_LIMIT))
        sql, params = page_query(guild_id, user_id, game=game, before=before, after=after, limit=limit)
        rows = await self.db._read(lambda: All(sql, params))
        return _page(rows, guild_id, limit, before=before, after=after)

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
