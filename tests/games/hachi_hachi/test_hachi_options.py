"""Each house rule of rules.md §3.4 with a stacked round that shows what it changes.

(Options shown by the worked examples are tested there too: ``mult_applies_to_fold_fees`` HH-3,
``two_player_split_allowed`` HH-5, ``trick_direction`` HH-8; ``yaku_table`` edits in test_hachi_yaku.py.)
"""

from __future__ import annotations

from typing import Any

import pytest
from hachi_kit import (
    P1,
    P2,
    P3,
    P4,
    act,
    calls,
    deltas,
    net,
    only,
    paid,
    round_order,
    rules,
    summary,
    table,
    texts,
    tricks,
)

from games.core.errors import IllegalAction
from games.core.house_rules import RuleError, find_option, options, with_option
from games.core.rule_tables import tables, with_row
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.rules import HachiHachiRules
from games.hachi_hachi.spec import SPEC

# ------------------------------------------------------------------ the model


def test_every_option_of_the_spec_is_there_with_its_default() -> None:
    found = {o.path: o for o in options(HachiHachiRules)}
    defaults = {
        "players": 7,
        "starting_chips": 50,
        "rounds": 12,
        "fold_fee_first": 2,
        "fold_fee_step": 1,
        "max_declarers": 3,
        "forced_out_ace_value": 1,
        "trick_rate": 2,
        "oba_ranks": "10,J,Q",
        "oba_mult": 2,
        "zetsuba_ranks": "K,A",
        "zetsuba_mult": 4,
        "mult_applies_to_fold_fees": True,
        "two_player_split_allowed": True,
        "split_settles_hands": False,
        "void_pot": "carry",
        "void_round_counts": True,
        "trick_direction": "clockwise",
        "mizuten_enabled": True,
        "mizuten_min_tricks": 3,
        "mizuten_bonus": 1,
        "yaku_table.four_three.normal": 20,
        "yaku_table.four_three.forced_out": 10,
        "yaku_table.sunashi.enabled": False,
        "yaku_table.toichi.normal": 2,
    }
    for path, value in defaults.items():
        assert found[path].default == value, path
    assert (found["players"].lo, found["players"].hi) == (3, 7)
    assert (found["max_declarers"].lo, found["max_declarers"].hi) == (2, 3)
    assert (found["yaku_table.flush.normal"].lo, found["yaku_table.flush.normal"].hi) == (0, 1000)
    assert found["void_pot"].choices == ("carry", "refund")
    assert found["oba_ranks"].kind == "set"
    assert all(o.description for o in found.values()), "every option says what it does"
    assert len([p for p in found if p.startswith("yaku_table.")]) == 15 * 3


@pytest.mark.parametrize(
    ("path", "raw"),
    [("players", "8"), ("players", "2"), ("max_declarers", "4"), ("trick_rate", "0"), ("oba_ranks", "K")],
)
def test_out_of_range_and_overlapping_values_are_refused(path: str, raw: str) -> None:
    with pytest.raises(RuleError):
        with_option(HachiHachiRules(), path, raw)


def test_the_field_sets_may_move_but_not_overlap() -> None:
    moved = with_option(with_option(HachiHachiRules(), "zetsuba_ranks", "A"), "oba_ranks", "10 j q k")
    assert moved.oba_ranks == frozenset({"10", "J", "Q", "K"}) and moved.zetsuba_ranks == frozenset({"A"})
    assert find_option(moved, "oba_ranks").default == "10,J,Q,K"
    with pytest.raises(RuleError, match="both Ōba and Zetsuba"):
        with_option(moved, "zetsuba_ranks", "K,A")


# ------------------------------------------------------------------ players, starting_chips, rounds


def test_players_bounds_the_seats() -> None:
    assert SPEC.seat_range(rules(players=5)) == (3, 5)
    with pytest.raises(ValueError, match="3 to 5 seats"):
        HachiHachiEngine(rules(players=5), [50] * 6, table({}, seats=3).shuffler)


def test_starting_chips() -> None:
    assert SPEC.starting_chips(rules(starting_chips=80)) == 80
    assert table({}, seats=3, starting_chips=80).stacks == [80, 80, 80]


