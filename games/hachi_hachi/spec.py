"""Hachi-Hachi Trick as the registry sees it."""

from __future__ import annotations

from typing import Any

from games.core.cards import FrenchCard, french_deck
from games.hachi_hachi import policy
from games.hachi_hachi.actions import CODEC
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.results import HachiResult
from games.hachi_hachi.rules import HachiHachiRules
from games.registry import GameSpec, level_policies


def _seat_range(rules: Any) -> tuple[int, int]:
    """3 seats up to ``rules.players`` (at most 7)."""
    assert isinstance(rules, HachiHachiRules)
    return (3, rules.players)


def _deck(rules: Any) -> list[FrenchCard]:
    """One 52-card pack without jokers, whatever the rules."""
    return french_deck()


SPEC = GameSpec(
    id="hachi_hachi",
    name_en="Hachi-Hachi Trick",
    name_ja="ハチハチトリック",
    rules_model=HachiHachiRules,
    engine=HachiHachiEngine,
    codec=CODEC,
    policies=level_policies(policy),
    seat_range=_seat_range,
    deck=_deck,
    result=HachiResult,
)
