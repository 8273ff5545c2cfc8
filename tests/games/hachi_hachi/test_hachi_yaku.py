"""The hand-combination classifier (rules.md §3.3): conditions, the one-of-each-kind rule, ties and edited tables."""

from __future__ import annotations

from typing import Any

import pytest
from hachi_kit import P1, P2, P3, calls, paid, table, tricks

from games.core.cards import parse_french
from games.hachi_hachi.rules import YakuTable
from games.hachi_hachi.yaku import classify, combinations_met, longest_run, pattern, weak_met

DEFAULT = YakuTable()


def edited(**rows: dict[str, Any]) -> YakuTable:
    return YakuTable.model_validate({key: {**DEFAULT.row(key).model_dump(), **row} for key, row in rows.items()})


def keys(hand: str, yaku: YakuTable = DEFAULT) -> tuple[str, ...]:
    return classify(parse_french(hand), yaku).keys


# ------------------------------------------------------------------ conditions


def test_pattern_and_runs() -> None:
    assert pattern(parse_french("6s 6h 6d 6c 9s 9h 3d")) == (4, 2, 1)
    assert longest_run([14, 2, 3, 4, 5, 9]) == [1, 2, 3, 4, 5]
    assert longest_run([10, 11, 12, 13, 14]) == [10, 11, 12, 13, 14]
    assert longest_run([12, 13, 14, 2, 3]) == [1, 2, 3], "no wrap: Q-K-A-2-3 is no straight"


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("As 2h 3d 4c 5s 9h Jd", ("straight",)),  # A-2-3-4-5
        ("Ts Jh Qd Kc As 2h 4d", ("straight",)),  # 10-J-Q-K-A
        ("Qs Kh Ad 2c 3s 7h 9d", ()),  # Q-K-A-2-3 does not wrap
        ("3s 4h 5d 6c 7s 8h 9d", ("straight", "karasu")),  # 7-card straight of pips
        ("2s 4s 6s 8s Ts Qh Kd", ("flush",)),
        ("2s 4s 6s 8s Ts Qs Kd", ("flush",)),  # six of a suit
        ("9s Ts Js Qs Ks 2d 2h", ("straight_flush",)),
        ("As 2s 3s 4s 5s 9d 9h", ("straight_flush", "pikaichi")),  # the Ace counts low in a straight flush too
        ("7s 7h 7d 2c 5h 9s Jd", ("three_kind", "toichi")),
        ("7s 7h 7d 2c 3h 4s 5d", ("three_kind", "karasu")),  # 2-3-4-5 and 7: no straight
        ("7s 7h 7d 3c 4h 5s 6d", ("straight", "karasu")),  # 3-4-5-6-7: the straight outranks the triple
    ],
)
def test_conditions(hand: str, expected: tuple[str, ...]) -> None:
    assert keys(hand) == expected


def test_a_hand_meets_several_rows_and_scores_one() -> None:
    assert set(combinations_met(parse_french("7s 7h 7d 3c 4h 5s 6d"))) == {"straight", "three_kind"}


def test_weak_conditions_exclude_each_other() -> None:
    assert weak_met(parse_french("2s 3h 4d 5c 6s 7h 9d")) == "karasu"
    assert weak_met(parse_french("As 3h 4d 5c 6s 7h 9d")) == "pikaichi"
    assert weak_met(parse_french("Ts 3h 4d 5c 6s 7h 9d")) == "toichi"
    assert weak_met(parse_french("Ts Jh Qd Kc As Ah Kd")) == "sunashi"
    assert weak_met(parse_french("Ts Jh 4d 5c 6s 7h 9d")) is None
    assert keys("Ts Th Qd Qc As Ah Kd") == ("three_pairs",), "Sunashi is disabled by default"
    with_sunashi = edited(sunashi={"enabled": True})
    assert keys("Ts Th Qd Qc As Ah Kd", with_sunashi) == ("three_pairs", "sunashi")


def test_values_add_up_per_column() -> None:
    value = classify(parse_french("7s 7h 7d 3c 3d 9s 9c"), DEFAULT)
    assert value.keys == ("haneken", "karasu")
    assert (value.normal, value.forced_out) == (11, 6)
    assert value.forced_out_total(ace_value=5) == 6


# ------------------------------------------------------------------ reveal cards


