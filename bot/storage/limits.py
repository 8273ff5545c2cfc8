"""Responsible play and stake limits (migration 0013; the feature is :mod:`bot.limits`).

:class:`LimitsQueries` wraps a :class:`~bot.storage.Database` as :mod:`bot.storage.replays` does, so this feature's
SQL lives here without growing the database class. Each method is one read or one transaction, index-backed.

**A member's own limits** (``member_limits``, one row per member and server, read by primary key):

* a self-exclusion, from when it was confirmed to its end. Nothing here shortens one: :meth:`LimitsQueries.exclude`
  refuses an end earlier than the one in force, and no other statement writes the two columns;
* a daily and a weekly loss limit. Lowering one (or setting a first one) takes effect at once; raising or removing
  one waits :data:`RAISE_DELAY` and is kept as pending meanwhile, with its time (:func:`change_loss_limit`, decided
  inside the writing transaction);
* a reminder period at tables (on, off, or its length: at once).

**Net chips lost at tables** in a window (:meth:`LimitsQueries.losses`): minus the sum of the member's seat legs of
``settlement`` movements (one per settled deal: what the deal won or lost the member's seat) made in the server in the
window, that is whose movement's ``created_at`` is later than ``now - window``. Buy-ins, cash-outs, refunds and voids
move a member's chips between their wallet and their seat and are not wins or losses; a practice table's settlements
write no ledger legs, so they never count. The window is one range of ``ledger_member_seat`` (migration 0013: the
member's seat legs in the server by movement id) from the first movement of the server in the window, found through
``movements_guild`` (``(guild_id, created_at)``). Movement ids grow with their ``created_at`` (SQLite writes one
transaction at a time and reads the clock once it holds the lock; on PostgreSQL two transactions committing in the
same instant may take their ids in the other order, which can only move a deal settled at the window's very edge by
that instant), so the range is the window; each row's own ``created_at`` is checked as well.

**Stake limits** (``stake_limits``): a server's largest stake and buy-in (``role_id`` :data:`SERVER`) and a role's.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from bot.storage.errors import InvalidState, InvalidValue
from bot.storage.tx import All, Exec, One, Row

if TYPE_CHECKING:
    from bot.storage.core import Core

DAY = 86400.0
WEEK = 7 * DAY
RAISE_DELAY = DAY
"""How long a raised (or removed) loss limit waits before it takes over."""
EXCLUSION_DAYS = (1, 365)
"""The shortest and longest self-exclusion, in days."""
LOSS_RANGE = (1, 1_000_000_000)
REMINDER_MINUTES = (5, 720)
STAKE_RANGE = (1, 1_000_000)
BUY_IN_RANGE = (1, 1_000_000_000)
SERVER = 0
"""The ``role_id`` of a server's own stake limits."""

Window = Literal["daily", "weekly"]
WINDOWS: dict[Window, float] = {"daily": DAY, "weekly": WEEK}
Change = Literal["now", "later", "kept", "cancelled"]
"""What asking for a loss limit did: in force at once (``now``), waiting :data:`RAISE_DELAY` (``later``), nothing
(``kept``: the limit asked for is the one in force), or a pending raise given up (``cancelled``: the limit in force
was asked for again)."""


@dataclass(frozen=True)
class LossLimit:
    """One loss limit as stored: ``limit`` in force (None: none), and a pending raise or removal (``next``: the
    limit asked for, 0 for none; ``next_at``: when it takes over)."""

    limit: int | None = None
    next: int | None = None
    next_at: float | None = None

    def at(self, now: float) -> LossLimit:
        """The limit as it is at ``now``: a pending change whose time has come has taken over."""
        if self.next is not None and self.next_at is not None and now >= self.next_at:
            return LossLimit(self.next or None)
        return self

    @property
    def pending(self) -> bool:
        return self.next is not None


def change_loss_limit(current: LossLimit, wanted: int | None, now: float) -> tuple[LossLimit, Change]:
    """The loss limit once ``wanted`` (None: no limit) is asked for at ``now``. Lower than the limit in force (or a
    first one): at once, and any pending raise is dropped. Higher, or none: in :data:`RAISE_DELAY`, the limit in force
    staying until then (asking again starts the wait again). The limit in force: kept, a pending raise dropped."""
    have = current.at(now)
    if wanted == have.limit:
        return LossLimit(have.limit), "cancelled" if have.pending else "kept"
    if have.limit is None or (wanted is not None and wanted < have.limit):
        return LossLimit(wanted), "now"
    return LossLimit(have.limit, wanted or 0, now + RAISE_DELAY), "later"


