"""The reminder of time at a table, as a note under the member's own private panel.

A member who chose a reminder period (``/limits reminder``) is told, under their panel, how long they have been at the
table (since they took their seat) and their net there (their stack against their buy-in), once each period has
passed: the first panel drawn after 30, 60, 90 … minutes (for a 30-minute period) shows the note, and the panels drawn
in the next :data:`SHOWN_SECONDS` keep it, so a panel redrawn by the table's next move does not make it flicker away.
The note is private like the panel (the bot sends no direct messages); a member whose panel is closed meets it with
their next **My hand**.

It joins the table runtime through its general hook for notes under panels
(:attr:`bot.tables.panels.Panels.note_sources`), as the coach of ``/learn`` does. A correspondence table, whose
decisions are hours apart, is not time spent at the table, so it has no reminders.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from bot.i18n import t

if TYPE_CHECKING:
    from bot.limits.service import Limits
    from bot.tables.panels import Snapshot
    from bot.tables.session import TableSession

SHOWN_SECONDS = 5 * 60
"""How long a reminder stays under the panels drawn after it first showed."""
KEPT = 4096
"""Members' reminders remembered (which period each last showed, and when)."""


def duration(seconds: float, lang: str) -> str:
    """``1 h 05 min`` / ``1時間5分`` (whole minutes, rounded down: the time really spent)."""
    minutes = max(0, int(seconds // 60))
    hours, minutes = divmod(minutes, 60)
    if hours:
        return t("limits.hours_minutes", lang, hours=hours, minutes=minutes)
    return t("limits.minutes", lang, minutes=minutes)


class Reminders:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.shown: OrderedDict[tuple[int, int], tuple[int, float]] = OrderedDict()
        """(table, member) → the period whose reminder showed last, and when it first showed."""

    async def note(self, session: TableSession, seat: int, snap: Snapshot) -> str | None:
        """The reminder under the seat's panel, when one is due (a :data:`~bot.tables.panels.NoteSource`)."""
        user_id = session.seats[seat].user_id
        if user_id is None or session.seats[seat].bot or session.pace == "correspondence":
            return None
        settings = await self.limits.member_cached(session.guild_id, user_id)
        if not settings.reminder_minutes:
            return None
        sat = await self.limits.queries.seat_at(session.id, user_id)
        if sat is None:
            return None
        joined_at, stack, buy_in = sat
        now = self.limits.clock()
        period = settings.reminder_minutes * 60
        elapsed = now - joined_at
        reached = int(elapsed // period)
        if reached < 1 or not self._due((session.id, user_id), reached, now):
            return None
        lang = snap.ctx.lang
        net = stack - buy_in
        key = "limits.reminder_practice" if session.practice else "limits.reminder_note"
        return t(key, lang, played=duration(elapsed, lang), net=f"{net:+,}")

    def _due(self, key: tuple[int, int], reached: int, now: float) -> bool:
        """Whether the reminder of period ``reached`` shows now: it has not shown yet, or first showed moments ago."""
        last = self.shown.get(key)
        if last is None or last[0] < reached:
            self.shown[key] = (reached, now)
            self.shown.move_to_end(key)
            while len(self.shown) > KEPT:
                self.shown.popitem(last=False)
            return True
        return last[0] == reached and now - last[1] < SHOWN_SECONDS
