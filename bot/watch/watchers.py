"""Watchers at run time: pressing **Watch**, **Refresh** and **Stop watching**, and the watchers' panels followed as
one more kind of open panel (:class:`bot.tables.panels.PanelKind`).

It joins the table runtime through general hooks only: the panels' follower redraws its panels with the seats'
ones, by the same rules (:attr:`bot.tables.panels.Panels.kinds`); the play path tells it which deals were settled
(:attr:`bot.tables.play.Play.watchers`); the table message's last word tells it the table ended
(:attr:`bot.tables.public.PublicMessages.on_final`), and it tells its watchers so.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.i18n import lang_of, t
from bot.storage import WatcherRow
from bot.tables.components import release
from bot.tables.panels import PANEL_FOLLOW_SECONDS, TOKEN_REFRESH_SECONDS, OpenPanel, Redrawn
from bot.tables.places import jump_link
from bot.watch import message, sight

if TYPE_CHECKING:
    from bot.storage import Database
    from bot.tables.panels import Panels
    from bot.tables.play import Play
    from bot.tables.public import PublicMessages
    from bot.tables.session import Outcome, TableSession
    from bot.tables.settings import ServerSettings

log = logging.getLogger(__name__)

MAX_WATCHERS = 25
"""Open watcher panels at one table: each is edited at every change of the table, so their number is bounded."""
ENDING_WAIT_SECONDS = 5.0
"""How long the goodbye waits for a redraw under way (so it is not overwritten by it)."""


@dataclass
class TableWatch:
    """What this process keeps about one table's watchers (nothing durable: tokens are stored, the rest is read)."""

    panels: dict[int, OpenPanel] = field(default_factory=dict)
    """Each watcher's latest panel, by their user id."""
    settled: int | None = None
    """The table's last settled deal, once known (read once, then told by the play path)."""
    known: bool = False
    """Whether :attr:`settled` has been read (None then means no deal is settled yet)."""
    delayed: dict[tuple[int, str], sight.Sight] = field(default_factory=dict)
    """The last settled deal as delayed watchers see it, by (deal, language): replayed once, not once per watcher."""


