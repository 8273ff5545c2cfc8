"""The seats' open private panels: enough of each (its interaction token) to edit it again after a restart."""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

from bot.storage.models import PanelRow
from bot.storage.tables.base import TableBase
from bot.storage.tx import All, Exec


class PanelOps(TableBase):
    async def save_panel(self, panel: PanelRow) -> None:
        """Remember a seat's latest private panel (replacing its previous one)."""
        await self._transaction(
            lambda now: Exec(
                "INSERT INTO table_panels (table_id, seat, application_id, token, locale, opened_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET"
                " application_id = excluded.application_id, token = excluded.token, locale = excluded.locale,"
                " opened_at = excluded.opened_at",
                (panel.table_id, panel.seat, panel.application_id, panel.token, panel.locale, panel.opened_at),
            )
        )

    async def open_panels(self, table_id: int, *, since: float) -> list[PanelRow]:
        """The table's panels opened after ``since`` (older interaction tokens no longer work)."""
        rows = await self._read(
            lambda: All(
                "SELECT * FROM table_panels WHERE table_id = ? AND opened_at > ? ORDER BY seat", (table_id, since)
            )
        )
        return [
            PanelRow(r["table_id"], r["seat"], r["application_id"], r["token"], r["locale"], r["opened_at"])
            for r in rows
        ]

    async def forget_panels(self, table_id: int, seat: int | None = None) -> None:
        """Drop a seat's remembered panel (or every one of the table's)."""
        if seat is None:
            forget = Exec("DELETE FROM table_panels WHERE table_id = ?", (table_id,))
        else:
            forget = Exec("DELETE FROM table_panels WHERE table_id = ? AND seat = ?", (table_id, seat))
        await self._transaction(lambda now: forget)