@dataclass(frozen=True)
class MemberLimits:
    """What a member set for themself in a server (all empty when they never used ``/limits``)."""

    guild_id: int
    user_id: int
    excluded_from: float | None = None
    excluded_until: float | None = None
    daily: LossLimit = LossLimit()
    weekly: LossLimit = LossLimit()
    reminder_minutes: int | None = None

    def excluded(self, now: float) -> bool:
        return self.excluded_until is not None and now < self.excluded_until

    def loss_limit(self, window: Window) -> LossLimit:
        return self.daily if window == "daily" else self.weekly

    def at(self, now: float) -> MemberLimits:
        """The limits as they are at ``now`` (pending changes due have taken over; an exclusion over is gone)."""
        excluded = self.excluded(now)
        return replace(
            self,
            excluded_from=self.excluded_from if excluded else None,
            excluded_until=self.excluded_until if excluded else None,
            daily=self.daily.at(now),
            weekly=self.weekly.at(now),
        )


@dataclass(frozen=True)
class StakeLimit:
    """A server's (``role_id`` :data:`SERVER`) or a role's largest stake and buy-in; None: no limit of that kind."""

    role_id: int
    max_stake: int | None
    max_buy_in: int | None


@dataclass(frozen=True)
class Loss:
    """A settled deal's result for the member's seat: when it was settled, and the chips (negative: lost)."""

    at: float
    delta: int


def _in_range(value: int, bounds: tuple[int, int], code: str, what: str) -> int:
    lo, hi = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidValue(code, f"{what} must be {lo}–{hi}, not {value!r}", lo=f"{lo:,}", hi=f"{hi:,}")
    return value


def check_loss_limit(amount: int | None) -> int | None:
    return None if amount is None else _in_range(amount, LOSS_RANGE, "limits.loss_out_of_range", "a loss limit")


def check_reminder(minutes: int | None) -> int | None:
    if minutes is None:
        return None
    return _in_range(minutes, REMINDER_MINUTES, "limits.reminder_out_of_range", "a reminder")


def _member(guild_id: int, user_id: int, row: Row | None) -> MemberLimits:
    if row is None:
        return MemberLimits(guild_id, user_id)
    return MemberLimits(
        guild_id,
        user_id,
        excluded_from=row["excluded_from"],
        excluded_until=row["excluded_until"],
        daily=LossLimit(row["daily_loss"], row["daily_next"], row["daily_next_at"]),
        weekly=LossLimit(row["weekly_loss"], row["weekly_next"], row["weekly_next_at"]),
        reminder_minutes=row["reminder_minutes"],
    )


_MEMBER = "SELECT * FROM member_limits WHERE guild_id = ? AND user_id = ?"
LOSSES = (
    "SELECT m.created_at, l.delta FROM ledger l INDEXED BY ledger_member_seat"
    " JOIN movements m ON m.id = l.movement_id"
    " WHERE l.guild_id = ? AND l.user_id = ? AND l.account = 'seat'"
    " AND l.movement_id >= (SELECT id FROM movements WHERE guild_id = ? AND created_at > ?"
    " ORDER BY created_at, id LIMIT 1)"
    " AND m.reason = 'settlement' AND m.created_at > ?"
    " ORDER BY m.created_at, m.id"
)
"""A member's settlement seat legs in a server later than a time (:meth:`LimitsQueries.losses`)."""


async def _write(limits: MemberLimits, now: float) -> None:
    """Store a member's row as ``limits`` has it (inside a transaction)."""
    await Exec(
        "INSERT INTO member_limits (guild_id, user_id, excluded_from, excluded_until, daily_loss, daily_next,"
        " daily_next_at, weekly_loss, weekly_next, weekly_next_at, reminder_minutes, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " excluded_from = excluded.excluded_from, excluded_until = excluded.excluded_until,"
        " daily_loss = excluded.daily_loss, daily_next = excluded.daily_next, daily_next_at = excluded.daily_next_at,"
        " weekly_loss = excluded.weekly_loss, weekly_next = excluded.weekly_next,"
        " weekly_next_at = excluded.weekly_next_at, reminder_minutes = excluded.reminder_minutes,"
        " updated_at = excluded.updated_at",
        (
            limits.guild_id,
            limits.user_id,
            limits.excluded_from,
            limits.excluded_until,
            limits.daily.limit,
            limits.daily.next,
            limits.daily.next_at,
            limits.weekly.limit,
            limits.weekly.next,
            limits.weekly.next_at,
            limits.reminder_minutes,
            now,
        ),
    )


