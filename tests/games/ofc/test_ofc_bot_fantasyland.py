"""The strong OFC bot's Fantasyland board: the best there is by expected points."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from games.core.cards import FrenchCard, parse_french
from games.ofc.bot_fantasyland import best_board
from games.ofc.bot_value import Valuer
from games.ofc.eval import eval_row
from games.ofc.fantasyland import solve
from games.ofc.rules import OFCRules


def test_strong_fantasyland_board_is_the_best_there_is() -> None:
    """Thirteen cards have 72,072 boards: the search's board is worth as much as the best of them all."""
    rules = OFCRules(variant="c")
    valuer = Valuer(rules, in_fantasyland=True)
    rnd = random.Random(4)
    deck = [FrenchCard(r, s) for r in range(2, 15) for s in "cdhs"]
    for _ in range(2):
        cards = tuple(rnd.sample(deck, 13))
        front, middle, back, thrown = best_board(cards, valuer)
        assert not thrown
        found = valuer.final(eval_row(front), eval_row(middle), eval_row(back))
        assert found == pytest.approx(_brute_force(cards, valuer))


def _brute_force(cards: tuple[FrenchCard, ...], valuer: Valuer) -> float:
    best = -1e9
    values5 = {t: eval_row(t) for t in combinations(cards, 5)}
    for back in combinations(cards, 5):
        rest = [c for c in cards if c not in back]
        for middle in combinations(rest, 5):
            front = tuple(c for c in rest if c not in middle)
            best = max(best, valuer.final(eval_row(front), values5[middle], values5[back]))
    return best


def test_strong_fantasyland_beats_the_royalty_solver_on_row_strength() -> None:
    """No royalty to be had in these 13 cards. The royalty solver keeps the first clean board it meets, 7 4 3 up top
    under 2 2 in the middle; the strong bot puts K Q 7 up top over jacks in the middle: the same royalties (none),
    rows that win more often."""
    rules = OFCRules(variant="c")
    valuer = Valuer(rules, in_fantasyland=True)
    cards = parse_french("9s 4c 2d 5s 8s 3s Jh 2c Kh Jd 5c Qd 7d")
    solver = solve(cards, rules, round(valuer.stay_value))
    front, middle, back, _ = best_board(cards, valuer)
    ours = (eval_row(front), eval_row(middle), eval_row(back))
    theirs = (eval_row(solver.front), eval_row(solver.middle), eval_row(solver.back))
    assert valuer.royalties(*ours) == solver.royalties == 0
    assert ours[0] > theirs[0]
    assert valuer.final(*ours) > valuer.final(*theirs) + 1


@pytest.mark.parametrize("n", [13, 15, 17])
def test_a_search_cut_short_still_gives_a_clean_board(n: int) -> None:
    """With no budget at all the search stops at the first board it completes: still every card once, 13 of them
    on the board, and no foul."""
    rules = OFCRules(variant="d")
    valuer = Valuer(rules, in_fantasyland=True)
    deck = [FrenchCard(r, s) for r in range(2, 15) for s in "cdhs"]
    cards = random.Random(n).sample(deck, n)
    front, middle, back, thrown = best_board(cards, valuer, budget=0)
    assert (len(front), len(middle), len(back), len(thrown)) == (3, 5, 5, n - 13)
    assert sorted(front + middle + back + thrown) == sorted(cards)
    assert not valuer.fouls(eval_row(front), eval_row(middle), eval_row(back))
