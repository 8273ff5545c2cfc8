"""The game registry: every playable game described once, for the bot, the replay tool and tests."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from games.core.actions import Action, ActionCodec, LegalAction
from games.core.cards import FrenchCard, KabuCard, LukFuCard
from games.core.engine import Engine
from games.core.results import DealSummary
from games.core.rng import Shuffler

Policy = Callable[[Any, Sequence[LegalAction], random.Random], Action]
"""A bot player: (its own seat view, its legal actions, a random source) → an action."""


@dataclass(frozen=True)
class GameSpec:
    """One game as the rest of the project sees it."""

    id: str
    name_en: str
    name_ja: str
    rules_model: type[BaseModel]
    engine: Callable[[Any, Sequence[int], Shuffler], Engine[Any]]
    codec: ActionCodec
    policy: Policy
    seat_range: Callable[[Any], tuple[int, int]]
    """(min, max) seats allowed under the given rules."""
    deck: Callable[[Any], Sequence[FrenchCard | KabuCard | LukFuCard]]
    """The canonical (unshuffled) deck under the given rules: what ``/verify`` shuffles with a seed."""
    result: type[DealSummary]
    """The game's finished-deal result (``DealResult.detail``): what reads a stored summary back."""

    def restore(self, rules: Any, state: dict[str, Any], shuffler: Shuffler) -> Engine[Any]:
        """An engine rebuilt from :meth:`Engine.snapshot` data."""
        cls = self.engine
        if not (isinstance(cls, type) and issubclass(cls, Engine)):
            raise TypeError(f"{self.id}: the engine factory is not an Engine class, so it cannot restore snapshots")
        return cls.restore(rules, state, shuffler)

    def default_rules(self) -> BaseModel:
        return self.rules_model()

    def starting_chips(self, rules: Any) -> int:
        return int(rules.starting_chips)


def all_games() -> dict[str, GameSpec]:
    """Every registered game by id (imported lazily so the core has no game dependency)."""
    return dict(_registered())


@functools.cache
def _registered() -> dict[str, GameSpec]:
    # Imported once: a lookup runs on every click and picture, and four imports cost about 0.2 ms.
    from games.hachi_hachi.spec import SPEC as HACHI_HACHI
    from games.luk_fu.spec import SPEC as LUK_FU
    from games.ofc.spec import SPEC as OFC
    from games.oicho.spec import SPEC as OICHO

    specs = [OICHO, OFC, LUK_FU, HACHI_HACHI]
    return {s.id: s for s in specs}


def get_game(game_id: str) -> GameSpec:
    games = all_games()
    if game_id not in games:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(games))}")
    return games[game_id]
