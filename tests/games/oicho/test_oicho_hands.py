from __future__ import annotations

from typing import Any

import pytest

from games.core.cards import parse_kabu
from games.oicho.hands import (
    Draw,
    bank_cap,
    classify,
    compare,
    is_arashi,
    max_child_multiplier,
    points,
    second_extra,
)
from games.oicho.rules import OichoRules


def h(text: str) -> list[Any]:
    return parse_kabu(text)


def yaku(**blocks: dict[str, Any]) -> OichoRules:
    return OichoRules.model_validate({"local_yaku": blocks})


@pytest.mark.parametrize(
    ("cards", "expected"),
    [("3 7", 0), ("10 10", 0), ("9 8", 7), ("3 2 3", 8), ("7 6 9", 2), ("11 8", 9), ("12 12 12", 6), ("5", 5)],
)
def test_points_wrap_and_month_values(cards: str, expected: int) -> None:
    assert points(h(cards)) == expected


def test_arashi_strength_order() -> None:
    """3 → 6 → 9 → 2 → 5 → 8 → 1 → 4 → 7 → 10, strongest first (§1.5)."""
    r = OichoRules()
    order = [3, 6, 9, 2, 5, 8, 1, 4, 7, 10]
    hands = [classify(h(f"{m} {m} {m}"), "child", r) for m in order]
    assert all(x.kind == "arashi" and x.tier == 3 for x in hands)
    strengths = [x.strength for x in hands]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == 10


def test_arashi_needs_exactly_three_of_a_month() -> None:
    assert not is_arashi(h("3 3"))
    assert is_arashi(h("11 11 11"))
    assert classify(h("12 12 12"), "child", OichoRules()).points == 6


def test_equal_arashi_follow_the_tie_rule() -> None:
    r = OichoRules(use_months_11_12=True)
    a, b = classify(h("1 1 1"), "child", r), classify(h("11 11 11"), "dealer", r)
    assert compare(a, b, r) == ("push", 0)
    r2 = OichoRules(use_months_11_12=True, tie_goes_to_dealer=True)
    assert compare(a, b, r2) == ("dealer", 1)


def test_kuppin_shippin_dealer_only() -> None:
    r = OichoRules()
    assert classify(h("9 1"), "dealer", r).kind == "kuppin"
    assert classify(h("1 9"), "dealer", r).kind == "kuppin"
    assert classify(h("4 1"), "dealer", r).kind == "shippin"
    child_kuppin = classify(h("9 1"), "child", r)
    assert (child_kuppin.kind, child_kuppin.points) == ("plain", 0)
    child_shippin = classify(h("4 1"), "child", r)
    assert (child_shippin.kind, child_shippin.points) == ("plain", 5)
    assert classify(h("9 1 10"), "dealer", r).kind == "plain"  # only two cards
    assert classify(h("9 11"), "dealer", r).kind == "plain"  # 11 is not a 1


def test_kuppin_shippin_strict_order() -> None:
    r = OichoRules(kuppin_shippin_strict_order=True)
    assert classify(h("9 1"), "dealer", r).kind == "kuppin"
    assert classify(h("1 9"), "dealer", r).kind == "plain"
    assert classify(h("4 1"), "dealer", r).kind == "shippin"
    assert classify(h("1 4"), "dealer", r).kind == "plain"


def test_kuppin_shippin_multiplier_and_ordering() -> None:
    r = OichoRules(kuppin_shippin_multiplier=2, arashi_multiplier=3)
    kuppin = classify(h("9 1"), "dealer", r)
    assert compare(classify(h("5 4"), "child", r), kuppin, r) == ("dealer", 2)
    assert compare(classify(h("3 3 3"), "child", r), kuppin, r) == ("pile", 3)
    assert compare(classify(h("10 10 10"), "child", r), kuppin, r) == ("pile", 3)


@pytest.mark.parametrize(
    ("key", "cards", "ok"),
    [
        ("gogo", "5 5", True),
        ("gogo", "5 5 10", False),
        ("tsuru", "2 2", True),
        ("toichi", "10 1", True),
        ("toichi", "1 10", True),
        ("toichi", "11 10", False),
        ("nobori", "5 6 7", True),
        ("nobori", "8 9 10", True),
        ("nobori", "9 10 1", False),
        ("nobori", "7 6 5", False),
        ("nobori", "10 11 12", False),
        ("kudari", "7 6 5", True),
        ("kudari", "1 10 9", False),
        ("hifumi", "3 1 2", True),
        ("shichigosan", "5 3 7", True),
        ("doshippin", "10 1 10", True),
        ("doshippin", "1 11 10", False),
    ],
)
def test_local_yaku_shapes(key: str, cards: str, ok: bool) -> None:
    r = yaku(**{key: {"enabled": True}})
    assert (classify(h(cards), "child", r).kind == key) is ok
    assert classify(h(cards), "child", OichoRules()).tier == (3 if cards == "5 5 5" else 0)