def test_rounds_end_the_game_and_refund_an_unclaimed_pot() -> None:
    e = table({}, seats=3, rounds=1)
    calls(e, "no-mizuten", "fold", "fold", "fold")
    assert e.is_over
    assert deltas(e) == (0, 0, 0) and e.results[-1].pot == 0, "the void round's pot is refunded at the game's end"
    assert summary(e)["end_refund"] == [[P1, 2], [P2, 3], [P3, 4]]
    e = table({}, seats=3, rounds=2)
    calls(e, "no-mizuten", "fold", "fold", "fold")
    assert not e.is_over and e.pot_total() == 9 and e.public_view().round_no == 2


# ------------------------------------------------------------------ fold fees


@pytest.mark.parametrize(
    ("options", "indicator", "fees"),
    [
        ({}, "7c", [2, 3, 4]),
        ({"fold_fee_first": 5, "fold_fee_step": 3}, "7c", [5, 8, 11]),
        ({"fold_fee_first": 0, "fold_fee_step": 0}, "7c", [0, 0, 0]),
        ({}, "Jc", [4, 6, 8]),
        ({"mult_applies_to_fold_fees": False}, "Jc", [2, 3, 4]),
    ],
)
def test_fold_fees(options: dict[str, Any], indicator: str, fees: list[int]) -> None:
    e = table({}, seats=4, indicator=indicator, **options)
    calls(e, "no-mizuten", "fold", "fold", "fold", "play")
    assert summary(e)["fees"] == [*fees, 0]
    assert deltas(e) == (-fees[0], -fees[1], -fees[2], sum(fees))


# ------------------------------------------------------------------ max_declarers and the forced-out column

FORCED = {
    P1: "Ks Qs 3d 4d Ac 2c 4h",
    P2: "3s 4s Ad Kd Qc 3c 6h",
    P3: "As Ah Kc Qd 9s 7d 2h",  # two Aces, no yaku
    P4: "Kh Jd 9h 6s 4c 3h 2s",  # nothing
}


@pytest.mark.parametrize(("ace_value", "each"), [(0, 0), (1, 2), (3, 6)])
def test_max_declarers_two_and_forced_out_ace_value(ace_value: int, each: int) -> None:
    e = table(FORCED, seats=4, max_declarers=2, forced_out_ace_value=ace_value)
    calls(e, "no-mizuten", "play", "play")
    assert e.forced == [P3, P4] and e.phase == "choose"
    assert e.reveals == [], "forced-out hands are shown only once the split/fight choice is made"
    act(e, P1, "split")
    act(e, P2, "split")
    assert summary(e)["outcome"] == "split"
    assert [h["seat"] for h in summary(e)["hands"]] == [P3, P4], "forced-out players are paid on a split too"
    assert deltas(e) == (-each, -each, 2 * each, 0)


# ------------------------------------------------------------------ trick_rate

HH7 = {
    P1: "As Ks 2h 6h 3d 8d Ac",
    P2: "4s 5s Ah Kh 4d 9d 2c",
    P4: "8s 9s 3h 5h Ad Kd 3c",
}
HH7_TRICKS = ("As 4s 8s", "Ks 5s 9s", "2h Ah 3h", "Kh 5h 6h", "4d Ad 3d", "Kd 8d 9d", "3c Ac 2c")


def hh7(mizuten: bool, **options: Any) -> HachiHachiEngine:
    e = table(HH7, seats=4, **options)
    if e.phase == "mizuten":
        calls(e, "mizuten" if mizuten else "no-mizuten")
    calls(e, "play", "play", "fold", "play")
    tricks(e, *HH7_TRICKS)
    return e


@pytest.mark.parametrize("rate", [1, 2, 5])
def test_trick_rate(rate: int) -> None:
    e = hh7(False, trick_rate=rate)
    assert paid(e, "trick") == {P1: 2 * rate, P2: -rate, P4: -rate}


# ------------------------------------------------------------------ the field: Ōba and Zetsuba


