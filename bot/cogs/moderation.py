"""``/chips grant|take`` and ``/config show|set|channels``: what a server's moderators control.

Both groups carry ``default_permissions(manage_guild=True)`` so Discord hides them from members,
and every command checks again with ``bot.is_moderator`` because a server admin can grant a
command to anyone in Integrations settings (and the configured moderator role counts too).

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError, guarded
from bot.i18n import t
from bot.i18n.translator import L
from bot.storage import GuildConfig, InsufficientFunds
from bot.storage.retention import DAYS_RANGE, RetentionQueries, check_days

if TYPE_CHECKING:
    from bot.app import FudabaBot

MAX_CHIPS = 1_000_000_000
HOUR = 3600
# Mirrors bot.storage.economy.CONFIG_RANGES; Discord enforces these in the client before the bot sees them.
MAX_COOLDOWN_HOURS = 720  # 30 days
MIN_TURN_TIMER, MAX_TURN_TIMER = 10, 3600
COLOUR = discord.Colour.blurple()
MODERATOR_ONLY = discord.Permissions(manage_guild=True)


async def require_moderator(interaction: discord.Interaction) -> None:
    """Refuse (ephemerally, through ``@guarded``) anyone who is not a moderator of this server."""
    bot: FudabaBot = interaction.client  # type: ignore[assignment]
    if interaction.guild_id is None or not await bot.is_moderator(interaction):
        raise UserError("moderation.not_moderator")


def _chips(amount: int) -> str:
    return f"{amount:,}"


def _on_off(value: bool, locale: object) -> str:
    return t("moderation.on" if value else "moderation.off", locale)


def _duration(seconds: int, locale: object) -> str:
    from bot.cogs.economy import human_duration

    return human_duration(seconds, locale)


PLACE_CHOICES = [
    app_commands.Choice(name=L("thread", "cmd_economy.place_thread"), value="thread"),
    app_commands.Choice(name=L("channel", "cmd_economy.place_channel"), value="channel"),
]


def config_lines(config: GuildConfig, locale: object, hand_days: int | None = None) -> list[tuple[str, str]]:
    """Every setting as (label, value) in the reader's language (``hand_days``: how long hand details are kept,
    stored apart from :class:`GuildConfig`, :mod:`bot.storage.retention`)."""
    channels = " ".join(f"<#{c}>" for c in config.allowed_channel_ids) or t("moderation.all_channels", locale)
    role = f"<@&{config.moderator_role_id}>" if config.moderator_role_id else t("moderation.no_role", locale)
    return [
        (t("moderation.f_starting_balance", locale), _chips(config.starting_balance)),
        (t("moderation.f_daily_amount", locale), _chips(config.daily_amount)),
        (t("moderation.f_daily_cooldown", locale), _duration(config.daily_cooldown_seconds, locale)),
        (t("moderation.f_turn_timer", locale), t("moderation.seconds", locale, n=config.turn_timer_seconds)),
        (t("moderation.f_bot_pace", locale), t("moderation.seconds", locale, n=f"{config.bot_pace_ms / 1000:g}")),
        (t("moderation.f_table_place", locale), t(f"moderation.place_{config.table_place}", locale)),
        (
            t("moderation.f_correspondence_max", locale),
            t("moderation.hours", locale, n=config.correspondence_max_hours),
        ),
        (
            t("moderation.f_watch_delay", locale),
            t(f"moderation.watch_{'delayed' if config.watch_delay else 'live'}", locale),
        ),
        (t("moderation.f_bots_for_chips", locale), _on_off(config.bots_play_for_chips, locale)),
        (t("moderation.f_give_enabled", locale), _on_off(config.give_enabled, locale)),
        (t("moderation.f_moderator_role", locale), role),
        (t("moderation.f_channels", locale), channels),
        (
            t("moderation.f_keep_hands", locale),
            t("moderation.forever", locale) if hand_days is None else t("moderation.days", locale, n=f"{hand_days:,}"),
        ),
    ]


class ModerationCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot

    # ------------------------------------------------------------------ /chips

    chips = app_commands.Group(
        name="chips",
        description=L("Grant or take members' chips (moderators)", "cmd_economy.chips"),
        guild_only=True,
        default_permissions=MODERATOR_ONLY,
    )

    @chips.command(name="grant", description=L("Add chips to a member's balance", "cmd_economy.chips_grant"))
    @app_commands.describe(
        member=L("Who receives the chips", "cmd_economy.chips_member"),
        amount=L("How many chips", "cmd_economy.chips_amount"),
        reason=L("Why (kept in the ledger)", "cmd_economy.chips_reason"),
    )
    @guarded
    async def chips_grant(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        amount: app_commands.Range[int, 1, MAX_CHIPS],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        if member.bot:
            raise UserError("moderation.bot_member", name=member.display_name)
        transfer = await self.bot.db.grant(
            interaction.guild_id,
            member.id,
            amount,
            actor_id=interaction.user.id,
            note=reason,
            key=f"grant:{interaction.id}",
        )
        await interaction.response.send_message(
            t(
                "moderation.granted",
                interaction.locale,
                moderator=interaction.user.mention,
                member=member.mention,
                amount=_chips(amount),
                balance=_chips(transfer.recipient_balance or 0),
                reason=reason,
            ),
            allowed_mentions=discord.AllowedMentions(users=[member]),
        )

    @chips.command(
        name="take", description=L("Remove chips from a member's balance (never below 0)", "cmd_economy.chips_take")
    )
    @app_commands.describe(
        member=L("Whose chips to take", "cmd_economy.chips_take_member"),
        amount=L("How many chips (at most their balance)", "cmd_economy.chips_take_amount"),
        reason=L("Why (kept in the ledger)", "cmd_economy.chips_reason"),
    )
    @guarded
    async def chips_take(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        amount: app_commands.Range[int, 1, MAX_CHIPS],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        if member.bot:
            raise UserError("moderation.bot_member", name=member.display_name)
        try:
            transfer = await self.bot.db.take(
                interaction.guild_id,
                member.id,
                amount,
                actor_id=interaction.user.id,
                note=reason,
                key=f"take:{interaction.id}",
            )
        except InsufficientFunds as error:
            raise UserError(
                "moderation.take_too_much",
                name=member.display_name,
                amount=_chips(amount),
                balance=_chips(int(error.params["available"])),
            ) from None
        await interaction.response.send_message(
            t(
                "moderation.took",
                interaction.locale,
                moderator=interaction.user.mention,
                member=member.mention,
                amount=_chips(amount),
                balance=_chips(transfer.sender_balance or 0),
                reason=reason,
            ),
            allowed_mentions=discord.AllowedMentions(users=[member]),
        )

    # ------------------------------------------------------------------ /config

    config = app_commands.Group(
        name="config",
        description=L("Server settings for Fudaba (moderators)", "cmd_economy.config"),
        guild_only=True,
        default_permissions=MODERATOR_ONLY,
    )
    channels = app_commands.Group(
        name="channels",
        description=L("Channels where tables may open (none listed: every channel)", "cmd_economy.config_channels"),
        parent=config,
    )

    @config.command(name="show", description=L("Show this server's settings", "cmd_economy.config_show"))
    @guarded
    async def config_show(self, interaction: discord.Interaction) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        config = await self.bot.db.get_config(interaction.guild_id)
        hand_days = await RetentionQueries(self.bot.db).days(interaction.guild_id)
        await interaction.response.send_message(
            embed=self._config_embed(config, interaction.locale, hand_days), ephemeral=True
        )

    @staticmethod
    def _config_embed(config: GuildConfig, locale: object, hand_days: int | None = None) -> discord.Embed:
        embed = discord.Embed(title=t("moderation.config_title", locale), colour=COLOUR)
        for label, value in config_lines(config, locale, hand_days):
            embed.add_field(name=label, value=value, inline=True)
        if config.updated_by is not None and config.updated_at is not None:
            embed.description = t(
                "moderation.config_updated",
                locale,
                user=f"<@{config.updated_by}>",
                at=f"<t:{int(config.updated_at)}:f>",
            )
        return embed

    @config.command(name="set", description=L("Change one or more settings", "cmd_economy.config_set"))
    @app_commands.choices(table_place=PLACE_CHOICES)
    @app_commands.describe(
        starting_balance=L(
            "Chips a member receives on first use (0–1,000,000,000)", "cmd_economy.cfg_starting_balance"
        ),
        daily_amount=L("Chips paid by /daily (0–1,000,000,000)", "cmd_economy.cfg_daily_amount"),
        daily_cooldown_hours=L("Hours between two /daily claims (1–720)", "cmd_economy.cfg_daily_cooldown"),
        turn_timer=L("Seconds a player has to act before being marked away (10–3600)", "cmd_economy.cfg_turn_timer"),
        bot_pace=L("Seconds between bot players' moves, so people can follow them (0–10)", "cmd_economy.cfg_bot_pace"),
        table_place=L(
            "Where /play opens a table: its own thread (default) or the channel", "cmd_economy.cfg_table_place"
        ),
        correspondence_max_hours=L(
            "The longest a correspondence table may give each decision, in hours (1–168)",
            "cmd_economy.cfg_correspondence_max",
        ),
        watch_delay=L(
            "Watchers see each table one deal behind, never the deal in play (default: off)",
            "cmd_economy.cfg_watch_delay",
        ),
        bots_for_chips=L("Whether bot players may sit at tables played for chips", "cmd_economy.cfg_bots_for_chips"),
        give_enabled=L("Whether members may /give chips to each other", "cmd_economy.cfg_give_enabled"),
        moderator_role=L("A role whose members count as moderators here", "cmd_economy.cfg_moderator_role"),
        clear_moderator_role=L(
            "Remove the moderator role (only Manage Server remains)", "cmd_economy.cfg_clear_moderator_role"
        ),
        keep_hands_days=L(
            "Days to keep hand details (replays, hand exports) of finished tables (1–3650; default: forever)",
            "moderation.cfg_keep_hands_days",
        ),
        keep_hands_forever=L("Keep hand details forever again (the default)", "moderation.cfg_keep_hands_forever"),
    )
    @guarded
    async def config_set(
        self,
        interaction: discord.Interaction,
        starting_balance: app_commands.Range[int, 0, MAX_CHIPS] | None = None,
        daily_amount: app_commands.Range[int, 0, MAX_CHIPS] | None = None,
        daily_cooldown_hours: app_commands.Range[int, 1, MAX_COOLDOWN_HOURS] | None = None,
        turn_timer: app_commands.Range[int, MIN_TURN_TIMER, MAX_TURN_TIMER] | None = None,
        bot_pace: app_commands.Range[float, 0.0, 10.0] | None = None,
        table_place: app_commands.Choice[str] | None = None,
        correspondence_max_hours: app_commands.Range[int, 1, 168] | None = None,
        watch_delay: bool | None = None,
        bots_for_chips: bool | None = None,
        give_enabled: bool | None = None,
        moderator_role: discord.Role | None = None,
        clear_moderator_role: bool = False,
        keep_hands_days: app_commands.Range[int, DAYS_RANGE[0], DAYS_RANGE[1]] | None = None,
        keep_hands_forever: bool = False,
    ) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        changes: dict[str, Any] = {}
        if starting_balance is not None:
            changes["starting_balance"] = starting_balance
        if daily_amount is not None:
            changes["daily_amount"] = daily_amount
        if daily_cooldown_hours is not None:
            changes["daily_cooldown_seconds"] = daily_cooldown_hours * HOUR
        if turn_timer is not None:
            changes["turn_timer_seconds"] = turn_timer
        if bot_pace is not None:
            changes["bot_pace_ms"] = round(bot_pace * 1000)
        if table_place is not None:
            changes["table_place"] = table_place.value
        if correspondence_max_hours is not None:
            changes["correspondence_max_hours"] = correspondence_max_hours
        if watch_delay is not None:
            changes["watch_delay"] = watch_delay
        if bots_for_chips is not None:
            changes["bots_play_for_chips"] = bots_for_chips
        if give_enabled is not None:
            changes["give_enabled"] = give_enabled
        if moderator_role is not None and clear_moderator_role:
            raise UserError("moderation.role_and_clear")
        if moderator_role is not None:
            if moderator_role.is_default():
                raise UserError("moderation.role_everyone")
            changes["moderator_role_id"] = moderator_role.id
        if clear_moderator_role:
            changes["moderator_role_id"] = None
        if keep_hands_days is not None and keep_hands_forever:
            raise UserError("moderation.keep_hands_both")
        hand_days: int | bool | None = False  # False: unchanged; None: forever
        if keep_hands_forever:
            hand_days = None
        elif keep_hands_days is not None:
            hand_days = check_days(keep_hands_days)  # refused out of range (Discord's own check can be bypassed)
        if not changes and hand_days is False:
            raise UserError("moderation.nothing_to_set")
        await self._save(interaction, changes, hand_days)

    async def _save(
        self, interaction: discord.Interaction, changes: dict[str, Any], hand_days: int | bool | None = False
    ) -> None:
        """Store ``changes`` (and ``hand_days``, how long hand details are kept, unless False) and answer with the
        settings that actually changed, before → after."""
        assert interaction.guild_id is not None
        locale = interaction.locale
        db = self.bot.db
        retention = RetentionQueries(db)
        kept_before = await retention.days(interaction.guild_id)
        before = config_lines(await db.get_config(interaction.guild_id), locale, kept_before)
        after_config = (
            await db.set_config(interaction.guild_id, actor_id=interaction.user.id, **changes)
            if changes
            else await db.get_config(interaction.guild_id)
        )
        if hand_days is not False:
            await retention.set_days(interaction.guild_id, hand_days, actor_id=interaction.user.id)
        self.bot.tables.config_changed(interaction.guild_id)
        after = config_lines(after_config, locale, await retention.days(interaction.guild_id))
        diff = [
            f"• **{label}**: {old} → {new}" for (label, old), (_, new) in zip(before, after, strict=True) if old != new
        ]
        text = t("moderation.config_changed", locale) if diff else t("moderation.config_unchanged", locale)
        embed = discord.Embed(title=text, description="\n".join(diff) or None, colour=COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @channels.command(name="add", description=L("Allow tables in a channel", "cmd_economy.channels_add"))
    @app_commands.describe(channel=L("The channel", "cmd_economy.channels_channel"))
    @guarded
    async def channels_add(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        current = (await self.bot.db.get_config(interaction.guild_id)).allowed_channel_ids
        if channel.id in current:
            raise UserError("moderation.channel_already", channel=channel.mention)
        await self._save(interaction, {"allowed_channel_ids": (*current, channel.id)})

    @channels.command(name="remove", description=L("Stop allowing tables in a channel", "cmd_economy.channels_remove"))
    @app_commands.describe(channel=L("The channel", "cmd_economy.channels_channel"))
    @guarded
    async def channels_remove(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        current = (await self.bot.db.get_config(interaction.guild_id)).allowed_channel_ids
        if channel.id not in current:
            raise UserError("moderation.channel_not_listed", channel=channel.mention)
        await self._save(interaction, {"allowed_channel_ids": tuple(c for c in current if c != channel.id)})

    @channels.command(name="clear", description=L("Allow tables in every channel again", "cmd_economy.channels_clear"))
    @guarded
    async def channels_clear(self, interaction: discord.Interaction) -> None:
        await require_moderator(interaction)
        await self._save(interaction, {"allowed_channel_ids": ()})
