"""Per-game Discord adapters: how a game's views become text, images and buttons."""

from __future__ import annotations

from bot.ui.base import GameUI


def ui_for(game_id: str) -> GameUI:
    """The adapter of one game."""
    from bot.ui.oicho import OichoUI

    adapters: dict[str, GameUI] = {"oicho": OichoUI()}
    return adapters[game_id]
