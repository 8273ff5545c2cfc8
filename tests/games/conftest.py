"""Shared fixtures for the game tests.

The test tree has no ``__init__.py`` files on purpose: a ``tests/games`` package would shadow the real
``games`` package under pytest's default import mode. Helper modules (the toy game) live next to the tests
that use them, and this file puts their folder on ``sys.path``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_CORE_TESTS = str(Path(__file__).parent / "core")
if _CORE_TESTS not in sys.path:
    sys.path.insert(0, _CORE_TESTS)

from registered import with_toy  # noqa: E402  (needs the path above)

import games.registry  # noqa: E402
from games.registry import GameSpec  # noqa: E402


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> GameSpec:
    """The toy game added to the registry for one test (replay() looks games up there)."""
    specs = with_toy()
    monkeypatch.setattr(games.registry, "all_games", lambda: specs)
    return specs["toy_highcard"]
