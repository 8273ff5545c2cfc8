"""The game registry: every playable game described once, for the bot, the replay tool and tests."""

from __future__ import annotations

import functools
import inspect
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal, Protocol, cast

from pydantic import BaseModel

from games.core.actions import Action, ActionCodec, LegalAction
from games.core.cards import FrenchCard, KabuCard, LukFuCard
from games.core.engine import Engine
from games.core.results import DealSummary
from games.core.rng import Shuffler

Policy = Callable[[Any, Sequence[LegalAction], random.Random], Action]
"""A bot player: (its own seat view, its legal actions, a random source) → an action. It reads only its arguments:
the same view, legal actions and random state always give the same action (``tests/games/test_bot_levels.py``)."""


class SearchingPolicy(Protocol):
    """The strong level's policy: a :data:`Policy` that also takes ``effort``, the share of its search budget to
    spend (1: all of it). A busy bot process asks for less, so that a decision is never late (``bot.tables.autoplay``);
    its searches are bounded by counts of work, never by the clock, so the same arguments still give the same
    action."""

    def __call__(
        self, view: Any, legal: Sequence[LegalAction], rng: random.Random, /, *, effort: float = 1.0
    ) -> Action: ...


Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")
"""The bot levels every game offers, weakest first."""
STRONG: Level = "strong"
"""The level that plays for away members and gives the 💡 hint and the coach's advice."""
NORMAL: Level = "normal"
"""The level whose rules of thumb the coach explains, and the lessons' bots."""
DEFAULT_LEVEL: Level = "normal"
"""A bot added without a level chosen, and every bot seated before there were levels (they played the policy that
became the normal level)."""


def is_level(text: object) -> bool:
    return text in LEVELS


def every_level(policy: Policy) -> dict[str, Policy]:
    """One policy at every level (a game, or a test toy, with a single bot, which does not search: it takes
    ``effort`` at the strong level, and ignores it)."""

    def strong(view: Any, legal: Sequence[LegalAction], rng: random.Random, *, effort: float = 1.0) -> Action:
        return policy(view, legal, rng)

    return {**dict.fromkeys(LEVELS, policy), STRONG: strong}


def level_policies(module: ModuleType) -> dict[str, Policy]:
    """A game's policies by level from its policy module: its ``POLICIES`` (exactly the three levels) once it has
    them, until then its one ``choose`` at every level."""
    found = getattr(module, "POLICIES", None)
    if found is None:
        return every_level(cast(Policy, module.choose))
    return dict(cast(Mapping[str, Policy], found))


@dataclass(frozen=True)
class GameSpec:
    """One game as the rest of the project sees it."""

    id: str
    name_en: str
    name_ja: str
    rules_model: type[BaseModel]
    engine: Callable[[Any, Sequence[int], Shuffler], Engine[Any]]
    codec: ActionCodec
    policies: Mapping[str, Policy]
    """The bot of each level (:data:`LEVELS`)."""
    seat_range: Callable[[Any], tuple[int, int]]
    """(min, max) seats allowed under the given rules."""
    deck: Callable[[Any], Sequence[FrenchCard | KabuCard | LukFuCard]]
    """The canonical (unshuffled) deck under the given rules: what ``/verify`` shuffles with a seed."""
    result: type[DealSummary]
    """The game's finished-deal result (``DealResult.detail``): what reads a stored summary back."""

    def __post_init__(self) -> None:
        if set(self.policies) != set(LEVELS):
            raise ValueError(f"{self.id}: policies must be exactly {', '.join(LEVELS)}, not {sorted(self.policies)}")
        if "effort" not in inspect.signature(self.policies[STRONG]).parameters:
            raise ValueError(f"{self.id}: the strong policy must take effort= (games.registry.SearchingPolicy)")

    @property
    def policy(self) -> Policy:
        """The strong bot: what plays for away members, and what the hint, the coach and the lessons use."""
        return self.policies[STRONG]

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


def decide(
    game_id: str, level: str, view: Any, legal: Sequence[LegalAction], rng: random.Random, effort: float = 1.0
) -> Action:
    """The move of ``game_id``'s bot of ``level``: what the worker pool runs for a bot or an away member (named by
    game and level, so the call pickles to a worker process whatever a policy is made of). ``effort``: the share of
    its search budget a strong bot spends (the other levels do not search)."""
    policy = get_game(game_id).policies[level]
    if level == STRONG:
        return cast(SearchingPolicy, policy)(view, legal, rng, effort=effort)
    return policy(view, legal, rng)


def get_game(game_id: str) -> GameSpec:
    games = all_games()
    if game_id not in games:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(games))}")
    return games[game_id]
