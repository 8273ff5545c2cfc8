"""rules.md §3.5 worked examples HH-1 … HH-8 (and the variants inside them), played through ``apply`` with stacked
decks. Players P1, P2, … sit clockwise at seats 0, 1, …; P1 is the start player unless stated."""

from __future__ import annotations

import pytest
from hachi_kit import (
    P1,
    P2,
    P3,
    P4,
    P5,
    P6,
    act,
    calls,
    deltas,
    net,
    only,
    paid,
    round_order,
    summary,
    table,
    texts,
    trick,
    tricks,
)

from games.core.cards import parse_french
from games.hachi_hachi.rules import HachiHachiRules
from games.hachi_hachi.yaku import classify

DEFAULT = HachiHachiRules().yaku_table

# ------------------------------------------------------------------ HH-1

HH1 = [
    ("Ks Kh Kd Kc 5s 5h 5d", ("four_three",), 20, 10, 10),
    ("7s 7h 7d 3c 3d 9s 9c", ("haneken", "karasu"), 11, 6, 6),
    ("2s 3h 4d 5c 6s 9h 9d", ("straight", "karasu"), 7, 4, 4),
    ("As 4h 6d 8c 9s 2h 3d", ("pikaichi",), 4, 2, 3),
    ("As Ah 7d 7c 7s 2d 5h", ("full_house",), 4, 2, 4),
    ("Kc 8s 8d 5c 5h 3s 3d", ("three_pairs", "toichi"), 6, 3, 3),
    ("Jh Th 9h 8h 7h 2s 2c", ("straight_flush",), 15, 8, 8),
    ("6s 6h 6d 6c 9s 9h 3d", ("one_two_four", "karasu"), 12, 6, 6),
]


@pytest.mark.parametrize(("hand", "keys", "normal", "forced_out", "forced_total"), HH1)
def test_hh1_classification(hand: str, keys: tuple[str, ...], normal: int, forced_out: int, forced_total: int) -> None:
    value = classify(parse_french(hand), DEFAULT)
    assert value.keys == keys
    assert (value.normal, value.forced_out) == (normal, forced_out)
    assert value.forced_out_total(ace_value=1) == forced_total


def test_hh1_straight_flush_scores_neither_flush_nor_straight_and_one_two_four_not_four_kind() -> None:
    assert classify(parse_french("Jh Th 9h 8h 7h 2s 2c"), DEFAULT).combination.cards == tuple(  # type: ignore[union-attr]
        parse_french("7h 8h 9h Th Jh")
    )
    value = classify(parse_french("6s 6h 6d 6c 9s 9h 3d"), DEFAULT)
    assert value.combination is not None and value.combination.key == "one_two_four"
    assert len(value.combination.cards) == 7


# ------------------------------------------------------------------ HH-2

HH2 = {
    P2: "2s 3s 2h 3h 4d 5d 9c",  # Karasu: 4
    P4: "As Ks 4h 5h Ad Kd 8c",  # nothing: 0
    P5: "4s 5s Kh 9h 6d 7d 6c",  # Toichi: 2
}


def test_hh2_ordinary_round() -> None:
    e = table(HH2, seats=5, indicator="7c")
    calls(e, "no-mizuten")
    assert (e.mult, e.trump) == (1, "c")
    calls(e, "fold", "play", "fold", "play", "play")
    assert e.fees == [2, 0, 3, 0, 0] and e.declarers == [P2, P4, P5]
    assert [r.normal for r in e.reveals] == [4, 0, 2]
    assert e.trick_order == [P2, P4, P5] and only(e) == P2
    winners = tricks(e, "2s As 4s", "Ks 5s 3s", "4h Kh 2h", "9h 3h 5h", "6d 4d Ad", "Kd 7d 5d", "8c 6c 9c")
    assert winners == [P4, P4, P5, P5, P4, P4, P2]
    assert paid(e, "hand") == {P2: 6, P4: -6}
    assert paid(e, "trick") == {P4: 10, P5: -2, P2: -8}
    assert summary(e)["pot_to"] == [[P4, 5, "tricks"]]
    assert deltas(e) == (-2, -2, -3, 9, -2)
    assert e.results[-1].pot == 0 and e.pot_total() == 0
    assert e.sp == P4, "the pot-taker is the next start player"


# ------------------------------------------------------------------ HH-3

