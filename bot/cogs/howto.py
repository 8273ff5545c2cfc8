"""``/howto game [topic]``: the illustrated guide to a game, private to the member, in their language.

The guide itself (pages, pictures, the paged message) is :mod:`bot.howto`; this cog is the slash command and the
one component class that answers every press on a guide, whatever its id holds (a forged or malformed one is
refused there, with a private answer).

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.play import GAME_CHOICES
from bot.errors import guarded
from bot.howto import GAMES, guide, topic_title
from bot.howto.message import TEMPLATE, on_press, open_guide
from bot.i18n import lang_of
from bot.i18n.translator import L

if TYPE_CHECKING:
    from bot.app import FudabaBot

MAX_CHOICES = 25


class GuideItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """Every button and menu of a guide message (``fdb:howto:…``): the id carries the whole state, so a guide
    pages the same after a restart, and the press is judged on its id alone (:func:`bot.howto.message.on_press`)."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: "re.Match[str]"
    ) -> "GuideItem":
        return cls(item)  # never refuses here: an exception would leave the press unanswered

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        custom = str(dict(interaction.data or {}).get("custom_id", ""))
        await on_press(interaction, custom)


class HowtoCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(GuideItem)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(GuideItem)

    async def topic_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen game's topics whose id or title (in the member's language) contains what was typed."""
        game = getattr(interaction.namespace, "game", None)
        if not isinstance(game, str) or game not in GAMES:
            return []
        lang = lang_of(interaction.locale)
        typed = current.strip().lower()
        found = []
        for tp in guide(game).topics:
            title = topic_title(game, tp.id, lang)
            if typed in tp.id or typed in title.lower():
                found.append(app_commands.Choice(name=f"{tp.emoji} {title}"[:100], value=tp.id))
        return found[:MAX_CHOICES]

    @app_commands.command(
        name="howto", description=L("How to play a game: an illustrated guide, just for you", "howto.cmd")
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game=L("The game", "howto.cmd_game"),
        topic=L("Open the guide at this topic (start typing to search)", "howto.cmd_topic"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(topic=topic_autocomplete)
    @guarded
    async def howto(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        topic: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await open_guide(interaction, game.value, topic.strip() if topic else None)
