"""Random-policy games from start to end: invariants, no leaked cards, and identical replays."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.core.actions import AmountRange
from games.core.engine import iter_cards
from games.core.house_rules import to_data
from games.core.record import TableRecord
from games.core.rng import Shuffler
from games.oicho.engine import OichoEngine
from games.oicho.rules import OichoRules
from games.oicho.spec import SPEC
from games.replay import record_of, replay

ROOT = Path(__file__).resolve().parents[3]

VARIANTS: list[dict[str, Any]] = [
    {},
    {"dealer_rounds": 1, "dealer_may_resign": False},
    {"use_months_11_12": True, "maki_fuda": True, "first_extra_visibility": "pile_bettors"},
    {"arashi_multiplier": 3, "kuppin_shippin_multiplier": 2, "tie_goes_to_dealer": True, "bank_cap": 80},
    {
        "kuppin_shippin_strict_order": True,
        "dealer_cycles": 2,
        "local_yaku": {
            key: {"enabled": True, "multiplier": 1 + i % 5, "scope": ("both", "dealer", "child")[i % 3]}
            for i, key in enumerate(("gogo", "tsuru", "toichi", "nobori", "kudari", "hifumi"))
        },
    },
    {"starting_chips": 20, "bank_cap": 30, "dealer_rounds": 5},
]


def seeded(rng: random.Random) -> Shuffler:
    return Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}")


def play_out(rules: OichoRules, stacks: list[int], seed: int, *, check_views: bool) -> OichoEngine:
    rng = random.Random(seed)
    engine = SPEC.engine(rules, stacks, seeded(random.Random(seed + 1)))
    assert isinstance(engine, OichoEngine)
    total = sum(stacks)
    for _ in range(20000):
        if engine.is_over:
            break
        acting = engine.to_act()
        assert len(acting) == 1
        (seat,) = acting
        for other in range(engine.seats):
            assert bool(engine.legal_actions(other)) == (other == seat)
        if check_views:
            for viewer in [*range(engine.seats), None]:
                view = engine.public_view() if viewer is None else engine.view(viewer)
                assert not set(iter_cards(view)) & engine.hidden_from(viewer)
        legal = engine.legal_actions(seat)
        action = SPEC.policies["normal"](engine.view(seat), legal, rng)
        engine.apply(seat, action)
        assert sum(engine.stacks) == total and min(engine.stacks) >= 0
        assert engine.cap_used <= engine.cap
    assert engine.is_over
    assert sum(sum(r.deltas) for r in engine.results) == 0
    return engine


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("seats", [2, 5, 10])
def test_random_game_runs_to_the_end_and_replays(variant: int, seats: int) -> None:
    rules = OichoRules.model_validate(VARIANTS[variant])
    stacks = [rules.starting_chips] * seats
    engine = play_out(rules, stacks, seed=variant * 100 + seats, check_views=seats <= 5)
    base = TableRecord(game="oicho", rules=to_data(rules), stacks=stacks)
    record = TableRecord.loads(record_of(engine, base).dumps())
    again = replay(record)
    assert again.results == engine.results
    assert again.stacks == engine.stacks
    assert again.public_view() == engine.public_view()
    assert [again.view(s) for s in range(seats)] == [engine.view(s) for s in range(seats)]


def test_random_policy_picks_legal_actions() -> None:
    """Random choices among the legal actions (not the baseline policy) also finish and conserve chips."""
    rng = random.Random(7)
    for game in range(20):
        n = rng.randint(2, 10)
        engine = OichoEngine(OichoRules(dealer_rounds=1), [30] * n, seeded(random.Random(game)))
        for _ in range(5000):
            if engine.is_over:
                break
            (seat,) = engine.to_act()
            item = rng.choice(engine.legal_actions(seat))
            action = item.make(rng.randint(item.lo, item.hi)) if isinstance(item, AmountRange) else item
            engine.apply(seat, action)
        assert sum(engine.stacks) == 30 * n


def test_docs_example_replays_from_the_command_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(ROOT / "docs/examples/oicho.json")],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    result = json.loads(out.stdout)
    assert [d["deltas"] for d in result["deals"]] == [[-5, 5], [-20, 20]]
    assert result["totals"] == [-25, 25]
    assert result["stacks"] == [75, 125]
    assert result["over"] is True
    second = result["deals"][1]["summary"]
    assert second["dealer"] == 1 and second["dealer_hand"]["hand"]["kind"] == "kuppin"


def test_registry_spec() -> None:
    from games.registry import get_game

    spec = get_game("oicho")
    assert spec is SPEC and spec.name_ja == "おいちょかぶ"
    assert spec.seat_range(OichoRules()) == (2, 10)
    assert spec.starting_chips(spec.default_rules()) == 100
    assert set(spec.codec.verbs) == {"bet", "done", "clear", "draw", "stand", "continue", "resign"}
    assert spec.codec.parse("bet 2 15").text == "bet 2 15"


@pytest.mark.slow
def test_many_random_games_keep_the_invariants() -> None:
    """A broader sweep: every variant, random seat counts and uneven stacks, checked after every action."""
    rng = random.Random(2026)
    for game in range(60):
        rules = OichoRules.model_validate(VARIANTS[game % len(VARIANTS)])
        seats = rng.randint(2, 10)
        stacks = [rng.randint(1, 2 * rules.starting_chips) for _ in range(seats)]
        engine = play_out(rules, stacks, seed=10_000 + game, check_views=game % 10 == 0)
        active = [s for s in range(seats) if engine.stacks[s] > 0]
        assert len(active) < 2 or all(engine.tenures_held[s] >= rules.dealer_cycles for s in active)
        assert engine.winners == [s for s in range(seats) if engine.stacks[s] == max(engine.stacks)]
