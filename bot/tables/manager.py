"""The table runtime: lobbies, play, bots and timers, settlement, the public message, restarts.

Every change to a table happens under the table's lock, in this order: apply the action to the
engine, save the record (the durable truth), settle any deal that just ended (one transaction per
deal, idempotent), then schedule the public message update. A failed Discord call never touches
chips or the record; the next update carries the latest state. A restart replays each record and
settles any deal the crash left unsettled.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.i18n import lang_of, t
from bot.render import render_in_thread
from bot.tables.components import ActionButton, LobbyButton, TableButton, UIButton, UISelect
from bot.tables.live import LiveTable, OpenPanel, SeatInfo
from bot.ui import ui_for
from bot.ui.base import Panel
from games.core.actions import AmountRange
from games.core.engine import DealResult
from games.core.errors import NotationError
from games.core.house_rules import changed_options
from games.core.record import TableRecord
from games.core.rng import Shuffler
from games.registry import get_game

if TYPE_CHECKING:
    from bot.app import FudabaBot

log = logging.getLogger(__name__)

BOT_NAMES = ("Tanuki", "Kitsune", "Tengu", "Kappa", "Tsuru", "Kame", "Usagi", "Saru", "Shika")
MESSAGE_MAX_AGE = 3600.0
"""Edits to messages older than an hour hit a separate rate limit: repost instead."""
AUTOPLAY_LIMIT = 5000
PANEL_FOLLOW_SECONDS = 14 * 60
"""An interaction token lives 15 minutes: until then a player's open panel is kept up to date."""


