"""``/stats [member] [game]``: a member's figures in this server, from the settled deals' records.

Deals played and won and net chips, then per game the figures its players care about, each counted from what the
game declares a deal gives a seat (``games/<game>/stats.py``) and stored as the deal settles
(:mod:`bot.storage.stats`): one index-backed query answers the command. Chip deals only (a practice deal is in
``/history``, never here). Every figure comes from what the deals' results messages showed everyone, so a member
may look at anyone's; there is nothing private to refuse. The answer is private, as ``/history``'s is; on your own
figures **Share in channel** posts them for everyone.

The cog also runs the background data step that derives the figures of deals settled before they were kept
(:meth:`~bot.storage.stats.StatsQueries.backfill`), once at start.

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

import asyncio
import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.economy import game_name
from bot.cogs.play import GAME_CHOICES
from bot.errors import UserError, guarded
from bot.i18n import lang_of, t
from bot.i18n.translator import L
from bot.storage.stats import GameFigures, MemberStats, StatsQueries, game_stats
from bot.ui.hachi_hachi import yaku_name
from games.registry import all_games

if TYPE_CHECKING:
    from bot.app import FudabaBot
    from bot.storage import Database

log = logging.getLogger(__name__)

COLOUR = discord.Colour.from_rgb(0x2E, 0x7D, 0x32)
ALL = "all"
TEMPLATE = r"fdb:stats:s:(?P<viewer>[0-9]+):(?P<member>[0-9]+):(?P<game>[a-z_]+)"
"""The Share button: who asked, whose figures, which game (``all``). Everything else is read again when pressed."""
BACKFILL_PAUSE = 0.05
"""Seconds between two chunks of the background data step, so it never crowds out the tables' writes."""


# ---------------------------------------------------------------------------------------------------- words


def _rate(part: int, whole: int, lang: str) -> str:
    return f"{100 * part / whole:.0f}%" if whole else t("stats.no_rate", lang)


def _per(total: int, count: int, lang: str) -> str:
    return f"{total / count:.2f}" if count else t("stats.no_rate", lang)


def _chips(n: int) -> str:
    return f"{n:+,}"


# A game's own facts are read by their totals: a fact may count several things in one deal (two piles backed, two
# opponents scooped), and a fact of at most 1 a deal totals its count anyway.


def _named(counts: list[tuple[str, int]], lang: str) -> str:
    shown = [f"{name} ×{count}" for name, count in counts if count]
    return ", ".join(shown) if shown else t("stats.hands_none", lang)


def _oicho(figures: GameFigures, lang: str) -> list[str]:
    from games.oicho.stats import HANDS

    def hand(name: str) -> str:
        return t("oicho.points_9" if name == "kabu" else f"oicho.hand_{name}", lang)

    piles = figures["piles"].total
    return [
        t("stats.oicho_bank", lang, count=figures["bank"].total, net=_chips(figures["bank_net"].total)),
        t(
            "stats.oicho_piles",
            lang,
            count=piles,
            won=figures["piles_won"].total,
            rate=_rate(figures["piles_won"].total, piles, lang),
        ),
        t("stats.oicho_hands", lang, hands=_named([(hand(h), figures[f"hand_{h}"].total) for h in HANDS], lang)),
    ]


def _ofc(figures: GameFigures, lang: str) -> list[str]:
    hands = figures.counted
    fouls, in_fl = figures["foul"].total, figures["fl_hand"].total
    return [
        t("stats.ofc_fouls", lang, count=fouls, hands=hands, rate=_rate(fouls, hands, lang)),
        t(
            "stats.ofc_royalties",
            lang,
            total=figures["royalties"].total,
            per_hand=_per(figures["royalties"].total, hands, lang),
        ),
        t("stats.ofc_scoops", lang, count=figures["scoops"].total),
        t(
            "stats.ofc_fantasyland",
            lang,
            entries=figures["fl_entry"].total,
            hands=in_fl,
            stays=figures["fl_stay"].total,
            rate=_rate(figures["fl_stay"].total, in_fl, lang),
        ),
    ]


