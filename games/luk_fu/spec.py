"""Luk Fu as the registry sees it."""

from __future__ import annotations

from typing import Any

from games.core.cards import LukFuCard, lukfu_deck
from games.luk_fu import policy
from games.luk_fu.actions import CODEC
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.results import LukFuResult
from games.luk_fu.rules import LukFuRules
from games.registry import GameSpec, level_policies


def _seat_range(rules: Any) -> tuple[int, int]:
    """3 seats, or 4 when the rules allow a fourth (who sits out each hand)."""
    assert isinstance(rules, LukFuRules)
    return (3, rules.players)


def _deck(rules: Any) -> list[LukFuCard]:
    """The 37-card pack, whatever the rules."""
    return lukfu_deck()


SPEC = GameSpec(
    id="luk_fu",
    name_en="Luk Fu",
    name_ja="六虎（ルクフ）",
    rules_model=LukFuRules,
    engine=LukFuEngine,
    codec=CODEC,
    policies=level_policies(policy),
    seat_range=_seat_range,
    deck=_deck,
    result=LukFuResult,
)
