"""``/tournament open|cancel`` (moderators), ``/tournaments`` (everyone), and the tournament message's **Sign up** and
**Withdraw** buttons. The tournaments themselves run in :mod:`bot.tournaments.director`.

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

import re
import secrets
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.moderation import MODERATOR_ONLY, require_moderator
from bot.cogs.play import GAME_CHOICES
from bot.errors import UserError, guarded
from bot.i18n import lang_of, t
from bot.i18n.translator import L
from bot.storage.tournaments import Tournament
from bot.tables.places import is_thread, jump_link, missing_thread_permissions
from bot.tournaments import message
from bot.tournaments.director import MAX_ENTRANTS, Director
from bot.tournaments.payout import DEFAULT_PAYOUT, PAYOUTS
from bot.tournaments.when import start_at
from games.registry import get_game

if TYPE_CHECKING:
    from bot.app import FudabaBot

MAX_CHIPS = 1_000_000_000
MAX_ROUNDS = 10
MAX_DEALS = 50
MAX_LISTED = 10
PAYOUT_CHOICES = [
    app_commands.Choice(name=L(name.replace("-", "/") if name != "winner" else "winner takes all", key), value=name)
    for name, key in (
        ("winner", "tournaments.choice_winner"),
        ("65-35", "tournaments.choice_65_35"),
        ("50-30-20", "tournaments.choice_50_30_20"),
        ("40-30-20-10", "tournaments.choice_40_30_20_10"),
    )
]
assert [c.value for c in PAYOUT_CHOICES] == list(PAYOUTS)


def _director(interaction: discord.Interaction) -> Director:
    client = interaction.client
    cog = client.get_cog("TournamentsCog") if isinstance(client, commands.Bot) else None
    if not isinstance(cog, TournamentsCog):
        raise UserError("tournaments.no_such")
    return cog.director


class EntryItem(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fdb:tourney:(?P<id>[0-9]{1,19}):(?P<verb>join|leave)",
):
    """**Sign up** and **Withdraw** on a tournament message: the id names the tournament, so they work after a
    restart."""

    def __init__(self, tournament_id: int, verb: str) -> None:
        super().__init__(discord.ui.Button(custom_id=message.button_id(tournament_id, verb)))
        self.tournament_id = tournament_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: "re.Match[str]"
    ) -> "EntryItem":
        return cls(int(match["id"]), match["verb"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        director = _director(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        if self.verb == "join":
            joined = await director.sign_up(interaction, self.tournament_id)
            key = "tournaments.signed_up"
            buy_in = joined.buy_in
        else:
            left = await director.withdraw(interaction, self.tournament_id)
            key = "tournaments.withdrew"
            buy_in = left.buy_in
        balance = await director.bot.db.balance(interaction.guild_id, interaction.user.id)
        said = t(key, interaction.locale, id=self.tournament_id, buy_in=f"{buy_in:,}", balance=f"{balance or 0:,}")
        await interaction.followup.send(said, ephemeral=True)


class TournamentsCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot
        self.director = Director(bot)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(EntryItem)
        self.director.attach()  # the bot builds its table runtime before loading the cogs

    async def cog_unload(self) -> None:
        self.director.detach()
        self.bot.remove_dynamic_items(EntryItem)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """The table runtime has restored its tables: resume every tournament where it stands."""
        self.director.wake()

    tournament = app_commands.Group(
        name="tournament",
        description=L("Open or cancel a tournament (moderators)", "tournaments.cmd"),
        guild_only=True,
        default_permissions=MODERATOR_ONLY,
    )

    @tournament.command(
        name="open", description=L("Open a tournament members sign up for in this channel", "tournaments.cmd_open")
    )
    @app_commands.describe(
        game=L("The game", "tournaments.cmd_game"),
        buy_in=L("Chips each entrant pays in: together they are the prize pool", "tournaments.cmd_buy_in"),
        table_size=L("Most players at each table (within the game's limits)", "tournaments.cmd_table_size"),
        rounds=L("Rounds: each round seats everyone anew, by standing", "tournaments.cmd_rounds"),
        deals_per_round=L("Deals each table plays in a round", "tournaments.cmd_deals"),
        start_time=L("When it starts: 45m, 2h, 18:30 (UTC) or 2030-01-31 18:30 (UTC)", "tournaments.cmd_start"),
        payout=L("How the prize pool is shared (default 50/30/20)", "tournaments.cmd_payout"),
    )
    @app_commands.choices(game=GAME_CHOICES, payout=PAYOUT_CHOICES)
    @guarded
    async def tournament_open(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        buy_in: app_commands.Range[int, 1, MAX_CHIPS],
        table_size: app_commands.Range[int, 2, 10],
        rounds: app_commands.Range[int, 1, MAX_ROUNDS],
        deals_per_round: app_commands.Range[int, 1, MAX_DEALS],
        start_time: app_commands.Range[str, 1, 40],
        payout: app_commands.Choice[str] | None = None,
    ) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if is_thread(interaction.channel):
            raise UserError("tournaments.not_in_thread")
        db = self.bot.db
        config = await db.get_config(guild_id)
        if config.allowed_channel_ids and channel_id not in config.allowed_channel_ids:
            raise UserError("table.channel_not_allowed")
        spec = get_game(game.value)
        data = await db.get_house_rules(guild_id, game.value)
        rules = spec.rules_model.model_validate(data) if data else spec.rules_model()
        low, high = spec.seat_range(rules)
        lang = lang_of(interaction.locale)
        if not low <= table_size <= high:
            raise UserError(
                "tournaments.bad_table_size" if low < high else "tournaments.bad_table_size_exact",
                game=message.game_name(game.value, lang),
                size=table_size,
                low=low,
                high=high,
            )
        when = start_at(start_time, self.bot.clock())
        threads = config.table_place == "thread" and not missing_thread_permissions(interaction.app_permissions)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tournament = await self.director.store.open(
            guild_id,
            channel_id,
            interaction.user.id,
            game.value,
            rules=rules.model_dump(mode="json"),
            buy_in=buy_in,
            table_size=table_size,
            rounds=rounds,
            deals_per_round=deals_per_round,
            payout=payout.value if payout else DEFAULT_PAYOUT,
            place="thread" if threads else "channel",
            lang=lang_of(interaction.guild_locale or "en"),
            seed=secrets.token_hex(16),
            start_at=when,
        )
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            posted = await channel.send(**message.message_fields(tournament))
        except discord.HTTPException:
            await self.director.store.cancel(tournament.id, actor_id=interaction.user.id)
            raise UserError("tournaments.not_posted") from None
        await self.director.store.set_message(tournament.id, posted.id)
        self.director.wake()  # to start it on time
        link = jump_link(guild_id, channel_id, posted.id)
        said = t(
            "tournaments.opened" if threads else "tournaments.opened_in_channel",
            interaction.locale,
            id=tournament.id,
            link=link,
            start=f"<t:{int(when)}:F>",
            most=MAX_ENTRANTS if threads else table_size,
        )
        await interaction.followup.send(said, ephemeral=True)

    async def _live_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        lang = lang_of(interaction.locale)
        found = []
        for tournament in await self.director.store.of_guild(interaction.guild_id, limit=25):
            if not tournament.live:
                continue
            name = f"#{tournament.id} {message.game_name(tournament.game, lang)} · {_status(tournament, lang)}"
            if current.strip().lstrip("#") in name:
                found.append(app_commands.Choice(name=name[:100], value=tournament.id))
        return found

    @tournament.command(
        name="cancel", description=L("Cancel a tournament: every buy-in is refunded", "tournaments.cmd_cancel")
    )
    @app_commands.describe(tournament=L("The tournament (its number)", "tournaments.cmd_tournament"))
    @app_commands.autocomplete(tournament=_live_autocomplete)
    @guarded
    async def tournament_cancel(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, 2**53]
    ) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        before = await self.director.store.get(tournament)
        cancelled = await self.director.cancel(tournament, interaction.guild_id, interaction.user.id)
        refunded = sum(e.buy_in for e in (before.entries if before else ()))
        said = t(
            "tournaments.cancel_done",
            interaction.locale,
            id=cancelled.id,
            chips=f"{refunded:,}",
            n=len(cancelled.entries),
        )
        await interaction.followup.send(said, ephemeral=True)

    @app_commands.command(
        name="tournaments", description=L("This server's tournaments, under way and recent", "tournaments.cmd_list")
    )
    @app_commands.guild_only()
    @guarded
    async def tournaments(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        lang = lang_of(interaction.locale)
        lines = []
        for listed in await self.director.store.of_guild(interaction.guild_id, limit=MAX_LISTED):
            found = await self.director.store.get(listed.id)
            if found is None:
                continue
            link = jump_link(found.guild_id, found.channel_id, found.message_id) if found.message_id is not None else ""
            lines.append(
                t(
                    "tournaments.list_line",
                    lang,
                    id=found.id,
                    game=message.game_name(found.game, lang),
                    status=_status(found, lang),
                    start=f"<t:{int(found.start_at)}:R>",
                    n=len(found.entries),
                    link=link,
                )
            )
        embed = discord.Embed(
            title=t("tournaments.list_title", lang),
            description="\n".join(lines) if lines else t("tournaments.list_empty", lang),
            colour=message.COLOUR,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


def _status(tournament: Tournament, lang: str) -> str:
    if tournament.status == "running":
        return t("tournaments.status_running", lang, round=tournament.round, rounds=tournament.rounds)
    return t(f"tournaments.status_{tournament.status}", lang)
