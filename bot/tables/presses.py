"""Presses on table components and amount modals, each turned into what it asks for.

The router (:mod:`bot.tables.components`) reads the custom id strictly; here a press becomes a lobby change, a
public table button ("My hand", "Stop table", "Watch", and a watcher's panel's own, answered by :mod:`bot.watch`), a
step of the private panel (choosing a pile, placing a card …), the panel's "?" (the guide's page about the seat's
decision, which changes nothing) or a move. Every move goes through
the play path (:class:`~bot.tables.play.Play`), which answers the clicker with their panel before the follow-up
runs. A press for a decision that is no longer the seat's says so, in the panel as it is now (and keeps saying so
until the member's next press).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.errors import UserError
from bot.howto.message import open_guide
from bot.i18n import lang_of, t
from bot.render.runner import think
from bot.storage import LeaseLost
from bot.tables import ids
from bot.tables.access import IsModerator, require_host
from bot.tables.amounts import parse_amount
from bot.tables.components import AmountModal
from bot.tables.play import Stale
from bot.tables.session import Outcome, judge_decision
from bot.ui import adapters, ui_for
from bot.ui import panel as generic
from bot.ui.base import run_ui_step
from bot.ui.panel import Ids, OpenModal
from bot.watch import Watchers
from games.core.actions import Action
from games.core.errors import NotationError

if TYPE_CHECKING:
    from bot.tables.ending import Ending
    from bot.tables.lobby import Lobby
    from bot.tables.panels import Panels
    from bot.tables.play import Play
    from bot.tables.registry import Registry
    from bot.tables.session import TableSession

SELECT_VERBS = frozenset({"rng", "act", "sub", "grp"})


class Presses:
    def __init__(
        self,
        registry: Registry,
        play: Play,
        panels: Panels,
        lobby: Lobby,
        ending: Ending,
        *,
        ready: Callable[[TableSession], Awaitable[TableSession]],
        is_moderator: IsModerator,
    ) -> None:
        self.registry = registry
        self.play = play
        self.panels = panels
        self.lobby = lobby
        self.ending = ending
        self.ready = ready
        self.is_moderator = is_moderator
        # Watching (bot.watch) follows tables through the runtime's general hooks; its server setting is read as the
        # autoplay reads the others (cached per server).
        self.watch = Watchers(panels, play.autoplay.settings)
        self.watch.attach(play, play.public)

    async def on_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        cid = ids.parse(custom_id)
        if cid.new is not None:
            await self._open_here(interaction, cid.new)
            return
        session = self.registry.get(cid.table)
        try:
            await self._component(interaction, session, cid, values)
        except LeaseLost:
            self.registry.lost(session)  # and the member is told (storage.lease_lost) that another process runs it
            raise

    async def _open_here(self, interaction: discord.Interaction, new: ids.NewTable) -> None:
        """ "Open it in this channel instead": ``/play`` again with the same options, in the channel itself."""
        from games.registry import all_games

        if new.game not in all_games() or new.game not in adapters():
            raise UserError("table.bad_button")
        await self.lobby.open(
            interaction,
            new.game,
            new.buy_in,
            new.stake,
            new.practice,
            pace=new.pace,
            hours=new.hours,
            place="channel",
        )

    async def on_modal(self, interaction: discord.Interaction, custom_id: str, values: dict[str, str]) -> None:
        cid = ids.parse(custom_id)
        if cid.kind != "modal" or cid.verb != "amt":
            raise UserError("table.bad_button")
        session = self.registry.get(cid.table)
        try:
            await self.ready(session)
            seat = self._seated(session, interaction)
            amount = parse_amount(values.get("amount", ""))
            snap = await self.panels.snapshot(session, seat, lang_of(interaction.locale))
            if not await self._current(interaction, session, seat, snap.decision, cid.decision):
                return
            action = generic.amount_action(self.panels.spec(session, seat, snap), cid.arg, amount)
            await self._move(interaction, session, seat, action, cid.decision)
        except LeaseLost:
            self.registry.lost(session)
            raise

    async def _component(
        self, interaction: discord.Interaction, session: TableSession, cid: ids.ComponentId, values: list[str]
    ) -> None:
        if cid.kind == "lobby":
            await self.lobby.on_button(interaction, session, cid.verb)
            return
        await self.ready(session)
        if cid.kind == "table":
            await self._table_button(interaction, session, cid.verb)
            return
        seat = self._seated(session, interaction)
        if cid.kind == "step" and cid.verb == generic.HELP:
            await self._help(interaction, session, seat, cid)
            return
        if cid.kind == "action":
            try:
                action = session.spec.codec.parse(cid.action)
            except NotationError:
                raise UserError("table.bad_button") from None
            await self._move(interaction, session, seat, action, cid.decision)
        elif cid.kind in ("step", "select"):
            arg = cid.arg
            if cid.kind == "select":
                if cid.verb not in SELECT_VERBS:
                    raise UserError("table.bad_button")
                arg = f"{arg}/{','.join(values)}"
            await self._step(interaction, session, seat, cid.verb, arg, cid.decision)
        else:
            raise UserError("table.bad_button")

    async def _help(
        self, interaction: discord.Interaction, session: TableSession, seat: int, cid: ids.ComponentId
    ) -> None:
        """The panel's "?": the guide's page about the seat's decision now (the panel pressed may be of an earlier
        one), in a new private message, read under the table's rules. It only reads the table: no move, no panel state, no note. A "?" with an
        argument, or naming a decision the seat was never offered, is forged."""
        snap = await self.panels.snapshot(session, seat, lang_of(interaction.locale))
        if cid.arg or cid.decision is None or cid.decision > snap.decision:
            raise UserError("table.bad_button")
        # Under the table's own rules (fixed when it opened), not the server's house rules now.
        topic = ui_for(session.game).howto_topic(snap.view, snap.legal)
        await open_guide(interaction, session.game, topic, rules=session.rules)

    def _seated(self, session: TableSession, interaction: discord.Interaction) -> int:
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("table.not_seated")
        if session.status != "playing":
            raise UserError("table.not_started" if session.status == "lobby" else "table.gone")
        return seat

    async def _table_button(self, interaction: discord.Interaction, session: TableSession, verb: str) -> None:
        if verb == "hand":
            seat = self._seated(session, interaction)
            if session.seats[seat].away:
                await self.play.away(session, [seat], away=False)  # pressing "My hand" brings them back
            await self.panels.open(interaction, session, seat)
        elif verb in ("watch", "unwatch"):
            await self.watch.press(interaction, session, verb)
        elif verb == "stop":
            await require_host(session, interaction, self.is_moderator, moderator_ok=True)
            await interaction.response.defer(ephemeral=True, thinking=True)
            said = await self.ending.stop(session, by=interaction.user.id)
            await interaction.followup.send(t(said + "_ack", interaction.locale), ephemeral=True)

    async def _move(
        self, interaction: discord.Interaction, session: TableSession, seat: int, action: Action, decision: int | None
    ) -> None:
        async def answer(outcome: Outcome) -> None:
            await self.panels.answer(interaction, session, seat, outcome=outcome)

        try:
            await self.play.move(session, seat, action, decision=decision, answer=answer)
        except Stale as stale:
            await self._nothing_done(interaction, session, seat, stale.key)

    async def _current(
        self, interaction: discord.Interaction, session: TableSession, seat: int, current: int, pressed: int | None
    ) -> bool:
        """Whether a panel step's button is of the seat's current decision; if not, the member is told so."""
        if pressed is None:
            return True
        try:
            judge_decision(current, pressed)
        except UserError as error:
            await self._nothing_done(interaction, session, seat, error.key)
            return False
        return True

    async def _nothing_done(self, interaction: discord.Interaction, session: TableSession, seat: int, key: str) -> None:
        """A button of another decision than the seat's current one: say so, and show the panel as it is now."""
        await self.panels.answer(interaction, session, seat, note="⚠️ " + t(key, interaction.locale))

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
        if not await self._current(interaction, session, seat, snap.decision, decision):
            return
        state = snap.state  # a copy: a refused step leaves the seat's choices as they were
        # On the loop: a panel's decisions are a few objects (under a millisecond); a thread would only compete with
        # the loop for the interpreter lock. A game's own step (a hint's search) runs on the bots' pool instead.
        spec = self.panels.spec(session, seat, snap)
        result: Action | OpenModal | None
        if verb == "x":
            game_verb, _, game_arg = arg.partition("/")
            result, state = await think(
                run_ui_step, session.game, snap.view, seat, list(snap.legal), game_verb, game_arg, state
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
