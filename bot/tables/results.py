"""Results messages: each settled deal's result and revealed seeds are owed to the channel.

A deal is settled in the same transaction as the move that finished it, and its hand-history row says
whether its results message has reached the channel. A post that fails is retried (after the next table
update, every few minutes, and after a restart) until it does: late rather than never.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.history.button import replay_view
from bot.i18n import t
from bot.storage import HandRecord
from bot.tables.budget import TO_ACT
from bot.tables.public import MESSAGE_MAX_AGE
from bot.ui import ui_for
from bot.ui.base import TableContext
from bot.ui.bot_levels import stored_names
from games.core.engine import DealResult
from games.core.errors import RecordError
from games.registry import get_game

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.storage import Database
    from bot.tables.budget import EditBudget
    from bot.tables.registry import Registry
    from bot.tables.session import Settled, TableSession

log = logging.getLogger(__name__)

RETRY_SECONDS = 120.0


class Results:
    def __init__(
        self,
        client: discord.Client,
        db: Database,
        registry: Registry,
        *,
        budget: EditBudget,
        owns: Callable[[int], bool],
        clock: Callable[[], float],
    ) -> None:
        self.client = client
        self.clock = clock
        self.db = db
        self.registry = registry
        self.budget = budget
        self.owns = owns
        self._retry_task: asyncio.Task[None] | None = None
        self._posting: set[tuple[int, int]] = set()
        """Deals whose post is under way: two retries that meet post a result once."""
        self.owing: set[int] = set()
        """Tables with a results message that failed to post (checked again after their next update)."""

    def post_soon(
        self, session: TableSession, settled: list[Settled], *, into_table: bool = False
    ) -> asyncio.Task[bool]:
        """Post the results of deals just settled, in the background (it waits its turn in the budget of channel
        requests; nothing else of the table waits for it). Results of one table go out in the order settled.

        ``into_table``: the table message as it is now becomes the (first) deal's results, one edit instead of a
        new message and the deletion of the old table (the table is posted again below it). Not for a message
        older than an hour (Discord caps those edits), nor when the game ended (its message becomes the final one).
        """
        before = session.runtime.results
        into = session.message_id if into_table else None
        if into is not None and self.clock() - session.message_created_at > MESSAGE_MAX_AGE * 0.9:
            into = None

        async def post() -> bool:
            if before is not None and not before.done():
                with contextlib.suppress(Exception):
                    await asyncio.shield(before)
            return await self.post(session, settled, into=into)

        task = asyncio.create_task(post())
        session.runtime.results = task
        return task

    async def post(self, session: TableSession, settled: list[Settled], *, into: int | None = None) -> bool:
        """Post the results of deals just settled; the ones that fail stay owed. Returns whether all got through.
        ``into``: a message of the table to turn into the first deal's results (see :meth:`post_soon`)."""
        ok = True
        for item in settled:
            ok = (
                await self._post(
                    session.id,
                    session.channel_id,
                    session.guild_id,
                    session.game,
                    session.ctx(),
                    item.result,
                    item.summary.get("seeds", []),
                    into=into,
                    kept=session.runtime.kept_messages,
                )
                and ok
            )
            into = None
        if not ok:
            self.owing.add(session.id)
            self._schedule_retry()
        return ok

    async def _post(
        self,
        table_id: int,
        channel_id: int,
        guild_id: int,
        game: str,
        ctx: TableContext,
        result: DealResult[Any],
        seeds: list[str],
        *,
        into: int | None = None,
        kept: set[int] | None = None,
    ) -> bool:
        key = (table_id, result.deal)
        if key in self._posting:
            return True
        self._posting.add(key)
        try:
            return await self._send(table_id, channel_id, guild_id, game, ctx, result, seeds, into=into, kept=kept)
        finally:
            self._posting.discard(key)

    async def _send(
        self,
        table_id: int,
        channel_id: int,
        guild_id: int,
        game: str,
        ctx: TableContext,
        result: DealResult[Any],
        seeds: list[str],
        *,
        into: int | None = None,
        kept: set[int] | None = None,
    ) -> bool:
        embed = ui_for(game).result_embed(result, ctx)
        if seeds:
            embed.add_field(
                name=t("table.seed_revealed", ctx.lang), value="\n".join(f"`{s}`" for s in seeds)[:1024], inline=False
            )
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        view = replay_view(table_id, result.deal, ctx.lang)  # opens the deal's replay, privately for who presses
        await self.budget.take(TO_ACT)
        try:
            if into is not None:
                try:
                    await channel.get_partial_message(into).edit(embed=embed, attachments=[], view=view)
                    if kept is not None:
                        kept.add(into)  # the table is posted again below; this message stays as the results
                except discord.HTTPException as exc:
                    log.info(
                        "table %s: the table message could not become the results (%s); posting them", table_id, exc
                    )
                    await self.budget.take(TO_ACT)
                    await channel.send(embed=embed, view=view)
            else:
                await channel.send(embed=embed, view=view)
        except discord.HTTPException as exc:
            log.warning(
                "table %s: could not post the result of deal %s (%s); it stays owed", table_id, result.deal, exc
            )
            return False
        try:
            await self.db.mark_posted(table_id, result.deal)
        except Exception:
            log.exception("table %s: could not note that deal %s's result was posted", table_id, result.deal)
        return True

    async def retry(self, session: TableSession | None = None) -> None:
        """Post the results still owed (of one table, or of every table)."""
        if session is not None and session.id not in self.owing:
            return
        owed = await self.db.unposted_results(None if session is None else session.id)
        failed = False
        contexts: dict[int, tuple[int, int, str, TableContext, int] | None] = {}
        for hand in owed:
            if not self.owns(hand.guild_id):
                continue  # another process's shard: it posts those
            if hand.table_id not in contexts:
                contexts[hand.table_id] = await self._context(hand)
            found = contexts[hand.table_id]
            if found is None:
                continue
            channel_id, guild_id, game, ctx, stake = found
            deltas = tuple(d // stake for d in hand.deltas)
            try:
                detail = get_game(game).result.from_json(hand.summary)
            except RecordError as exc:  # no retry reads it better: left owed, and said once per attempt
                log.error("table %s: the stored result of deal %s does not read (%s)", hand.table_id, hand.deal_no, exc)
                continue
            # A deal's deltas and what it put into the table's pot always sum to zero.
            result = DealResult(hand.deal_no, deltas, detail, pot=-sum(deltas))
            seeds = list(detail.recorded.seeds or ())
            if not await self._post(hand.table_id, channel_id, guild_id, game, ctx, result, seeds):
                failed = True
        if failed:
            self._schedule_retry()
        elif session is not None:
            self.owing.discard(session.id)
        else:
            self.owing.clear()

    async def _context(self, hand: HandRecord) -> tuple[int, int, str, TableContext, int] | None:
        live = self.registry.tables.get(hand.table_id)
        if live is not None:
            return live.channel_id, live.guild_id, live.game, live.ctx(), live.stake
        row = await self.db.get_table(hand.table_id)
        if row is None:
            return None
        spec = get_game(row.game)
        rules = spec.rules_model.model_validate(row.rules)
        ctx = TableContext(row.id, stored_names(row.seats, row.lang), row.stake, row.practice, row.lang, rules)
        return row.channel_id, row.guild_id, row.game, ctx, row.stake

    def _schedule_retry(self) -> None:
        if self._retry_task is not None and not self._retry_task.done():
            return
        self._retry_task = asyncio.create_task(self._later())

    async def _later(self) -> None:
        await asyncio.sleep(RETRY_SECONDS)
        await self.retry()

    def cancel(self) -> None:
        if self._retry_task is not None:
            self._retry_task.cancel()
