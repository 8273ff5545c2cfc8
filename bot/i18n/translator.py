"""Slash-command descriptions and choice names in the user's Discord language."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import has, t


def L(english: str, key: str) -> app_commands.locale_str:
    """A command string with its English text and its i18n key (``cmd.<something>``)."""
    return app_commands.locale_str(english, key=key)


class CatalogTranslator(app_commands.Translator):
    """Gives Discord the Japanese text of every command description, option and choice."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if locale is not discord.Locale.japanese or not isinstance(key, str) or not has(key):
            return None
        return t(key, "ja")