@pytest.mark.parametrize(
    ("hand", "shown"),
    [
        ("7s 7h 7d 3c 3d Kh Qc", "3c 3d 7d 7h 7s"),  # full house: triple and pair
        ("Kc 8s 8d 5c 5h 3s 3d", "Kc 8s 8d 5c 5h 3s 3d"),  # three pairs + Toichi: all (the weak yaku)
        ("7s 7h 7d 2c 5h Qs Jd", "7d 7h 7s"),
        ("2s 4s 6s 8s Ts Qh Kd", "2s 4s 6s 8s Ts"),
        ("As 2h 3d 4c 5s Jh Kd", "2h 3d 4c 5s As"),
    ],
)
def test_reveal_shows_the_yaku_cards(hand: str, shown: str) -> None:
    value = classify(parse_french(hand), DEFAULT)
    assert set(value.reveal(forced_out=False)) == set(parse_french(shown))


def test_a_forced_out_reveal_adds_the_aces() -> None:
    value = classify(parse_french("As Ah Kh Qd 9c 7s 2d"), DEFAULT)
    assert value.keys == ()
    assert value.reveal(forced_out=True) == tuple(sorted(parse_french("As Ah")))
    assert value.reveal(forced_out=False) == ()
    value = classify(parse_french("As Ah 7d 7c 7s 2d 5h"), DEFAULT)
    assert set(value.reveal(forced_out=True)) == set(parse_french("As Ah 7d 7c 7s"))
    assert set(value.reveal(forced_out=False)) == set(parse_french("As Ah 7d 7c 7s"))
    value = classify(parse_french("As 4h 6d 8c 9s 2h 3d"), DEFAULT)  # Pikaichi shows the whole hand
    assert len(value.reveal(forced_out=True)) == 7


# ------------------------------------------------------------------ edited tables


def test_disabled_rows_never_score() -> None:
    no_sf = edited(straight_flush={"enabled": False})
    assert keys("9s Ts Js Qs Ks 2d 2h", no_sf) == ("flush",), "the next best row met"
    no_flush = edited(straight_flush={"enabled": False}, flush={"enabled": False})
    assert keys("9s Ts Js Qs Ks 2d 2h", no_flush) == ("straight",)
    no_karasu = edited(karasu={"enabled": False})
    assert keys("7s 7h 7d 3c 3d 9s 9c", no_karasu) == ("haneken",)


def test_one_two_four_and_four_kind() -> None:
    assert keys("6s 6h 6d 6c Ks Kh Qd") == ("one_two_four",)
    assert keys("6s 6h 6d 6c Ks Kh Qd", edited(one_two_four={"enabled": False})) == ("four_kind",)
    assert keys("Ks Kh Kd Kc 5s 5h 5d", edited(four_three={"enabled": False})) == ("four_kind",)
    assert keys("6s 6h 6d 6c Js 2h Kd") == ("four_kind",)
    assert keys("6s 6h 6d 6c Js 2h Kd", edited(four_kind={"enabled": False})) == ()


def test_changed_values_change_which_row_scores() -> None:
    # A straight that is also three of a kind: raise Three of a kind above Straight.
    hand = "7s 7h 7d 3c 4h 5s 6d"
    assert keys(hand, edited(three_kind={"normal": 5})) == ("three_kind", "karasu")
    # Equal normal values: the higher forced-out value wins, then the row higher in the table.
    assert keys(hand, edited(three_kind={"normal": 3, "forced_out": 3})) == ("three_kind", "karasu")
    assert keys(hand, edited(three_kind={"normal": 3, "forced_out": 2})) == ("straight", "karasu")
    value = classify(parse_french(hand), edited(three_kind={"normal": 3, "forced_out": 2}, karasu={"normal": 9}))
    assert (value.normal, value.forced_out) == (12, 4)


# ------------------------------------------------------------------ through the engine

HANDS = {
    P1: "2s 3s 2h 3h 4d 5d 9c",  # Karasu: 4
    P2: "As Ks 4h 5h Ad Kd 8c",  # 0
    P3: "4s 5s Kh 9h 6d 7d 6c",  # Toichi: 2
}
PLAYS = ("2s As 4s", "Ks 5s 3s", "4h Kh 2h", "9h 3h 5h", "6d 4d Ad", "Kd 7d 5d", "8c 6c 9c")


@pytest.mark.parametrize(
    ("yaku", "hand"),
    [
        ({}, {P1: 6, P2: -6}),
        ({"karasu": {"enabled": False}}, {P3: 4, P2: -2, P1: -2}),
        ({"karasu": {"normal": 10}, "toichi": {"normal": 0}}, {P1: 20, P2: -10, P3: -10}),
    ],
)
def test_an_edited_table_changes_the_chips(yaku: dict[str, Any], hand: dict[int, int]) -> None:
    table_rows = {key: {**DEFAULT.row(key).model_dump(), **row} for key, row in yaku.items()}
    e = table(HANDS, seats=3, yaku_table=table_rows)
    calls(e, "no-mizuten", "play", "play", "play")
    tricks(e, *PLAYS)
    assert paid(e, "hand") == hand
