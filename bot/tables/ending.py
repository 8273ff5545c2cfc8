"""The end of a table: a game that finished, or a table stopped by its host or a moderator.

Either way the table is forgotten at once (nothing moves it on any more) and its message is replaced by the final
one, which says what happened to the chips: the stacks as they went back to their owners, and for a stop whether
an unfinished deal was void. The final message waits for the last deal's results, so it reads after them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.errors import UserError
from bot.i18n import t
from bot.tables.places import jump_link, summary_line

if TYPE_CHECKING:
    from bot.storage import Database
    from bot.tables.places import Places
    from bot.tables.public import PublicMessages
    from bot.tables.registry import Registry
    from bot.tables.session import TableSession

log = logging.getLogger(__name__)


class Ending:
    def __init__(
        self,
        db: Database,
        registry: Registry,
        public: PublicMessages,
        places: Places,
        *,
        ready: Callable[[TableSession], Awaitable[TableSession]],
    ) -> None:
        self.db = db
        self.registry = registry
        self.public = public
        self.places = places
        self.ready = ready

    async def stop(self, session: TableSession, by: int) -> str:
        """End a table at once. A deal with moves in it is void (no chips moved in it); every stack goes back.
        Returns the key of what the stopper is told, which says what happened to the chips."""
        await self.ready(session)
        in_lobby = session.status == "lobby"
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
            self.registry.forget(session)
        embed = self.final_embed(session, stopped_by=by, said=said, deal=deal)
        if in_lobby and session.in_thread:
            await self.places.edit_lobby_message(session, embed=embed, view=None)
            await self.places.archive(session)
        else:
            await self._final(session, embed, stopped=True)
        return said

    async def finish(self, session: TableSession) -> None:
        """The game is over (its closing was written with its last move)."""
        self.registry.forget(session)
        await self._final(session, self.final_embed(session), stopped=False)

    async def _final(self, session: TableSession, embed: discord.Embed, *, stopped: bool) -> None:
        results = session.runtime.results
        if results is not None and not results.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(results)
        await self.public.edit_final(session, embed=embed)
        if session.in_thread:
            stacks = returned_stacks(session)
            link = jump_link(session.guild_id, session.channel_id, session.message_id)
            line = summary_line(session, stacks, lang=session.lang, link=link, stopped=stopped)
            await self.places.close(session, line)

    def final_embed(
        self, session: TableSession, stopped_by: int | None = None, said: str = "", deal: int = 0
    ) -> discord.Embed:
        lang = session.lang
        engine = session.engine
        embed = discord.Embed(title=t("table.final_title", lang), colour=discord.Colour.gold())
        if stopped_by is not None:
            embed.description = t(said or "table.stopped_between", lang, user=f"<@{stopped_by}>", deal=deal)
        stacks = returned_stacks(session)
        if engine is not None and stacks is not None:
            names = session.names()
            ranking = sorted(range(engine.seats), key=lambda s: -stacks[s])
            lines = []
            for s in ranking:
                change = (stacks[s] - session.points_per_seat) * session.stake
                lines.append(f"**{names[s]}** — {stacks[s] * session.stake:,} ({change:+,})")
            value = "\n".join(lines)
            back = pot_back(session)
            if back is not None and any(back):
                paid = " · ".join(f"{names[s]} +{b * session.stake:,}" for s, b in enumerate(back) if b)
                value += "\n" + t("table.final_pot_back", lang, paid=paid)
            embed.add_field(name=t("table.final_stacks", lang), value=value[:1024], inline=False)
        return embed


def pot_back(session: TableSession) -> list[int] | None:
    """Points by seat that a pot still held goes back with, when the table ends before its game did (a stop, or a
    tournament table's last deal): the closing wrote the same (:meth:`Engine.stop_result`)."""
    engine = session.engine
    if engine is None or engine.is_over:
        return None
    back = engine.stop_result()
    return list(back.deltas) if back is not None else None


def returned_stacks(session: TableSession) -> list[int] | None:
    """Each seat's stack as it went back to its owner, in points: its stack after the last settled deal and what
    the pot gave back (what the final message shows must be what the balances received)."""
    engine = session.engine
    if engine is None:
        return None
    back = pot_back(session) or [0] * engine.seats
    return [stack + b for stack, b in zip(engine.stacks, back, strict=True)]
