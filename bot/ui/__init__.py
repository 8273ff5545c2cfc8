"""Per-game Discord adapters: how a game's views become text, images and buttons."""

from __future__ import annotations

from functools import lru_cache

from bot.ui.base import GameUI


@lru_cache(maxsize=1)
def adapters() -> dict[str, GameUI]:
    """Every game that can be played on Discord, by id (an engine without an adapter is not offered)."""
    from bot.ui.hachi_hachi import HachiHachiUI
    from bot.ui.luk_fu import LukFuUI
    from bot.ui.ofc import OFCUI
    from bot.ui.oicho import OichoUI

    return {"oicho": OichoUI(), "ofc": OFCUI(), "luk_fu": LukFuUI(), "hachi_hachi": HachiHachiUI()}


def ui_for(game_id: str) -> GameUI:
    """The adapter of one game."""
    return adapters()[game_id]