class LimitsQueries:
    def __init__(self, db: Core) -> None:
        self.db = db

    # ------------------------------------------------------------------ a member's own

    async def member(self, guild_id: int, user_id: int) -> MemberLimits:
        """What the member set, as stored (:meth:`MemberLimits.at` gives it as it is at a time)."""
        row = await self.db._read(lambda: One(_MEMBER, (guild_id, user_id)))
        return _member(guild_id, user_id, row)

    async def exclude(self, guild_id: int, user_id: int, *, until: float) -> MemberLimits:
        """Exclude the member from play until ``until`` (at most :data:`EXCLUSION_DAYS` days ahead). An exclusion in
        force is only ever lengthened: an end earlier than its own is refused (``limits.already_excluded``), the same
        end changes nothing (a second press of the same confirmation). Returns the limits as they are then."""

        async def tx(now: float) -> MemberLimits:
            lo, hi = EXCLUSION_DAYS
            if not now < until <= now + hi * DAY:
                raise InvalidValue(
                    "limits.exclusion_out_of_range", f"an exclusion must end within {hi} days", lo=lo, hi=hi
                )
            limits = _member(guild_id, user_id, await One(_MEMBER, (guild_id, user_id))).at(now)
            if limits.excluded_until is not None:
                if until < limits.excluded_until:
                    raise InvalidState(
                        "limits.already_excluded",
                        f"already excluded until {limits.excluded_until}",
                        until=int(limits.excluded_until),
                    )
                if until == limits.excluded_until:
                    return limits
            start = limits.excluded_from if limits.excluded_from is not None else now
            limits = replace(limits, excluded_from=start, excluded_until=until)
            await _write(limits, now)
            return limits

        return await self.db._transaction(tx)

    async def set_loss_limit(
        self, guild_id: int, user_id: int, window: Window, amount: int | None
    ) -> tuple[MemberLimits, Change]:
        """Ask for a daily or weekly loss limit of ``amount`` chips (None: none), by :func:`change_loss_limit`;
        out of :data:`LOSS_RANGE` refused (``limits.loss_out_of_range``), nothing changed."""
        check_loss_limit(amount)
        if window not in WINDOWS:
            raise InvalidValue("limits.unknown_window", f"no loss limit {window!r}")

        async def tx(now: float) -> tuple[MemberLimits, Change]:
            limits = _member(guild_id, user_id, await One(_MEMBER, (guild_id, user_id))).at(now)
            changed, change = change_loss_limit(limits.loss_limit(window), amount, now)
            limits = replace(limits, daily=changed) if window == "daily" else replace(limits, weekly=changed)
            await _write(limits, now)
            return limits, change

        return await self.db._transaction(tx)

    async def set_reminder(self, guild_id: int, user_id: int, minutes: int | None) -> MemberLimits:
        """Remind the member after ``minutes`` at a table (None: never); out of :data:`REMINDER_MINUTES` refused."""
        check_reminder(minutes)

        async def tx(now: float) -> MemberLimits:
            limits = _member(guild_id, user_id, await One(_MEMBER, (guild_id, user_id))).at(now)
            limits = replace(limits, reminder_minutes=minutes)
            await _write(limits, now)
            return limits

        return await self.db._transaction(tx)

    async def losses(self, guild_id: int, user_id: int, since: float) -> list[Loss]:
        """The member's settled deals at chip tables of the server later than ``since``, oldest first: what each won
        or lost their seat (the module's docstring says which rows, and how the index reads them)."""
        rows = await self.db._read(lambda: All(LOSSES, (guild_id, user_id, guild_id, since, since)))
        return [Loss(float(r["created_at"]), int(r["delta"])) for r in rows]

    async def seat_at(self, table_id: int, user_id: int) -> tuple[float, int, int] | None:
        """When the member sat down at the table, their stack and their buy-in (None: not seated there)."""
        row = await self.db._read(
            lambda: One(
                "SELECT joined_at, stack, buy_in FROM seats WHERE table_id = ? AND user_id = ? AND left_at IS NULL",
                (table_id, user_id),
            )
        )
        return None if row is None else (float(row["joined_at"]), int(row["stack"]), int(row["buy_in"]))

    # ------------------------------------------------------------------ stake limits

    async def stake_limits(self, guild_id: int) -> list[StakeLimit]:
        """The server's stake limits (its own first, role id :data:`SERVER`), then each role's, by role id."""
        rows = await self.db._read(
            lambda: All(
                "SELECT role_id, max_stake, max_buy_in FROM stake_limits WHERE guild_id = ? ORDER BY role_id",
                (guild_id,),
            )
        )
        return [StakeLimit(int(r["role_id"]), r["max_stake"], r["max_buy_in"]) for r in rows]

    async def set_stake_limit(
        self,
        guild_id: int,
        role_id: int,
        *,
        max_stake: int | None = None,
        max_buy_in: int | None = None,
        actor_id: int,
    ) -> StakeLimit:
        """Set the largest stake and/or buy-in of the server (``role_id`` :data:`SERVER`) or of a role; a kind not
        given stays as it was. Out of :data:`STAKE_RANGE` / :data:`BUY_IN_RANGE` refused, nothing changed."""
        if max_stake is None and max_buy_in is None:
            raise InvalidValue("limits.nothing_to_set", "neither a stake nor a buy-in limit")
        if max_stake is not None:
            _in_range(max_stake, STAKE_RANGE, "limits.stake_out_of_range", "a stake limit")
        if max_buy_in is not None:
            _in_range(max_buy_in, BUY_IN_RANGE, "limits.buy_in_out_of_range", "a buy-in limit")

        async def tx(now: float) -> StakeLimit:
            await Exec(
                "INSERT INTO stake_limits (guild_id, role_id, max_stake, max_buy_in, updated_by, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, role_id) DO UPDATE SET"
                " max_stake = coalesce(excluded.max_stake, stake_limits.max_stake),"
                " max_buy_in = coalesce(excluded.max_buy_in, stake_limits.max_buy_in),"
                " updated_by = excluded.updated_by, updated_at = excluded.updated_at",
                (guild_id, role_id, max_stake, max_buy_in, actor_id, now),
            )
            row = await One(
                "SELECT max_stake, max_buy_in FROM stake_limits WHERE guild_id = ? AND role_id = ?",
                (guild_id, role_id),
            )
            assert row is not None
            return StakeLimit(role_id, row["max_stake"], row["max_buy_in"])

        return await self.db._transaction(tx)

    async def clear_stake_limit(
        self, guild_id: int, role_id: int, *, stake: bool = True, buy_in: bool = True, actor_id: int
    ) -> StakeLimit | None:
        """Remove the server's (or a role's) stake and/or buy-in limit; the row goes once it limits nothing. Returns
        what is left (None: nothing)."""

        async def tx(now: float) -> StakeLimit | None:
            row = await One(
                "SELECT max_stake, max_buy_in FROM stake_limits WHERE guild_id = ? AND role_id = ?",
                (guild_id, role_id),
            )
            if row is None:
                return None
            left = StakeLimit(role_id, None if stake else row["max_stake"], None if buy_in else row["max_buy_in"])
            if left.max_stake is None and left.max_buy_in is None:
                await Exec("DELETE FROM stake_limits WHERE guild_id = ? AND role_id = ?", (guild_id, role_id))
                return None
            await Exec(
                "UPDATE stake_limits SET max_stake = ?, max_buy_in = ?, updated_by = ?, updated_at = ?"
                " WHERE guild_id = ? AND role_id = ?",
                (left.max_stake, left.max_buy_in, actor_id, now, guild_id, role_id),
            )
            return left

        return await self.db._transaction(tx)


def effective_stake_limits(
    limits: Iterable[StakeLimit], role_ids: Sequence[int]
) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """The largest stake and buy-in for a member with ``role_ids``, each as ``(limit, whose)`` (``whose``: the role id,
    or :data:`SERVER`), None when unlimited. Of each kind, the most generous of the member's roles that limit it
    overrides the server's (a role may allow more than the server, or less); without such a role, the server's."""
    held = set(role_ids)
    found: list[tuple[int, int] | None] = []
    rows = list(limits)
    for kind in ("max_stake", "max_buy_in"):
        roles = [(getattr(r, kind), r.role_id) for r in rows if r.role_id != SERVER and r.role_id in held]
        roles = [(value, role) for value, role in roles if value is not None]
        if roles:
            found.append(max(roles, key=lambda pair: (pair[0], -pair[1])))
            continue
        server = next((getattr(r, kind) for r in rows if r.role_id == SERVER), None)
        found.append(None if server is None else (server, SERVER))
    return found[0], found[1]
