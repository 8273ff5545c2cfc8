"""How long a server keeps hand details, and dropping them (migration 0009; the daily job is
:mod:`bot.export.retention`).

:class:`RetentionQueries` wraps a :class:`~bot.storage.Database` as :mod:`bot.storage.replays` does, so this feature's
SQL lives here without growing the database class. The setting is ``guild_config.hand_details_days`` (NULL: forever),
read and written here rather than through :class:`~bot.storage.GuildConfig`.

What a purge drops, for the settled deals older than the setting on a **finished** table (ended or cancelled; a table
still in play is never touched, checked again inside the purge's own transaction):

* the deals' actions in ``table_log`` (who did what, face-down cards included), and their ``deal_starts`` (engine
  states, every hand in them);
* when every settled deal of the table is that old, all of its actions (a voided last deal's too), every deal start,
  and its last restart point (``tables.record`` goes back to the opening record);
* never: the shuffles (their seeds were revealed in each deal's results message, and ``/verify`` shows them), the
  ledger, the movements, or ``hand_history`` (each deal's chips and its public result: listings and stats stay whole).

When only the older deals of a table go, the start of the first deal kept must be in ``deal_starts`` first (the
caller keeps it: a replay of that deal, or of any later one, then begins there and never needs the log dropped before
it). ``tables.details_purged_to`` says up to which deal the details are gone, so a replay or an export of such a deal
says so rather than failing.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.storage.errors import InvalidValue
from bot.storage.tx import All, Exec, One, Scalar

if TYPE_CHECKING:
    from bot.storage.core import Core

DAYS_RANGE = (1, 3650)
"""The shortest and longest a server may keep hand details, in days (ten years); NULL is forever."""
DAY = 86400.0
FINISHED = "('ended', 'cancelled')"


def check_days(days: int | None) -> int | None:
    """``days`` if it is a setting the server may have (None: forever), else :class:`InvalidValue`."""
    lo, hi = DAYS_RANGE
    if days is None:
        return None
    if isinstance(days, bool) or not isinstance(days, int) or not lo <= days <= hi:
        raise InvalidValue(
            "export.retention_out_of_range", f"hand_details_days must be {lo}–{hi}, not {days!r}", lo=lo, hi=f"{hi:,}"
        )
    return days


@dataclass(frozen=True)
class Candidate:
    """A finished table with details a purge may drop: ``old_to`` is its last settled deal older than the cutoff (0:
    none), ``last`` its last settled deal (0: none), ``purged_to`` the last deal whose details are already gone."""

    table_id: int
    legacy: bool
    """Stored before the log existed: its whole record is ``tables.record`` (only ever dropped whole)."""
    purged_to: int
    old_to: int
    last: int
    ended_before: bool
    """The table ended before the cutoff (what counts when it settled no deal at all)."""
    has_actions: bool

    @property
    def whole(self) -> bool:
        """Every settled deal of the table is older than the cutoff: all of its details go."""
        return self.old_to == self.last if self.last else self.ended_before

    @property
    def due(self) -> bool:
        """Whether a purge has anything to drop here now."""
        if self.legacy:
            return self.whole and self.last > self.purged_to
        if not self.has_actions:
            return False
        return self.whole or self.old_to > self.purged_to


class RetentionQueries:
    def __init__(self, db: Core) -> None:
        self.db = db

    # ------------------------------------------------------------------ the setting

    async def days(self, guild_id: int) -> int | None:
        """How many days the server keeps hand details (None: forever, the default)."""
        value = await self.db._read(
            lambda: Scalar("SELECT hand_details_days FROM guild_config WHERE guild_id = ?", (guild_id,))
        )
        return None if value is None else int(value)

    async def set_days(self, guild_id: int, days: int | None, *, actor_id: int) -> None:
        """Keep hand details ``days`` days (None: forever); refused (``export.retention_out_of_range``) out of
        :data:`DAYS_RANGE`. The server's other settings are left as they are (their defaults if it had none)."""
        value = check_days(days)

        async def tx(now: float) -> None:
            await Exec(
                "INSERT INTO guild_config (guild_id, hand_details_days, updated_by, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET hand_details_days = excluded.hand_details_days,"
                " updated_by = excluded.updated_by, updated_at = excluded.updated_at",
                (guild_id, value, actor_id, now),
            )

        await self.db._transaction(tx)

    async def guilds(self) -> list[tuple[int, int]]:
        """Every server that keeps hand details for a limited time: ``(guild_id, days)``."""
        rows = await self.db._read(
            lambda: All(
                "SELECT guild_id, hand_details_days FROM guild_config WHERE hand_details_days IS NOT NULL"
                " ORDER BY guild_id"
            )
        )
        return [(int(r["guild_id"]), int(r["hand_details_days"])) for r in rows]

    # ------------------------------------------------------------------ purging

    async def candidates(self, guild_id: int, cutoff: float, *, after: int = 0, limit: int = 100) -> list[Candidate]:
        """The server's finished tables after table ``after``, by id, ``limit`` at a time (by ``tables_guild``), each
        with what a purge at ``cutoff`` would see of it (filter with :attr:`Candidate.due`)."""
        sql = (
            "SELECT t.id, t.opening IS NULL AS legacy, t.details_purged_to AS purged_to, t.updated_at,"
            " (SELECT max(h.deal_no) FROM hand_history h WHERE h.table_id = t.id AND h.created_at < ?) AS old_to,"
            " (SELECT max(h.deal_no) FROM hand_history h WHERE h.table_id = t.id) AS last_deal,"
            " EXISTS (SELECT 1 FROM table_log l WHERE l.table_id = t.id AND l.kind = 'action') AS has_actions"
            f" FROM tables t WHERE t.guild_id = ? AND t.status IN {FINISHED} AND t.id > ? ORDER BY t.id LIMIT ?"
        )
        rows = await self.db._read(lambda: All(sql, (float(cutoff), guild_id, after, limit)))
        return [
            Candidate(
                table_id=int(r["id"]),
                legacy=bool(r["legacy"]),
                purged_to=int(r["purged_to"]),
                old_to=int(r["old_to"] or 0),
                last=int(r["last_deal"] or 0),
                ended_before=float(r["updated_at"]) < cutoff,
                has_actions=bool(r["has_actions"]),
            )
            for r in rows
        ]

    async def kept_start(self, table_id: int, deal_no: int) -> int | None:
        """The last log row of the deal's kept start, or None when its start is not kept."""
        seq = await self.db._read(
            lambda: Scalar("SELECT seq FROM deal_starts WHERE table_id = ? AND deal_no = ?", (table_id, deal_no))
        )
        return None if seq is None else int(seq)

    async def legacy_record(self, table_id: int) -> str | None:
        """The whole record of a table stored before the log existed (None for any other table)."""
        value = await self.db._read(
            lambda: Scalar("SELECT record FROM tables WHERE id = ? AND opening IS NULL", (table_id,))
        )
        return None if value is None else str(value)

    async def purge(
        self, table_id: int, *, through: int, cutoff: float, whole: bool, legacy_record: str | None = None
    ) -> int | None:
        """Drop the details of the table's deals up to ``through`` (``whole``: all of its details), in one
        transaction; the number of log rows dropped, or None when nothing may be dropped now: the table is not
        finished, one of those deals is not older than ``cutoff`` (``whole``: a later deal was settled), or the start
        of deal ``through + 1`` is not kept. ``legacy_record``: what a table stored before the log keeps instead of
        its whole record (its opening and shuffles)."""

        async def tx(now: float) -> int | None:
            row = await One("SELECT status, opening, details_purged_to FROM tables WHERE id = ?", (table_id,))
            if row is None or row["status"] not in ("ended", "cancelled"):
                return None  # a table in play keeps every row of its log
            newest = await Scalar(
                "SELECT max(created_at) FROM hand_history WHERE table_id = ? AND deal_no <= ?", (table_id, through)
            )
            if newest is not None and float(newest) >= cutoff:
                return None
            if whole:
                if await Scalar("SELECT 1 FROM hand_history WHERE table_id = ? AND deal_no > ?", (table_id, through)):
                    return None
                dropped = await Exec("DELETE FROM table_log WHERE table_id = ? AND kind = 'action'", (table_id,))
                await Exec("DELETE FROM deal_starts WHERE table_id = ?", (table_id,))
                if row["opening"] is not None:
                    await Exec(
                        "UPDATE tables SET record = opening, checkpoint_seq = 0, details_purged_to = ? WHERE id = ?",
                        (max(through, int(row["details_purged_to"])), table_id),
                    )
                elif legacy_record is not None:
                    await Exec(
                        "UPDATE tables SET record = ?, details_purged_to = ? WHERE id = ?",
                        (legacy_record, max(through, int(row["details_purged_to"])), table_id),
                    )
                else:
                    return None
                return dropped
            if through <= int(row["details_purged_to"]) or row["opening"] is None:
                return None
            seq = await Scalar(
                "SELECT seq FROM deal_starts WHERE table_id = ? AND deal_no = ?", (table_id, through + 1)
            )
            if seq is None:
                return None
            dropped = await Exec(
                "DELETE FROM table_log WHERE table_id = ? AND kind = 'action' AND seq <= ?", (table_id, seq)
            )
            await Exec("DELETE FROM deal_starts WHERE table_id = ? AND deal_no <= ?", (table_id, through))
            await Exec("UPDATE tables SET details_purged_to = ? WHERE id = ?", (through, table_id))
            return dropped

        return await self.db._transaction(tx)

    async def purged_to(self, table_id: int) -> int:
        """The last deal of the table whose details are no longer kept (0: every deal's are)."""
        value = await self.db._read(lambda: Scalar("SELECT details_purged_to FROM tables WHERE id = ?", (table_id,)))
        return int(value or 0)
