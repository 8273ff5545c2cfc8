"""rules.md §1.10 worked examples OK-1 … OK-9, played through ``apply`` with stacked decks."""

from __future__ import annotations

from typing import Any

import pytest
from oicho_support import play, table

from games.core.errors import IllegalAction
from games.oicho import actions as act
from games.oicho.engine import OichoEngine

# Seats: D (dealer) = 0, then A = 1, B = 2, C = 3, E = 4 clockwise.
D, A, B, C, E = 0, 1, 2, 3, 4


def deltas(engine: OichoEngine) -> tuple[int, ...]:
    return engine.results[-1].deltas


# ------------------------------------------------------------------ OK-1


def test_ok1_bank_cap() -> None:
    e = table(["3 7 10 5 4"], seats=5)
    assert e.dealer == D and e.cap == 50
    play(e, (A, "bet 1 15"), (A, "done"), (B, "bet 2 25"), (B, "done"))
    with pytest.raises(IllegalAction) as info:
        play(e, (C, "bet 3 20"))
    assert info.value.code == "oicho.bet_over_cap"
    assert info.value.params["max"] == 10
    assert e.bet_max(C) == 10
    play(e, (C, "bet 3 10"), (C, "done"))
    # E cannot bet at all and sits the round out: betting is over without a turn for E.
    assert e.phase != "betting"
    assert e.cap_used == 50
    assert [s for s, _, _ in e.bets] == [A, B, C]


# ------------------------------------------------------------------ OK-2 / OK-3

OK2_LAYOUT = "3 7 10 5 4 2 6 10 1 3 9 4"  # piles, own card, first extras, second extras of P1..P3


def ok2_table(dealer_extra: str = "3", **options: Any) -> OichoEngine:
    e = table([f"{OK2_LAYOUT} {dealer_extra}"], **options)
    play(e, (A, "bet 1 10"), (A, "done"), (B, "bet 1 10"), (B, "bet 2 5"), (B, "done"), (C, "bet 3 20"), (C, "done"))
    return e


def test_ok2_full_plain_round() -> None:
    e = ok2_table()
    assert e.cap_used == 45
    assert e.deciders == [A, B, C, C]  # P1: A (tied with B, bet first); P4 unbet, no later bets → P3's C
    # P1: 3+2 = 5, optional: A decides.
    assert e.phase == "deciding" and e.current_pile == 1 and e.to_act() == {A}
    play(e, (A, "draw"))
    # P2 (13 → 3) and P3 (10+10 → 0) drew by force; P4 (5+1 = 6) waits for C.
    assert [len(p) for p in e.piles] == [3, 3, 3, 2]
    assert e.current_pile == 4 and e.to_act() == {C}
    play(e, (C, "stand"))
    assert e.phase == "dealer" and e.to_act() == {D}
    assert [c.month for c in e.dealer_cards] == [4, 3]
    play(e, (D, "stand"))
    assert deltas(e) == (5, 10, 5, -20)
    assert e.stacks == [105, 110, 105, 80]
    summary = e.results[-1].summary
    assert [p["cards"] for p in summary["piles"]] == [["3", "2", "3"], ["7", "6", "9"], ["10", "10", "4"], ["5", "1"]]
    assert [p["outcome"] for p in summary["piles"]] == ["pile", "dealer", "dealer", "unbet"]
    assert summary["dealer_hand"] == {
        "cards": ["4", "3"],
        "hand": {"kind": "plain", "points": 7, "tier": 0, "multiplier": 1},
    }
    assert summary["piles"][0]["bets"] == [[A, 10], [B, 10]]


def finish_ok2(e: OichoEngine) -> None:
    play(e, (A, "draw"), (C, "stand"), (D, "stand"))


def test_ok3_shippin() -> None:
    e = ok2_table(dealer_extra="1")
    finish_ok2(e)
    assert deltas(e) == (45, -10, -15, -20)
    assert e.results[-1].summary["dealer_hand"]["hand"]["kind"] == "shippin"


def test_ok3_shippin_double() -> None:
    e = ok2_table(dealer_extra="1", kuppin_shippin_multiplier=2)
    finish_ok2(e)
    assert deltas(e) == (90, -20, -30, -40)


def test_ok3_strict_order_no_shippin_and_dealer_may_draw() -> None:
    # Own card 1, extra 4: plain 5 under strict order; the dealer may still draw.
    e = table(["3 7 10 5 1 2 6 10 1 3 9 4 4 8"], kuppin_shippin_strict_order=True)
    play(e, (A, "bet 1 10"), (A, "done"), (B, "bet 1 10"), (B, "bet 2 5"), (B, "done"), (C, "bet 3 20"), (C, "done"))
    play(e, (A, "draw"), (C, "stand"))
    assert e.view(D).dealer_hand.hand is not None
    assert e.view(D).dealer_hand.hand.kind == "plain"
    assert e.view(D).dealer_hand.hand.points == 5
    assert set(e.legal_actions(D)) == {act.Draw(), act.Stand()}
    play(e, (D, "stand"))
    # Plain 5: P1 8 wins, P2 2 loses, P3 4 loses.
    assert deltas(e) == (5, 10, 5, -20)


def test_ok3_strict_order_keeps_4_then_1() -> None:
    e = ok2_table(dealer_extra="1", kuppin_shippin_strict_order=True)
    finish_ok2(e)
    assert deltas(e) == (45, -10, -15, -20)


# ------------------------------------------------------------------ OK-4

# P1 = 3, P2 = 7, P3 = 5, P4 = 8, own 9; first extras 3 1 2 10; A draws 3; dealer's extra 1 (Kuppin).
OK4 = "3 7 5 8 9 3 1 2 10 3 1"


