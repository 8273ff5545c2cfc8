"""The watchers' open panels (migration 0010): enough of each (its interaction token) to edit it again after a
restart, as :mod:`~bot.storage.tables.panels` keeps the seats' ones."""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

from bot.storage.models import WatcherRow
from bot.storage.tables.base import TableBase
from bot.storage.tx import All, Exec


class WatcherOps(TableBase):
    async def save_watcher(self, watcher: WatcherRow, *, drop_before: float | None = None) -> None:
        """Remember a watcher's latest panel on a table (replacing their previous one). ``drop_before``: the table's
        watcher panels opened before then are dropped in the same transaction (their tokens no longer work)."""

        async def tx(now: float) -> None:
            if drop_before is not None:
                await Exec(
                    "DELETE FROM table_watchers WHERE table_id = ? AND opened_at < ?", (watcher.table_id, drop_before)
                )
            await Exec(
                "INSERT INTO table_watchers (table_id, user_id, application_id, token, locale, opened_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET"
                " application_id = excluded.application_id, token = excluded.token, locale = excluded.locale,"
                " opened_at = excluded.opened_at",
                (
                    watcher.table_id,
                    watcher.user_id,
                    watcher.application_id,
                    watcher.token,
                    watcher.locale,
                    watcher.opened_at,
                ),
            )

        await self._transaction(tx)

    async def open_watchers(self, table_id: int, *, since: float) -> list[WatcherRow]:
        """The table's watcher panels opened after ``since`` (older interaction tokens no longer work)."""
        rows = await self._read(
            lambda: All(
                "SELECT * FROM table_watchers WHERE table_id = ? AND opened_at > ? ORDER BY user_id", (table_id, since)
            )
        )
        return [
            WatcherRow(r["table_id"], r["user_id"], r["application_id"], r["token"], r["locale"], r["opened_at"])
            for r in rows
        ]

    async def forget_watchers(self, table_id: int, user_id: int | None = None) -> None:
        """Drop a watcher's remembered panel (or every one of the table's: it ended)."""
        if user_id is None:
            forget = Exec("DELETE FROM table_watchers WHERE table_id = ?", (table_id,))
        else:
            forget = Exec("DELETE FROM table_watchers WHERE table_id = ? AND user_id = ?", (table_id, user_id))
        await self._transaction(lambda now: forget)
