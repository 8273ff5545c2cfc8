"""The table runtime's facade: finds a table's session, routes each press to the module that handles it, and
after every change runs the Discord side from what the change did (``after``).

The modules, each small enough to read in one sitting:

* :mod:`bot.tables.session` — one table's state, lock and ``commit`` (the one way a playing table changes);
* :mod:`bot.tables.lobby` — opening, joining, bots, starting, cancelling, expiry;
* :mod:`bot.tables.autoplay` — bot players and away members, paced, and the turn timer;
* :mod:`bot.tables.results` — each deal's results message, owed until the channel has it;
* :mod:`bot.tables.public` — the public table message;
* :mod:`bot.tables.panels` — the private panels;
* :mod:`bot.tables.restore` — rebuilding the tables after a restart;
* :mod:`bot.tables.components` and :mod:`bot.tables.ids` — the components and the strict reading of their ids.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.i18n import lang_of, t
from bot.shards import owns
from bot.storage import LeaseLost
from bot.tables import ids
from bot.tables.amounts import parse_amount
from bot.tables.autoplay import Autoplay
from bot.tables.components import AmountModal
from bot.tables.lobby import Lobby
from bot.tables.panels import Panels
from bot.tables.public import PublicMessages
from bot.tables.restore import Restorer
from bot.tables.results import Results
from bot.tables.session import Outcome, TableSession
from bot.ui import panel as generic
from bot.ui import ui_for
from bot.ui.panel import Ids, OpenModal
from games.core.actions import Action
from games.core.errors import NotationError
from games.core.rng import Shuffler

if TYPE_CHECKING:
    from bot.app import FudabaBot

log = logging.getLogger(__name__)

CONFIG_SECONDS = 30.0
"""How long a server's settings are taken as read (a moderator's change through /config applies at once)."""


class TableManager:
    """All live tables of this process."""

    def __init__(
        self,
        bot: FudabaBot,
        *,
        clock: Callable[[], float],
        edit_interval: float,
        lobby_timeout: float,
        bot_pace: float | None = None,
        edits_per_second: float = 40.0,
    ) -> None:
        self.bot = bot
        self.clock = clock
        self.edit_interval = edit_interval
        self.lobby_timeout = lobby_timeout
        self.bot_pace = bot_pace
        """Seconds between bot moves for every table (tests); None: each server's ``bot_pace_ms``."""
        self.tables: dict[int, TableSession] = {}
        self.new_shuffler: Callable[[], Shuffler] = Shuffler
        """Where a new table's randomness comes from (tests put a stacked deck here; restarts replay records)."""
        self.lobby = Lobby(self)
        self.autoplay = Autoplay(self)
        self.results = Results(self)
        self.public = PublicMessages(self, edits_per_second=edits_per_second)
        self.panels = Panels(self)
        self.restorer = Restorer(self)
        self._background: set[asyncio.Task[Any]] = set()
        self._configs: dict[int, tuple[float, Any]] = {}

    @property
    def db(self) -> Any:
        return self.bot.db

    async def config(self, guild_id: int) -> Any:
        """The server's settings (turn timer, bot pace …), read at most every few seconds per server."""
        now = asyncio.get_running_loop().time()
        cached = self._configs.get(guild_id)
        if cached is not None and now - cached[0] < CONFIG_SECONDS:
            return cached[1]
        config = await self.db.get_config(guild_id)
        self._configs[guild_id] = (now, config)
        return config

    def config_changed(self, guild_id: int) -> None:
        self._configs.pop(guild_id, None)

    def owns(self, guild_id: int) -> bool:
        """Whether the guild's tables are this process's to drive (a guild on one of its shards; every guild when
        the bot is not sharded), :mod:`bot.shards`."""
        return owns(getattr(self.bot, "shard_set", None), guild_id)

    # ------------------------------------------------------------------ lookups

    def get(self, table_id: int) -> TableSession:
        session = self.tables.get(table_id)
        if session is None:
            if table_id in self.restorer.waiting:  # another process holds its lease (or held it, and stopped)
                raise UserError("storage.lease_waiting")
            raise UserError("table.gone")
        return session

    def in_channel(self, channel_id: int) -> TableSession | None:
        return next((s for s in self.tables.values() if s.channel_id == channel_id), None)

    async def ready(self, session: TableSession) -> TableSession:
        """The session with its engine loaded (a table restored after a restart loads on first use)."""
        if session.status == "playing" and session.engine is None:
            await self.restorer.ensure(session)
        if session.status == "broken":
            raise UserError("table.broken")
        return session

    def forget(self, session: TableSession) -> None:
        if session.status in ("lobby", "playing"):
            session.status = "ended"
        for name in ("timer", "lobby_timer", "mover"):
            task = session.runtime.pop(name, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self.tables.pop(session.id, None)

    def lost(self, session: TableSession) -> None:
        """The table is driven by another bot process now (this one lost its lease, :mod:`bot.storage.leases`):
        stop driving it (timers, bots, panels), without a word to its channel, and wait to take it up again should
        its lease become free (the other process stopped)."""
        if self.tables.get(session.id) is not session:
            return
        log.warning("table %s: another bot process holds its lease now; this one stops driving it", session.id)
        session.engine = None
        self.forget(session)
        for name in ("updater", "follower"):
            task = session.runtime.pop(name, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self.restorer.waiting.add(session.id)

    async def release(self) -> None:
        """Give back this process's table leases (at shutdown), so another process may take the tables at once."""
        try:
            await self.db.release_leases()
        except Exception as exc:
            log.warning("could not give back the table leases (%s); they run out by themselves", exc)

    def spawn(self, coroutine: Awaitable[Any], what: str) -> None:
        """Run a side task whose failure is only worth a log line."""

        async def run() -> None:
            try:
                await coroutine
            except Exception:
                log.exception("%s failed", what)

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def require_host(
        self, session: TableSession, interaction: discord.Interaction, moderator_ok: bool = False
    ) -> None:
        if interaction.user.id == session.host_id:
            return
        if moderator_ok and await self.bot.is_moderator(interaction):
            return
        raise UserError("table.host_only")

    # ------------------------------------------------------------------ opening, stopping, reposting

    async def open(
        self,
        interaction: discord.Interaction,
        game_id: str,
        buy_in: int | None,
        stake: int | None,
        practice: bool = False,
    ) -> None:
        await self.lobby.open(interaction, game_id, buy_in, stake, practice)

    def repost(self, session: TableSession) -> None:
        """Post the table message again at the bottom of the channel (with the next update)."""
        self.public.mark(session, repost=True)

    async def stop(self, session: TableSession, by: int) -> str:
        """End a table at once. A deal with moves in it is void (no chips moved in it); every stack goes back.
        Returns the key of what the stopper is told, which says what happened to the chips."""
        await self.ready(session)
        async with session.lock:
            if session.status == "lobby":
                await self.db.cancel_table(session.id, actor_id=by)
                said = "table.stopped_lobby"
            elif session.status == "playing":
                void = session.deal_moves > 0 and session.engine is not None and not session.engine.is_over
                # A game holding a pot (fees carried between deals) says whose its chips are.
                back = session.engine.stop_result() if session.engine is not None else None
                pot_back = [d * session.stake for d in back.deltas] if back is not None else None
                await self.db.close_table(session.id, actor_id=by, voided=void, pot_back=pot_back)
                said = "table.stopped_void" if void else "table.stopped_between"
            else:
                raise UserError("table.already_over")
            deal = session.engine.deal_no if session.engine is not None else 0
            self.forget(session)
        await self.public.edit_final(session, embed=self.final_embed(session, stopped_by=by, said=said, deal=deal))
        return said

    # ------------------------------------------------------------------ presses

    async def on_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        cid = ids.parse(custom_id)
        session = self.get(cid.table)
        try:
            await self._component(interaction, session, cid, values)
        except LeaseLost:
            self.lost(session)  # and the member is told (storage.lease_lost) that another process runs it
            raise

    async def _component(
        self, interaction: discord.Interaction, session: TableSession, cid: Any, values: list[str]
    ) -> None:
        if cid.kind == "lobby":
            await self.lobby.on_button(interaction, session, cid.verb)
            return
        await self.ready(session)
        if cid.kind == "table":
            await self._table_button(interaction, session, cid.verb)
            return
        seat = self._seated(session, interaction)
        if cid.kind == "action":
            try:
                action = session.spec.codec.parse(cid.action)
            except NotationError:
                raise UserError("table.bad_button") from None
            await self._move(interaction, session, seat, action, cid.decision)
        elif cid.kind in ("step", "select"):
            arg = cid.arg
            if cid.kind == "select":
                if cid.verb not in ("rng", "act", "sub", "grp"):
                    raise UserError("table.bad_button")
                arg = f"{arg}/{','.join(values)}"
            await self._step(interaction, session, seat, cid.verb, arg, cid.decision)
        else:
            raise UserError("table.bad_button")

    async def on_modal(self, interaction: discord.Interaction, custom_id: str, values: dict[str, str]) -> None:
        cid = ids.parse(custom_id)
        if cid.kind != "modal" or cid.verb != "amt":
            raise UserError("table.bad_button")
        session = self.get(cid.table)
        try:
            await self._modal(interaction, session, cid, values)
        except LeaseLost:
            self.lost(session)
            raise

    async def _modal(
        self, interaction: discord.Interaction, session: TableSession, cid: Any, values: dict[str, str]
    ) -> None:
        await self.ready(session)
        seat = self._seated(session, interaction)
        amount = parse_amount(values.get("amount", ""))
        snap = await self.panels.snapshot(session, seat, lang_of(interaction.locale))
        if snap.decision != cid.decision:
            await self._stale(interaction, session, seat)
            return
        action = generic.amount_action(self.panels.spec(session, seat, snap), cid.arg, amount)
        await self._move(interaction, session, seat, action, cid.decision)

    def _seated(self, session: TableSession, interaction: discord.Interaction) -> int:
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("table.not_seated")
        if session.status != "playing":
            raise UserError("table.not_started" if session.status == "lobby" else "table.gone")
        return seat

    async def _table_button(self, interaction: discord.Interaction, session: TableSession, verb: str) -> None:
        if verb == "hand":
            seat = session.seat_of(interaction.user.id)
            if seat is None:
                raise UserError("table.not_seated")
            if session.status != "playing":
                raise UserError("table.not_started" if session.status == "lobby" else "table.gone")
            await self.panels.open(interaction, session, seat)
        elif verb == "stop":
            await self.require_host(session, interaction, moderator_ok=True)
            await interaction.response.defer(ephemeral=True, thinking=True)
            said = await self.stop(session, by=interaction.user.id)
            await interaction.followup.send(t(said + "_ack", interaction.locale), ephemeral=True)

    async def _move(
        self, interaction: discord.Interaction, session: TableSession, seat: int, action: Action, decision: int | None
    ) -> None:
        try:
            outcome = await session.commit(self.db, seat, action, decision=decision)
        except UserError as error:
            if error.key == "table.stale_decision":
                await self._stale(interaction, session, seat)
                return
            self.restorer.revive(session)  # a write that found the database away left the table to rebuild
            raise
        try:
            await self.panels.answer(interaction, session, seat, outcome=outcome)
        finally:
            await self.after(session, outcome)  # the move was made: its consequences follow, whatever Discord did

    async def _stale(self, interaction: discord.Interaction, session: TableSession, seat: int) -> None:
        """A button of an earlier decision: say so, and show the panel as it is now."""
        await self.panels.answer(interaction, session, seat, note="⚠️ " + t("table.stale_decision", interaction.locale))

    async def _step(
        self,
        interaction: discord.Interaction,
        session: TableSession,
        seat: int,
        verb: str,
        arg: str,
        decision: int | None,
    ) -> None:
        lang = lang_of(interaction.locale)
        snap = await self.panels.snapshot(session, seat, lang)
        if snap.decision != decision:
            await self._stale(interaction, session, seat)
            return
        state = snap.state  # a copy: a refused step leaves the seat's choices as they were
        spec = await asyncio.to_thread(self.panels.spec, session, seat, snap)
        if verb == "x":
            game_verb, _, game_arg = arg.partition("/")
            ui = ui_for(session.game)
            result: Action | OpenModal | None = await asyncio.to_thread(
                ui.ui_step, snap.view, seat, snap.legal, game_verb, game_arg, state
            )
        elif verb == "noop":
            result = None
        else:
            result = generic.step(spec, Ids(session.id, snap.decision), lang, verb, arg, state)
        if isinstance(result, OpenModal):
            modal = AmountModal(result.custom_id, result.title, result.label, result.hint)
            await interaction.response.send_modal(modal)
            modal.stop()  # its submission is routed by custom id, like every component (see components.Router)
            return
        session.panel_state[seat] = state
        if result is None:
            await self.panels.answer(interaction, session, seat)
            return
        await self._move(interaction, session, seat, result, decision)

    # ------------------------------------------------------------------ after a change

    async def after(self, session: TableSession, outcome: Outcome, *, restored: bool = False) -> None:
        """The Discord side of a change, from what it did: results, the table message, panels, timers, bots.
        ``restored``: the table was just rebuilt after a restart (its message is redrawn after live changes)."""
        if outcome.settled:
            await self.results.post(session, outcome.settled)
        if outcome.closure is not None:
            await self._finish(session)
            return
        if session.status != "playing":
            return  # stopped meanwhile: whoever stopped it has said how it ended
        if outcome.settled:
            self.public.mark(session, repost=True)  # below the results, so the table stays at the bottom
        else:
            self.public.mark(session, low=restored)
        self.panels.follow(session)
        self.autoplay.arm_timer(session)
        self.autoplay.wake(session)

    async def _finish(self, session: TableSession) -> None:
        self.forget(session)
        await self.public.edit_final(session, embed=self.final_embed(session))

    def final_embed(
        self, session: TableSession, stopped_by: int | None = None, said: str = "", deal: int = 0
    ) -> discord.Embed:
        lang = session.lang
        engine = session.engine
        embed = discord.Embed(title=t("table.final_title", lang), colour=discord.Colour.gold())
        if stopped_by is not None:
            embed.description = t(said or "table.stopped_between", lang, user=f"<@{stopped_by}>", deal=deal)
        if engine is not None:
            names = session.names()
            ranking = sorted(range(engine.seats), key=lambda s: -engine.stacks[s])
            lines = []
            for s in ranking:
                change = (engine.stacks[s] - session.points_per_seat) * session.stake
                lines.append(f"**{names[s]}** — {engine.stacks[s] * session.stake:,} ({change:+,})")
            embed.add_field(name=t("table.final_stacks", lang), value="\n".join(lines)[:1024], inline=False)
        return embed

    # ------------------------------------------------------------------ restart and shutdown

    async def restore(self) -> None:
        await self.restorer.restore()

    async def shutdown(self) -> None:
        self.restorer.cancel()
        self.results.cancel()
        for session in list(self.tables.values()):
            for name in ("timer", "lobby_timer", "updater", "mover", "follower"):
                task = session.runtime.get(name)
                if task is not None:
                    task.cancel()
        for task in list(self._background):
            task.cancel()
