"""How the rest of Fudaba sees OFC."""

from __future__ import annotations

from typing import Any

from games.core.cards import french_deck
from games.ofc import policy
from games.ofc.actions import CODEC
from games.ofc.engine import OFCEngine
from games.ofc.results import OFCResult
from games.ofc.rules import OFCRules
from games.registry import GameSpec, level_policies


def _seat_range(rules: Any) -> tuple[int, int]:
    assert isinstance(rules, OFCRules)
    return rules.seat_range()


SPEC = GameSpec(
    id="ofc",
    name_en="Open-Face Chinese Poker",
    name_ja="オープンフェイス・チャイニーズポーカー",
    rules_model=OFCRules,
    engine=OFCEngine,
    codec=CODEC,
    policies=level_policies(policy),
    seat_range=_seat_range,
    deck=lambda rules: french_deck(),
    result=OFCResult,
)
