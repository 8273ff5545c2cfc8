"""Pairwise scoring (§4.4): OFC-1 to OFC-4 on boards, and properties over random boards."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import french_deck
from games.ofc.board import Board
from games.ofc.rules import OFCRules
from games.ofc.scoring import BoardScore, pairwise, score_board, totals

A = Board.parse("Qs Qh 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h")
B = Board.parse("Kc 7s 6d / Js Jd 8s 8d 2d / Tc Td Th 4c 4s")
B_FOUL = Board.parse("Kc 7s 6d / Js Jd 8s 8d 2d / Tc Td 7c 4c 4s")
C = Board.parse("5d 5c Ac / 6s 7h 8c 9s Ts / 3c 6c 7c Jc Qc")
X = Board.parse("6s 6h 2d / 8s 8h 8d 3c 4c / 5h 6d 7c 8c 9d")
Y = Board.parse("4s 3h 2c / Ts Th 5s 7d 9c / Js Jh Qd Qc Ks")


def score(board: Board, variant: str = "c") -> BoardScore:
    return score_board(board, OFCRules(variant=variant))


def test_ofc1_two_boards() -> None:
    a, b = score(A), score(B)
    assert a.royalties == 13
    assert a.row_royalties == (7, 2, 4)
    assert b.royalties == 6
    r = pairwise(a, b, 3)
    assert r.rows == (1, 1, -1)
    assert r.scoop == 0
    assert r.royalties == 7
    assert r.points == 8
    assert totals([a, b], 3) == [8, -8]


@pytest.mark.parametrize(("variant", "paid"), [("a", 16), ("b", 19), ("c", 19), ("d", 19)])
def test_ofc2_foul(variant: str, paid: int) -> None:
    rules = OFCRules(variant=variant)
    bf = score(B_FOUL, variant)
    assert bf.fouled
    assert bf.royalties == 0
    assert totals([score(A, variant), bf], rules.scoop()) == [paid, -paid]


@pytest.mark.parametrize(("variant", "won"), [("a", 8), ("b", 11), ("c", 11), ("d", 11)])
def test_ofc3_scoop(variant: str, won: int) -> None:
    x, y = score(X, variant), score(Y, variant)
    assert x.royalties == 5
    assert y.royalties == 0
    r = pairwise(x, y, OFCRules(variant=variant).scoop())
    assert r.rows == (1, 1, 1)
    assert r.points == won


def test_ofc4_three_players() -> None:
    a, b, c = score(A, "d"), score(B, "d"), score(C, "d")
    assert c.royalties == 8
    assert pairwise(a, c, 3).points == 6
    assert pairwise(b, c, 3).points == -3
    assert totals([a, b, c], 3) == [14, -11, -3]


def test_both_fouled_is_zero() -> None:
    f = score(B_FOUL)
    assert pairwise(f, f, 3).points == 0


def test_ofc8_identical_rows_score_zero() -> None:
    p = score(Board.parse("2c 3d 4h / As Kd Qc Jh 9s / 7c 7d 7h 2s 3s"))
    q = score(Board.parse("2d 3c 4s / Ah Kc Qd Js 9d / 8c 8d 8h 2h 3h"))
    assert pairwise(p, q, 3).rows == (0, 0, -1)


# ------------------------------------------------------------------ properties


def random_board(rnd: random.Random, deck: list) -> Board:  # type: ignore[type-arg]
    cards = [deck.pop() for _ in range(13)]
    rnd.shuffle(cards)
    return Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))


def boards(rnd: random.Random, n: int) -> list[Board]:
    deck = french_deck()
    rnd.shuffle(deck)
    return [random_board(rnd, deck) for _ in range(n)]


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 4), st.sampled_from("abcd"), st.booleans())
def test_scores_sum_to_zero(rnd: random.Random, n: int, variant: str, strict: bool) -> None:
    rules = OFCRules(variant=variant, foul_on_equal=strict)
    scores = [score_board(b, rules) for b in boards(rnd, n)]
    assert sum(totals(scores, rules.scoop())) == 0


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False))
def test_fouled_board_earns_no_royalties(rnd: random.Random) -> None:
    rules = OFCRules()
    for b in boards(rnd, 4):
        s = score_board(b, rules)
        if s.fouled:
            assert s.royalties == 0
            assert s.row_royalties == (0, 0, 0)


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 4), st.data())
def test_swapping_players_swaps_results(rnd: random.Random, n: int, data: st.DataObject) -> None:
    rules = OFCRules()
    scores = [score_board(b, rules) for b in boards(rnd, n)]
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(0, n - 1))
    swapped = list(scores)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    before, after = totals(scores, 3), totals(swapped, 3)
    expected = list(before)
    expected[i], expected[j] = expected[j], expected[i]
    assert after == expected
    assert pairwise(scores[i], scores[j], 3).points == -pairwise(scores[j], scores[i], 3).points
