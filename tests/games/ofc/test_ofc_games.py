"""Whole games: random and bot play to the end in every variant, replay identically, never leak a card."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from ofc_testkit import deal_order, dealer_order, pick, play_boards, seeded, stacked

import games.registry
from games.core.engine import iter_cards
from games.core.house_rules import to_data
from games.core.record import TableRecord
from games.ofc.actions import Place
from games.ofc.board import Board
from games.ofc.engine import OFCEngine
from games.ofc.fantasyland import solve
from games.ofc.policy import choose
from games.ofc.rules import OFCRules
from games.ofc.spec import SPEC
from games.replay import record_of, replay

VARIANTS = [
    ("a", 4, {}),
    ("b", 3, {}),
    ("c", 4, {}),
    ("c", 2, {"foul_on_equal": True}),
    ("d", 3, {}),
    ("d", 2, {"d_pineapple_streets": True}),
    ("d", 3, {"d_pineapple_streets": True, "fl_entry_min": "QQ"}),
]


@pytest.fixture(autouse=True)
def only_ofc(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replay looks games up in the registry; keep these tests independent of the other games."""
    monkeypatch.setattr(games.registry, "all_games", lambda: {SPEC.id: SPEC})


def assert_no_leak(e: OFCEngine) -> None:
    for seat in range(e.seats):
        hidden = e.hidden_from(seat)
        assert not set(iter_cards(e.view(seat))) & hidden
    assert not set(iter_cards(e.public_view())) & e.hidden_from(None)


def play(e: OFCEngine, rng: random.Random, bot: bool, check_every: int = 1) -> int:
    steps = 0
    while not e.is_over:
        seat = rng.choice(sorted(e.to_act()))
        legal = e.legal_actions(seat)
        assert legal
        for other in set(range(e.seats)) - e.to_act():
            assert e.legal_actions(other) == []
        action = choose(e.view(seat), legal, rng) if bot else pick(legal, rng)
        e.apply(seat, action)
        steps += 1
        if steps % check_every == 0:
            assert_no_leak(e)
    return steps


@pytest.mark.parametrize(("variant", "seats", "extra"), VARIANTS)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_game_plays_out_and_replays(variant: str, seats: int, extra: dict[str, object], seed: int) -> None:
    rules = OFCRules.model_validate({"variant": variant, **extra})
    stacks = [rules.starting_chips] * seats
    e = OFCEngine(rules, stacks, seeded(seed))
    play(e, random.Random(seed), bot=False)
    assert e.results
    for result in e.results:
        assert sum(result.deltas) == 0
    assert all(s >= 0 for s in e.stacks)
    assert sum(e.stacks) == sum(stacks)
    over_by_orbits = e.button_moves >= rules.dealer_orbits * seats
    assert over_by_orbits or any(s <= 0 for s in e.stacks)

    record = record_of(e, TableRecord(game="ofc", rules=to_data(rules), stacks=stacks))
    again = replay(TableRecord.loads(record.dumps()))
    assert isinstance(again, OFCEngine)
    assert again.results == e.results
    assert again.stacks == e.stacks
    assert again.public_view() == e.public_view()
    assert [a.text for _, a in again.history] == [a.text for _, a in e.history]


@pytest.mark.parametrize(("variant", "seats"), [("a", 2), ("b", 4), ("c", 4), ("d", 3)])
def test_bot_game_plays_out(variant: str, seats: int) -> None:
    rules = OFCRules(variant=variant, dealer_orbits=1)  # type: ignore[arg-type]
    e = OFCEngine(rules, [100] * seats, seeded(7))
    play(e, random.Random(7), bot=True, check_every=5)
    assert e.is_over
    fouled = sum(sum(r.summary["fouled"]) for r in e.results)
    boards = sum(len(r.summary["fouled"]) for r in e.results)
    assert fouled <= boards // 2


def test_bot_in_fantasyland_plays_the_solver_board() -> None:
    a = Board.parse("Qs Qh 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h")
    b = Board.parse("Kc 7s 6d / Js Jd 8s 8d 2d / Tc Td Th 4c 4s")
    shuffler = stacked([dealer_order(0), deal_order({1: a, 0: b}, [1, 0], (5, 4, 4))], seed=4)
    e = OFCEngine(OFCRules(variant="d"), [100, 100], shuffler)
    play_boards(e, {1: a, 0: b}, (5, 4, 4))
    assert e.hands[1].fantasyland
    view = e.view(1)
    assert view.fantasyland_hand
    action = choose(view, e.legal_actions(1), random.Random(0))
    arr = solve(view.to_place, e.rules)
    assert action == Place.of({"front": arr.front, "middle": arr.middle, "back": arr.back}, arr.discards)
    e.apply(1, action)
    assert 1 not in e.to_act()


def test_example_record_replays() -> None:
    path = Path(__file__).resolve().parents[3] / "docs" / "examples" / "ofc.json"
    e = replay(TableRecord.loads(path.read_text(encoding="utf-8")))
    assert e.is_over
    assert e.results[0].deltas == (-8, 8)  # OFC-1: A (seat 1) +8
    assert e.results[0].summary["fantasyland_next"] == [0, 13]
    assert sum(e.stacks) == 200
