"""``/play``, ``/table`` and ``/verify``: opening tables, stopping them and checking shuffles.

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError, guarded
from bot.i18n import lang_of, t
from bot.i18n.translator import L
from bot.tables.places import jump_link
from bot.ui import adapters
from games.core.record import TableRecord
from games.core.rng import Shuffle, commitment, seeded_shuffle
from games.registry import all_games

if TYPE_CHECKING:
    from bot.app import FudabaBot
    from bot.tables.session import TableSession

GAME_CHOICES = [
    app_commands.Choice(name=L(spec.name_en, f"cmd.game_{gid}"), value=gid)
    for gid, spec in all_games().items()
    if gid in adapters()
]
MAX_CHIPS = 1_000_000_000
MAX_LISTED = 20
PACE_CHOICES = [
    app_commands.Choice(name=L("live", "cmd.pace_live"), value="live"),
    app_commands.Choice(name=L("correspondence", "cmd.pace_correspondence"), value="correspondence"),
]


class PlayCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot

    @app_commands.command(name="play", description=L("Open a table for a game in this channel", "cmd.play"))
    @app_commands.guild_only()
    @app_commands.describe(
        game=L("The game to play", "cmd.play_game"),
        buy_in=L(
            "Chips each player brings to the table (default: the game's starting chips × stake)", "cmd.play_buy_in"
        ),
        stake=L("Chips per game point (default 1)", "cmd.play_stake"),
        practice=L("A practice table: no chips at stake, bots welcome", "cmd.play_practice"),
        pace=L("live (the server's turn timer) or correspondence (hours per decision)", "cmd.play_pace"),
        hours=L("Correspondence: hours each decision may take (up to the server's longest)", "cmd.play_hours"),
    )
    @app_commands.choices(game=GAME_CHOICES, pace=PACE_CHOICES)
    @guarded
    async def play(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        buy_in: app_commands.Range[int, 1, MAX_CHIPS] | None = None,
        stake: app_commands.Range[int, 1, 1_000_000] | None = None,
        practice: bool = False,
        pace: app_commands.Choice[str] | None = None,
        hours: app_commands.Range[int, 1, 168] | None = None,
    ) -> None:
        await self.bot.tables.open(
            interaction, game.value, buy_in, stake, practice, pace=pace.value if pace else "live", hours=hours
        )

    table = app_commands.Group(
        name="table", description=L("Manage the table in this channel", "cmd.table"), guild_only=True
    )

    @table.command(
        name="stop", description=L("End the table in this channel; an unfinished deal is void", "cmd.table_stop")
    )
    @guarded
    async def table_stop(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        live = self.bot.tables.table_here(interaction.channel_id)
        if interaction.user.id != live.host_id and not await self.bot.is_moderator(interaction):
            raise UserError("table.host_only")
        await interaction.response.defer(ephemeral=True, thinking=True)
        said = await self.bot.tables.stop(live, by=interaction.user.id)
        await interaction.followup.send(t(said + "_ack", interaction.locale), ephemeral=True)

    @table.command(name="show", description=L("Post the table in this channel again at the bottom", "cmd.table_show"))
    @guarded
    async def table_show(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        live = self.bot.tables.table_here(interaction.channel_id)
        if live.status != "playing":
            raise UserError("table.none_here")
        self.bot.tables.repost(live)
        await interaction.response.send_message(t("table.reposted", interaction.locale), ephemeral=True)

    @app_commands.command(
        name="tables", description=L("The tables you sit at here, and whose turn it is", "cmd.tables")
    )
    @app_commands.guild_only()
    @guarded
    async def tables_list(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        mine = self.bot.tables.seated(interaction.guild_id, interaction.user.id)
        locale = interaction.locale
        if not mine:
            await interaction.response.send_message(t("table.list_none", locale), ephemeral=True)
            return
        lines = [await self._table_line(session, interaction.user.id, locale) for session in mine[:MAX_LISTED]]
        embed = discord.Embed(title=t("table.list_title", locale, count=len(mine)), description="\n".join(lines)[:4000])
        if len(mine) > MAX_LISTED:
            embed.set_footer(text=t("table.list_more", locale, more=len(mine) - MAX_LISTED))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _table_line(self, session: "TableSession", user_id: int, locale: object) -> str:
        """``**Oicho-Kabu #12** · #thread · your move, by …`` (whose turn it is, and until when)."""
        lang = lang_of(locale)
        spec = session.spec
        game = spec.name_ja if lang == "ja" else spec.name_en
        where = f"<#{session.channel_id}>" if session.channel_id > 0 else "—"
        if session.message_id and not session.in_thread:
            where = f"[#{session.id}]({jump_link(session.guild_id, session.channel_id, session.message_id)})"
        head = f"**{game} #{session.id}** · {where}"
        if session.status == "lobby":
            return f"{head} · {t('table.list_lobby', locale, count=len(session.seats))}"
        engine = session.engine
        if engine is None:
            return f"{head} · {t('table.list_loading', locale)}"
        seat = session.seat_of(user_id)
        acting = sorted(engine.to_act())
        if seat in acting:
            state = t("table.list_your_turn", locale)
            if session.pace == "correspondence":
                at = int(await self.bot.tables.autoplay.deadline(session))
                state += " " + t("table.list_by", locale, deadline=f"<t:{at}:R>")
        elif acting:
            names = session.names()
            state = t("table.list_waiting", locale, names=", ".join(names[s] for s in acting))
        else:
            state = t("table.list_between", locale)
        return f"{head} · {state}"

    @app_commands.command(name="verify", description=L("Check the shuffle of a finished deal", "cmd.verify"))
    @app_commands.guild_only()
    @app_commands.describe(table_id=L("Table number", "cmd.verify_table"), deal=L("Deal number", "cmd.verify_deal"))
    @guarded
    async def verify(
        self,
        interaction: discord.Interaction,
        table_id: app_commands.Range[int, 1, 2**62],
        deal: app_commands.Range[int, 1, 100_000],
    ) -> None:
        assert interaction.guild_id is not None
        row = await self.bot.db.get_table(table_id)
        if row is None or row.guild_id != interaction.guild_id or not row.record:
            raise UserError("verify.unknown_table")
        record = TableRecord.loads(row.opening or row.record)
        if row.opening is not None:
            shuffles = [Shuffle.from_json(s) for s in await self.bot.db.deal_shuffles(table_id, deal)]
        else:  # a table stored before the log: its record holds every shuffle
            shuffles = [s for s in record.shuffles if s.deal == deal]
        finished = not row.active or await self.bot.db.deal_settled(table_id, deal)
        if not shuffles or not finished:
            raise UserError("verify.not_finished")
        lines = []
        from games.registry import get_game

        spec = get_game(record.game)
        rules = spec.rules_model.model_validate(record.rules)
        for s in shuffles:
            if s.seed is None:
                lines.append(t("verify.explicit", interaction.locale, purpose=s.purpose))
                continue
            deck = spec.deck(rules)
            order = " ".join(c.notation for c in seeded_shuffle(deck, s.seed))
            lines.append(
                t(
                    "verify.line",
                    interaction.locale,
                    purpose=s.purpose,
                    seed=s.seed,
                    hash=commitment(s.seed),
                    order=order[:600],
                )
            )
        await interaction.response.send_message("\n\n".join(lines)[:1900], ephemeral=True)
