"""The limits a member meets when they sit down, and the one check every seating path makes.

:func:`check_can_sit` is what the table runtime (a host's seat from ``/play``, **Join** in a lobby) and any later way of
seating members (tournaments) call before a member takes a seat or pays a buy-in. It refuses, with a
:class:`~bot.errors.UserError` that names the limit and, for the member's own limits, the time it ends:

1. a practice table: never refused (no chips move; ``/howto`` and ``/learn`` are open as well);
2. a self-exclusion in force;
3. a daily or weekly loss limit the member is at or over (:mod:`bot.limits.losses`);
4. a stake or a buy-in above the largest the server allows the member (their roles' or the server's,
   :func:`bot.storage.limits.effective_stake_limits`).

A seat already taken is never taken back: a member excluded, or reaching a loss limit, while at a table plays that
game to its end (nothing is forfeited) and is refused the next seat.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.errors import UserError
from bot.limits.losses import Over, over_limit
from bot.storage.limits import (
    SERVER,
    WINDOWS,
    LimitsQueries,
    MemberLimits,
    effective_stake_limits,
)

if TYPE_CHECKING:
    from bot.storage import Database

CACHE_SECONDS = 30.0
"""How long a member's limits read for their panel's reminder are trusted (changes made here refresh them at once; a
change made through another bot process is seen within this time)."""


def when(at: float) -> int:
    """A time as the messages show it (``<t:{until}:f>``, a Discord timestamp in each reader's own time zone and
    language): whole seconds, rounded up, so never before ``at``."""
    return math.ceil(at)


class Limits:
    """The members' limits and the servers' stake limits, read and kept through :class:`LimitsQueries`."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.queries = LimitsQueries(db)
        self.clock = clock
        self._cached: dict[tuple[int, int], tuple[float, MemberLimits]] = {}

    # ------------------------------------------------------------------ reading

    async def member(self, guild_id: int, user_id: int) -> MemberLimits:
        """The member's limits as they are now (pending changes due applied)."""
        limits = await self.queries.member(guild_id, user_id)
        self._cached[(guild_id, user_id)] = (self.clock(), limits)
        return limits.at(self.clock())

    async def member_cached(self, guild_id: int, user_id: int) -> MemberLimits:
        """:meth:`member`, read again at most every :data:`CACHE_SECONDS` (a panel is drawn at every move)."""
        kept = self._cached.get((guild_id, user_id))
        if kept is not None and self.clock() - kept[0] < CACHE_SECONDS:
            return kept[1].at(self.clock())
        if len(self._cached) > 10_000:
            self._cached.clear()
        return await self.member(guild_id, user_id)

    def changed(self, limits: MemberLimits) -> None:
        """The member's limits were just written: what they are now."""
        self._cached[(limits.guild_id, limits.user_id)] = (self.clock(), limits)

    async def over(self, limits: MemberLimits) -> list[Over]:
        """The loss limits the member is at or over now (daily first)."""
        now = self.clock()
        wanted = {w: limits.loss_limit(w).limit for w in WINDOWS}
        if not any(wanted.values()):
            return []
        losses = await self.queries.losses(limits.guild_id, limits.user_id, now - max(WINDOWS.values()))
        found = []
        for window, limit in wanted.items():
            if limit is not None and (reached := over_limit(losses, window, limit, now)) is not None:
                found.append(reached)
        return found

    # ------------------------------------------------------------------ the check

    async def check(
        self, guild_id: int, user_id: int, role_ids: Sequence[int], stake: int, buy_in: int, practice: bool
    ) -> None:
        """Refuse (:class:`UserError`) a member who may not sit at this table; see the module's docstring."""
        if practice:
            return
        limits = await self.member(guild_id, user_id)
        if limits.excluded_until is not None:
            until = limits.excluded_until
            raise UserError("limits.refused_excluded", until=when(until))
        for reached in await self.over(limits):
            raise UserError(
                f"limits.refused_{reached.window}",
                lost=f"{reached.lost:,}",
                limit=f"{reached.limit:,}",
                until=when(reached.until),
            )
        most_stake, most_buy_in = effective_stake_limits(await self.queries.stake_limits(guild_id), role_ids)
        if most_stake is not None and stake > most_stake[0]:
            raise _over_stake("stake", stake, most_stake)
        if most_buy_in is not None and buy_in > most_buy_in[0]:
            raise _over_stake("buy_in", buy_in, most_buy_in)


def _over_stake(kind: str, asked: int, limit: tuple[int, int]) -> UserError:
    value, whose = limit
    if whose == SERVER:
        return UserError(f"limits.refused_{kind}_server", asked=f"{asked:,}", limit=f"{value:,}")
    return UserError(f"limits.refused_{kind}_role", asked=f"{asked:,}", limit=f"{value:,}", role=f"<@&{whose}>")


def role_ids(guild: discord.Guild, user: discord.abc.User) -> list[int]:
    """The member's roles in the server (none known for a user who is not a cached member)."""
    member: Any = user if isinstance(user, discord.Member) else guild.get_member(user.id)
    return [role.id for role in getattr(member, "roles", None) or []]


def service_of(client: discord.Client) -> Limits:
    """The limits of this bot (the limits cog keeps them)."""
    cog = client.get_cog("LimitsCog") if isinstance(client, commands.Bot) else None
    found = getattr(cog, "limits", None)
    if not isinstance(found, Limits):
        raise RuntimeError("the limits cog is not loaded: nobody could be refused a seat")
    return found


async def check_can_sit(
    interaction: discord.Interaction, user: discord.abc.User, stake: int, buy_in: int, practice: bool
) -> None:
    """Refuse (:class:`UserError`, with the reason and, for the member's own limits, when it ends) a member who may
    not take a seat at a table of the interaction's server with this ``stake`` and ``buy_in`` (chips); a practice
    table is always open. Call it on every path that seats a member or takes their buy-in, before anything is
    written."""
    guild = interaction.guild
    if user.bot or guild is None:
        return
    await service_of(interaction.client).check(guild.id, user.id, role_ids(guild, user), stake, buy_in, practice)
