"""One cog per feature; the bot loads every cog listed here."""

from __future__ import annotations

from typing import Any


def _cogs() -> list[Any]:
    from bot.cogs.play import PlayCog

    found: list[Any] = [PlayCog]
    try:
        from bot.cogs.economy import EconomyCog
        from bot.cogs.howto import HowtoCog
        from bot.cogs.moderation import ModerationCog
        from bot.cogs.rules import RulesCog
    except ImportError:  # pragma: no cover - during development only
        return found
    return [*found, EconomyCog, ModerationCog, RulesCog, HowtoCog]


COGS = _cogs()
