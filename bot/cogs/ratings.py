"""``/rating [member] [game]`` and ``/ratings rebuild game``: skill ratings (:mod:`bot.storage.ratings`).

A member's rating in each game they have finished a chip game of, with at least one other member: the conservative
ordinal (mu - 3 sigma, openskill's ``ordinal()``), mu and sigma, the rated games it counts, a "provisional" mark for
the first :data:`~bot.storage.ratings.PROVISIONAL_GAMES`, and the member's rank among the server's rated members of
that game. Ratings come from the final standings of finished games, which every player saw, so anyone's may be
looked up; the answer is private, as ``/stats``'s is. ``/leaderboard game by:rating`` lists them (bot/cogs/economy.py).

``/ratings rebuild game`` (moderators) recomputes a game's ratings from the stored standings and says whether they all
matched what the games rated one at a time had stored (any that differ are corrected).

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.economy import GAME_CHOICES, game_name
from bot.cogs.moderation import MODERATOR_ONLY, require_moderator
from bot.errors import UserError, guarded
from bot.i18n import lang_of, t
from bot.i18n.translator import L
from bot.storage.ratings import PROVISIONAL_GAMES, MemberRating, RatingQueries
from games.registry import all_games

if TYPE_CHECKING:
    from bot.app import FudabaBot

COLOUR = discord.Colour.from_rgb(0x8E, 0x24, 0xAA)


def figure(value: float) -> str:
    """A rating figure as shown: one decimal (``18.4``, ``-3.0``), the same in both languages."""
    return f"{value:.1f}"


def rating_text(found: MemberRating, lang: str) -> str:
    """One game's rating as ``/rating`` shows it."""
    rating = found.rating
    lines = [
        t("ratings.line_rating", lang, ordinal=figure(rating.ordinal), rank=found.rank, total=found.total),
        t(
            "ratings.line_detail",
            lang,
            mu=f"{rating.mu:.2f}",
            sigma=f"{rating.sigma:.2f}",
            games=rating.games,
        ),
    ]
    if rating.provisional:
        lines.append(
            t("ratings.line_provisional", lang, games=PROVISIONAL_GAMES, left=PROVISIONAL_GAMES - rating.games)
        )
    return "\n".join(lines)


class RatingsCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot

    @app_commands.command(
        name="rating",
        description=L(
            "A member's skill rating in each game (or in one), with their rank in this server", "ratings.cmd"
        ),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        member=L("Whose rating to show (default: yours)", "ratings.cmd_member"),
        game=L("Only this game's rating", "ratings.cmd_game"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @guarded
    async def rating(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise UserError("ratings.guild_only")
        target = member or interaction.user
        if target.bot:
            raise UserError("ratings.no_bots")
        lang = lang_of(interaction.locale)
        queries = RatingQueries(self.bot.db)
        games = [game.value] if game else list(all_games())
        found = [(g, await queries.member(interaction.guild_id, target.id, g)) for g in games]
        rated = [(g, r) for g, r in found if r is not None]
        if not rated:
            mine = target.id == interaction.user.id
            if game is None:
                raise UserError("ratings.none_mine" if mine else "ratings.none", name=target.display_name)
            name = game_name(game.value, lang)
            raise UserError(
                "ratings.none_game_mine" if mine else "ratings.none_game", name=target.display_name, game=name
            )
        title = (
            t("ratings.title_game", lang, name=target.display_name, game=game_name(game.value, lang))
            if game
            else t("ratings.title", lang, name=target.display_name)
        )
        embed = discord.Embed(title=title, colour=COLOUR)
        for game_id, result in rated:
            label = game_name(game_id, lang)
            if result.rating.provisional:
                label += f" · {t('ratings.provisional', lang)}"
            embed.add_field(name=label, value=rating_text(result, lang), inline=False)
        embed.set_footer(text=t("ratings.footer", lang))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ------------------------------------------------------------------ /ratings rebuild

    ratings = app_commands.Group(
        name="ratings",
        description=L("Skill ratings (moderators)", "ratings.cmd_group"),
        guild_only=True,
        default_permissions=MODERATOR_ONLY,
    )

    @ratings.command(
        name="rebuild",
        description=L("Recompute a game's ratings from the stored results and check them", "ratings.cmd_rebuild"),
    )
    @app_commands.describe(game=L("Which game's ratings", "ratings.cmd_rebuild_game"))
    @app_commands.choices(game=GAME_CHOICES)
    @guarded
    async def rebuild(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        done = await RatingQueries(self.bot.db).rebuild(interaction.guild_id, game.value)
        lang = lang_of(interaction.locale)
        await interaction.followup.send(
            t(
                "ratings.rebuilt_fixed" if done.differed else "ratings.rebuilt_same",
                lang,
                game=game_name(game.value, lang),
                games=f"{done.games:,}",
                ratings=f"{done.ratings:,}",
                seasons=f"{done.season_ratings:,}",
                differed=f"{done.differed:,}",
            ),
            ephemeral=True,
        )
