"""The bots' board values: finished boards in expected points, the quick score of partial ones."""

from __future__ import annotations

import random

import pytest

from games.core.cards import parse_french
from games.ofc.bot_value import Valuer
from games.ofc.eval import card_index, eval_row
from games.ofc.rules import OFCRules

RULES = [
    OFCRules(variant="a"),
    OFCRules(variant="b"),
    OFCRules(variant="c", foul_on_equal=True),
    OFCRules(variant="d", d_pineapple_streets=True),
]


def _values(text: str) -> tuple[int, int, int]:
    front, middle, back = (parse_french(part) for part in text.split("/"))
    return eval_row(front), eval_row(middle), eval_row(back)


def test_a_foul_is_worth_less_than_any_clean_board() -> None:
    valuer = Valuer(OFCRules(variant="c"))
    weakest = valuer.final(*_values("4c 3d 2h / 7s 5c 4d 3s 2c / 8h 6h 4s 3c 2d"))
    fouled = valuer.final(*_values("Ac Ad 2h / 7s 5c 4d 3s 2c / 8h 6h 4s 3c 2d"))
    assert fouled == valuer.foul < weakest


def test_fantasyland_entry_is_counted_at_its_worth() -> None:
    """Queens up top and jacks up top differ by the royalty (7 against 6), the front's chances, and Fantasyland."""
    valuer = Valuer(OFCRules(variant="c"))
    queens = _values("Qc Qd 2h / Kc Kd 7s 6s 3c / Ac Ad 9h 8h 4d")
    jacks = _values("Jc Jd 2h / Kc Kd 7s 6s 3c / Ac Ad 9h 8h 4d")
    gap = valuer.final(*queens) - valuer.final(*jacks)
    assert valuer.entry_value(queens[0]) > 5
    assert valuer.entry_value(jacks[0]) == 0
    assert gap == pytest.approx(valuer.entry_value(queens[0]) + 1, abs=0.2)


@pytest.mark.parametrize("rules", RULES)
def test_the_fast_quick_score_equals_the_weights_times_the_features(rules: OFCRules) -> None:
    """The run-outs' unrolled score and the fitting's features with the weights agree on any partial board."""
    valuer = Valuer(rules)
    rnd = random.Random(2)
    for _ in range(300):
        cards = [card_index(c) for c in rnd.sample(parse_french(" ".join(_deck())), 13)]
        sizes = (rnd.randint(0, 3), rnd.randint(0, 5), rnd.randint(0, 5))
        if sum(sizes) in (0, 13):
            continue
        rows = (
            tuple(cards[: sizes[0]]),
            tuple(cards[3 : 3 + sizes[1]]),
            tuple(cards[8 : 8 + sizes[2]]),
        )
        assert valuer.partial(rows) == pytest.approx(valuer.score(rows), abs=1e-9)
        assert valuer.partial(rows, {}) == pytest.approx(valuer.score(rows), abs=1e-9)


def _deck() -> list[str]:
    return [r + s for r in "23456789TJQKA" for s in "cdhs"]
