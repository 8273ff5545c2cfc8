"""Row evaluation and royalties: §4.3 ordering, OFC-5, OFC-8, and a reference implementation."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import french_deck, parse_french
from games.ofc.eval import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    RoyaltyScheme,
    category,
    category_name,
    eval_row,
    is_foul,
    vector,
)
from games.ofc.rules import OFCRules


def v(text: str) -> int:
    return eval_row(parse_french(text))


def test_categories_in_order() -> None:
    hands = [
        "Ah Kd 9c 7s 3h",
        "2h 2d 9c 7s 3h",
        "2h 2d 3c 3s 4h",
        "2h 2d 2c 7s 3h",
        "As 2d 3c 4s 5h",
        "6s 2d 3c 4s 5h",
        "2h 7h 9h Jh Kh",
        "2h 2d 2c 3s 3h",
        "2h 2d 2c 2s 3h",
        "As 2s 3s 4s 5s",
        "As Ks Qs Js Ts",
    ]
    values = [v(h) for h in hands]
    assert values == sorted(values)
    assert [category(x) for x in values] == [
        HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, STRAIGHT_FLUSH,
    ]  # fmt: skip
    assert category_name(values[-1]) == "royal_flush"


def test_wheel_is_the_lowest_straight() -> None:
    assert vector(v("As 2d 3c 4s 5h")) == (5, 4, 3, 2, 1)
    assert v("As 2d 3c 4s 5h") < v("2s 3d 4c 5s 6h")
    assert v("Ts Jd Qc Ks Ah") > v("9s Td Jc Qs Kh")


def test_suits_never_break_ties() -> None:
    assert v("Ah Kd 9c 7s 3h") == v("As Kc 9d 7h 3s")
    assert v("Qs Qh 4d") == v("Qc Qd 4s")


def test_tie_break_vector_count_then_rank() -> None:
    assert vector(v("3h 3d 3c Ks Kh")) == (3, 13)
    assert vector(v("9h 9d 4c 4s Ah")) == (9, 4, 14)
    assert vector(v("Qs Qh 4d")) == (12, 4)
    assert v("9h 9d 4c 4s Ah") > v("9h 9d 4c 4s Kh")


@pytest.mark.parametrize(
    ("middle", "fouls"),
    [("Qh Qs 4c 3d 2h", True), ("Qh Qs 7c 3d 2h", False), ("Qh Qs 5c 3d 2h", False)],
)
def test_ofc5_front_against_middle(middle: str, fouls: bool) -> None:
    assert (v("Qc Qd 5s") > v(middle)) is fouls


def test_ofc5_trips_and_high_cards() -> None:
    assert v("8c 8d 8h") > v("7c 7d 7h As Ks")  # foul
    assert v("Ac Kd Qh") < v("As Kc Qd Jh 9s")  # legal
    assert v("Ac Kd Qh") != v("As Kc Qd Jh 2s")  # the front's padding never equals a middle
    assert v("2c 2d 2h") > v("Ac Ad Kh Ks Qs")  # front trips beat middle two pair


def test_ofc8_equal_rows() -> None:
    middle, back = v("As Kd Qc Jh 9s"), v("Ah Kc Qd Js 9d")
    front = v("2c 3d 4h")
    assert middle == back
    assert not is_foul(front, middle, back, foul_on_equal=False)
    assert is_foul(front, middle, back, foul_on_equal=True)


def test_royalty_tables() -> None:
    s = RoyaltyScheme.of(OFCRules())
    assert [s.front(v(f"{r}c {r}d 2h")) for r in "3456789TJQKA"] == [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert s.front(v("2c 2d 2h")) == 10
    assert s.front(v("Ac Ad Ah")) == 22
    assert s.front(v("Ac Kd Qh")) == 0
    assert s.middle(v("2h 2d 2c 7s 3h")) == 2
    assert s.middle(v("As 2d 3c 4s 5h")) == 4
    assert s.middle(v("2h 7h 9h Jh Kh")) == 8
    assert s.middle(v("2h 2d 2c 3s 3h")) == 12
    assert s.middle(v("2h 2d 2c 2s 3h")) == 20
    assert s.middle(v("9s Ts Js Qs Ks")) == 30
    assert s.middle(v("As Ks Qs Js Ts")) == 50
    assert s.middle(v("Ah Ad Kc Ks 3h")) == 0
    assert s.back(v("As 2d 3c 4s 5h")) == 2
    assert s.back(v("2h 7h 9h Jh Kh")) == 4
    assert s.back(v("2h 2d 2c 3s 3h")) == 6
    assert s.back(v("2h 2d 2c 2s 3h")) == 10
    assert s.back(v("9s Ts Js Qs Ks")) == 15
    assert s.back(v("As Ks Qs Js Ts")) == 25
    assert s.back(v("2h 2d 2c 7s 3h")) == 0


def test_edited_royalties_and_middle_royal() -> None:
    rules = OFCRules.model_validate(
        {"middle_royal": 30, "royalties": {"front": {**OFCRules().royalties.front, "55": 1}}}
    )
    s = RoyaltyScheme.of(rules)
    assert s.middle(v("As Ks Qs Js Ts")) == 30
    assert s.front(v("5c 5d 2h")) == 1


# ------------------------------------------------------------------ reference implementation


def _reference(ranks: list[int], suits: list[str]) -> tuple[int, tuple[int, ...]]:
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (-counts[r], -r))
    shape = sorted(counts.values(), reverse=True)
    if len(ranks) == 3:
        cat = {(3,): TRIPS, (2, 1): PAIR, (1, 1, 1): HIGH_CARD}[tuple(shape)]
        return cat, tuple(order)
    flush = len(set(suits)) == 1
    distinct = sorted(set(ranks))
    straight = 0
    if len(distinct) == 5 and distinct[4] - distinct[0] == 4:
        straight = distinct[4]
    if distinct == [2, 3, 4, 5, 14]:
        straight = 5
    if straight:
        vec = (5, 4, 3, 2, 1) if straight == 5 else tuple(range(straight, straight - 5, -1))
        return (STRAIGHT_FLUSH if flush else STRAIGHT), vec
    if flush:
        return FLUSH, tuple(sorted(ranks, reverse=True))
    cat = {(4, 1): QUADS, (3, 2): FULL_HOUSE, (3, 1, 1): TRIPS, (2, 2, 1): TWO_PAIR, (2, 1, 1, 1): PAIR}.get(
        tuple(shape), HIGH_CARD
    )
    return cat, tuple(order)


@settings(max_examples=400, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([3, 5]))
def test_matches_reference(rnd: random.Random, size: int) -> None:
    cards = rnd.sample(french_deck(), size)
    value = eval_row(cards)
    cat, vec = _reference([c.rank for c in cards], [c.suit for c in cards])
    assert category(value) == cat
    assert vector(value) == vec


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_order_matches_reference(rnd: random.Random) -> None:
    a, b = (rnd.sample(french_deck(), 5) for _ in range(2))
    ra = _reference([c.rank for c in a], [c.suit for c in a])
    rb = _reference([c.rank for c in b], [c.suit for c in b])
    assert (eval_row(a) > eval_row(b)) == (ra > rb)
    assert (eval_row(a) == eval_row(b)) == (ra == rb)
