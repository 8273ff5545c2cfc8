"""The public table message: the picture, the state in words, the recent moves, and its two buttons.

A change marks the table dirty; one updater per table then waits out the table's edit window **before**
drawing, so a burst of changes is drawn once, with the latest state. Drawing runs off the event loop (see
``bot.render.runner``), and every edit also waits its turn in a bot-wide budget of message edits, which keeps
a busy bot within Discord's rate limits (a table then shows its latest state a little later, never a stale
one). A message older than an hour is replaced by a new one at the bottom (Discord caps edits to old
messages), as it is after each deal's results.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import io
import itertools
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.render import render_in_thread
from bot.tables.components import table_view
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


class EditBudget:
    """A bot-wide token bucket of channel requests (message edits, posts, deletions) per second.

    Discord allows a bot about 50 requests a second in all; ``per_second`` stays under that, and ``burst`` keeps
    a quiet spell from letting twice the rate through in the next second. Requests wait in two lanes: a live
    table's change always goes before a **low** one (a table redrawn after a restart, just in case its message
    missed the last change), so a restart's thousand redraws never hold up the table people are playing at."""

    def __init__(self, per_second: float, burst: float = 5.0) -> None:
        self.per_second = per_second
        self.burst = max(1.0, burst)
        self.tokens = self.burst
        self.stamp: float | None = None
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._pump: asyncio.Task[None] | None = None

    def _refill(self, now: float) -> None:
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now

    async def take(self, *, low: bool = False) -> None:
        if self.per_second <= 0:
            return
        loop = asyncio.get_running_loop()
        self._refill(loop.time())
        if not self._waiting and self.tokens >= 1:
            self.tokens -= 1
            return
        turn: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._waiting, (1 if low else 0, next(self._order), turn))
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._serve())
        await turn

    async def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting:
            self._refill(loop.time())
            if self.tokens < 1:
                await asyncio.sleep((1 - self.tokens) / self.per_second)
                continue
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():  # a waiter that was cancelled meanwhile gives its turn to the next
                self.tokens -= 1
                turn.set_result(None)


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

    def attach(self, results: Results) -> None:
        """The results messages: a new table message waits for them (to go below), and owed ones are retried after
        a table's update."""
        self._results = results

    def mark(self, session: TableSession, *, repost: bool = False, low: bool = False, member: bool = False) -> None:
        """The table changed: update its message soon (one updater per table; bursts coalesce). ``low``: only to
        be sure it is current (after a restart), after every live table's update. ``member``: a member moved or is
        to act, so someone is looking at this table."""
        picture = session.runtime.picture
        if not picture.dirty:
            picture.low = low
        elif not low:
            picture.low = False
        picture.dirty = True
        if repost:
            picture.repost = True
        if member and picture.member_waiting_since is None:
            picture.member_waiting_since = asyncio.get_running_loop().time()
        task = picture.updater
        if task is not None and not task.done() and not low and picture.waiting_low:
            task.cancel()  # waiting in the low lane, and now a live change: start again in the live lane
            task = None
        if task is None or task.done():
            picture.updater = asyncio.create_task(self._updater(session))

    async def _updater(self, session: TableSession) -> None:
        loop = asyncio.get_running_loop()
        picture = session.runtime.picture
        while picture.dirty and session.status == "playing":
            wait = picture.last_edit + self.edit_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)  # coalesce before drawing: everything in the window is drawn once
            low = picture.low
            picture.low = False
            picture.waiting_low = low
            try:
                await self.budget.take(low=low)
            except asyncio.CancelledError:
                picture.dirty = True  # handed over to a live-lane updater (see mark)
                raise
            finally:
                picture.waiting_low = False
            picture.dirty = False
            picture.member_waiting_since = None
            try:
                await self.refresh(session)
            except discord.HTTPException as exc:
                log.warning(
                    "table %s: updating the table message failed (%s); the next change retries", session.id, exc
                )
            except Exception:
                log.exception("table %s: updating the table message failed", session.id)
            picture.last_edit = loop.time()
        if session.status == "playing" and self._results is not None:
            await self._results.retry(session)

    async def refresh(self, session: TableSession) -> None:
        """Draw the table as it is now and edit (or post) its message."""
        ui = ui_for(session.game)
        async with session.lock:  # a consistent picture: never a change that is still being written
            engine = session.engine
            if engine is None or session.status != "playing":
                return
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
        try:
            await self._show(session, embed=embed, file=file, view=table_view(session))
        finally:
            session.runtime.picture.showed(serial)

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
        self, session: TableSession, *, embed: discord.Embed, file: discord.File, view: discord.ui.View
    ) -> None:
        if session.status != "playing":
            return  # the table ended while its picture was drawn: its final message is the last word
        channel = self.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        picture = session.runtime.picture
        too_old = self.clock() - session.message_created_at > MESSAGE_MAX_AGE
        if session.message_id is None or picture.repost or too_old:
            results = session.runtime.results
            if results is not None and not results.done():
                # The deal's results go first: the table is posted below them, at the bottom of the channel.
                with contextlib.suppress(Exception):
                    await asyncio.shield(results)
            if session.status != "playing":
                return
            message = await channel.send(embed=embed, file=file, view=view)
            old = session.message_id
            session.message_id, session.message_created_at = message.id, self.clock()
            picture.repost = False
            try:  # remembered before any wait: a shutdown meanwhile must not leave the old message the current one
                await self.db.set_message(session.id, message.id, session.message_created_at)
            except Exception:
                log.exception("table %s: could not remember its new message", session.id)
            if old is not None:
                await self.budget.take()  # deleting the old message is a request too
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(old).delete()
        else:
            await channel.get_partial_message(session.message_id).edit(embed=embed, attachments=[file], view=view)

    async def edit_final(self, session: TableSession, **fields: Any) -> bool:
        """Replace the table message for good (the game is over, stopped, cancelled or expired); if it cannot be
        edited, post the final message instead. Returns whether the channel got it."""
        # An update still drawing or sending the last live picture must not land after the final message (and
        # overwrite it, or post a new table below it): stop it and let it finish first.
        updater = session.runtime.picture.updater
        session.runtime.picture.updater = None
        if updater is not None and updater is not asyncio.current_task() and not updater.done():
            updater.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await updater
        channel = self.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        await self.budget.take()
        if session.message_id is not None:
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