@pytest.mark.parametrize(
    ("options", "indicator", "field", "mult"),
    [
        ({}, "9s", "plain", 1),
        ({"oba_ranks": ["9", "10"], "oba_mult": 3}, "9s", "oba", 3),
        ({}, "Ts", "oba", 2),
        ({"oba_ranks": []}, "Ts", "plain", 1),
        ({}, "Ks", "zetsuba", 4),
        ({"zetsuba_mult": 8}, "As", "zetsuba", 8),
        ({"zetsuba_ranks": ["A"]}, "Ks", "plain", 1),
    ],
)
def test_field_ranks_and_multipliers(options: dict[str, Any], indicator: str, field: str, mult: int) -> None:
    e = table({}, seats=3, indicator=indicator, **options)
    calls(e, "no-mizuten")
    assert (e.field, e.mult) == (field, mult)
    view = e.public_view()
    assert (view.field, view.mult, view.indicator, view.trump) == (field, mult, e.indicator, indicator[-1])
    calls(e, "fold", "fold", "play")
    assert summary(e)["fees"] == [2 * mult, 3 * mult, 0]


def test_m_multiplies_every_payment() -> None:
    plain = hh7(True)
    oba = table(HH7, seats=4, indicator="Qc")
    calls(oba, "mizuten", "play", "play", "fold", "play")
    tricks(oba, *HH7_TRICKS)
    assert summary(oba)["mult"] == 2
    assert paid(oba, "trick") == {s: 2 * v for s, v in paid(plain, "trick").items()}
    assert paid(oba, "mizuten") == {s: 2 * v for s, v in paid(plain, "mizuten").items()}
    assert summary(oba)["fees"][P3] == 4


# ------------------------------------------------------------------ two declarers

SPLIT = {P2: "2s 3s 2h 3h 4d 5d 9c", P4: "5s 6s Kh Qh Ad Kd 3c"}  # Karasu 4 against nothing


def test_two_player_split_not_allowed() -> None:
    e = table(SPLIT, seats=4, two_player_split_allowed=False)
    calls(e, "no-mizuten", "fold", "play", "fold", "play")
    assert e.phase == "trick" and only(e) == P2
    assert paid_now(e) == {P2: 4, P4: -4}, "hands are settled as play begins"


def paid_now(e: HachiHachiEngine) -> dict[int, int]:
    out: dict[int, int] = {}
    for p in e.payments:
        out[p.payer] = out.get(p.payer, 0) - p.amount
        out[p.payee] = out.get(p.payee, 0) + p.amount
    return out


@pytest.mark.parametrize(("settles", "expected"), [(False, (-2, 3, -3, 2)), (True, (-2, 7, -3, -2))])
def test_split_settles_hands(settles: bool, expected: tuple[int, ...]) -> None:
    e = table(SPLIT, seats=4, split_settles_hands=settles)
    calls(e, "no-mizuten", "fold", "play", "fold", "play")
    act(e, P4, "split")
    act(e, P2, "split")
    assert deltas(e) == expected
    assert [h["seat"] for h in summary(e)["hands"]] == ([P2, P4] if settles else [])


# ------------------------------------------------------------------ void rounds


def test_void_pot_refund() -> None:
    e = table({}, seats=3, void_pot="refund")
    calls(e, "no-mizuten", "fold", "fold", "fold")
    assert deltas(e) == (0, 0, 0) and e.results[-1].pot == 0 and e.pot_total() == 0
    assert summary(e)["pot_to"] == [[P1, 2, "refund"], [P2, 3, "refund"], [P3, 4, "refund"]]
    assert e.sp == P2


def test_void_pot_carry_is_the_default() -> None:
    e = table({}, seats=3)
    calls(e, "no-mizuten", "fold", "fold", "fold")
    assert deltas(e) == (-2, -3, -4) and e.results[-1].pot == 9 and e.pot_total() == 9


@pytest.mark.parametrize(("counts", "over"), [(True, True), (False, False)])
def test_void_round_counts(counts: bool, over: bool) -> None:
    second = round_order({}, sp=P2, stacks=[48, 47, 46], indicator="8d")
    e = table({}, seats=3, rounds=1, void_round_counts=counts, later=[second])
    calls(e, "no-mizuten", "fold", "fold", "fold")
    assert e.is_over is over
    assert summary(e)["round"] == (1 if counts else None)
    if not over:
        assert e.deal_no == 2 and e.public_view().round_no == 1
        calls(e, "no-mizuten", "fold", "fold", "play")
        assert e.is_over and net(e) == [-2 + 14, -3 - 2, -4 - 3]


# ------------------------------------------------------------------ trick_direction