class TableManager:
    """All live tables of this process."""

    def __init__(self, bot: FudabaBot, *, clock: Callable[[], float], edit_interval: float,
                 lobby_timeout: float) -> None:
        self.bot = bot
        self.clock = clock
        self.edit_interval = edit_interval
        self.lobby_timeout = lobby_timeout
        self.tables: dict[int, LiveTable] = {}
        self.new_shuffler: Callable[[], Shuffler] = Shuffler
        """Where a new table's randomness comes from (tests put a stacked deck here; restarts replay records)."""

    @property
    def db(self) -> Any:
        return self.bot.db

    # ------------------------------------------------------------------ lookups

    def get(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise UserError("table.gone")
        return table

    def in_channel(self, channel_id: int) -> LiveTable | None:
        return next((tb for tb in self.tables.values() if tb.channel_id == channel_id), None)

    # ------------------------------------------------------------------ opening

    async def open(self, interaction: discord.Interaction, game_id: str, buy_in: int | None, stake: int | None,
                   practice: bool = False) -> None:
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        guild_id, channel_id, user = interaction.guild_id, interaction.channel_id, interaction.user
        config = await self.db.get_config(guild_id)
        if config.allowed_channel_ids and channel_id not in config.allowed_channel_ids:
            raise UserError("table.channel_not_allowed")
        if self.in_channel(channel_id) is not None:
            raise UserError("table.channel_busy")
        spec = get_game(game_id)
        rules = await self._rules_in_force(guild_id, game_id)
        stake = stake or 1
        buy_in = buy_in or spec.starting_chips(rules) * stake
        if buy_in % stake:
            raise UserError("table.buy_in_not_multiple", stake=stake)
        if buy_in // stake < 1:
            raise UserError("table.buy_in_too_small", stake=stake)
        await interaction.response.defer()
        lang = lang_of(interaction.guild_locale or "en")
        row = await self.db.open_table(guild_id, channel_id, game_id, user.id, buy_in=buy_in, stake=stake,
                                       rules=rules.model_dump(mode="json"), practice=practice, lang=lang)
        table_id = row.id
        table = LiveTable(id=table_id, guild_id=guild_id, channel_id=channel_id, game=game_id, host_id=user.id,
                          rules=rules, stake=stake, buy_in=buy_in, practice=practice, lang=lang)
        try:
            await self.db.join_table(table_id, user.id)
        except Exception:
            await self.db.cancel_table(table_id, actor_id=user.id)
            raise
        table.seats.append(SeatInfo(user.id, _display(user)))
        self.tables[table_id] = table
        message = await interaction.followup.send(embed=self._lobby_embed(table), view=self._lobby_view(table), wait=True)
        table.message_id = message.id
        table.message_created_at = self.clock()
        await self.db.set_message(table_id, message.id, table.message_created_at)
        self._arm_lobby_timer(table)

    async def _rules_in_force(self, guild_id: int, game_id: str) -> Any:
        spec = get_game(game_id)
        data = await self.db.get_house_rules(guild_id, game_id)
        return spec.rules_model.model_validate(data) if data else spec.rules_model()

    # ------------------------------------------------------------------ lobby

    async def on_lobby(self, interaction: discord.Interaction, table_id: int, verb: str) -> None:
        table = self.get(table_id)
        if table.status != "lobby":
            raise UserError("table.not_lobby")
        user = interaction.user
        async with table.lock:
            if verb == "join":
                if table.seat_of(user.id) is not None:
                    raise UserError("table.already_seated")
                if len(table.seats) >= table.spec.seat_range(table.rules)[1]:
                    raise UserError("table.full")
                await self.db.join_table(table.id, user.id)
                table.seats.append(SeatInfo(user.id, _display(user)))
            elif verb == "leave":
                seat = table.seat_of(user.id)
                if seat is None:
                    raise UserError("table.not_seated")
                if user.id == table.host_id:
                    raise UserError("table.host_cannot_leave")
                await self.db.leave_lobby(table.id, user.id)
                del table.seats[seat]
            elif verb == "bot":
                await self._require_host(table, interaction)
                if len(table.seats) >= table.spec.seat_range(table.rules)[1]:
                    raise UserError("table.full")
                name = next(n for n in BOT_NAMES + tuple(f"Bot{i}" for i in range(20))
                            if n not in {s.name for s in table.seats})
                config = await self.db.get_config(table.guild_id)
                if not table.practice and not config.bots_play_for_chips:
                    # A table with a bot is a practice table unless the server lets bots play for chips.
                    await self.db.make_practice(table.id, actor_id=user.id)
                    table.practice = True
                await self.db.add_bot_seat(table.id, name)
                table.seats.append(SeatInfo(None, name, bot=True))
            elif verb == "start":
                await self._require_host(table, interaction)
                low, _high = table.spec.seat_range(table.rules)
                if len(table.seats) < low:
                    raise UserError("table.not_enough_players", needed=low)
                await interaction.response.defer()
                await self._start(table)
                return
            elif verb == "cancel":
                await self._require_host(table, interaction, moderator_ok=True)
                await self.db.cancel_table(table.id, actor_id=user.id)
                self._forget(table)
                await interaction.response.edit_message(embed=self._lobby_embed(table, closed="table.cancelled"), view=None)
                return
            else:
                raise UserError("table.stale_button")
            self._arm_lobby_timer(table)
            await interaction.response.edit_message(embed=self._lobby_embed(table), view=self._lobby_view(table))

    async def _require_host(self, table: LiveTable, interaction: discord.Interaction, moderator_ok: bool = False) -> None:
        if interaction.user.id == table.host_id:
            return
        if moderator_ok and await self.bot.is_moderator(interaction):
            return
        raise UserError("table.host_only")

    async def _start(self, table: LiveTable) -> None:
        table.start(self.new_shuffler())
        assert table.engine is not None
        if table.lobby_timer:
            table.lobby_timer.cancel()
        await self.db.start_table(table.id, record=self._record_text(table))
        await self._after_change(table, before=0)

    def _arm_lobby_timer(self, table: LiveTable) -> None:
        if table.lobby_timer:
            table.lobby_timer.cancel()
        table.lobby_timer = asyncio.create_task(self._lobby_expiry(table.id))

    async def _lobby_expiry(self, table_id: int) -> None:
        await asyncio.sleep(self.lobby_timeout)
        table = self.tables.get(table_id)
        if table is None or table.status != "lobby":
            return
        async with table.lock:
            await self.db.cancel_table(table.id)
            self._forget(table, keep_lobby_timer=True)
        await self._edit_public(table, embed=self._lobby_embed(table, closed="table.expired"), view=None)

    # ------------------------------------------------------------------ play

    async def on_table_button(self, interaction: discord.Interaction, table_id: int, verb: str) -> None:
        table = self.get(table_id)
        if verb == "hand":
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise UserError("table.not_seated")
            if table.engine is None:
                raise UserError("table.not_started")
            async with table.lock:
                if table.seats[seat].away:
                    table.seats[seat].away = False
                    self._schedule_update(table)
                panel = self._panel(table, seat, interaction.locale)
            await interaction.response.send_message(**self._panel_message(table, seat, panel), ephemeral=True)
            self._remember_panel(table, seat, interaction, panel)
        elif verb == "stop":
            await self._require_host(table, interaction, moderator_ok=True)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.stop(table, by=interaction.user.id)
            await interaction.followup.send(t("table.stopped_ack", interaction.locale), ephemeral=True)
        else:
            raise UserError("table.stale_button")

    async def on_action(self, interaction: discord.Interaction, table_id: int, deal: int, text: str) -> None:
        table = self.get(table_id)
        seat = self._seat_for_play(table, interaction, deal)
        assert table.engine is not None
        try:
            action = table.spec.codec.parse(text)
        except NotationError:
            raise UserError("table.stale_button") from None
        await self._act(table, seat, action, interaction)
        await self._answer_with_panel(interaction, table, seat)

    async def on_ui(self, interaction: discord.Interaction, table_id: int, deal: int, verb: str, arg: str) -> None:
        table = self.get(table_id)
        seat = self._seat_for_play(table, interaction, deal)
        if verb == "amount":
            await interaction.response.send_modal(AmountModal(self, table, seat, deal, arg, interaction.locale))
            return
        async with table.lock:
            engine = table.engine
            assert engine is not None
            draft = dict(table.panel_state.get(seat, {}))  # a refused step leaves the seat's choices as they were
            action = ui_for(table.game).ui_step(engine.view(seat), seat, engine.legal_actions(seat), verb, arg, draft)
            table.panel_state[seat] = draft
        if action is not None:
            await self._act(table, seat, action, interaction)
        await self._answer_with_panel(interaction, table, seat)

    async def _answer_with_panel(self, interaction: discord.Interaction, table: LiveTable, seat: int) -> None:
        """Show the clicker's panel as it is now, in the message they clicked (deferred or not)."""
        async with table.lock:
            panel = self._panel(table, seat, interaction.locale)
        message = self._panel_message(table, seat, panel)
        if interaction.response.is_done():
            await interaction.edit_original_response(**message)
        else:
            await interaction.response.edit_message(**message)
        self._remember_panel(table, seat, interaction, panel)

    async def on_amount(self, interaction: discord.Interaction, table: LiveTable, seat: int, deal: int,
                        arg: str, raw: str) -> None:
        self._seat_for_play(table, interaction, deal)
        text = raw.strip().replace(",", "").replace("，", "")
        if not text.isdigit():
            raise UserError("table.amount_not_number", value=raw[:20])
        amount = int(text)
        if amount < 1:
            raise UserError("table.amount_too_small")
        action = ui_for(table.game).amount_action(arg, amount)
        if action is None:
            raise UserError("table.stale_button")
        await self._act(table, seat, action)
        async with table.lock:
            panel = self._panel(table, seat, interaction.locale)
        await interaction.response.send_message(**self._panel_message(table, seat, panel), ephemeral=True)
        self._remember_panel(table, seat, interaction, panel)

    def _seat_for_play(self, table: LiveTable, interaction: discord.Interaction, deal: int) -> int:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("table.not_seated")
        if table.engine is None or table.status != "playing":
            raise UserError("table.not_started")
        if deal != table.engine.deal_no:
            raise UserError("table.stale_button")
        return seat

    async def _act(self, table: LiveTable, seat: int, action: Any,
                   interaction: discord.Interaction | None = None) -> None:
        async with table.lock:
            engine = table.engine
            if engine is None or table.status != "playing":
                raise UserError("table.not_started")
            before = len(engine.results)
            engine.apply(seat, action)  # IllegalAction leaves the engine untouched
            table.seats[seat].away = False
            if interaction is not None and not interaction.response.is_done():
                # Bots' moves, saving, settling and posting results may take a while: acknowledge the click first.
                await interaction.response.defer()
            await self._after_change(table, before)

    async def _after_change(self, table: LiveTable, before: int) -> None:
        """Persist, let bots and away players move, settle finished deals, refresh the table."""
        engine = table.engine
        assert engine is not None
        self._autoplay(table)
        try:
            await self.db.save_record(table.id, self._record_text(table))
        except Exception:
            # The record is the truth: never keep in memory what was not saved.
            log.exception("saving table %s failed; rolling back to the stored record", table.id)
            await self._reload(table)
            raise
        for result in engine.results[before:]:
            await self._settle(table, result)
        if engine.is_over:
            await self._finish(table)
            return
        self._arm_turn_timer(table)
        self._schedule_update(table)

    def _autoplay(self, table: LiveTable) -> None:
        """Bot seats (and players marked away) move at once, with the game's own policy."""
        engine = table.engine
        assert engine is not None
        rng = random.Random(f"{table.id}:{len(engine.history)}")
        for _ in range(AUTOPLAY_LIMIT):
            movers = [s for s in sorted(engine.to_act()) if table.seats[s].bot or table.seats[s].away]
            if not movers:
                return
            seat = movers[0]
            action = table.spec.policy(engine.view(seat), engine.legal_actions(seat), rng)
            engine.apply(seat, action)
        log.error("table %s: autoplay did not stop", table.id)

    async def _settle(self, table: LiveTable, result: DealResult) -> None:
        if result.deal in table.settled_deals:
            return
        deltas = [d * table.stake for d in result.deltas]
        engine = table.engine
        assert engine is not None
        summary = dict(result.summary)
        summary["seeds"] = engine.shuffler.seeds(result.deal)
        summary["commitments"] = engine.shuffler.commitments(result.deal)
        await self.db.settle_deal(table.id, result.deal, deltas, summary, key=f"settle:{table.id}:{result.deal}")
        table.settled_deals.add(result.deal)
        await self._post_result(table, result, summary["seeds"])
        table.repost = True

    async def _post_result(self, table: LiveTable, result: DealResult, seeds: list[str]) -> None:
        embed = ui_for(table.game).result_embed(result, table.ctx())
        if seeds:
            embed.add_field(name=t("table.seed_revealed", table.lang), value="\n".join(f"`{s}`" for s in seeds), inline=False)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(embed=embed)
        except discord.HTTPException:
            log.warning("table %s: could not post the result of deal %s", table.id, result.deal)

    async def _finish(self, table: LiveTable) -> None:
        engine = table.engine
        assert engine is not None
        await self.db.close_table(table.id)
        self._forget(table)
        embed = self._final_embed(table)
        await self._edit_public(table, embed=embed, view=None, attachments=[])

    async def stop(self, table: LiveTable, by: int) -> None:
        """End a table at once: an unfinished deal is void; every stack goes back where it came from."""
        async with table.lock:
            if table.status == "lobby":
                await self.db.cancel_table(table.id, actor_id=by)
            else:
                await self.db.close_table(table.id, actor_id=by, voided=True)
            self._forget(table)
        embed = self._final_embed(table, stopped_by=by)
        await self._edit_public(table, embed=embed, view=None, attachments=[])

    def _forget(self, table: LiveTable, keep_lobby_timer: bool = False) -> None:
        table.status = "ended"
        for task in (table.timer, None if keep_lobby_timer else table.lobby_timer):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self.tables.pop(table.id, None)

    async def _reload(self, table: LiveTable) -> None:
        row = await self.db.get_table(table.id)
        if row is not None and row.record:
            table.restore(TableRecord.loads(row.record))

    def _record_text(self, table: LiveTable) -> str:
        return table.record().dumps()

    # ------------------------------------------------------------------ timers

    def _arm_turn_timer(self, table: LiveTable) -> None:
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        engine = table.engine
        if engine is None or engine.is_over:
            return
        token = (engine.deal_no, len(engine.history))
        table.timer = asyncio.create_task(self._turn_timeout(table.id, token))

    async def _turn_timeout(self, table_id: int, token: tuple[int, int]) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        config = await self.db.get_config(table.guild_id)
        await asyncio.sleep(config.turn_timer_seconds)
        table = self.tables.get(table_id)
        if table is None or table.engine is None:
            return
        async with table.lock:
            engine = table.engine
            if engine is None or (engine.deal_no, len(engine.history)) != token or table.status != "playing":
                return
            before = len(engine.results)
            for seat in engine.to_act():
                if not table.seats[seat].bot:
                    table.seats[seat].away = True  # the baseline policy plays for them from now on
            await self._after_change(table, before)

    # ------------------------------------------------------------------ the public message

    def repost(self, table: LiveTable) -> None:
        """Post the table message again at the bottom of the channel (with the next update)."""
        table.repost = True
        self._schedule_update(table)

    def _schedule_update(self, table: LiveTable) -> None:
        table.dirty = True
        if table.updater is None or table.updater.done():
            table.updater = asyncio.create_task(self._updater(table))

    async def _updater(self, table: LiveTable) -> None:
        """One edit at a time per table, always with the latest state: bursts coalesce into one edit."""
        while table.dirty and table.status == "playing":
            table.dirty = False
            try:
                await self._refresh_public(table)
            except discord.HTTPException as exc:
                log.warning("table %s: updating the table message failed (%s); the next change retries", table.id, exc)
            except Exception:
                log.exception("table %s: updating the table message failed", table.id)
            await self._refresh_panels(table)
            if self.edit_interval:
                await asyncio.sleep(self.edit_interval)

    async def _refresh_public(self, table: LiveTable) -> None:
        engine = table.engine
        assert engine is not None
        ui = ui_for(table.game)
        ctx = table.ctx()
        view = engine.public_view()
        embed = ui.public_summary(view, ctx)
        commitments = engine.commitments()
        if commitments:
            # Every shuffle of this deal (the first deal also has the dealer draw), in full: a prefix proves nothing.
            embed.set_footer(text=t("table.commitment", table.lang, hash="\n".join(commitments)))
        away = [table.names()[i] for i, s in enumerate(table.seats) if s.away]
        if away:
            embed.add_field(name=t("table.away", table.lang), value=", ".join(away), inline=False)
        image = await render_in_thread(ui.render, view, ctx)
        file = discord.File(io.BytesIO(image), filename="table.png")
        embed.set_image(url="attachment://table.png")
        buttons = self._table_view(table)
        too_old = self.clock() - table.message_created_at > MESSAGE_MAX_AGE
        if table.message_id is None or table.repost or too_old:
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            message = await channel.send(embed=embed, file=file, view=buttons)
            old = table.message_id
            table.message_id, table.message_created_at, table.repost = message.id, self.clock(), False
            await self.db.set_message(table.id, message.id, table.message_created_at)
            if old is not None:
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(old).delete()
        else:
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            await channel.get_partial_message(table.message_id).edit(embed=embed, attachments=[file], view=buttons)

    async def _edit_public(self, table: LiveTable, **fields: Any) -> None:
        if table.message_id is None:
            return
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.get_partial_message(table.message_id).edit(**fields)
        except discord.HTTPException as exc:
            log.warning("table %s: final edit failed (%s)", table.id, exc)

    def _table_view(self, table: LiveTable) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(TableButton(table.id, "hand", t("table.my_hand", table.lang), discord.ButtonStyle.primary, "🂠"))
        view.add_item(TableButton(table.id, "stop", t("table.stop", table.lang), discord.ButtonStyle.danger))
        return view

    def _lobby_view(self, table: LiveTable) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        lang = table.lang
        view.add_item(LobbyButton(table.id, "join", t("lobby.join", lang), discord.ButtonStyle.success))
        view.add_item(LobbyButton(table.id, "leave", t("lobby.leave", lang)))
        view.add_item(LobbyButton(table.id, "bot", t("lobby.add_bot", lang), emoji="🤖"))
        view.add_item(LobbyButton(table.id, "start", t("lobby.start", lang), discord.ButtonStyle.primary))
        view.add_item(LobbyButton(table.id, "cancel", t("lobby.cancel", lang), discord.ButtonStyle.danger))
        return view

    def _lobby_embed(self, table: LiveTable, closed: str | None = None) -> discord.Embed:
        lang = table.lang
        spec = table.spec
        name = spec.name_ja if lang == "ja" else spec.name_en
        embed = discord.Embed(title=t("lobby.title", lang, game=name), colour=0x2E7D32)
        low, high = spec.seat_range(table.rules)
        players = "\n".join(f"{i + 1}. {n}" for i, n in enumerate(table.names())) or "—"
        embed.add_field(name=t("lobby.players", lang, count=len(table.seats), low=low, high=high), value=players, inline=False)
        money = t("lobby.practice", lang) if table.practice else t("lobby.stakes", lang, buy_in=table.buy_in, stake=table.stake)
        embed.add_field(name=t("lobby.money", lang), value=money, inline=False)
        embed.add_field(name=t("lobby.rules", lang), value=_rules_text(table.rules, lang), inline=False)
        if closed:
            embed.description = t(closed, lang)
            embed.colour = discord.Colour.dark_grey()
        else:
            embed.description = t("lobby.description", lang, host=f"<@{table.host_id}>")
        return embed

    def _final_embed(self, table: LiveTable, stopped_by: int | None = None) -> discord.Embed:
        lang = table.lang
        engine = table.engine
        embed = discord.Embed(title=t("table.final_title", lang), colour=discord.Colour.gold())
        if stopped_by is not None:
            embed.description = t("table.stopped_by", lang, user=f"<@{stopped_by}>")
        if engine is not None:
            names = table.names()
            ranking = sorted(range(engine.seats), key=lambda s: -engine.stacks[s])
            lines = []
            for s in ranking:
                change = (engine.stacks[s] - table.points_per_seat) * table.stake
                lines.append(f"**{names[s]}** — {engine.stacks[s] * table.stake:,} ({change:+,})")
            embed.add_field(name=t("table.final_stacks", lang), value="\n".join(lines), inline=False)
        return embed

    # ------------------------------------------------------------------ private panels

    def _remember_panel(self, table: LiveTable, seat: int, interaction: discord.Interaction, panel: Panel) -> None:
        """The seat's latest panel message: it follows the game until its interaction token runs out."""
        assert table.engine is not None
        table.panels[seat] = OpenPanel(interaction, interaction.locale, self.clock(),
                                       _signature(table.engine.deal_no, panel))

    async def _refresh_panels(self, table: LiveTable) -> None:
        """Edit every open panel whose content changed (the street moved on, a new hand was dealt …).

        A player who confirmed a Turbo street sees their next cards without pressing anything. Panels
        older than an interaction token's life, or deleted by their owner, are dropped quietly."""
        for seat, open_panel in list(table.panels.items()):
            if table.status != "playing" or table.engine is None:
                return
            if self.clock() - open_panel.opened_at > PANEL_FOLLOW_SECONDS:
                table.panels.pop(seat, None)
                continue
            try:
                panel = self._panel(table, seat, open_panel.locale)
            except Exception:
                log.exception("table %s: building the panel of seat %s failed", table.id, seat)
                continue
            signature = _signature(table.engine.deal_no, panel)
            if signature == open_panel.signature:
                continue
            open_panel.signature = signature
            try:
                await open_panel.interaction.edit_original_response(**self._panel_message(table, seat, panel))
            except discord.HTTPException as exc:
                log.info("table %s: seat %s's panel can no longer be edited (%s)", table.id, seat, exc)
                if table.panels.get(seat) is open_panel:
                    del table.panels[seat]

    def _panel(self, table: LiveTable, seat: int, locale: object) -> Panel:
        engine = table.engine
        assert engine is not None
        ctx = table.ctx()
        ctx = dataclasses.replace(ctx, lang=lang_of(locale))
        return ui_for(table.game).panel(engine.view(seat), seat, engine.legal_actions(seat), ctx,
                                        table.panel_state.setdefault(seat, {}))

    def _panel_message(self, table: LiveTable, seat: int, panel: Panel) -> dict[str, Any]:
        engine = table.engine
        assert engine is not None
        deal = engine.deal_no
        view = discord.ui.View(timeout=None)
        for sel in panel.selects:
            options = [discord.SelectOption(label=lbl[:100], value=val, default=val in sel.chosen)
                       for lbl, val in sel.options][:25]
            view.add_item(UISelect(table.id, deal, sel.ui, options, sel.placeholder, sel.row,
                                   min_values=min(sel.min_values, len(options)),
                                   max_values=max(1, min(sel.max_values, len(options))), disabled=sel.disabled))
        for b in panel.buttons:
            if b.action is not None:
                view.add_item(ActionButton(table.id, deal, b.action.text, b.label, b.style, not b.enabled, b.row, b.emoji))
            else:
                verb, _, arg = (b.ui or "noop").partition(":")
                view.add_item(UIButton(table.id, deal, verb, arg, b.label, b.style, not b.enabled, b.row, b.emoji))
        # Every item is a DynamicItem, dispatched from its custom id: the view only carries the components. Stopped,
        # it is not kept by discord.py, which would otherwise run a 15-minute timeout task per ephemeral panel
        # message, one more on every click.
        view.stop()
        return {"content": panel.content, "view": view}

    # ------------------------------------------------------------------ restart

    async def restore(self) -> None:
        """Rebuild every open table from the database after a restart."""
        for row in await self.db.list_active_tables():
            try:
                await self._restore_one(row)
            except Exception:
                log.exception("could not restore table %s", row.id)

    async def _restore_one(self, row: Any) -> None:
        spec = get_game(row.game)
        rules = spec.rules_model.model_validate(row.rules)
        table = LiveTable(id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, game=row.game,
                          host_id=row.host_id, rules=rules, stake=row.stake, buy_in=row.buy_in,
                          practice=bool(row.practice), lang=row.lang)
        record = TableRecord.loads(row.record) if row.record else None
        labels = record.seats if record is not None else []
        table.seats = []
        for index, seat in enumerate(row.seats):
            name = seat.bot_name or _name_from_label(labels[index] if index < len(labels) else "", seat.user_id)
            table.seats.append(SeatInfo(seat.user_id, name, bot=seat.is_bot, away=seat.away))
        table.message_id = row.message_id
        table.message_created_at = row.message_created_at or 0.0
        self.tables[table.id] = table
        if row.status == "lobby":
            self._arm_lobby_timer(table)
            return
        if record is not None:
            table.restore(record)
        else:
            table.start()
        table.settled_deals = {h.deal_no for h in await self.db.table_history(table.id, limit=1_000_000)}
        async with table.lock:
            await self._after_change(table, before=0)

    async def shutdown(self) -> None:
        for table in list(self.tables.values()):
            for task in (table.timer, table.lobby_timer, table.updater):
                if task is not None:
                    task.cancel()


class AmountModal(discord.ui.Modal):
    """Type a custom amount (for a bet): checked by the engine like any other action."""

    def __init__(self, manager: TableManager, table: LiveTable, seat: int, deal: int, arg: str, locale: object) -> None:
        super().__init__(title=t("panel.amount_title", locale)[:45], timeout=600,
                         custom_id=f"fdb:{table.id}:{deal}:m:{arg}"[:100])
        self.manager, self.table, self.seat, self.deal, self.arg = manager, table, seat, deal, arg
        engine = table.engine
        hint = ""
        if engine is not None:
            for item in engine.legal_actions(seat):
                if isinstance(item, AmountRange):
                    hint = f"{item.lo}–{item.hi}"
                    break
        self.amount: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=t("panel.amount_label", locale)[:45], placeholder=hint or None, max_length=12, required=True,
            custom_id="amount")
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        from bot.errors import answer_error, apologise

        try:
            await self.manager.on_amount(interaction, self.table, self.seat, self.deal, self.arg, self.amount.value)
        except Exception as error:
            if not await answer_error(interaction, error):
                await apologise(interaction, error, "amount modal")
                raise


def _signature(deal: int, panel: Panel) -> str:
    return f"{deal}|{panel!r}"


def _name_from_label(label: str, user_id: int | None) -> str:
    parts = label.split(":", 2)
    if len(parts) == 3 and parts[0] == "user":
        return parts[2]
    return f"player {user_id}"


def _display(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def _rules_text(rules: Any, lang: str) -> str:
    changed = changed_options(rules)
    if not changed:
        return t("lobby.rules_default", lang)
    return "\n".join(f"`{o.path}` = `{value}`" for o, value in changed)[:1000]
