"""``/limits``: a member's own limits on play (always private); ``/server-limits``: the moderators' stake limits, and
whether a member is self-excluded. The rules themselves are in :mod:`bot.limits`.

``/limits`` is every member's and answers only the member, privately. ``/server-limits`` carries
``default_permissions(manage_guild=True)`` so Discord hides it from members, and checks the moderator again. No
command lifts or shortens a member's self-exclusion, and none shows moderators a member's loss limits or reminders.

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.moderation import MODERATOR_ONLY, require_moderator
from bot.errors import UserError, guarded
from bot.i18n import t
from bot.i18n.translator import L
from bot.limits.confirm import CancelExclusion, ConfirmExclusion, warning_view
from bot.limits.losses import net_lost
from bot.limits.reminder import Reminders
from bot.limits.service import Limits
from bot.storage.limits import (
    BUY_IN_RANGE,
    DAY,
    EXCLUSION_DAYS,
    LOSS_RANGE,
    SERVER,
    STAKE_RANGE,
    WINDOWS,
    LossLimit,
    MemberLimits,
    StakeLimit,
    Window,
)

if TYPE_CHECKING:
    from bot.app import FudabaBot

COLOUR = 0x00897B
PERIOD_CHOICES = [
    app_commands.Choice(name=L("1 day", "limits.period_1"), value=1),
    app_commands.Choice(name=L("1 week", "limits.period_7"), value=7),
    app_commands.Choice(name=L("1 month (30 days)", "limits.period_30"), value=30),
    app_commands.Choice(name=L("3 months (90 days)", "limits.period_90"), value=90),
    app_commands.Choice(name=L("6 months (182 days)", "limits.period_182"), value=182),
    app_commands.Choice(name=L("1 year (365 days)", "limits.period_365"), value=365),
]
WINDOW_CHOICES = [
    app_commands.Choice(name=L("daily (the last 24 hours)", "limits.window_choice_daily"), value="daily"),
    app_commands.Choice(name=L("weekly (the last 7 days)", "limits.window_choice_weekly"), value="weekly"),
]
REMINDER_CHOICES = [
    app_commands.Choice(name=L("off", "limits.reminder_choice_off"), value=0),
    *(
        app_commands.Choice(name=L(f"every {m} minutes", f"limits.reminder_choice_{m}"), value=m)
        for m in (15, 30, 60, 90, 120, 180)
    ),
]
KINDS = [
    app_commands.Choice(name=L("stake and buy-in", "limits.kind_both"), value="both"),
    app_commands.Choice(name=L("stake", "limits.kind_stake"), value="stake"),
    app_commands.Choice(name=L("buy-in", "limits.kind_buy_in"), value="buy_in"),
]


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:  # the commands are guild_only; this is a guard, not a path
        raise UserError("economy.guild_only")
    return interaction.guild_id


def loss_line(limit: LossLimit, window: Window, lost: int, locale: object) -> str:
    """A loss limit as ``/limits show`` puts it: the limit in force, the net at tables in its window, and a pending
    raise or removal with its time."""
    net = f"{-lost:+,}"
    if limit.limit is None:
        line = t("limits.show_no_loss_limit", locale, net=net)
    else:
        line = t(f"limits.show_loss_{window}", locale, limit=f"{limit.limit:,}", net=net)
    if limit.next is not None and limit.next_at is not None:
        at = int(limit.next_at)
        if limit.next:
            line += "\n" + t("limits.show_pending_raise", locale, limit=f"{limit.next:,}", at=at)
        else:
            line += "\n" + t("limits.show_pending_removal", locale, at=at)
    return line


def stake_line(row: StakeLimit | None, locale: object) -> str:
    if row is None:
        return t("limits.server_none", locale)
    parts = []
    if row.max_stake is not None:
        parts.append(t("limits.server_max_stake", locale, limit=f"{row.max_stake:,}"))
    if row.max_buy_in is not None:
        parts.append(t("limits.server_max_buy_in", locale, limit=f"{row.max_buy_in:,}"))
    return " · ".join(parts)


class LimitsCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot
        self.limits = Limits(bot.db, bot.clock)
        """What :func:`bot.limits.check_can_sit` asks (it finds this cog by name)."""
        self.reminders = Reminders(self.limits)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ConfirmExclusion, CancelExclusion)
        notes = self.bot.tables.panels.note_sources
        if self.reminders.note not in notes:
            notes.append(self.reminders.note)

    async def cog_unload(self) -> None:
        notes = self.bot.tables.panels.note_sources
        if self.reminders.note in notes:
            notes.remove(self.reminders.note)
        self.bot.remove_dynamic_items(ConfirmExclusion, CancelExclusion)

    # ------------------------------------------------------------------ /limits (the member's own)

    limits_group = app_commands.Group(
        name="limits",
        description=L("Your own limits on play in this server (only you see them)", "limits.cmd"),
        guild_only=True,
    )

    @limits_group.command(name="show", description=L("Your limits, and your net at tables lately", "limits.cmd_show"))
    @guarded
    async def show(self, interaction: discord.Interaction) -> None:
        guild_id = _guild(interaction)
        locale = interaction.locale
        mine = await self.limits.member(guild_id, interaction.user.id)
        now = self.limits.clock()
        losses = await self.limits.queries.losses(guild_id, interaction.user.id, now - max(WINDOWS.values()))
        embed = discord.Embed(title=t("limits.show_title", locale), colour=COLOUR)
        if mine.excluded_until is not None:
            excluded = t("limits.show_excluded", locale, until=int(mine.excluded_until))
        else:
            excluded = t("limits.show_not_excluded", locale)
        embed.add_field(name=t("limits.f_exclusion", locale), value=excluded, inline=False)
        for window in WINDOWS:
            embed.add_field(
                name=t(f"limits.f_{window}", locale),
                value=loss_line(mine.loss_limit(window), window, net_lost(losses, window, now), locale),
                inline=False,
            )
        reminder = (
            t("limits.show_reminder", locale, minutes=mine.reminder_minutes)
            if mine.reminder_minutes
            else t("limits.show_reminder_off", locale)
        )
        embed.add_field(name=t("limits.f_reminder", locale), value=reminder, inline=False)
        embed.set_footer(text=t("limits.show_footer", locale))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @limits_group.command(
        name="exclude",
        description=L("Exclude yourself from play here for a period; it cannot be undone", "limits.cmd_exclude"),
    )
    @app_commands.describe(
        period=L("How long", "limits.cmd_exclude_period"),
        days=L("Or a number of days (1–365)", "limits.cmd_exclude_days"),
    )
    @app_commands.choices(period=PERIOD_CHOICES)
    @guarded
    async def exclude(
        self,
        interaction: discord.Interaction,
        period: app_commands.Choice[int] | None = None,
        days: app_commands.Range[int, EXCLUSION_DAYS[0], EXCLUSION_DAYS[1]] | None = None,
    ) -> None:
        guild_id = _guild(interaction)
        if (period is None) == (days is None):
            raise UserError("limits.exclude_choose_one")
        length = period.value if period is not None else days
        assert length is not None
        lo, hi = EXCLUSION_DAYS
        if not lo <= length <= hi:
            raise UserError("limits.exclusion_out_of_range", lo=lo, hi=hi)
        asked = int(self.limits.clock())
        until = asked + int(length * DAY)
        mine = await self.limits.member(guild_id, interaction.user.id)
        if mine.excluded_until is not None and mine.excluded_until > until:
            raise UserError("limits.already_excluded", until=int(mine.excluded_until))
        await interaction.response.send_message(
            t("limits.exclude_warning", interaction.locale, days=length, until=until),
            view=warning_view(length, interaction.user.id, asked, interaction.locale),
            ephemeral=True,
        )

    @limits_group.command(
        name="loss",
        description=L(
            "A daily or weekly loss limit: lowering is at once, raising or removing takes 24 hours", "limits.cmd_loss"
        ),
    )
    @app_commands.describe(
        window=L("Over the last 24 hours, or the last 7 days", "limits.cmd_loss_window"),
        amount=L("Net chips you may lose at tables in that time (0 removes the limit)", "limits.cmd_loss_amount"),
    )
    @app_commands.choices(window=WINDOW_CHOICES)
    @guarded
    async def loss(
        self,
        interaction: discord.Interaction,
        window: app_commands.Choice[str],
        amount: app_commands.Range[int, 0, LOSS_RANGE[1]],
    ) -> None:
        guild_id = _guild(interaction)
        which: Window = "weekly" if window.value == "weekly" else "daily"
        stored, change = await self.limits.queries.set_loss_limit(guild_id, interaction.user.id, which, amount or None)
        self.limits.changed(stored)
        limit = stored.loss_limit(which)
        locale = interaction.locale
        what = t(f"limits.what_{which}", locale)
        if change == "later":
            assert limit.next_at is not None and limit.limit is not None
            key = "limits.loss_later" if limit.next else "limits.loss_later_removed"
            said = t(
                key, locale, what=what, limit=f"{limit.limit:,}", next=f"{limit.next or 0:,}", at=int(limit.next_at)
            )
        elif limit.limit is None:
            said = t("limits.loss_none", locale, what=what)
        else:
            key = {"now": "limits.loss_now", "kept": "limits.loss_kept", "cancelled": "limits.loss_cancelled"}[change]
            said = t(key, locale, what=what, limit=f"{limit.limit:,}")
        await interaction.response.send_message(said, ephemeral=True)

    @limits_group.command(
        name="reminder", description=L("Be reminded of your time at a table, every so often", "limits.cmd_reminder")
    )
    @app_commands.describe(every=L("How often (off: never)", "limits.cmd_reminder_every"))
    @app_commands.choices(every=REMINDER_CHOICES)
    @guarded
    async def reminder(self, interaction: discord.Interaction, every: app_commands.Choice[int]) -> None:
        guild_id = _guild(interaction)
        stored = await self.limits.queries.set_reminder(guild_id, interaction.user.id, every.value or None)
        self.limits.changed(stored)
        if stored.reminder_minutes:
            said = t("limits.reminder_set", interaction.locale, minutes=stored.reminder_minutes)
        else:
            said = t("limits.reminder_off", interaction.locale)
        await interaction.response.send_message(said, ephemeral=True)

    # ------------------------------------------------------------------ /server-limits (moderators)

    server = app_commands.Group(
        name="server-limits",
        description=L("Largest stakes and buy-ins here, and who is self-excluded (moderators)", "limits.cmd_server"),
        guild_only=True,
        default_permissions=MODERATOR_ONLY,
    )

    @server.command(name="show", description=L("The server's and the roles' stake limits", "limits.cmd_server_show"))
    @guarded
    async def server_show(self, interaction: discord.Interaction) -> None:
        await require_moderator(interaction)
        guild_id = _guild(interaction)
        await interaction.response.send_message(
            embed=await self._server_embed(guild_id, interaction.locale), ephemeral=True
        )

    async def _server_embed(self, guild_id: int, locale: object) -> discord.Embed:
        rows = await self.limits.queries.stake_limits(guild_id)
        embed = discord.Embed(title=t("limits.server_title", locale), colour=COLOUR)
        own = next((r for r in rows if r.role_id == SERVER), None)
        embed.add_field(name=t("limits.server_everyone", locale), value=stake_line(own, locale), inline=False)
        roles = [f"<@&{r.role_id}>: {stake_line(r, locale)}" for r in rows if r.role_id != SERVER]
        if roles:
            embed.add_field(name=t("limits.server_roles", locale), value="\n".join(roles)[:1024], inline=False)
        embed.set_footer(text=t("limits.server_footer", locale))
        return embed

    @server.command(
        name="set",
        description=L("Set the largest stake and/or buy-in, for everyone or a role", "limits.cmd_server_set"),
    )
    @app_commands.describe(
        stake=L("Largest stake: chips per game point (1–1,000,000)", "limits.cmd_server_stake"),
        buy_in=L("Largest buy-in in chips (1–1,000,000,000)", "limits.cmd_server_buy_in"),
        role=L("Only for this role's members (their most generous role counts)", "limits.cmd_server_role"),
    )
    @guarded
    async def server_set(
        self,
        interaction: discord.Interaction,
        stake: app_commands.Range[int, STAKE_RANGE[0], STAKE_RANGE[1]] | None = None,
        buy_in: app_commands.Range[int, BUY_IN_RANGE[0], BUY_IN_RANGE[1]] | None = None,
        role: discord.Role | None = None,
    ) -> None:
        await require_moderator(interaction)
        guild_id = _guild(interaction)
        if stake is None and buy_in is None:
            raise UserError("limits.nothing_to_set")
        await self.limits.queries.set_stake_limit(
            guild_id, self._role_id(role), max_stake=stake, max_buy_in=buy_in, actor_id=interaction.user.id
        )
        await interaction.response.send_message(
            t("limits.server_saved", interaction.locale),
            embed=await self._server_embed(guild_id, interaction.locale),
            ephemeral=True,
        )

    @server.command(
        name="clear", description=L("Remove a stake or buy-in limit, for everyone or a role", "limits.cmd_server_clear")
    )
    @app_commands.describe(
        what=L("Which limit to remove (default: both)", "limits.cmd_server_what"),
        role=L("The role's limit (none: the server's own)", "limits.cmd_server_clear_role"),
    )
    @app_commands.choices(what=KINDS)
    @guarded
    async def server_clear(
        self,
        interaction: discord.Interaction,
        what: app_commands.Choice[str] | None = None,
        role: discord.Role | None = None,
    ) -> None:
        await require_moderator(interaction)
        guild_id = _guild(interaction)
        kind = what.value if what is not None else "both"
        await self.limits.queries.clear_stake_limit(
            guild_id,
            self._role_id(role),
            stake=kind in ("both", "stake"),
            buy_in=kind in ("both", "buy_in"),
            actor_id=interaction.user.id,
        )
        await interaction.response.send_message(
            t("limits.server_saved", interaction.locale),
            embed=await self._server_embed(guild_id, interaction.locale),
            ephemeral=True,
        )

    @staticmethod
    def _role_id(role: discord.Role | None) -> int:
        if role is None:
            return SERVER
        if role.is_default():
            raise UserError("limits.everyone_is_server")
        return role.id

    @server.command(
        name="member",
        description=L("Whether a member has excluded themself from play here, and until when", "limits.cmd_member"),
    )
    @app_commands.describe(member=L("The member", "limits.cmd_member_member"))
    @guarded
    async def server_member(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await require_moderator(interaction)
        guild_id = _guild(interaction)
        theirs: MemberLimits = await self.limits.member(guild_id, member.id)
        if theirs.excluded_until is not None and theirs.excluded_from is not None:
            said = t(
                "limits.member_excluded",
                interaction.locale,
                member=member.mention,
                since=int(theirs.excluded_from),
                until=int(theirs.excluded_until),
            )
        else:
            said = t("limits.member_not_excluded", interaction.locale, member=member.mention)
        await interaction.response.send_message(said, ephemeral=True)
