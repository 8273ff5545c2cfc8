"""``/learn game [lesson]``: a coached practice hand, private to the member, with bots and a deal chosen to teach.

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError, guarded
from bot.i18n import lang_of
from bot.i18n.translator import L
from bot.learn.coach import coached
from bot.learn.lessons import Lesson, lesson, lessons
from bot.learn.teacher import Teacher, lesson_title
from games.registry import all_games

if TYPE_CHECKING:
    from bot.app import FudabaBot

GAME_CHOICES = [
    app_commands.Choice(name=L(spec.name_en, f"cmd.game_{gid}"), value=gid)
    for gid, spec in all_games().items()
    if lessons(gid) and coached(gid) is not None
]


class ReviewItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fdb:learn:review:(?P<table>[0-9]{1,19})"):
    """The **Review** button posted when a lesson ends: its id names the table, so it works after a restart."""

    def __init__(self, table_id: int) -> None:
        super().__init__(discord.ui.Button(custom_id=f"fdb:learn:review:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: "re.Match[str]"
    ) -> "ReviewItem":
        return cls(int(match["table"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        cog = client.get_cog("LearnCog") if isinstance(client, commands.Bot) else None
        if not isinstance(cog, LearnCog):
            raise UserError("learn.no_such_lesson")
        await cog.teacher.review(interaction, self.table_id)


class LearnCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot
        self.teacher = Teacher(bot)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ReviewItem)
        self.teacher.attach()  # the bot builds its table runtime before loading the cogs

    async def cog_unload(self) -> None:
        self.teacher.detach()
        self.bot.remove_dynamic_items(ReviewItem)

    async def lesson_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen game's lessons whose id or title (in the member's language) contains what was typed."""
        game = getattr(interaction.namespace, "game", None)
        if not isinstance(game, str):
            return []
        lang = lang_of(interaction.locale)
        typed = current.strip().lower()
        found = []
        for item in lessons(game):
            title = lesson_title(item, lang)
            if typed in item.id or typed in title.lower():
                found.append(app_commands.Choice(name=f"{item.emoji} {title}"[:100], value=item.id))
        return found[:25]

    @app_commands.command(
        name="learn",
        description=L("A coached practice hand: bots, a chosen deal, a coach at every decision", "learn.cmd"),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game=L("The game", "learn.cmd_game"),
        lesson=L("Which lesson (start typing to see them)", "learn.cmd_lesson"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(lesson=lesson_autocomplete)
    @guarded
    async def learn(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        lesson: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        chosen = _lesson(game.value, lesson)
        await self.teacher.open(interaction, chosen)


def _lesson(game: str, lesson_id: str | None) -> Lesson:
    found = lesson(game, lesson_id.strip() if lesson_id else None)
    if found is None:
        raise UserError("learn.unknown_lesson", lessons=", ".join(f"`{item.id}`" for item in lessons(game)))
    return found
