"""``/history [member] [game]`` and replays: the cog is the slash command and the one component class that answers
every press on a history page, a replay, or a results message's "Replay" (:mod:`bot.history`), whatever its id holds
(a forged or malformed one is refused there, with a private answer).

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.play import GAME_CHOICES
from bot.errors import guarded
from bot.history.ids import TEMPLATE
from bot.history.presses import on_press, show_history
from bot.i18n.translator import L

if TYPE_CHECKING:
    from bot.app import FudabaBot


class HistoryItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """Every button and menu of a history page, a replay, and a results message's "Replay" (``fdb:hist:…``): the id
    carries the whole state, so a replay steps the same after a restart."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: "re.Match[str]"
    ) -> "HistoryItem":
        return cls(item)  # never refuses here: an exception would leave the press unanswered

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        custom = str(dict(interaction.data or {}).get("custom_id", ""))
        await on_press(interaction, custom)


class HistoryCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(HistoryItem)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HistoryItem)

    @app_commands.command(
        name="history", description=L("Your settled deals (or a member's), each with its replay", "history.cmd")
    )
    @app_commands.guild_only()
    @app_commands.describe(
        member=L("Whose deals to list (default: yours)", "history.cmd_member"),
        game=L("Only this game's deals", "history.cmd_game"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @guarded
    async def history(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        await show_history(interaction, member or interaction.user, game.value if game else None)
