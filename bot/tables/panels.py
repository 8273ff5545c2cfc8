"""Private panels: each seated player's ephemeral panel, drawn by the generic panel from the game's decisions.

"My hand" sends a fresh panel; a click answers in the panel clicked; and every open panel follows the game:
when the table changes, each player's latest panel is redrawn and edited if it looks different (for 14
minutes, the life of its interaction token). The tokens are also kept in the database, so after a restart
the open panels are brought up to the table's real state (an unconfirmed choice the table no longer has is
gone from them too).

A panel is drawn from a view taken under the table's lock, so it never shows a change still being written.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.i18n import lang_of, t
from bot.storage import PanelRow
from bot.tables.components import panel_view, release
from bot.ui import panel as generic
from bot.ui import ui_for
from bot.ui.base import TableContext
from bot.ui.decisions import PanelSpec
from bot.ui.panel import Ids, Rendered
from games.core.actions import LegalAction

if TYPE_CHECKING:
    from bot.storage import Database
    from bot.tables.background import Background
    from bot.tables.session import Outcome, TableSession

log = logging.getLogger(__name__)

PANEL_FOLLOW_SECONDS = 14 * 60
"""An interaction token lives 15 minutes: until then a player's open panel is kept up to date."""
TOKEN_REFRESH_SECONDS = 10 * 60
"""A click on a panel gives a fresh token for the same message; it is written down only when the one kept is
this old (every click would otherwise cost a database write)."""


@dataclass
class OpenPanel:
    """A seat's latest private panel: through the interaction that made it, or (after a restart) its token."""

    lang: str
    opened_at: float
    signature: str
    interaction: discord.Interaction | None = None
    stored: tuple[int, str] | None = None
    """After a restart: the application id and the interaction token it is edited through."""
    stamp: str = ""
    """What the panel was last drawn from (see :func:`stamp`)."""
    saved_at: float = -1e18
    """When its token was last written down (for the panels' refresh after a restart)."""

    async def edit(self, client: discord.Client, **fields: Any) -> None:
        if self.interaction is not None:
            await self.interaction.edit_original_response(**fields)
            return
        assert self.stored is not None
        application_id, token = self.stored
        await edit_by_token(client, application_id, token, **fields)


async def edit_by_token(
    client: discord.Client,
    application_id: int,
    token: str,
    *,
    content: str | None = None,
    view: discord.ui.View | None = None,
    embeds: list[discord.Embed] | None = None,
    attachments: list[discord.File] | None = None,
) -> None:
    """Edit an interaction's original (private) response from its stored token, as
    ``Interaction.edit_original_response`` does, for a panel opened before a restart."""
    from discord.http import handle_message_parameters
    from discord.webhook.async_ import async_context

    http = client.http
    from discord.utils import MISSING

    with handle_message_parameters(
        content=content,
        view=view,
        embeds=MISSING if embeds is None else embeds,
        attachments=MISSING if attachments is None else attachments,
    ) as params:
        adapter = async_context.get()
        await adapter.edit_original_interaction_response(
            application_id,
            token,
            session=http._HTTPClient__session,  # type: ignore[attr-defined]  # as discord.Interaction does
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )


@dataclass
class Snapshot:
    """What a panel is drawn from, taken under the table's lock."""

    view: Any
    legal: Sequence[LegalAction]
    decision: int
    state: dict[str, str]
    ctx: TableContext


@dataclass
class Drawn(Rendered):
    """A panel as the runtime sends it: the generic panel, and the notes that features add below it (in an embed, so a
    long note never crowds the panel's own text out of the message)."""

    below: str = ""

    def signature(self) -> str:
        return repr((self.content, self.rows, self.below))


@dataclass
class Redrawn:
    """An open panel drawn again (by its :class:`PanelKind`): what it was drawn from, how it looks, and the fields to
    edit its message with."""

    stamp: str
    signature: str
    message: dict[str, Any]


class PanelKind(Protocol):
    """A kind of open panel other than a seat's (a watcher's view of the table, :mod:`bot.watch`). The follower
    brings its panels up to date with the seats' ones, by the same rules: for :data:`PANEL_FOLLOW_SECONDS` (the life
    of an interaction token), redrawn only when what they are drawn from changed, edited only when they look
    different, let go when they can no longer be edited. Their tokens are the kind's to keep (:meth:`adopt`)."""

    def open_panels(self, session: TableSession) -> dict[Any, OpenPanel]:
        """The kind's open panels at the table, by its own keys (the follower drops the ones it lets go)."""
        ...

    async def stamp(self, session: TableSession, key: Any, panel: OpenPanel) -> str:
        """What the panel would be drawn from now (it is drawn again only when this changes)."""
        ...

    async def draw(self, session: TableSession, key: Any, panel: OpenPanel) -> Redrawn:
        """The panel as it is now."""
        ...

    async def let_go(self, session: TableSession, key: Any, panel: OpenPanel, *, expired: bool) -> None:
        """The follower stopped following the panel: its token runs out (``expired``), or it could not be edited."""
        ...

    async def adopt(self, session: TableSession) -> None:
        """After a restart: the panels opened in the last minutes, to be followed again (and redrawn)."""
        ...


