"""Reads for ``/history`` and replays, and the deal starts replays keep (``deal_starts``, migration 0007).

:class:`HistoryQueries` wraps a :class:`~bot.storage.Database` (its reads and transactions), so this feature's SQL
lives here without growing the database class; each method is one read or one transaction, index-backed:

* a member's settled deals, newest first, a page at a time by hand id: one statement reading one range of the
  member's own index of their deals (``deal_seats``, migration 0008), then the page's hands, places and seats;
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
from bot.storage.tx import All, Exec, Many, One, Row

if TYPE_CHECKING:
    from bot.storage.core import Core

PAGE_LIMIT = 25
LOG_CHUNK = 500
"""Log rows read at a time while looking for the end of a deal."""


@dataclass(frozen=True)
class DealLine:
    """A settled deal as a history page lists it: a hand history row without its summary (a page never reads one;
    a replay reads its deal's), with ``position`` the member's seat."""

    id: int
    table_id: int
    guild_id: int
    game: str
    deal_no: int
    deltas: tuple[int, ...]
    created_at: float
    position: int


@dataclass(frozen=True)
class DealEntry:
    """One settled deal in a member's history: the hand (``position`` is the member's seat), where it was played,
    and who sat (by position)."""

    hand: DealLine
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


_SEAT_COLUMNS = (
    "s.id AS seat_id, s.position AS seat_position, s.user_id AS seat_user, s.bot_name AS seat_bot,"
    " s.display_name AS seat_name, s.stack AS seat_stack, s.buy_in AS seat_buy_in, s.away AS seat_away,"
    " s.joined_at AS seat_joined"
)


def page_query(
    guild_id: int, user_id: int, *, game: str | None, before: int | None, after: int | None, limit: int
) -> tuple[str, tuple[object, ...]]:
    """The statement of :meth:`HistoryQueries.member_deals` and its parameters (``limit`` + 1 deals are read, the
    last telling whether more lie that way)."""
    member = "d.guild_id = ? AND d.user_id = ?" + (" AND d.game = ?" if game is not None else "")
    base: list[object] = [guild_id, user_id, *([game] if game is not None else [])]
    older_first = after is not None
    anchor: tuple[str, list[object]] = ("", [])
    if before is not None:
        anchor = (" AND d.hand_id < ?", [before])
    if after is not None:
        anchor = (anchor[0] + " AND d.hand_id > ?", [*anchor[1], after])
    # The probe looks past the page's far end from the anchor: newer deals for a page read oldest first
    # (``after``), older ones otherwise.
    beyond = f"EXISTS (SELECT 1 FROM deal_seats d WHERE {member} AND d.hand_id " + (
        "< (SELECT min(hand_id) FROM page))" if older_first else "> (SELECT max(hand_id) FROM page))"
    )
    sql = (
        f"WITH page AS (SELECT d.hand_id, d.position FROM deal_seats d WHERE {member}{anchor[0]}"
        f" ORDER BY d.hand_id {'ASC' if older_first else 'DESC'} LIMIT ?),"
        " hands AS (SELECT p.hand_id, p.position AS mine, h.table_id, h.deal_no, h.game, h.created_at, h.deltas,"
        f" t.channel_id, t.parent_id, {beyond} AS beyond"
        " FROM page p JOIN hand_history h ON h.id = p.hand_id JOIN tables t ON t.id = h.table_id)"
        f" SELECT hands.*, {_SEAT_COLUMNS} FROM hands JOIN deal_seats m ON m.hand_id = hands.hand_id"
        " JOIN seats s ON s.id = m.seat_id"
        f" UNION ALL SELECT hands.*, {_SEAT_COLUMNS} FROM hands JOIN seats s ON s.table_id = hands.table_id"
        " AND s.left_at IS NULL AND s.user_id IS NULL"
    )
    return sql, (*base, *anchor[1], limit + 1, *base)


def _page(guild_id: int, rows: Sequence[Row], limit: int, *, older_first: bool) -> DealsPage:
    """A page from :meth:`HistoryQueries.member_deals`'s rows: one per seat of each deal (up to ``limit`` + 1 deals,
    the last telling that more lie that way)."""
    hands: dict[int, Row] = {}
    seats: dict[int, dict[int, Seat]] = {}
    for row in rows:
        hand_id = row["hand_id"]
        hands.setdefault(hand_id, row)
        seats.setdefault(hand_id, {})[row["seat_position"]] = Seat(
            id=row["seat_id"],
            table_id=row["table_id"],
            position=row["seat_position"],
            user_id=row["seat_user"],
            bot_name=row["seat_bot"],
            stack=row["seat_stack"],
            buy_in=row["seat_buy_in"],
            away=bool(row["seat_away"]),
            joined_at=row["seat_joined"],
            display_name=row["seat_name"],
        )
    ordered = sorted(hands, reverse=True)  # newest first
    if older_first:
        more, shown = len(ordered) > limit, ordered[-limit:]
    else:
        more, shown = len(ordered) > limit, ordered[:limit]
    if not shown:
        return DealsPage((), False, False)
    beyond = bool(hands[shown[0]]["beyond"])
    entries = []
    for hand_id in shown:
        row = hands[hand_id]
        line = DealLine(
            id=hand_id,
            table_id=row["table_id"],
            guild_id=guild_id,
            game=row["game"],
            deal_no=row["deal_no"],
            deltas=tuple(json.loads(row["deltas"])),
            created_at=row["created_at"],
            position=row["mine"],
        )
        at = seats[hand_id]
        entries.append(DealEntry(line, row["channel_id"], row["parent_id"], tuple(at[p] for p in sorted(at))))
    newer, older = (more, beyond) if older_first else (beyond, more)
    return DealsPage(tuple(entries), newer, older)


def _entries(rows: Sequence[Row]) -> tuple[LogEntry, ...]:
    return tuple(LogEntry(r["seq"], r["kind"], r["body"], r["seat"], r["deal"]) for r in rows)


def _marks(n: int) -> str:
    return ", ".join("?" * n)


def keep_start(table_id: int, deal_no: int, seq: int, record: str) -> Exec:
    """The statement keeping one deal's start, for a transaction that writes a table's restart point as the deal
    begins (``append_step`` with a checkpoint): awaited there, every new deal's start is kept as it is made, and a
    replay of any later deal never walks the log. Nothing calls it yet: replays keep the starts they find."""
    return Exec(
        "INSERT INTO deal_starts (table_id, deal_no, seq, record) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (table_id, deal_no) DO NOTHING",
        (table_id, deal_no, seq, record),
    )


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

        One statement: the page is one range of the member's ``deal_seats`` index (with the game), read from its
        anchor, then only that page's hands, tables and seats by their keys, and whether deals lie beyond the page
        on its other side (one index probe). Its cost is one page's, however many deals the member or the server
        has played. Who sat is read from the deal's own member seats (so a member who has left the table since is
        still named) and the table's bot seats."""
        limit = max(1, min(limit, PAGE_LIMIT))
        sql, params = page_query(guild_id, user_id, game=game, before=before, after=after, limit=limit)
        rows = await self.db._read(lambda: All(sql, params))
        return _page(guild_id, rows, limit, older_first=after is not None)

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
