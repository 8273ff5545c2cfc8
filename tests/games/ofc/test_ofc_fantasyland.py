"""Fantasyland: entry and card counts (OFC-4, OFC-7), staying by variant (OFC-6), the solver vs brute force."""

from __future__ import annotations

import random
import time
from itertools import combinations

import pytest

from games.core.cards import FrenchCard, french_deck, parse_french
from games.ofc.board import Board
from games.ofc.eval import RoyaltyScheme, eval_row, is_foul
from games.ofc.fantasyland import FL_STAY_VALUE, _stay_flags, dealt_counts, entry_cards, solve, stays
from games.ofc.rules import OFCRules
from games.ofc.scoring import score_board

FL_BOARD = Board.parse("3c 4d 6s / 7c 7d 7h 5s 5d / Js Jh Jd 2s 2h")


def with_front(front: str) -> Board:
    return Board.parse(f"{front} / 6s 7h 8c 9s Ts / 3c 6c 7c Jc Qc")


@pytest.mark.parametrize(("variant", "stay"), [("a", True), ("b", True), ("c", True), ("d", False)])
def test_ofc6_staying_depends_on_variant(variant: str, stay: bool) -> None:
    rules = OFCRules(variant=variant)
    s = score_board(FL_BOARD, rules)
    assert not s.fouled
    assert s.royalties == 18
    assert stays(s, rules) is stay


@pytest.mark.parametrize(
    ("front", "cards_d"),
    [("Qs Qd 2c", 13), ("Ks Kd 2c", 14), ("Ah Ad 2c", 15), ("5s 5h 5d", 16), ("Js Jd Ac", None)],
)
def test_ofc7_progressive_entry(front: str, cards_d: int | None) -> None:
    board = with_front(front)
    assert entry_cards(score_board(board, OFCRules(variant="d")), OFCRules(variant="d")) == cards_d
    expected_c = None if cards_d is None else 13
    assert entry_cards(score_board(board, OFCRules(variant="c")), OFCRules(variant="c")) == expected_c


def test_ofc7_trips_front_stays_in_d() -> None:
    rules = OFCRules(variant="d")
    s = score_board(with_front("5s 5h 5d"), rules)
    assert stays(s, rules)
    assert rules.fl_cards_continue == 13


def test_no_entry_when_fouled_or_below_minimum() -> None:
    fouled = Board.parse("Qs Qd Ac / 6s 7h 8c 9s 2d / 3c 6c 7c Jc Qc")
    rules = OFCRules()
    assert score_board(fouled, rules).fouled
    assert entry_cards(score_board(fouled, rules), rules) is None
    kk_only = OFCRules(fl_entry_min="KK")
    assert entry_cards(score_board(with_front("Qs Qd 2c"), kk_only), kk_only) is None
    assert entry_cards(score_board(with_front("Ks Kd 2c"), kk_only), kk_only) == 13


def test_stay_options_override_variant() -> None:
    rules = OFCRules(variant="d", fl_stay_middle_fh="on")
    assert stays(score_board(FL_BOARD, rules), rules)
    rules_c = OFCRules(variant="c", fl_stay_middle_fh="off")
    assert not stays(score_board(FL_BOARD, rules_c), rules_c)


@pytest.mark.parametrize(
    ("rules", "seats", "wanted", "dealt"),
    [
        (OFCRules(variant="c"), 4, {2: 17}, {2: 13}),  # 17 + 3 x 13 = 56 > 52
        (OFCRules(variant="c"), 4, {0: 17, 3: 15}, {0: 13, 3: 13}),
        (OFCRules(variant="c"), 3, {0: 17, 1: 17}, {0: 17, 1: 17}),  # 34 + 13 fits
        (OFCRules(variant="a"), 4, {1: 13, 2: 13, 3: 13}, {1: 13, 2: 13, 3: 13}),
        # Pineapple: a normal player takes 5 + 4 x 3 = 17 cards, and three seats of 17 still fit in 52.
        (OFCRules(variant="d", d_pineapple_streets=True), 3, {0: 16}, {0: 16}),
        (OFCRules(variant="d", d_pineapple_streets=True), 3, {0: 17, 1: 17, 2: 17}, {0: 17, 1: 17, 2: 17}),
    ],
)
def test_dealt_counts_trim_only_what_the_pack_cannot_deal(
    rules: OFCRules, seats: int, wanted: dict[int, int], dealt: dict[int, int]
) -> None:
    assert dealt_counts(wanted, seats, rules) == dealt
    per_normal = sum(n for n, _ in rules.streets())
    assert sum(dealt.values()) + per_normal * (seats - len(dealt)) <= 52


# ------------------------------------------------------------------ solver


def brute_force(cards: list[FrenchCard], rules: OFCRules) -> int:
    scheme = RoyaltyScheme.of(rules)
    best = -1
    for back in combinations(cards, 5):
        bv = eval_row(back)
        rest = [c for c in cards if c not in back]
        for middle in combinations(rest, 5):
            mv = eval_row(middle)
            if mv > bv or (rules.foul_on_equal and mv == bv):
                continue
            for front in combinations([c for c in rest if c not in middle], 3):
                fv = eval_row(front)
                if fv > mv:
                    continue
                stay = FL_STAY_VALUE if _stay_flags(fv, mv, bv, rules) else 0
                best = max(best, scheme.front(fv) + scheme.middle(mv) + scheme.back(bv) + stay)
    return best


def rich_hand(rnd: random.Random, n: int) -> list[FrenchCard]:
    """Cards from few ranks and suits, so royalties, trips and full houses compete."""
    deck = [c for c in french_deck() if c.rank in rnd.sample(range(2, 15), 6) or c.suit == "h"]
    return rnd.sample(deck, n)


@pytest.mark.parametrize("case", range(6))
def test_solver_is_optimal_against_brute_force(case: int) -> None:
    rnd = random.Random(case)
    rules = OFCRules(variant="acd"[case % 3], foul_on_equal=case == 4)
    cards = rich_hand(rnd, 13) if case % 2 else rnd.sample(french_deck(), 13)
    arr = solve(cards, rules)
    assert arr.worth == brute_force(cards, rules)
    board = Board(arr.front, arr.middle, arr.back)
    values = [eval_row(board.row(r)) for r in ("front", "middle", "back")]
    assert not is_foul(*values, rules.foul_on_equal)
    assert sorted(board.cards() + arr.discards) == sorted(cards)


def test_solver_known_hand() -> None:
    cards = parse_french("Ac Ad Ah 2c 2d 2h 2s 9s Ts Js Qs Ks 3d")
    arr = solve(cards, OFCRules(variant="c"))
    # AAA in front (22), quads in the middle (20), the king-high straight flush behind (15), and it stays.
    assert arr.royalties == 57
    assert arr.stays


@pytest.mark.parametrize("n", [14, 15, 16, 17])
def test_solver_handles_extra_cards_quickly(n: int) -> None:
    rnd = random.Random(n)
    for _ in range(3):
        cards = rnd.sample(french_deck(), n)
        start = time.perf_counter()
        arr = solve(cards, OFCRules(variant="d"))
        assert time.perf_counter() - start < 2.0
        assert len(arr.discards) == n - 13
        assert len(arr.front) == 3
        assert len(arr.middle) == len(arr.back) == 5