@pytest.mark.parametrize(("arashi", "expected"), [(1, (-10, 10)), (3, (-30, 30))])
def test_ok4_child_arashi_beats_kuppin(arashi: int, expected: tuple[int, int]) -> None:
    e = table([OK4], seats=2, arashi_multiplier=arashi)
    play(e, (A, "bet 1 10"), (A, "done"))
    assert e.to_act() == {A} and e.current_pile == 1  # 3+3 = 6: optional
    play(e, (A, "draw"), (D, "stand"))
    summary = e.results[-1].summary
    assert summary["piles"][0]["hand"]["kind"] == "arashi" and summary["piles"][0]["hand"]["points"] == 9
    assert summary["dealer_hand"]["hand"]["kind"] == "kuppin"
    assert deltas(e) == expected


def test_ok4_other_plain_piles_lose_to_kuppin() -> None:
    e = table([OK4], seats=3, arashi_multiplier=3)
    play(e, (A, "bet 1 10"), (A, "done"), (B, "bet 2 10"), (B, "done"))  # P2: 7+1 = 8
    play(e, (A, "draw"), (D, "stand"))
    assert deltas(e) == (-20, 30, -10)


# ------------------------------------------------------------------ OK-5

# P1 = 2, others 7 8 9 with extras 10 (no draws); own 6; B draws 2; dealer extra 6 then draws 6.
OK5 = "2 7 8 9 6 2 10 10 10 2 6 6"


@pytest.mark.parametrize(("arashi", "loss"), [(1, 10), (3, 30)])
def test_ok5_arashi_against_arashi(arashi: int, loss: int) -> None:
    e = table([OK5], seats=2, arashi_multiplier=arashi)
    play(e, (1, "bet 1 10"), (1, "done"))
    play(e, (1, "draw"))
    assert e.phase == "dealer"
    play(e, (D, "draw"))
    summary = e.results[-1].summary
    assert summary["piles"][0]["hand"]["points"] == 6 and summary["piles"][0]["hand"]["kind"] == "arashi"
    assert summary["dealer_hand"]["hand"] == {"kind": "arashi", "points": 8, "tier": 3, "multiplier": arashi}
    assert deltas(e) == (loss, -loss)


# ------------------------------------------------------------------ OK-6

OK6 = "3 7 8 9 4 5 10 10 10 4"  # pile 3+5 = 8 (no draw); dealer 4+4 = 8


@pytest.mark.parametrize(("tie_rule", "expected"), [(False, (0, 0)), (True, (10, -10))])
def test_ok6_tie(tie_rule: bool, expected: tuple[int, int]) -> None:
    e = table([OK6], seats=2, tie_goes_to_dealer=tie_rule)
    play(e, (A, "bet 1 10"), (A, "done"), (D, "stand"))
    assert e.results[-1].summary["piles"][0]["outcome"] == ("dealer" if tie_rule else "push")
    assert deltas(e) == expected


# ------------------------------------------------------------------ OK-7


def test_ok7_draw_legality() -> None:
    # P1 9+8 = 7: no draw allowed, stands by itself; P2 6+7 = 3: drawn by force; P3 2+2 = 4: choice.
    e = table(["9 6 2 10 5 8 7 2 10 4"], seats=2)
    play(e, (A, "bet 1 5"), (A, "bet 2 5"), (A, "bet 3 5"), (A, "done"))
    assert [len(p) for p in e.piles] == [2, 3, 2, 2]
    assert e.current_pile == 3 and e.legal_actions(A) == [act.Draw(), act.Stand()]
    play(e, (A, "stand"))
    # P4 = 10+10 = 0: unbet, its decider would be the nearest earlier (A), but the draw is forced.
    assert len(e.piles[3]) == 3
    assert e.phase == "dealer"
    with pytest.raises(IllegalAction) as info:
        play(e, (A, "draw"))  # the child has no draw left to ask for
    assert info.value.code == "core.not_your_turn"


# ------------------------------------------------------------------ OK-8

OK8 = "5 7 8 9 4 6 10 10 10 7 5"  # P1 5, 6 (11 → 1, forced), 7 → Nobori 8; dealer 4+5 = plain 9


@pytest.mark.parametrize(("enabled", "expected"), [(False, (10, -10)), (True, (-10, 10))])
def test_ok8_nobori(enabled: bool, expected: tuple[int, int]) -> None:
    e = table([OK8], seats=2, local_yaku={"nobori": {"enabled": enabled}})
    play(e, (A, "bet 1 10"), (A, "done"))
    assert [c.month for c in e.piles[0]] == [5, 6, 7]
    play(e, (D, "stand"))
    assert e.results[-1].summary["piles"][0]["hand"]["kind"] == ("nobori" if enabled else "plain")
    assert deltas(e) == expected


# ------------------------------------------------------------------ OK-9


def test_ok9_months_11_and_12() -> None:
    # P1 11+8 = 9 (Kabu): no draw allowed; P2 12+12 = 4: A draws 12 → Arashi of 6.
    e = table(["11 12 7 8 3 8 12 10 10 12 4"], seats=2, use_months_11_12=True)
    play(e, (A, "bet 1 5"), (A, "bet 2 5"), (A, "done"))
    assert len(e.piles[0]) == 2
    assert e.current_pile == 2
    play(e, (A, "draw"), (D, "stand"))
    piles = e.results[-1].summary["piles"]
    assert piles[0]["hand"] == {"kind": "plain", "points": 9, "tier": 0, "multiplier": 1}
    assert piles[1]["hand"] == {"kind": "arashi", "points": 6, "tier": 3, "multiplier": 1}
    assert deltas(e) == (-10, 10)  # dealer 3+4 = 7 loses both
