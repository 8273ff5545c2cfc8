"""The public table message: the picture, the state in words, the recent moves, and its buttons.

A change marks the table dirty; one updater per table then waits out the table's edit window **before**
drawing, so a burst of changes is drawn once, with the latest state. Drawing runs off the event loop (see
``bot.render.runner``); then the edit waits its turn in the bot-wide budget of channel requests
(:mod:`bot.tables.budget`), by priority: a table where a member is to act or has just acted goes before one where
only bots moved. A change while the picture waits is drawn at the next turn (a table shows its latest state a
little later, never a stale one for long). A message older than an hour is replaced by a new one at the bottom
(Discord caps edits to old messages), as it is after each deal's results, which the old message becomes.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.render import render_in_thread
from bot.tables.budget import BOTS, LOW, MEMBER, TO_ACT, EditBudget, Withdrawn
from bot.tables.components import release, table_view
from bot.ui import ui_for

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.storage import Database
    from bot.tables.results import Results
    from bot.tables.session import TableSession

log = logging.getLogger(__name__)

MESSAGE_MAX_AGE = 3600.0
"""Edits to messages older than an hour hit a separate rate limit: repost instead."""
NARRATION_LINES = 5
RETRY_FIRST_SECONDS = 2.0
RETRY_MAX_SECONDS = 60.0
"""A failed table update is tried again after 2 s, then 4, 8 … at most a minute apart."""


class PublicMessages:
    def __init__(
        self,
        client: discord.Client,
        db: Database,
        *,
        clock: Callable[[], float],
        edit_interval: float,
        budget: EditBudget,
    ) -> None:
        self.client = client
        self.db = db
        self.clock = clock
        self.edit_interval = edit_interval
        self.budget = budget
        self.renders = 0
        self._results: Results | None = None
        self.on_final: list[Callable[[TableSession], None]] = []
        """Told once a table's final message is out (it finished, was stopped, or its lobby expired): features that
        follow the table say goodbye (watchers' panels). Each must not block: slow work goes in a task of its own."""

    def attach(self, results: Results) -> None:
        """The results messages: a new table message waits for them (to go below), and owed ones are retried after
        a table's update."""
        self._results = results

    def mark(
        self,
        session: TableSession,
        *,
        repost: bool = False,
        low: bool = False,
        member: bool = False,
        to_act: bool = False,
    ) -> None:
        """The table changed: update its message soon (one updater per table; bursts coalesce). ``low``: only to
        be sure it is current (after a restart), after every live table's update. ``to_act``: a member is to act
        now; ``member``: a member moved. Someone is looking at such a table: its picture goes first."""
        picture = session.runtime.picture
        picture.dirty = True
        if repost:
            picture.repost = True
        priority = TO_ACT if to_act else MEMBER if member else LOW if low else BOTS
        picture.pending(priority, self.budget.age())  # its place in a lane counts from the change that put it there
        ticket = picture.ticket
        if ticket is not None and priority < ticket.priority:
            if priority == TO_ACT:
                # A member's turn began: the picture waiting was drawn before it. Rather than send that first, it is
                # drawn again now and waits in the members' lane.
                self.budget.withdraw(ticket)
            else:
                self.budget.promote(ticket, priority)  # sent as drawn; this change is drawn right after
        if picture.updater is None or picture.updater.done():
            picture.updater = asyncio.create_task(self._updater(session))

    async def _updater(self, session: TableSession) -> None:
        loop = asyncio.get_running_loop()
        picture = session.runtime.picture
        while picture.dirty and session.status == "playing":
            wait = picture.last_edit + self.edit_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)  # coalesce before drawing: everything in the window is drawn once
            picture.dirty = False
            priority, age = min(picture.priority, LOW), picture.age
            picture.priority, picture.age = 99, None
            try:
                if not await self.refresh(session, priority, age):
                    continue  # taken back for a fresher picture: drawn again now, its edit window not yet spent
                picture.failures = 0
            except Exception as exc:
                if isinstance(exc, discord.HTTPException):
                    log.warning("table %s: updating the table message failed (%s); trying again", session.id, exc)
                else:
                    log.exception("table %s: updating the table message failed", session.id)
                # Tried again by itself, later each time: a table whose message could not be (re)posted must not
                # wait for a change nobody can make without its buttons.
                picture.failures += 1
                picture.dirty = True
                picture.pending(priority, age)
                await asyncio.sleep(min(RETRY_MAX_SECONDS, RETRY_FIRST_SECONDS * 2 ** (picture.failures - 1)))
            picture.last_edit = loop.time()
        if session.status == "playing" and self._results is not None:
            await self._results.retry(session)

    async def refresh(self, session: TableSession, priority: int = MEMBER, age: int | None = None) -> bool:
        """Draw the table as it is now, wait for the budget's turn (``priority``, counted from ``age``: when the
        table became that urgent), and edit (or post) its message. Returns whether it did (False: nothing to draw, or
        its turn was taken back for a fresher picture)."""
        ui = ui_for(session.game)
        async with session.lock:  # a consistent picture: never a change that is still being written
            engine = session.engine
            if engine is None or session.status != "playing":
                return False
            view = engine.public_view()
            serial = engine.serial
            ctx = session.ctx()
            embed = ui.public_summary(view, ctx)
            commitments = engine.commitments()
            names = session.names()
            away = [names[i] for i, s in enumerate(session.seats) if s.away]
            recent = [line for e in session.recent if (line := ui.describe(e, ctx))]
        if recent:
            embed.add_field(
                name=t("table.recent", session.lang), value="\n".join(recent[-NARRATION_LINES:])[:1024], inline=False
            )
        if away:
            embed.add_field(name=t("table.away", session.lang), value=", ".join(away), inline=False)
        if commitments:
            # Every shuffle of this deal (the first deal also has the dealer draw), in full: a prefix proves nothing.
            embed.set_footer(text=t("table.commitment", session.lang, hash="\n".join(commitments)))
        image = await render_in_thread(ui.render, view, ctx)
        self.renders += 1
        file = discord.File(io.BytesIO(image), filename="table.png")
        embed.set_image(url="attachment://table.png")
        picture = session.runtime.picture
        results = session.runtime.results
        if results is not None and not results.done():
            # A deal's results go first: the table is posted below them, at the bottom of the channel.
            with contextlib.suppress(Exception):
                await asyncio.shield(results)
        # The token is taken now, just before the request: drawing never holds the budget, and the requests go out at
        # its pace even when pictures finish drawing in a bunch. Its age is the change that made it urgent: neither
        # drawing nor a deal's results going first sends it to the back of its lane. A change while it was drawn may
        # make it more urgent (then it counts from that change).
        if picture.priority < priority:
            priority, age = picture.priority, picture.age
        ticket = picture.ticket = self.budget.request(priority, age=age)
        try:
            await ticket
        except Withdrawn:
            return False  # a member's turn began meanwhile: the updater draws the table again at once
        finally:
            if not ticket.done:
                ticket.granted.cancel()
            picture.ticket = None
        view = table_view(session)
        try:
            await self._show(session, embed=embed, file=file, view=view, priority=priority)
        finally:
            release(view)
            picture.showed(serial)  # (or tried to: a failing channel must not hold the bots up)
        return True

    async def shown(self, session: TableSession, serial: int, *, at_most: float) -> None:
        """Wait until the table's message shows the state of ``serial`` (or later), at most ``at_most`` seconds: a
        bot's pace counts from when people could see the move before it, not from when it was made. (It waits on the
        table's updater task, which is what shows it.)"""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + at_most
        picture = session.runtime.picture
        while picture.shown_serial < serial and session.status == "playing":
            updater, left = picture.updater, deadline - loop.time()
            if updater is None or updater.done() or left <= 0:
                return
            await asyncio.wait({updater}, timeout=left)

    async def _show(
        self,
        session: TableSession,
        *,
        embed: discord.Embed,
        file: discord.File,
        view: discord.ui.View,
        priority: int = MEMBER,
    ) -> None:
        if session.status != "playing":
            return  # the table ended while its picture was drawn: its final message is the last word
        channel = self.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        picture = session.runtime.picture
        too_old = self.clock() - session.message_created_at > MESSAGE_MAX_AGE
        if session.message_id is None or picture.repost or too_old:
            if session.status != "playing":
                return
            # The old message became the deal's results (:mod:`bot.tables.results`): it stays, and is not deleted.
            kept = session.message_id is not None and session.message_id in session.runtime.kept_messages
            message = await channel.send(embed=embed, file=file, view=view)
            old = session.message_id
            session.message_id, session.message_created_at = message.id, self.clock()
            picture.repost = False
            try:  # remembered before any wait: a shutdown meanwhile must not leave the old message the current one
                await self.db.set_message(session.id, message.id, session.message_created_at)
            except Exception:
                log.exception("table %s: could not remember its new message", session.id)
            if old is not None and not kept:
                await self.budget.take(priority)  # deleting the old message is a request too
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(old).delete()
            session.runtime.kept_messages.discard(old or 0)
        else:
            await channel.get_partial_message(session.message_id).edit(embed=embed, attachments=[file], view=view)

    async def edit_final(self, session: TableSession, **fields: Any) -> bool:
        """Replace the table message for good (the game is over, stopped, cancelled or expired); if it cannot be
        edited, post the final message instead, then tell :attr:`on_final`. Returns whether the channel got it."""
        try:
            return await self._edit_final(session, **fields)
        finally:
            for told in self.on_final:
                try:
                    told(session)
                except Exception:
                    log.exception("table %s: telling of its end failed", session.id)

    async def _edit_final(self, session: TableSession, **fields: Any) -> bool:
        # An update still drawing or sending the last live picture must not land after the final message (and
        # overwrite it, or post a new table below it): stop it and let it finish first.
        updater = session.runtime.picture.updater
        session.runtime.picture.updater = None
        if updater is not None and updater is not asyncio.current_task() and not updater.done():
            updater.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await updater
        channel = self.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        await self.budget.take(TO_ACT)
        # A table message that already became a deal's results keeps them: the final message is posted below.
        if session.message_id is not None and session.message_id not in session.runtime.kept_messages:
            try:
                await channel.get_partial_message(session.message_id).edit(**fields, view=None, attachments=[])
                return True
            except discord.HTTPException as exc:
                log.warning("table %s: the final edit failed (%s); posting it instead", session.id, exc)
        try:
            await channel.send(**{k: v for k, v in fields.items() if k in ("embed", "content")})
            return True
        except discord.HTTPException as exc:
            log.warning("table %s: the final message could not be posted (%s)", session.id, exc)
            return False