HH3 = {
    P1: "Ks Qs 3d 4d Ac 2c 4h",
    P3: "3s 4s Ad Kd Qc 3c 6h",
    P4: "Js Ts 5d 6d 5c 6c Qh",
    P5: "As Ah 7d 7c 7s 2d 5h",  # Full house + 2 Aces: forced-out 4
    P6: "Kc Qd 9h 6s 4c 3h 2s",  # worth 0
}
HH3_TRICKS = ("Ks 3s Js", "Qs 4s Ts", "3d Ad 5d", "Kd 6d 4d", "3c 5c Ac", "2c Qc 6c", "6h Qh 4h")


@pytest.mark.parametrize(("on_fees", "p1", "p2"), [(True, 8, -8), (False, 2, -2)])
def test_hh3_zetsuba_forced_out_tied_tricks(on_fees: bool, p1: int, p2: int) -> None:
    e = table(HH3, seats=6, indicator="Kh", mult_applies_to_fold_fees=on_fees)
    calls(e, "no-mizuten")
    assert (e.field, e.mult) == ("zetsuba", 4)
    calls(e, "play", "fold", "play", "play")
    assert e.fees[P2] == -p2
    assert e.forced == [P5, P6] and e.phase == "trick"
    forced = {r.seat: r for r in e.reveals if r.role == "forced_out"}
    assert (forced[P5].forced_out, forced[P5].aces, forced[P5].yaku) == (4, 2, ("full_house",))
    assert forced[P6].forced_out == 0
    assert all(r.normal == 0 for r in e.reveals if r.role == "declarer")
    assert tricks(e, *HH3_TRICKS) == [P1, P1, P3, P3, P1, P3, P4]
    assert summary(e)["tricks"] == [3, 0, 3, 1, 0, 0], "the round is over (the next one is dealt): see its summary"
    assert paid(e, "forced_out") == {P5: 48, P1: -16, P3: -16, P4: -16}
    assert paid(e, "trick") == {P1: 16, P3: 16, P4: -32}
    assert summary(e)["pot_to"] == [[P1, -p2, "tricks"]], "tied on tricks: the earlier declarer takes the pot"
    assert deltas(e) == (p1, p2, 0, -48, 48, 0)
    assert e.sp == P1


# ------------------------------------------------------------------ HH-4

HH4 = {
    P1: "8s 8h 8d 4c 4d Kc Kd",  # X: Haneken 7
    P2: "As Kh 2c 5d 9s Jd 7h",  # Y: 0
    P3: "Jc Jh Js 3s 3h Ah 6c",  # Z: Full house 4
}


def test_hh4_oba_hand_settlement() -> None:
    e = table(HH4, seats=3, indicator="Qs")
    calls(e, "no-mizuten")
    assert (e.field, e.mult) == ("oba", 2)
    calls(e, "play", "play", "play")
    assert [(r.seat, r.yaku, r.normal) for r in e.reveals] == [
        (P1, ("haneken",), 7),
        (P2, (), 0),
        (P3, ("full_house",), 4),
    ]
    hand = [(p.payer, p.payee, p.amount) for p in e.payments if p.kind == "hand"]
    assert sorted(hand) == [(P2, P1, 14), (P2, P3, 8), (P3, P1, 6)]
    owed = {s: sum(a for _, t, a in hand if t == s) - sum(a for f, _, a in hand if f == s) for s in (P1, P2, P3)}
    assert owed == {P1: 20, P2: -22, P3: 2}


# ------------------------------------------------------------------ HH-5

HH5 = {P2: "As Ks Ah 2h 3d 4d 2c", P4: "3s 4s Kh Qh Ad Kd 3c"}


def test_hh5_both_split() -> None:
    e = table(HH5, seats=4)
    calls(e, "no-mizuten", "fold", "play", "fold", "play")
    assert e.phase == "choose" and e.to_act() == {P2, P4}
    act(e, P2, "split")
    assert e.to_act() == {P4}
    act(e, P4, "split")
    assert summary(e)["outcome"] == "split"
    assert summary(e)["pot_to"] == [[P2, 3, "split"], [P4, 2, "split"]]
    assert deltas(e) == (-2, 3, -3, 2)
    assert summary(e)["hands"] == [], "no hand settlement on a split"
    assert e.sp == P2


