"""The "Replay" button under a deal's results message (public, in the table's language): pressing it opens the deal's
replay privately for whoever pressed, showing what they may see (:mod:`bot.history`)."""

from __future__ import annotations

import discord

from bot.history.ids import open_id
from bot.i18n import t


def replay_view(table_id: int, deal: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=t("history.replay_button", lang),
            emoji="🎞️",
            style=discord.ButtonStyle.secondary,
            custom_id=open_id(table_id, deal),
        )
    )
    view.stop()  # answered from the custom id (bot.cogs.history), never kept by discord.py
    return view
