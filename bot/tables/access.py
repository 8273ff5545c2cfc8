"""Who may do what at a table: the host, or a moderator where moderators may."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.errors import UserError

if TYPE_CHECKING:
    from bot.tables.session import TableSession

IsModerator = Callable[[discord.Interaction], Awaitable[bool]]


async def require_host(
    session: TableSession, interaction: discord.Interaction, is_moderator: IsModerator, *, moderator_ok: bool = False
) -> None:
    if interaction.user.id == session.host_id:
        return
    if moderator_ok and await is_moderator(interaction):
        return
    raise UserError("table.host_only")
