"""Shared fixtures for the game tests.

The test tree has no ``__init__.py`` files on purpose: a ``tests/games`` package would shadow the real
``games`` package under pytest's default import mode. Helper modules (the toy game) live next to the tests
that use them, and this file puts their folder on ``sys.path``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_CORE_TESTS = str(Path(__file__).parent / "core")
if _CORE_TESTS not in sys.path:
    sys.path.insert(0, _CORE_TESTS)

import toy_highcard  # noqa: E402  (needs the path above)

import games.registry  # noqa: E402
from games.registry import GameSpec  # noqa: E402


def real_games() -> dict[str, GameSpec]:
    """The registry's games; empty until the first game package exists (the registry imports it)."""
    import importlib.util

    if importlib.util.find_spec("games.oicho") is None:
        return {}
    return games.registry.all_games()


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[GameSpec]:
    """The toy game added to the registry for one test (replay() looks games up there)."""
    real = real_games()
    monkeypatch.setattr(games.registry, "all_games", lambda: {**real, toy_highcard.SPEC.id: toy_highcard.SPEC})
    return toy_highcard.SPEC
