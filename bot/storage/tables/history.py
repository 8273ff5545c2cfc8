"""Settled deals read back: a table's or a member's hand history, and the results owed to a channel (settled deals whose
results message has not been posted yet)."""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json

from bot.storage.models import HandRecord
from bot.storage.tables.base import TableBase
from bot.storage.tx import All, Exec, Row, Scalar


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


class HistoryOps(TableBase):
    # ------------------------------------------------------------------ hand history

    async def table_history(self, table_id: int, *, limit: int = 20) -> list[HandRecord]:
        """The table's most recent settled deals, newest first."""
        rows = await self._read(
            lambda: All(
                "SELECT * FROM hand_history WHERE table_id = ? ORDER BY deal_no DESC LIMIT ?", (table_id, limit)
            )
        )
        return [_hand(r) for r in rows]

    async def deal_settled(self, table_id: int, deal_no: int) -> bool:
        """Whether a deal of the table has been settled (its seeds may be shown)."""
        return bool(
            await self._read(
                lambda: Scalar("SELECT 1 FROM hand_history WHERE table_id = ? AND deal_no = ?", (table_id, deal_no))
            )
        )

    async def member_history(self, guild_id: int, user_id: int, *, limit: int = 20) -> list[HandRecord]:
        """The member's most recent settled deals in the guild, newest first, with their seat position."""
        rows = await self._read(
            lambda: All(
                "SELECT h.*, s.position AS seat_position FROM seats s JOIN hand_history h ON h.table_id = s.table_id"
                " WHERE s.user_id = ? AND s.left_at IS NULL AND h.guild_id = ?"
                " ORDER BY h.created_at DESC, h.id DESC LIMIT ?",
                (user_id, guild_id, limit),
            )
        )
        return [_hand(r, r["seat_position"]) for r in rows]

    # ------------------------------------------------------------------ results owed to the channel

    async def mark_posted(self, table_id: int, deal_no: int) -> None:
        """The results message of a deal reached the channel."""
        await self._transaction(
            lambda now: Exec(
                "UPDATE hand_history SET posted = 1 WHERE table_id = ? AND deal_no = ?", (table_id, deal_no)
            )
        )

    async def unposted_results(self, table_id: int | None = None) -> list[HandRecord]:
        """Settled deals whose results message has not reached the channel yet (of one table, or all), oldest first."""
        where = "posted = 0" + ("" if table_id is None else " AND table_id = ?")
        rows = await self._read(
            lambda: All(
                f"SELECT * FROM hand_history WHERE {where} ORDER BY table_id, deal_no",
                () if table_id is None else (table_id,),
            )
        )
        return [_hand(r) for r in rows]
