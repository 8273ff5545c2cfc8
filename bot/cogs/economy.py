"""``/balance``, ``/daily``, ``/give`` and ``/leaderboard``: a member's chips in this server.

``/leaderboard`` ranks by chips (balances, or net winnings at one game) or, ``by:rating``, by skill rating at one game
(:mod:`bot.storage.ratings`); ``season:<name>`` gives a season's board instead: the chips won in it, or the ratings
as they stood after each member's last game of it (:mod:`bot.storage.seasons`).

Wallets are per guild and belong to members only: Discord bots and the game's bot players never
get one, so they never appear on a leaderboard. Every chip movement goes through ``bot.storage``
(one transaction with a ledger row); the interaction id is the idempotency key, so a retried
interaction never pays twice.

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

import math
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.seasons import season_names
from bot.errors import UserError, guarded
from bot.i18n import lang_of, t
from bot.i18n.translator import L
from bot.storage import LeaderboardPage
from bot.storage.ratings import RatingQueries
from bot.storage.seasons import Season, SeasonQueries
from games.registry import all_games

if TYPE_CHECKING:
    from bot.app import FudabaBot

MAX_CHIPS = 1_000_000_000
PAGE_SIZE = 10
NO_GAME = "-"
COLOUR = discord.Colour.gold()

GAME_CHOICES = [
    app_commands.Choice(name=L(spec.name_en, f"cmd.game_{gid}"), value=gid) for gid, spec in all_games().items()
]
CHIPS, RATING = "chips", "rating"
BY_CHOICES = [
    app_commands.Choice(name=L("chips", "ratings.by_chips"), value=CHIPS),
    app_commands.Choice(name=L("rating", "ratings.by_rating"), value=RATING),
]


def chips(amount: int) -> str:
    """``1,234`` — the same grouping in both languages."""
    return f"{amount:,}"


def game_name(game_id: str, locale: object) -> str:
    spec = all_games()[game_id]
    return spec.name_ja if lang_of(locale) == "ja" else spec.name_en


def human_duration(seconds: float, locale: object) -> str:
    """A wait in words, at most two units, rounded up: ``3 hours 5 minutes`` / ``3時間5分``."""
    total = max(1, math.ceil(seconds))
    if total < 60:
        return _unit("second", total, locale)
    minutes = math.ceil(total / 60)
    if minutes >= 24 * 60:  # days and hours, the hours rounded up
        days, hours = divmod(math.ceil(minutes / 60), 24)
        units = [("day", days), ("hour", hours)]
    else:
        hours, mins = divmod(minutes, 60)
        units = [("hour", hours), ("minute", mins)]
    parts = [_unit(u, n, locale) for u, n in units if n]
    return ("" if lang_of(locale) == "ja" else " ").join(parts)


def _unit(unit: str, n: int, locale: object) -> str:
    return t(f"economy.{unit}_one" if n == 1 else f"economy.{unit}_many", locale, n=n)


def _guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:  # commands are guild_only; this is a guard, not a path
        raise UserError("economy.guild_only")
    return interaction.guild_id


class EconomyCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # Leaderboard pages keep working after a restart: the buttons carry their state in the id.
        self.bot.add_dynamic_items(LeaderboardButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LeaderboardButton)

    # ------------------------------------------------------------------ /balance

    @app_commands.command(
        name="balance", description=L("Show your chips (or a member's) and rank", "cmd_economy.balance")
    )
    @app_commands.guild_only()
    @app_commands.describe(member=L("Whose balance to show (default: yours)", "cmd_economy.balance_member"))
    @guarded
    async def balance(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        guild_id = _guild_id(interaction)
        locale = interaction.locale
        target = member or interaction.user
        if target.bot:
            raise UserError("economy.bot_no_wallet", name=target.display_name)
        db = self.bot.db
        is_self = target.id == interaction.user.id
        before = await db.rank(guild_id, target.id)
        if before is None and not is_self:
            # Looking someone up does not open their wallet: the starting credit is theirs to trigger.
            config = await db.get_config(guild_id)
            text = t("economy.no_wallet_yet", locale, name=target.display_name, amount=chips(config.starting_balance))
            await interaction.response.send_message(text, ephemeral=True)
            return
        wallet = await db.ensure_member(guild_id, target.id)
        rank = await db.rank(guild_id, target.id)
        embed = discord.Embed(
            colour=COLOUR,
            description=t("economy.balance_line", locale, mention=target.mention, amount=chips(wallet.balance)),
        )
        embed.set_author(name=target.display_name, icon_url=target.display_avatar.url)
        if rank is not None:
            total = (await db.leaderboard(guild_id, limit=1)).total
            embed.add_field(
                name=t("economy.rank_label", locale), value=t("economy.rank_value", locale, rank=rank.rank, total=total)
            )
        if before is None:
            embed.add_field(
                name=t("economy.welcome_label", locale),
                value=t("economy.welcome", locale, amount=chips(wallet.balance)),
                inline=False,
            )
        await interaction.response.send_message(embed=embed)

    # ------------------------------------------------------------------ /daily

    @app_commands.command(name="daily", description=L("Collect your daily chips", "cmd_economy.daily"))
    @app_commands.guild_only()
    @guarded
    async def daily(self, interaction: discord.Interaction) -> None:
        guild_id = _guild_id(interaction)
        locale = interaction.locale
        claim = await self.bot.db.claim_daily(guild_id, interaction.user.id, key=f"daily:{interaction.id}")
        if not claim.claimed:
            raise UserError(
                "economy.daily_not_ready", wait=human_duration(claim.retry_after, locale), balance=chips(claim.balance)
            )
        config = await self.bot.db.get_config(guild_id)
        await interaction.response.send_message(
            t(
                "economy.daily_claimed",
                locale,
                mention=interaction.user.mention,
                amount=chips(claim.amount),
                balance=chips(claim.balance),
                wait=human_duration(config.daily_cooldown_seconds, locale),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ------------------------------------------------------------------ /give

    @app_commands.command(name="give", description=L("Give some of your chips to another member", "cmd_economy.give"))
    @app_commands.guild_only()
    @app_commands.describe(
        member=L("Who receives the chips", "cmd_economy.give_member"),
        amount=L("How many chips (at most your balance)", "cmd_economy.give_amount"),
    )
    @guarded
    async def give(
        self, interaction: discord.Interaction, member: discord.Member, amount: app_commands.Range[int, 1, MAX_CHIPS]
    ) -> None:
        guild_id = _guild_id(interaction)
        locale = interaction.locale
        db = self.bot.db
        if not (await db.get_config(guild_id)).give_enabled:
            raise UserError("economy.give_disabled")
        if member.id == interaction.user.id:
            raise UserError("economy.give_self")
        if member.bot:
            raise UserError("economy.give_bot", name=member.display_name)
        balance = await db.balance(guild_id, interaction.user.id)
        if amount > balance:
            raise UserError("economy.give_too_much", amount=chips(amount), balance=chips(balance))
        transfer = await db.give(guild_id, interaction.user.id, member.id, amount, key=f"give:{interaction.id}")
        await interaction.response.send_message(
            t(
                "economy.gave",
                locale,
                sender=interaction.user.mention,
                recipient=member.mention,
                amount=chips(amount),
                balance=chips(transfer.sender_balance or 0),
            ),
            allowed_mentions=discord.AllowedMentions(users=[member]),
        )

    # ------------------------------------------------------------------ /leaderboard

    @app_commands.command(
        name="leaderboard",
        description=L("The richest members, or the biggest winners at one game", "cmd_economy.leaderboard"),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game=L("Rank by net winnings at this game instead of by balance", "cmd_economy.leaderboard_game"),
        by=L("Rank by chips (the default) or by skill rating (needs a game)", "ratings.cmd_lb_by"),
        season=L("Only this season's board (chips won in it, or rating)", "seasons.cmd_lb_season"),
    )
    @app_commands.choices(game=GAME_CHOICES, by=BY_CHOICES)
    @app_commands.autocomplete(season=season_names)
    @guarded
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        by: app_commands.Choice[str] | None = None,
        season: str | None = None,
    ) -> None:
        guild_id = _guild_id(interaction)
        ranking = by.value if by else CHIPS
        if ranking == RATING and game is None:
            raise UserError("ratings.lb_needs_game")
        season_id = (await SeasonQueries(self.bot.db).find(guild_id, season)).id if season else None
        embed, view = await leaderboard_page(
            self.bot, guild_id, game.value if game else None, 0, interaction.locale, by=ranking, season_id=season_id
        )
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)


async def leaderboard_page(
    bot: "FudabaBot",
    guild_id: int,
    game: str | None,
    page: int,
    locale: object,
    *,
    by: str = CHIPS,
    season_id: int | None = None,
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of the board as an embed, with Previous/Next buttons when there is more than one page.

    ``by`` chips: balances, or net winnings at ``game``; with a season, the chips won in it (of ``game``, or all).
    ``by`` rating (``game`` needed): the server's current ratings at ``game``, or the season's."""
    db = bot.db
    season: Season | None = None
    if season_id is not None:
        season = await SeasonQueries(db).get(season_id)
        if season is None or season.guild_id != guild_id:
            raise UserError("economy.lb_stale")
    offset = page * PAGE_SIZE
    lines: list[str] = []
    if by == RATING:
        assert game is not None
        rated = await RatingQueries(db).board(guild_id, game, season_id=season_id, offset=offset, limit=PAGE_SIZE)
        total = rated.total
        names = {"game": game_name(game, locale)}
        title = (
            t("ratings.lb_title_season", locale, season=season.name, **names)
            if season
            else t("ratings.lb_title", locale, **names)
        )
        for rated_entry in rated.entries:
            rating = rated_entry.rating
            in_season = rated_entry.season_games
            value = t(
                "ratings.lb_line" if in_season is None else "ratings.lb_line_season",
                locale,
                ordinal=f"{rating.ordinal:.1f}",
                mu=f"{rating.mu:.2f}",
                sigma=f"{rating.sigma:.2f}",
                games=rating.games if in_season is None else in_season,
                mark=t("ratings.lb_mark", locale) if rating.provisional else "",
            )
            lines.append(f"**{rated_entry.rank}.** <@{rated_entry.user_id}> — {value}")
    else:
        board: LeaderboardPage
        if season is not None:
            board = await SeasonQueries(db).chips_board(season, game, offset=offset, limit=PAGE_SIZE)
            title = (
                t("seasons.lb_title_game", locale, game=game_name(game, locale), season=season.name)
                if game
                else t("seasons.lb_title", locale, season=season.name)
            )
        elif game:
            board = await db.net_leaderboard(guild_id, game, offset=offset, limit=PAGE_SIZE)
            title = t("economy.lb_title_game", locale, game=game_name(game, locale))
        else:
            board = await db.leaderboard(guild_id, offset=offset, limit=PAGE_SIZE)
            title = t("economy.lb_title", locale)
        total = board.total
        for entry in board.entries:
            if game or season:
                value = t("economy.lb_net", locale, net=f"{entry.value:+,}", deals=entry.deals_played or 0)
            else:
                value = t("economy.lb_chips", locale, amount=chips(entry.value))
            lines.append(f"**{entry.rank}.** <@{entry.user_id}> — {value}")
    pages = max(1, math.ceil(total / PAGE_SIZE))
    if page >= pages and page > 0:  # the board shrank since the button was drawn: show the last page
        return await leaderboard_page(bot, guild_id, game, pages - 1, locale, by=by, season_id=season_id)
    embed = discord.Embed(title=title, colour=COLOUR, description="\n".join(lines) or t("economy.lb_empty", locale))
    embed.set_footer(text=t("economy.lb_footer", locale, page=page + 1, pages=pages, total=total))
    if pages == 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    for target, direction, label, disabled in (
        (page - 1, "p", t("economy.previous", locale), page == 0),
        (page + 1, "n", t("economy.next", locale), page + 1 >= pages),
    ):
        view.add_item(
            LeaderboardButton(
                guild_id, game, target, direction, label=label, disabled=disabled, by=by, season_id=season_id
            )
        )
    return embed, view


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fdb:lb:(?P<guild>\d+):(?P<game>[a-z0-9_]+|-):(?P<page>-?\d+):(?P<dir>[pn])(?::(?P<by>[cr]):(?P<season>\d+))?",
):
    """Previous/Next on a leaderboard: ``fdb:lb:<guild>:<game or ->:<target page>:<p|n>``, then for a rating or a
    season's board ``:<c|r>:<season id or 0>`` (a chips board without a season keeps the id it always had, so buttons
    posted before seasons existed still work).

    The direction letter keeps the two buttons' ids distinct when both are disabled at an edge.
    """

    def __init__(
        self,
        guild_id: int,
        game: str | None,
        page: int,
        direction: str,
        *,
        label: str = "",
        disabled: bool = False,
        by: str = CHIPS,
        season_id: int | None = None,
    ) -> None:
        emoji = "◀️" if direction == "p" else "▶️"
        custom_id = f"fdb:lb:{guild_id}:{game or NO_GAME}:{page}:{direction}"
        if by != CHIPS or season_id is not None:
            custom_id += f":{'r' if by == RATING else 'c'}:{season_id or 0}"
        super().__init__(
            discord.ui.Button(
                label=label or None,
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=custom_id,
            )
        )
        self.guild_id = guild_id
        self.game = game
        self.page = page
        self.by = by
        self.season_id = season_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "LeaderboardButton":
        game = match["game"]
        by = RATING if match["by"] == "r" else CHIPS
        season = int(match["season"]) if match["season"] else 0
        return cls(
            int(match["guild"]),
            None if game == NO_GAME else game,
            int(match["page"]),
            match["dir"],
            by=by,
            season_id=season or None,
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id != self.guild_id or (self.game and self.game not in all_games()):
            raise UserError("economy.lb_stale")
        if self.by == RATING and self.game is None:
            raise UserError("economy.lb_stale")
        bot: FudabaBot = interaction.client  # type: ignore[assignment]
        embed, view = await leaderboard_page(
            bot,
            self.guild_id,
            self.game,
            max(0, self.page),
            interaction.locale,
            by=self.by,
            season_id=self.season_id,
        )
        await interaction.response.edit_message(embed=embed, view=view)
