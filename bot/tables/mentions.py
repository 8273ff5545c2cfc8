"""Mentions at correspondence tables: the member whose decision it is gets one mention in the table's thread.

A correspondence table moves at the pace of a board game by mail: a decision may take hours, so nobody watches the
table waiting for their turn. When a decision comes to a member (not a bot, not away), one message in the table's
place mentions them, with the deadline and a link to the table; ``allowed_mentions`` names exactly those members, so
nobody else is pinged. A member who just moved and must decide again (a bet, then the next) is at the table and is
not mentioned for it. Simultaneous decisions (an OFC Turbo street) mention every seat that still has to act, once.
Each seat's last mentioned decision is stored, so a restart does not mention anyone twice for the same decision.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.tables.budget import TO_ACT
from bot.tables.places import jump_link

if TYPE_CHECKING:
    from bot.storage import Database
    from bot.tables.background import Background
    from bot.tables.budget import EditBudget
    from bot.tables.session import TableSession

log = logging.getLogger(__name__)


class Mentions:
    def __init__(
        self,
        client: discord.Client,
        db: Database,
        *,
        budget: EditBudget,
        background: Background,
        deadline: Callable[[TableSession], Awaitable[float]],
    ) -> None:
        self.client = client
        self.db = db
        self.budget = budget
        self.background = background
        self.deadline = deadline
        self.sent = 0

    def due(self, session: TableSession) -> dict[int, int]:
        """Seat → decision for the members to act who were not mentioned for this decision yet."""
        engine = session.engine
        if session.pace != "correspondence" or session.status != "playing" or engine is None or engine.is_over:
            return {}
        due: dict[int, int] = {}
        for seat in sorted(engine.to_act()):
            info = session.seats[seat]
            if info.bot or info.away or info.user_id is None:
                continue
            decision = engine.decision_id(seat)
            if session.pinged.get(seat) != decision:
                due[seat] = decision
        return due

    def after(self, session: TableSession, actor: int | None = None) -> None:
        """The table changed: mention whoever now has a new decision (in the background). ``actor``: the seat whose
        member made this change; if the next decision is theirs again (a bet, then another), they are at the table
        and are not mentioned for it."""
        due = self.due(session)
        if actor is not None and actor in due:
            session.pinged[actor] = due.pop(actor)
            if not due:  # stored, so a restart does not mention them for it either
                self.background.spawn(self._note(session), f"table {session.id}: noting a decision seen")
        if due:
            session.pinged.update(due)  # noted at once: a change right after this one does not mention them again
            self.background.spawn(self._send(session, due), f"table {session.id}: mentioning whose turn it is")

    async def _note(self, session: TableSession) -> None:
        await self.db.set_pinged(session.id, dict(session.pinged))

    async def _send(self, session: TableSession, due: dict[int, int]) -> None:
        users = [session.seats[seat].user_id for seat in due]
        at = int(await self.deadline(session))
        spec = session.spec
        text = t(
            "table.your_turn",
            session.lang,
            mentions=" ".join(f"<@{user}>" for user in users),
            game=spec.name_ja if session.lang == "ja" else spec.name_en,
            id=session.id,
            deadline=f"<t:{at}:f>",
            relative=f"<t:{at}:R>",
            link=jump_link(session.guild_id, session.channel_id, session.message_id),
        )
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user) for user in users if user is not None]
        )
        channel = self.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        await self.budget.take(TO_ACT)
        try:
            await channel.send(text, allowed_mentions=allowed)
        except discord.HTTPException as exc:
            log.warning("table %s: could not mention whose turn it is (%s); trying at the next change", session.id, exc)
            for seat, decision in due.items():
                if session.pinged.get(seat) == decision:
                    del session.pinged[seat]
            return
        self.sent += 1
        try:
            await self._note(session)
        except Exception as exc:
            log.warning("table %s: could not note the mentions sent (%s)", session.id, exc)