class Watchers:
    def __init__(self, panels: Panels, settings: ServerSettings) -> None:
        self.panels = panels
        self.client = panels.client
        self.db: Database = panels.db
        self.clock = panels.clock
        self.background = panels.background
        self.settings = settings
        self._tables: weakref.WeakKeyDictionary[TableSession, TableWatch] = weakref.WeakKeyDictionary()

    def attach(self, play: Play, public: PublicMessages) -> None:
        """Join the table runtime (once)."""
        if self not in self.panels.kinds:
            self.panels.kinds.append(self)
        if self._changed not in play.watchers:
            play.watchers.append(self._changed)
        if self._ended not in public.on_final:
            public.on_final.append(self._ended)

    def _of(self, session: TableSession) -> TableWatch:
        found = self._tables.get(session)
        if found is None:
            found = self._tables[session] = TableWatch()
        return found

    # ------------------------------------------------------------------ presses

    async def press(self, interaction: discord.Interaction, session: TableSession, verb: str) -> None:
        """**Watch** on the table message (a new private panel), **Refresh** on the panel (``watch`` again: drawn now,
        followed 14 more minutes), **Stop watching** (``unwatch``)."""
        if interaction.channel_id not in (session.channel_id, session.parent_id):
            # A forged id naming a table of another place (channel ids are unique across servers, so this is also
            # another server's table): watching is offered only where the table is.
            raise UserError("watch.not_here")
        if session.status == "lobby":
            raise UserError("table.not_started")
        if session.status != "playing":
            raise UserError("table.gone")
        if session.seat_of(interaction.user.id) is not None:
            raise UserError("watch.seated")
        own = _own_panel(interaction)
        if verb == "unwatch":
            if not own:
                raise UserError("watch.not_here")  # only a watcher's own panel carries it
            await self._unwatch(interaction, session)
            return
        watch = self._of(session)
        user = interaction.user.id
        if not own and user not in watch.panels and len(watch.panels) >= MAX_WATCHERS:
            raise UserError("watch.full", n=MAX_WATCHERS)
        if own:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        lang = lang_of(interaction.locale)
        now = self.clock()
        old = watch.panels.get(user)
        panel = OpenPanel(lang, now, "", interaction, saved_at=-1e18 if old is None or not own else old.saved_at)
        redrawn = await self.draw(session, user, panel)
        try:
            await interaction.edit_original_response(**redrawn.message)
        finally:
            release(redrawn.message.get("view"))
        panel.stamp, panel.signature = redrawn.stamp, redrawn.signature
        watch.panels[user] = panel
        if interaction.application_id is not None and now - panel.saved_at > TOKEN_REFRESH_SECONDS:
            panel.saved_at = now
            row = WatcherRow(session.id, user, interaction.application_id, interaction.token, lang, now)
            self.background.spawn(
                self.db.save_watcher(row, drop_before=now - PANEL_FOLLOW_SECONDS),
                f"table {session.id}: remembering a watcher's panel",
            )
        if redrawn.stamp != await self.stamp(session, user, panel):
            self.panels.follow(session)  # the table moved while it was drawn: bring it up to date

    async def _unwatch(self, interaction: discord.Interaction, session: TableSession) -> None:
        self._of(session).panels.pop(interaction.user.id, None)
        lang = lang_of(interaction.locale)
        view = message.buttons(session.id, lang, stopped=True)
        try:
            await interaction.response.edit_message(
                content=t("watch.stopped", lang, table=session.id), embeds=[], attachments=[], view=view
            )
        finally:
            release(view)
        self.background.spawn(
            self.db.forget_watchers(session.id, interaction.user.id), f"table {session.id}: forgetting a watcher"
        )

    # ------------------------------------------------------------------ the panels, as a kind of open panel

    def open_panels(self, session: TableSession) -> dict[Any, OpenPanel]:
        found = self._tables.get(session)
        return found.panels if found is not None else {}

    async def _delay(self, session: TableSession) -> bool:
        return (await self.settings.get(session.guild_id)).watch_delay

    async def _settled(self, session: TableSession) -> int | None:
        """The table's last settled deal (None: none yet); read once per table, then kept current by the play path."""
        watch = self._of(session)
        if not watch.known:
            hands = await self.db.table_history(session.id, limit=1)
            latest = hands[0].deal_no if hands else None
            if not watch.known:  # not told meanwhile by a deal settled while it was read
                watch.settled, watch.known = latest, True
        return watch.settled

    async def stamp(self, session: TableSession, key: Any, panel: OpenPanel) -> str:
        """Live: every move (the engine's serial). Delayed: only the last settled deal (and the deal in play)."""
        engine = session.engine
        if engine is None:
            return f"none|{session.status}"
        if await self._delay(session):
            return f"delayed|{await self._settled(session)}|{engine.deal_no}|{session.status}"
        return f"live|{engine.serial}|{session.status}"

    async def draw(self, session: TableSession, key: Any, panel: OpenPanel) -> Redrawn:
        stamp = await self.stamp(session, key, panel)
        if await self._delay(session):
            shown = await self._delayed(session, panel.lang)
        else:
            shown = await sight.live(session, panel.lang)
        until = panel.opened_at + PANEL_FOLLOW_SECONDS
        composed = await message.compose(shown, table_id=session.id, game=session.game, lang=panel.lang, until=until)
        return Redrawn(stamp, composed.signature, composed.fields)

    async def _delayed(self, session: TableSession, lang: str) -> sight.Sight:
        """What delayed watchers see: the last settled deal, replayed once per deal and language."""
        playing = session.playing_engine().deal_no
        settled = await self._settled(session)
        if settled is None:
            return await sight.delayed(self.client, self.db, session, None, playing, lang)
        kept = self._of(session).delayed
        shown = kept.get((settled, lang))
        if shown is None:
            shown = await sight.delayed(self.client, self.db, session, settled, playing, lang)
            for old in [k for k in kept if k[0] != settled]:
                del kept[old]
            kept[(settled, lang)] = shown
        return dataclasses.replace(shown, playing=playing)

    async def let_go(self, session: TableSession, key: Any, panel: OpenPanel, *, expired: bool) -> None:
        """A panel no longer followed: when its token is about to run out, it says so while it still can (and
        offers to watch again); one that could not be edited is only forgotten."""
        if expired and session.status == "playing":
            view = message.buttons(session.id, panel.lang, stopped=True)
            try:
                await panel.edit(
                    self.client,
                    content=t("watch.expired", panel.lang, table=session.id),
                    embeds=[],
                    attachments=[],
                    view=view,
                )
            except discord.HTTPException as exc:
                log.info("table %s: a watcher's panel could not say it stopped (%s)", session.id, exc)
            finally:
                release(view)
        await self.db.forget_watchers(session.id, key)

    async def adopt(self, session: TableSession) -> None:
        """After a restart: the watchers' panels opened in the last minutes, followed again."""
        rows = await self.db.open_watchers(session.id, since=self.clock() - PANEL_FOLLOW_SECONDS)
        watch = self._of(session)
        for row in rows:
            if row.user_id not in watch.panels and session.seat_of(row.user_id) is None:
                watch.panels[row.user_id] = OpenPanel(
                    lang_of(row.locale), row.opened_at, "", stored=(row.application_id, row.token)
                )

    # ------------------------------------------------------------------ what the table tells

    def _changed(self, session: TableSession, outcome: Outcome) -> None:
        """A change was written: a deal it settled is the one delayed watchers see now."""
        if outcome.settled:
            watch = self._of(session)
            latest = max(s.result.deal for s in outcome.settled)
            watch.settled = max(latest, watch.settled or 0)
            watch.known = True

    def _ended(self, session: TableSession) -> None:
        """The table's final message is out: its watchers are told, and their panels let go."""
        watch = self._tables.pop(session, None)
        if watch is None or not watch.panels:
            return
        self.background.spawn(self._goodbye(session, watch), f"table {session.id}: telling its watchers it ended")

    async def _goodbye(self, session: TableSession, watch: TableWatch) -> None:
        follower = session.runtime.panels.follower
        if follower is not None and not follower.done() and follower is not asyncio.current_task():
            await asyncio.wait({follower}, timeout=ENDING_WAIT_SECONDS)  # a redraw under way lands first
        link = jump_link(session.guild_id, session.channel_id, session.message_id)
        for user, panel in list(watch.panels.items()):
            if self.clock() - panel.opened_at > PANEL_FOLLOW_SECONDS:
                continue  # its token has run out (or is about to): it can no longer be edited
            try:
                await panel.edit(
                    self.client,
                    content=t("watch.ended", panel.lang, table=session.id, link=link),
                    embeds=[],
                    attachments=[],
                    view=None,
                )
            except discord.HTTPException as exc:
                log.info("table %s: could not tell watcher %s it ended (%s)", session.id, user, exc)
        watch.panels.clear()
        await self.db.forget_watchers(session.id)


def _own_panel(interaction: discord.Interaction) -> bool:
    """Whether the press came from a private (ephemeral) message, which only the presser can see."""
    found = interaction.message
    return found is not None and found.flags.ephemeral
