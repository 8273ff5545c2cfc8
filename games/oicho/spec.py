"""Oicho-Kabu as the registry sees it."""

from __future__ import annotations

from games.core.cards import KabuCard, kabu_deck
from games.oicho import policy
from games.oicho.actions import CODEC
from games.oicho.engine import OichoEngine
from games.oicho.results import OichoResult
from games.oicho.rules import OichoRules
from games.registry import GameSpec, level_policies


def _seat_range(rules: object) -> tuple[int, int]:
    """2–10 seats whatever the rules: the cards used do not depend on the player count."""
    return (2, 10)


def _deck(rules: object) -> list[KabuCard]:
    """40 cards, or 48 with months 11 and 12."""
    assert isinstance(rules, OichoRules)
    return kabu_deck(12 if rules.use_months_11_12 else 10)


SPEC = GameSpec(
    id="oicho",
    name_en="Oicho-Kabu",
    name_ja="おいちょかぶ",
    rules_model=OichoRules,
    engine=OichoEngine,
    codec=CODEC,
    policies=level_policies(policy),
    seat_range=_seat_range,
    deck=_deck,
    result=OichoResult,
)
