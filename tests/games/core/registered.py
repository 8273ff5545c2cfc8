"""The registry's games as the tests see them, plus the test toy."""

from __future__ import annotations

import importlib.util

import toy_highcard

import games.registry
from games.registry import GameSpec


def real_games() -> dict[str, GameSpec]:
    """The registry's games; empty until the first game package exists (the registry imports it)."""
    if importlib.util.find_spec("games.oicho") is None:
        return {}
    return games.registry.all_games()


def with_toy() -> dict[str, GameSpec]:
    """The registry's games and the toy, as a patched ``games.registry.all_games`` returns them."""
    return {toy_highcard.SPEC.id: toy_highcard.SPEC, **real_games()}