def test_hh5_one_fight_forces_play() -> None:
    e = table(HH5, seats=4)
    calls(e, "no-mizuten", "fold", "play", "fold", "play")
    act(e, P4, "fight")
    act(e, P2, "split")
    assert e.split is False and e.phase == "trick"
    assert [r.normal for r in e.reveals] == [0, 0]
    winners = tricks(e, "As 3s", "Ks 4s", "Ah Qh", "2h Kh", "Ad 3d", "Kd 4d", "3c 2c")
    assert winners == [P2, P2, P2, P4, P4, P4, P4]
    assert paid(e, "trick") == {P2: -2, P4: 2}
    assert deltas(e) == (-2, -2, -3, 7)
    assert e.sp == P4


# ------------------------------------------------------------------ HH-6


def test_hh6_void_round_then_a_single_declarer() -> None:
    second = round_order({}, sp=P2, stacks=[50, 50, 50], indicator="8d")
    e = table({}, seats=3, indicator="9h", later=[second])
    calls(e, "no-mizuten", "fold", "fold", "fold")
    assert summary(e)["outcome"] == "void"
    assert deltas(e) == (-2, -3, -4) and e.results[-1].pot == 9
    assert e.pot_total() == 9 and e.pot_paid == [2, 3, 4]
    assert e.stacks == [48, 47, 46]
    assert e.sp == P2 and e.players == [P2, P3, P1]
    assert e.public_view().pot == 9
    calls(e, "no-mizuten", "fold", "play", "fold")
    assert summary(e)["outcome"] == "single"
    assert summary(e)["pot_to"] == [[P3, 14, "single"]]
    assert deltas(e) == (-3, -2, 14) and e.results[-1].pot == -9
    assert net(e) == [-5, -5, 10]
    assert e.pot_total() == 0 and e.sp == P3


# ------------------------------------------------------------------ HH-7

HH7 = {
    P1: "As Ks 2h 6h 3d 8d Ac",
    P2: "4s 5s Ah Kh 4d 9d 2c",
    P4: "8s 9s 3h 5h Ad Kd 3c",
}
HH7_TRICKS = ("As 4s 8s", "Ks 5s 9s", "2h Ah 3h", "Kh 5h 6h", "4d Ad 3d", "Kd 8d 9d", "3c Ac 2c")


def test_hh7_mizuten() -> None:
    e = table(HH7, seats=4)
    assert e.phase == "mizuten" and only(e) == P1
    assert all(not e.view(s).hand for s in range(4)), "no one holds a card before Mizuten is decided"
    calls(e, "mizuten")
    assert e.mizuten and texts(e, P1) == ["play"]
    calls(e, "play", "play", "fold", "play")
    assert tricks(e, *HH7_TRICKS) == [P1, P1, P2, P2, P4, P4, P1]
    assert paid(e, "trick") == {P1: 4, P2: -2, P4: -2}
    assert paid(e, "mizuten") == {P1: 3, P2: -1, P3: -1, P4: -1}
    assert summary(e)["mizuten_paid"] is True
    assert deltas(e) == (9, -3, -3, -3)


# ------------------------------------------------------------------ HH-8

HH8 = {P1: "5s 2c 3c 4d 6d 8c Kd", P2: "9s 3d Jc Qc Qd 5h 7h", P3: "2h 4c 5c 9c 5d 8d Tc"}


@pytest.mark.parametrize(("direction", "order"), [("clockwise", [P1, P2, P3]), ("counterclockwise", [P1, P3, P2])])
def test_hh8_following_suit_with_trumps(direction: str, order: list[int]) -> None:
    e = table(HH8, seats=3, indicator="3h", trick_direction=direction)
    calls(e, "no-mizuten", "play", "play", "play")
    assert e.trump == "h" and e.trick_order == order
    calls(e, "card 5s")
    second = only(e)
    assert second == order[1]
    if second == P2:
        assert texts(e, P2) == ["card 9s"], "D2 holds a spade and must follow"
        calls(e, "card 9s")
        assert len(texts(e, P3)) == 7, "D3 has no spade and may play anything"
        calls(e, "card 2h")
    else:
        assert len(texts(e, P3)) == 7
        calls(e, "card 2h")
        assert texts(e, P2) == ["card 9s"], "D2 must still follow"
        calls(e, "card 9s")
    assert e.last_trick is not None and e.last_trick[3] == P3
    assert only(e) == P3, "the trick winner leads next"


def test_hh8_trick_winner_helper_agrees() -> None:
    e = table(HH8, seats=3, indicator="3h")
    calls(e, "no-mizuten", "play", "play", "play")
    assert trick(e, "5s", "9s", "2h") == P3