def _luk_fu(figures: GameFigures, lang: str) -> list[str]:
    declared, won = figures["declared"].total, figures["declared_won"].total
    played = figures.counted - figures["sat_out"].total
    lines = [
        t("stats.luk_fu_declarer", lang, won=won, declared=declared, rate=_rate(won, declared, lang)),
        t("stats.luk_fu_five_tigers", lang, count=figures["five_tigers"].total),
        t(
            "stats.luk_fu_tricks",
            lang,
            tricks=figures["tricks"].total,
            per_hand=_per(figures["tricks"].total, played, lang),
        ),
    ]
    if figures["sat_out"].total:
        lines.append(t("stats.luk_fu_sat_out", lang, count=figures["sat_out"].total))
    return lines


def _hachi_hachi(figures: GameFigures, lang: str) -> list[str]:
    from games.hachi_hachi.rules import YAKU_KEYS

    dealt, played = figures["dealt"].total, figures["played"].total
    lines = [
        t(
            "stats.hachi_hachi_play",
            lang,
            played=played,
            dealt=dealt,
            rate=_rate(played, dealt, lang),
            folded=figures["folded"].total,
            forced=figures["forced_out"].total,
        ),
        t("stats.hachi_hachi_pot", lang, count=figures["pot_won"].total, tricks=figures["tricks"].total),
        t(
            "stats.hachi_hachi_hands",
            lang,
            hands=_named([(yaku_name(key, lang), figures[f"yaku_{key}"].total) for key in YAKU_KEYS], lang),
        ),
    ]
    if figures["mizuten"].total:
        lines.append(
            t(
                "stats.hachi_hachi_mizuten",
                lang,
                count=figures["mizuten"].total,
                bonus=figures["mizuten_bonus"].total,
                net=_chips(figures["mizuten_net"].total),
            )
        )
    return lines


GAME_LINES: dict[str, Callable[[GameFigures, str], list[str]]] = {
    "oicho": _oicho,
    "ofc": _ofc,
    "luk_fu": _luk_fu,
    "hachi_hachi": _hachi_hachi,
}
"""Each game's figures in words (a game without an entry shows only its deals, wins and net)."""


def game_text(figures: GameFigures, lang: str) -> str:
    """One game's field: its deals, wins and net, then the game's own figures (within Discord's 1,024 characters)."""
    lines = [
        t(
            "stats.game_line",
            lang,
            deals=figures.deals,
            won=figures.won,
            rate=_rate(figures.won, figures.deals, lang),
            net=_chips(figures.net),
        )
    ]
    words = GAME_LINES.get(figures.game)
    if words is not None and game_stats(figures.game) is not None:
        if figures.counted < figures.deals:
            lines.append(t("stats.partial", lang, counted=figures.counted, deals=figures.deals))
        lines += [f"· {line}" for line in words(figures, lang)]
    return "\n".join(lines)[:1024]


def stats_embed(stats: MemberStats, name: str, game: str | None, lang: str, *, shared: bool = False) -> discord.Embed:
    title = (
        t("stats.title_game", lang, name=name, game=game_name(game, lang))
        if game
        else t("stats.title", lang, name=name)
    )
    embed = discord.Embed(
        title=title,
        colour=COLOUR,
        description=t(
            "stats.overall",
            lang,
            deals=stats.deals,
            won=stats.won,
            rate=_rate(stats.won, stats.deals, lang),
            net=_chips(stats.net),
        ),
    )
    for figures in stats.games:
        embed.add_field(name=game_name(figures.game, lang), value=game_text(figures, lang), inline=False)
    embed.set_footer(text=t("stats.footer_shared" if shared else "stats.footer", lang))
    return embed


# ---------------------------------------------------------------------------------------------------- answering


def _db(interaction: discord.Interaction) -> "Database":
    db: Database = getattr(interaction.client, "db")  # noqa: B009 (the bot's, set at start)
    return db


