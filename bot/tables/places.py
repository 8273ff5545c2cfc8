"""Where a table is played: its own public thread of the channel where ``/play`` was used, or that channel itself.

A table in a thread keeps a channel free for many tables at once. Its lobby message is posted in the channel and
starts the thread (a thread started from a message has that message's id, so the lobby message is always
``(parent, thread)``); once the game starts the table is played in the thread. When it ends, the final results stay
in the thread, the lobby message in the channel becomes a one-line summary linking to them, the same line is posted
at the bottom of the channel (where people are), and the thread is archived.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.i18n import t

if TYPE_CHECKING:
    from bot.tables.budget import EditBudget
    from bot.tables.session import TableSession

log = logging.getLogger(__name__)

THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
"""What the bot needs in a channel to open tables in threads there (besides what every table needs)."""
ARCHIVE_AFTER_MINUTES: Literal[10080] = 10080
"""Discord's longest auto-archive (a week): a correspondence table may be quiet for days."""
THREAD_TYPES = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread})


def is_thread(channel: Any) -> bool:
    return getattr(channel, "type", None) in THREAD_TYPES or isinstance(channel, discord.Thread)


def missing_thread_permissions(permissions: discord.Permissions) -> list[str]:
    """The permissions the bot lacks to open a table in a thread here (names as ``discord.Permissions`` has them)."""
    return [name for name in THREAD_PERMISSIONS if not getattr(permissions, name)]


def thread_name(game_name: str, table_id: int) -> str:
    return f"{game_name} #{table_id}"[:100]


def jump_link(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    base = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


class Places:
    def __init__(self, client: discord.Client, budget: EditBudget) -> None:
        self.client = client
        self.budget = budget

    async def make_thread(self, message: discord.Message, name: str) -> int:
        """Start the table's thread from its lobby message; returns the thread's id (the message's)."""
        thread = await message.create_thread(name=name, auto_archive_duration=ARCHIVE_AFTER_MINUTES)
        return thread.id

    async def edit_lobby_message(self, session: TableSession, **fields: Any) -> bool:
        """Edit the lobby message of a table in a thread (in the parent channel)."""
        channel_id, message_id = session.lobby_place
        channel = self.client.get_partial_messageable(channel_id, guild_id=session.guild_id)
        await self.budget.take()
        try:
            await channel.get_partial_message(message_id).edit(**fields)
            return True
        except discord.HTTPException as exc:
            log.warning("table %s: its lobby message could not be edited (%s)", session.id, exc)
            return False

    async def close(self, session: TableSession, line: str) -> None:
        """The table in a thread is over: ``line`` (a one-line summary) replaces its lobby message and is posted at
        the bottom of the parent channel; the thread is archived. Each step that fails is logged and skipped."""
        if session.parent_id is None:
            return
        embed = discord.Embed(description=line, colour=discord.Colour.dark_grey())
        await self.edit_lobby_message(session, embed=embed, view=None)
        parent = self.client.get_partial_messageable(session.parent_id, guild_id=session.guild_id)
        await self.budget.take()
        try:
            await parent.send(line, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("table %s: its summary could not be posted in the channel (%s)", session.id, exc)
        await self.archive(session)

    async def archive(self, session: TableSession) -> None:
        if session.parent_id is None or session.channel_id < 0:
            return
        await self.budget.take()
        try:
            await self.client.http.edit_channel(session.channel_id, archived=True)
        except discord.HTTPException as exc:
            log.info("table %s: its thread could not be archived (%s); Discord archives it when idle", session.id, exc)


def summary_line(session: TableSession, stacks: list[int] | None, *, lang: str, link: str, stopped: bool) -> str:
    """``🏁 Oicho-Kabu #12 is over: Alice +40, Bob −40 · results`` (names and chip changes, best first)."""
    spec = session.spec
    game = spec.name_ja if lang == "ja" else spec.name_en
    names = session.names()
    if stacks:
        order = sorted(range(len(stacks)), key=lambda s: -stacks[s])
        parts = [f"{names[s]} {(stacks[s] - session.points_per_seat) * session.stake:+,}" for s in order]
        outcome = ", ".join(parts)
    else:
        outcome = t("table.summary_no_game", lang)
    key = "table.summary_stopped" if stopped else "table.summary_over"
    return t(key, lang, game=game, id=session.id, outcome=outcome, link=link)[:1900]
