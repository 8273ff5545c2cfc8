"""``/season start|end|show``: a server's seasons (:mod:`bot.storage.seasons`).

A moderator starts a season, optionally bringing every balance back to the starting balance (one ledger movement
per member) and starting every rating afresh, and ends it; everyone may look at a season. The start and the end are
announced in the channel, in the server's language; a refusal (another season running, a name taken, chip tables
open for a balance reset, no season to end, an unknown season) is private and changes nothing. The season's boards
are ``/leaderboard season:<name>`` (bot/cogs/economy.py), with the season's name completed as it is typed.

``/season`` is not hidden from members (``/season show`` is theirs); ``start`` and ``end`` check the moderator
permission themselves, as ``/rules set`` does.

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.moderation import require_moderator
from bot.errors import UserError, guarded
from bot.i18n import lang_of, t
from bot.i18n.translator import L
from bot.storage.seasons import NAME_LIMIT, Season, SeasonQueries, name_key

if TYPE_CHECKING:
    from bot.app import FudabaBot

COLOUR = discord.Colour.from_rgb(0x00, 0x89, 0x7B)
TOP = 5
"""Members listed by chips won in ``/season show`` (and 3 in the end's announcement)."""
MAX_CHOICES = 25  # Discord's autocomplete limit


def _chips(n: int) -> str:
    return f"{n:+,}"


def when(at: float) -> str:
    """A moment as Discord shows it to each reader, in their own time zone and language."""
    return f"<t:{int(at)}:f>"


async def season_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The server's seasons whose names hold what was typed, newest first."""
    if interaction.guild_id is None:
        return []
    bot: FudabaBot = interaction.client  # type: ignore[assignment]
    typed = name_key(current)
    seasons = await SeasonQueries(bot.db).list(interaction.guild_id, limit=100)
    return [app_commands.Choice(name=s.name, value=s.name) for s in seasons if typed in name_key(s.name)][:MAX_CHOICES]


async def top_lines(queries: SeasonQueries, season: Season, count: int) -> list[str]:
    board = await queries.chips_board(season, limit=count)
    return [f"**{e.rank}.** <@{e.user_id}> {_chips(e.value)}" for e in board.entries]


class SeasonsCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot

    season = app_commands.Group(
        name="season",
        description=L("Seasons: a fresh start with boards of its own", "seasons.cmd_group"),
        guild_only=True,
    )

    @season.command(name="start", description=L("Start a season (moderators)", "seasons.cmd_start"))
    @app_commands.describe(
        name=L("The season's name (unique in this server)", "seasons.cmd_start_name"),
        reset_balances=L(
            "Bring every balance back to the starting balance (a ledger movement each)",
            "seasons.cmd_start_reset_balances",
        ),
        reset_ratings=L(
            "Start every rating afresh (the old ratings stay in past seasons' boards)",
            "seasons.cmd_start_reset_ratings",
        ),
    )
    @guarded
    async def start(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, NAME_LIMIT],
        reset_balances: bool = False,
        reset_ratings: bool = False,
    ) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        started = await SeasonQueries(self.bot.db).start(
            interaction.guild_id,
            name,
            actor_id=interaction.user.id,
            reset_balances=reset_balances,
            reset_ratings=reset_ratings,
        )
        season = started.season
        lang = lang_of(interaction.guild_locale or interaction.locale)
        lines = [t("seasons.started", lang, name=season.name, mod=interaction.user.mention)]
        if reset_balances:
            config = await self.bot.db.get_config(interaction.guild_id)
            lines.append(
                t(
                    "seasons.started_balances",
                    lang,
                    amount=f"{config.starting_balance:,}",
                    count=f"{started.reset:,}",
                    granted=f"{started.granted:,}",
                    taken=f"{started.taken:,}",
                )
            )
        if reset_ratings:
            lines.append(t("seasons.started_ratings", lang))
        lines.append(t("seasons.started_boards", lang, name=season.name))
        await interaction.response.send_message("\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    @season.command(name="end", description=L("End the running season (moderators)", "seasons.cmd_end"))
    @guarded
    async def end(self, interaction: discord.Interaction) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        queries = SeasonQueries(self.bot.db)
        season = await queries.end(interaction.guild_id, actor_id=interaction.user.id)
        lang = lang_of(interaction.guild_locale or interaction.locale)
        lines = [t("seasons.ended", lang, name=season.name, mod=interaction.user.mention)]
        top = await top_lines(queries, season, 3)
        lines.append(t("seasons.ended_top", lang, top=" · ".join(top)) if top else t("seasons.ended_nobody", lang))
        lines.append(t("seasons.ended_boards", lang, name=season.name))
        await interaction.response.send_message("\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    @season.command(name="show", description=L("A season: when it ran, its resets and its leaders", "seasons.cmd_show"))
    @app_commands.describe(name=L("Which season (default: the running one)", "seasons.cmd_show_name"))
    @app_commands.autocomplete(name=season_names)
    @guarded
    async def show(self, interaction: discord.Interaction, name: str | None = None) -> None:
        if interaction.guild_id is None:
            raise UserError("ratings.guild_only")
        queries = SeasonQueries(self.bot.db)
        lang = lang_of(interaction.locale)
        season = await queries.find(interaction.guild_id, name) if name else await queries.running(interaction.guild_id)
        if season is None:
            past = await queries.list(interaction.guild_id)
            text = t("seasons.show_none", lang)
            text += "\n" + (
                t("seasons.show_past", lang, names=", ".join(f"**{s.name}**" for s in past))
                if past
                else t("seasons.show_never", lang)
            )
            await interaction.response.send_message(text, ephemeral=True)
            return
        embed = discord.Embed(title=t("seasons.show_title", lang, name=season.name), colour=COLOUR)
        mod = f"<@{season.started_by}>"
        if season.ended_at is None:
            lines = [t("seasons.show_running", lang, start=when(season.started_at), mod=mod)]
        else:
            lines = [
                t(
                    "seasons.show_ended",
                    lang,
                    start=when(season.started_at),
                    end=when(season.ended_at),
                    mod=mod,
                    ender=f"<@{season.ended_by}>",
                )
            ]
        resets = [
            t(key, lang)
            for key, done in (
                ("seasons.reset_balances", season.reset_balances),
                ("seasons.reset_ratings", season.reset_ratings),
            )
            if done
        ]
        lines.append(
            t("seasons.show_resets", lang, resets=", ".join(resets) if resets else t("seasons.reset_none", lang))
        )
        figures = await queries.figures(season)
        lines.append(
            t(
                "seasons.show_figures",
                lang,
                deals=f"{figures.deals:,}",
                games=f"{figures.rated_games:,}",
                members=f"{figures.members:,}",
            )
        )
        embed.description = "\n".join(lines)
        top = await top_lines(queries, season, TOP)
        if top:
            embed.add_field(name=t("seasons.show_top", lang), value="\n".join(top), inline=False)
        embed.set_footer(text=t("seasons.started_boards", lang, name=season.name).replace("`", ""))
        await interaction.response.send_message(embed=embed, ephemeral=True)