NOTE_LIMIT = 4000
"""Characters of notes under a panel (an embed's description holds 4096)."""
NOTE_COLOUR = 0x5C6BC0

NoteSource = Callable[["TableSession", int, Snapshot], Awaitable["str | None"]]
"""Something that may add a note to a seat's panel, drawn from the same snapshot as the panel (a coach's note at a
practice table): given the table, the seat and the snapshot, the note's text, or None. It must only read them, and
run any slow work off the event loop."""


class Panels:
    def __init__(
        self, client: discord.Client, db: Database, *, clock: Callable[[], float], background: Background
    ) -> None:
        self.client = client
        self.db = db
        self.clock = clock
        self.background = background
        self.note_sources: list[NoteSource] = []
        """Features that add a note below a panel's text (see :data:`NoteSource`)."""
        self.kinds: list[PanelKind] = []
        """Other kinds of open panels the follower keeps current with the seats' ones (see :class:`PanelKind`)."""
        self._seats: PanelKind = _SeatPanels(self)
        """The seats' own panels, followed as a kind like the others."""

    # ------------------------------------------------------------------ drawing

    async def snapshot(self, session: TableSession, seat: int, lang: str) -> Snapshot:
        async with session.lock:
            engine = session.engine  # a game that just ended still shows its last state
            if engine is None:
                engine = session.playing_engine()
            return Snapshot(
                engine.view(seat),
                engine.legal_actions(seat),
                engine.decision_id(seat),
                dict(session.panel_state.get(seat, {})),
                session.ctx(lang),
            )

    @staticmethod
    def stamp(session: TableSession, seat: int) -> str:
        """The moves made so far, the seat's panel choices and its note: a panel drawn from the same is the same."""
        engine = session.engine
        serial = -1 if engine is None else engine.serial
        note = session.runtime.panels.notes.get(seat, "")
        return f"{serial}|{session.status}|{sorted(session.panel_state.get(seat, {}).items())!r}|{note}"

    @staticmethod
    def spec(session: TableSession, seat: int, snap: Snapshot) -> PanelSpec:
        return ui_for(session.game).panel(snap.view, seat, snap.legal, snap.ctx, snap.state)

    def draw(self, session: TableSession, seat: int, snap: Snapshot, note: str | None = None) -> Rendered:
        spec = self.spec(session, seat, snap)
        rendered = generic.render(spec, Ids(session.id, snap.decision), snap.ctx.lang, snap.state)
        if note:
            rendered.content = f"{note}\n{rendered.content}"[: generic.CONTENT_LIMIT]
        return rendered

    async def notes_below(self, session: TableSession, seat: int, snap: Snapshot) -> str | None:
        """The notes the :attr:`note_sources` add to this panel (a source that fails is logged and left out)."""
        notes = []
        for source in self.note_sources:
            try:
                note = await source(session, seat, snap)
            except Exception:
                log.exception("table %s: a note for seat %s's panel failed", session.id, seat)
                continue
            if note:
                notes.append(note)
        return "\n\n".join(notes) or None

    async def build(self, session: TableSession, seat: int, lang: str) -> Rendered:
        """The seat's panel as it is now, with its note (a press that did nothing says so until the next press)."""
        stamp = self.stamp(session, seat)
        snap = await self.snapshot(session, seat, lang)
        # Drawn on the loop: a panel is text and a few components (well under a millisecond), and a thread would
        # only compete with the loop for the interpreter lock. A game's own slow step (a hint) runs on the worker pool
        # (see :mod:`bot.tables.presses`).
        below = await self.notes_below(session, seat, snap) if self.note_sources else None
        drawn = self.draw(session, seat, snap, session.runtime.panels.notes.get(seat))
        return Drawn(drawn.content, drawn.rows, stamp, below=(below or "")[:NOTE_LIMIT])

    @staticmethod
    def message(rendered: Rendered) -> dict[str, Any]:
        below = rendered.below if isinstance(rendered, Drawn) else ""
        embeds = [discord.Embed(description=below, colour=NOTE_COLOUR)] if below else []
        return {"content": rendered.content, "view": panel_view(rendered), "embeds": embeds}

    # ------------------------------------------------------------------ answering clicks

    async def open(self, interaction: discord.Interaction, session: TableSession, seat: int) -> None:
        """ "My hand": a fresh private panel (the caller brings an away member back first)."""
        self._pressed(session, seat, interaction)
        lang = lang_of(interaction.locale)
        rendered = await self.build(session, seat, lang)
        message = self.message(rendered)
        try:
            await interaction.response.send_message(**message, ephemeral=True)
        finally:
            release(message["view"])
        self.remember(session, seat, interaction, rendered, new_message=True)

    async def answer(
        self,
        interaction: discord.Interaction,
        session: TableSession,
        seat: int,
        *,
        note: str | None = None,
        outcome: Outcome | None = None,
    ) -> None:
        """Show the clicker's panel as it is now, in the message they clicked.

        ``note``: the press did nothing (a double click, a button of an earlier decision): the panel says so, and
        keeps saying so when the follower redraws it, until the member's next press is answered. After a move was
        made (``outcome``), a failure to show the panel must not read as "nothing happened": the player is told what
        the move did and how to see the table now."""
        lang = lang_of(interaction.locale)
        if note is None:
            self._pressed(session, seat, interaction)
        else:
            session.runtime.panels.notes[seat] = note
            session.runtime.panels.noted_press[seat] = interaction.id
        try:
            rendered = await self.build(session, seat, lang)
            message = self.message(rendered)
            own = _own_panel(interaction)
            if not own:
                # A button that is not on the clicker's private panel (a forged one on a public message): the
                # panel goes in a new private message, never into the message clicked.
                if interaction.response.is_done():
                    await interaction.followup.send(**message, ephemeral=True)
                else:
                    await interaction.response.send_message(**message, ephemeral=True)
            elif interaction.response.is_done():
                await interaction.edit_original_response(**message)
            else:
                await interaction.response.edit_message(**message)
            release(message["view"])
        except Exception as error:
            if outcome is None:
                raise
            log.warning("table %s: seat %s's move was made but its panel was not shown (%s)", session.id, seat, error)
            await self.tell_done(interaction, session, seat, outcome)
            if not isinstance(error, discord.HTTPException):
                raise
            return
        self.remember(session, seat, interaction, rendered, new_message=not own)

    async def tell_done(
        self, interaction: discord.Interaction, session: TableSession, seat: int, outcome: Outcome
    ) -> None:
        """What a move did, in words, when the panel could not show it."""
        lang = lang_of(interaction.locale)
        ctx = session.ctx(lang)
        ui = ui_for(session.game)
        lines = [line for e in outcome.events if e.visible_to(seat) and (line := ui.describe(e, ctx))]
        done = "\n".join(lines[:6]) or (outcome.action.text if outcome.action is not None else "")
        text = t("table.done_panel_failed", lang, done=done)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("table %s: could not tell seat %s what their move did (%s)", session.id, seat, exc)

    # ------------------------------------------------------------------ following the game

    def _pressed(self, session: TableSession, seat: int, interaction: discord.Interaction) -> None:
        """A press answered in full: a note of an earlier press that did nothing has been read. Only a press made
        after that one clears it (a double click's first press may be answered after its second)."""
        follow = session.runtime.panels
        noted = follow.noted_press.get(seat)
        if noted is not None and interaction.id > noted:
            del follow.notes[seat], follow.noted_press[seat]

    def panels(self, session: TableSession) -> dict[int, OpenPanel]:
        return session.runtime.panels.open

    def remember(
        self,
        session: TableSession,
        seat: int,
        interaction: discord.Interaction,
        rendered: Rendered,
        *,
        new_message: bool = False,
    ) -> None:
        """The seat's latest panel: it follows the game until its interaction token runs out."""
        now = self.clock()
        lang = lang_of(interaction.locale)
        old = self.panels(session).get(seat)
        saved_at = -1e18 if new_message or old is None else old.saved_at
        panel = OpenPanel(lang, now, rendered.signature(), interaction, stamp=rendered.stamp, saved_at=saved_at)
        self.panels(session)[seat] = panel
        if interaction.application_id is not None and interaction.token and now - saved_at > TOKEN_REFRESH_SECONDS:
            panel.saved_at = now
            row = PanelRow(session.id, seat, interaction.application_id, interaction.token, lang, now)
            self.background.spawn(self.db.save_panel(row), f"table {session.id}: remembering a panel")
        if rendered.stamp != self.stamp(session, seat):
            self.follow(session)  # drawn from a state that changed meanwhile (a note set by a second press): redraw

    def follow(self, session: TableSession) -> None:
        """Bring every open panel of the table up to date (in the background; bursts coalesce)."""
        follow = session.runtime.panels
        if not follow.open and not any(kind.open_panels(session) for kind in self.kinds):
            return
        follow.again = True
        if follow.follower is None or follow.follower.done():
            follow.follower = asyncio.create_task(self._follow(session))

    async def _follow(self, session: TableSession) -> None:
        follow = session.runtime.panels
        while follow.again and session.status == "playing":
            follow.again = False
            for seat, panel in list(self.panels(session).items()):
                await self._bring_up(session, self.panels(session), seat, panel, self._seats)
            for kind in self.kinds:
                opened = kind.open_panels(session)
                for key, panel in list(opened.items()):
                    await self._bring_up(session, opened, key, panel, kind)

    async def _bring_up(
        self, session: TableSession, opened: dict[Any, OpenPanel], key: Any, panel: OpenPanel, kind: PanelKind
    ) -> None:
        """One open panel brought up to date, whatever its kind: let go once its token is about to run out, drawn
        again when what it is drawn from changed, edited when it looks different, let go when it cannot be."""
        if self.clock() - panel.opened_at > PANEL_FOLLOW_SECONDS:
            if opened.get(key) is panel:
                del opened[key]
                await self._let_go(session, kind, key, panel, expired=True)
            return
        try:
            if panel.stamp and panel.stamp == await kind.stamp(session, key, panel):
                return  # nothing it is drawn from has changed (the clicker's own, just answered)
            redrawn = await kind.draw(session, key, panel)
        except Exception:
            log.exception("table %s: drawing the open panel %r failed", session.id, key)
            return
        if session.status != "playing" or opened.get(key) is not panel:
            # The table ended while it was drawn (its end has the last word), or the panel was replaced or let go
            # meanwhile (a fresh one, or its owner stopped it): an edit now would overwrite what that said.
            release(redrawn.message.get("view"))
            return
        panel.stamp = redrawn.stamp
        if redrawn.signature == panel.signature:
            release(redrawn.message.get("view"))
            return
        panel.signature = redrawn.signature
        try:
            try:
                await panel.edit(self.client, **redrawn.message)
            finally:
                release(redrawn.message.get("view"))
        except discord.HTTPException as exc:
            log.info("table %s: the open panel %r can no longer be edited (%s)", session.id, key, exc)
            if opened.get(key) is panel:
                del opened[key]
                await self._let_go(session, kind, key, panel, expired=False)

    @staticmethod
    async def _let_go(session: TableSession, kind: PanelKind, key: Any, panel: OpenPanel, *, expired: bool) -> None:
        try:
            await kind.let_go(session, key, panel, expired=expired)
        except Exception:
            log.exception("table %s: letting the open panel %r go failed", session.id, key)

    async def adopt_stored(self, session: TableSession) -> None:
        """After a restart: the panels opened in the last minutes, to be redrawn with the table's real state."""
        since = self.clock() - PANEL_FOLLOW_SECONDS
        rows = await self.db.open_panels(session.id, since=since)
        for row in rows:
            if row.seat < len(session.seats) and row.seat not in self.panels(session):
                self.panels(session)[row.seat] = OpenPanel(
                    lang_of(row.locale), row.opened_at, "", stored=(row.application_id, row.token)
                )
        for kind in self.kinds:
            try:
                await kind.adopt(session)
            except Exception:
                log.exception("table %s: adopting stored open panels failed", session.id)
        self.follow(session)


class _SeatPanels:
    """The seats' panels seen as a :class:`PanelKind` (the follower treats every kind alike)."""

    def __init__(self, panels: Panels) -> None:
        self.panels = panels

    def open_panels(self, session: TableSession) -> dict[Any, OpenPanel]:
        return self.panels.panels(session)

    async def stamp(self, session: TableSession, key: Any, panel: OpenPanel) -> str:
        return self.panels.stamp(session, key)

    async def draw(self, session: TableSession, key: Any, panel: OpenPanel) -> Redrawn:
        rendered = await self.panels.build(session, key, panel.lang)
        return Redrawn(rendered.stamp, rendered.signature(), self.panels.message(rendered))

    async def let_go(self, session: TableSession, key: Any, panel: OpenPanel, *, expired: bool) -> None:
        return None  # its token stays stored until the seat's next panel replaces it (restarts skip old ones)

    async def adopt(self, session: TableSession) -> None:
        return None  # Panels.adopt_stored adopts the seats' own


def _own_panel(interaction: discord.Interaction) -> bool:
    """Whether the press came from a private (ephemeral) message, which only the clicker can see."""
    message = interaction.message
    return message is not None and message.flags.ephemeral