async def _figures(interaction: discord.Interaction, member: discord.abc.User, game: str | None) -> MemberStats:
    if interaction.guild_id is None:
        raise UserError("stats.guild_only")
    if member.bot:
        raise UserError("stats.no_bots")
    stats = await StatsQueries(_db(interaction)).member_stats(interaction.guild_id, member.id, game=game)
    if not stats.deals:
        mine = member.id == interaction.user.id
        if game is None:
            raise UserError("stats.none_mine" if mine else "stats.none", name=member.display_name)
        name = game_name(game, interaction.locale)
        raise UserError("stats.none_game_mine" if mine else "stats.none_game", name=member.display_name, game=name)
    return stats


async def show_stats(interaction: discord.Interaction, member: discord.abc.User, game: str | None) -> None:
    """``/stats``: the member's figures, privately; on your own, a button to share them."""
    stats = await _figures(interaction, member, game)
    lang = lang_of(interaction.locale)
    view = discord.ui.View(timeout=None)
    if member.id == interaction.user.id:
        view.add_item(
            discord.ui.Button(
                label=t("stats.share", lang),
                emoji="📣",
                style=discord.ButtonStyle.secondary,
                custom_id=f"fdb:stats:s:{interaction.user.id}:{member.id}:{game or ALL}",
            )
        )
    view.stop()  # answered from the custom id (StatsItem), never kept by discord.py
    await interaction.response.send_message(
        embed=stats_embed(stats, member.display_name, game, lang), view=view, ephemeral=True
    )


async def share(interaction: discord.Interaction, custom: str) -> None:
    """**Share in channel**: the presser's own figures, read again now, posted for everyone in the server's
    language. Only from the presser's own private answer."""
    match = re.fullmatch(TEMPLATE, custom)
    if match is None:
        raise UserError("stats.bad_button")
    viewer, member, game = int(match["viewer"]), int(match["member"]), match["game"]
    if viewer != interaction.user.id:
        raise UserError("stats.share_not_yours")
    if member != viewer:
        raise UserError("stats.share_own_only")
    if game != ALL and game not in all_games():
        raise UserError("stats.bad_button")
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        raise UserError("stats.not_here")
    chosen = None if game == ALL else game
    stats = await _figures(interaction, interaction.user, chosen)
    lang = lang_of(interaction.guild_locale or interaction.locale)
    await interaction.response.send_message(
        t("stats.shared", lang, member=interaction.user.mention),
        embed=stats_embed(stats, interaction.user.display_name, chosen, lang, shared=True),
        allowed_mentions=discord.AllowedMentions.none(),
    )


class StatsItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"fdb:stats:.*"):
    """The Share button (any ``fdb:stats:…`` id: a malformed one is refused privately when pressed)."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: "re.Match[str]"
    ) -> "StatsItem":
        return cls(item)  # never refuses here: an exception would leave the press unanswered

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await share(interaction, str(dict(interaction.data or {}).get("custom_id", "")))


class StatsCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot
        self._backfill: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(StatsItem)
        self._backfill = asyncio.create_task(self._derive_older_deals())

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(StatsItem)
        if self._backfill is not None:
            self._backfill.cancel()

    async def _derive_older_deals(self) -> None:
        """The figures of deals settled before they were kept, a chunk at a time, until none are left."""
        queries = StatsQueries(self.bot.db)
        try:
            while True:
                if not await queries.backfill():
                    return
                await asyncio.sleep(BACKFILL_PAUSE)
        except asyncio.CancelledError:
            raise
        except Exception:  # the database went away, say: the next start goes on where this one stopped
            log.warning("deriving the statistics of older deals stopped", exc_info=True)

    @app_commands.command(
        name="stats",
        description=L(
            "Your statistics in this server (or a member's): deals, wins, net chips and each game's figures",
            "stats.cmd",
        ),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        member=L("Whose statistics to show (default: yours)", "stats.cmd_member"),
        game=L("Only this game's figures", "stats.cmd_game"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @guarded
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        await show_stats(interaction, member or interaction.user, game.value if game else None)