@pytest.mark.parametrize(
    ("key", "good", "bad"),
    [("hifumi", "1 2 3", "3 2 1"), ("shichigosan", "7 5 3", "3 5 7"), ("doshippin", "1 10 10", "10 10 1")],
)
def test_local_yaku_strict_order(key: str, good: str, bad: str) -> None:
    r = yaku(**{key: {"enabled": True, "strict_order": True}})
    assert classify(h(good), "child", r).kind == key
    assert classify(h(bad), "child", r).kind == "plain"


def test_local_yaku_scope() -> None:
    r = yaku(gogo={"enabled": True, "scope": "dealer"})
    assert classify(h("5 5"), "dealer", r).kind == "gogo"
    assert classify(h("5 5"), "child", r).kind == "plain"
    r = yaku(gogo={"enabled": True, "scope": "child"})
    assert classify(h("5 5"), "dealer", r).kind == "plain"
    assert classify(h("5 5"), "child", r).kind == "gogo"


def test_local_yaku_priority_multiplier_then_table_order() -> None:
    both = {"enabled": True}
    assert classify(h("1 2 3"), "child", yaku(nobori=both, hifumi=both)).kind == "nobori"
    r = yaku(nobori=both, hifumi={"enabled": True, "multiplier": 2})
    hand = classify(h("1 2 3"), "child", r)
    assert (hand.kind, hand.multiplier, hand.tier) == ("hifumi", 2, 1)


def test_tiers_compare() -> None:
    r = yaku(gogo={"enabled": True, "multiplier": 2})
    gogo = classify(h("5 5"), "child", r)
    assert compare(gogo, classify(h("4 5"), "dealer", r), r) == ("pile", 2)  # yaku 0 beats plain 9
    assert compare(gogo, classify(h("4 1"), "dealer", r), r) == ("dealer", 1)  # Shippin beats a yaku
    assert compare(gogo, classify(h("2 2 2"), "dealer", r), r) == ("dealer", 1)
    toichi_r = yaku(gogo={"enabled": True}, toichi={"enabled": True})
    assert compare(classify(h("10 1"), "child", toichi_r), classify(h("5 5"), "dealer", toichi_r), toichi_r) == (
        "pile",
        1,
    )
    plain = OichoRules()
    assert compare(classify(h("3 5"), "child", plain), classify(h("4 3"), "dealer", plain), plain) == ("pile", 1)
    assert compare(classify(h("3 5"), "child", plain), classify(h("4 4"), "dealer", plain), plain) == ("push", 0)


@pytest.mark.parametrize(
    ("cards", "rule"),
    [
        ("9 8", Draw.MAY_NOT),  # OK-7: 7, no draw
        ("6 7", Draw.MUST),  # OK-7: 3, must draw
        ("2 2", Draw.MAY),  # OK-7: 4, choice
        ("10 10", Draw.MUST),
        ("3 3", Draw.MAY),
        ("11 8", Draw.MAY_NOT),  # OK-9
        ("5 1", Draw.MAY),
        ("5 4", Draw.MAY_NOT),
    ],
)
def test_second_extra_legality(cards: str, rule: Draw) -> None:
    assert second_extra(h(cards), OichoRules()) is rule


def test_yaku_may_stand() -> None:
    on = yaku(gogo={"enabled": True}, toichi={"enabled": True})
    assert second_extra(h("5 5"), on) is Draw.MAY
    assert second_extra(h("10 1"), on) is Draw.MAY
    off = OichoRules.model_validate({"yaku_may_stand": False, "local_yaku": {"gogo": {"enabled": True}}})
    assert second_extra(h("5 5"), off) is Draw.MUST
    dealer_only = yaku(gogo={"enabled": True, "scope": "dealer"})
    assert second_extra(h("5 5"), dealer_only) is Draw.MUST  # a child could not score it


def test_cap_uses_largest_child_multiplier() -> None:
    assert max_child_multiplier(OichoRules()) == 1
    assert max_child_multiplier(OichoRules(arashi_multiplier=3)) == 3
    assert max_child_multiplier(OichoRules(kuppin_shippin_multiplier=5)) == 1  # the dealer never pays at them
    assert max_child_multiplier(yaku(nobori={"enabled": True, "multiplier": 4})) == 4
    assert max_child_multiplier(yaku(nobori={"enabled": True, "multiplier": 4, "scope": "dealer"})) == 1
    assert max_child_multiplier(yaku(nobori={"multiplier": 4})) == 1  # disabled
    assert bank_cap(OichoRules(), 100) == 50
    assert bank_cap(OichoRules(), 30) == 30
    assert bank_cap(OichoRules(arashi_multiplier=3), 100) == 33
    assert bank_cap(OichoRules(arashi_multiplier=3), 2) == 0