def test_trick_direction_changes_trick_play_only() -> None:
    e = table(HH7, seats=4, trick_direction="counterclockwise")
    calls(e, "no-mizuten")
    assert e.players == [P1, P2, P3, P4], "declarations still go clockwise"
    calls(e, "play", "play", "fold", "play")
    assert e.trick_order == [P1, P4, P2]


# ------------------------------------------------------------------ Mizuten


def test_mizuten_disabled() -> None:
    e = table({}, seats=3, mizuten_enabled=False)
    assert e.phase == "declare" and e.mizuten is False
    assert set(e.view(P1).hand) and "fold" in [a.text for a in e.legal_actions(P1)]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, (9, -3, -3, -3)),
        ({"mizuten_min_tricks": 4}, (6, -2, -2, -2)),
        ({"mizuten_min_tricks": 0}, (9, -3, -3, -3)),
        ({"mizuten_bonus": 3}, (15, -5, -5, -5)),
        ({"mizuten_bonus": 0}, (6, -2, -2, -2)),
    ],
)
def test_mizuten_min_tricks_and_bonus(options: dict[str, Any], expected: tuple[int, ...]) -> None:
    assert deltas(hh7(True, **options)) == expected


def test_mizuten_without_three_declarers_is_void() -> None:
    e = table(HH7, seats=4)
    calls(e, "mizuten", "play", "fold", "fold", "play")
    act(e, P4, "fight")
    act(e, P1, "fight")
    tricks(e, "As 8s", "Ks 9s", "2h 3h", "5h 6h", "3d Ad", "Kd 8d", "3c Ac")
    assert summary(e)["mizuten"] is True and summary(e)["mizuten_paid"] is False
    assert paid(e, "mizuten") == {}


@pytest.mark.parametrize("choice", ["fight", "split"])
def test_mizuten_is_offered_with_two_declarers_at_most_binds_the_start_player_and_is_void(choice: str) -> None:
    # §3.2 step 1 offers Mizuten whatever max_declarers is; its bonus needs three declarers (step 9, Q-H4).
    e = table(HH7, seats=4, max_declarers=2)
    assert not e.rules.mizuten_can_pay and e.public_view().mizuten_offered
    assert e.phase == "mizuten" and texts(e, P1) == ["mizuten", "no-mizuten"]
    calls(e, "mizuten")
    assert texts(e, P1) == ["play"] and e.view(P1).must_play, "he declared Mizuten: he must play"
    with pytest.raises(IllegalAction) as refused:
        act(e, P1, "fold")
    assert refused.value.code == "hachi_hachi.mizuten_must_play"
    calls(e, "play", "play")
    assert e.declarers == [P1, P2] and e.forced == [P3, P4]
    act(e, P1, choice)
    act(e, P2, choice)
    if choice == "fight":
        # P1 takes 4 tricks: three or more would earn the bonus at a table of three declarers.
        tricks(e, "As 4s", "Ks 5s", "2h Ah", "Kh 6h", "4d 8d", "3d 9d", "2c Ac")
        assert summary(e)["tricks"][P1] == 4 and summary(e)["outcome"] == "play"
    else:
        assert summary(e)["outcome"] == "split"
    assert summary(e)["mizuten"] is True and summary(e)["mizuten_paid"] is False
    assert paid(e, "mizuten") == {}


def test_a_second_round_is_stacked_with_round_order() -> None:
    later = round_order({P2: "As Ks Qs Js Ts 2d 3d"}, sp=P1, stacks=[47, 48, 48, 47], indicator="2h")
    e = hh7(False, later=[later])
    assert e.sp == P1 and e.indicator is None and e.phase == "mizuten"
    calls(e, "no-mizuten")
    assert e.indicator is not None and e.indicator.notation == "2h"
    assert e.view(P2).hand_value.keys == ("straight_flush",)  # type: ignore[union-attr]


def test_the_yaku_table_is_a_rule_table_set_row_by_row() -> None:
    (found,) = tables(HachiHachiRules)
    assert found.path == "yaku_table" and found.columns == ("enabled", "normal", "forced_out")
    assert found.rows[0] == "four_three" and found.rows[-1] == "sunashi" and len(found.rows) == 15
    edited = with_row(HachiHachiRules(), "yaku_table.sunashi", "on 8 4")
    assert edited.yaku_table.sunashi.model_dump() == {"enabled": True, "normal": 8, "forced_out": 4}
