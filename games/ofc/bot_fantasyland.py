"""The strong bot's Fantasyland board: the exact best by expected points, not only by royalties.

:func:`games.ofc.fantasyland.solve` is exact for what it maximises, royalties plus a fixed worth for staying; among
boards of equal worth it keeps the first it meets, so a hand with no royalty to make can get a weak front, and a
hand of 14 or more cards can throw away the wrong ones. Here the worth of a board is
:meth:`~games.ofc.bot_value.Valuer.final` (royalties, staying at its expected worth, and each row's chances against a
typical opponent's row), and the same search finds the best one:

* every 5-card subset is valued once as a back and as a middle, every 3-card subset as a front, each with its
  part of the worth (the row's royalty, its staying bonus, its chances; the back also carries the constant part
  and the scoop term, bounded by the back's chance of winning);
* backs are tried best bound first, where the bound adds the best middle and the best front no stronger than
  the back (shared cards allowed); a back whose bound cannot beat the best board found ends the search; middles
  of the cards left are bounded the same way before their fronts are tried, and a front is tried only when
  legal. The bounds never undervalue a board, so the board found is the best there is, unless the work budget
  ends the search first (then it is the best found, backs taken best bound first).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import accumulate, combinations

from games.core.cards import FrenchCard
from games.ofc.bot_value import Valuer
from games.ofc.eval import FULL_HOUSE, QUADS, TRIPS, card_index, eval3_idx, eval5_idx

SEARCH_BUDGET = 30_000
"""Work allowed: every middle looked at counts 1, and one whose fronts are tried 3 more. In 15 random hands of each
size from 13 to 17 cards the exact answer took at most 24,000; the bound keeps the rare worse hand in time."""
_MIDDLES = {k: math.comb(k, 5) for k in range(8, 13)}

Arranged = tuple[tuple[FrenchCard, ...], tuple[FrenchCard, ...], tuple[FrenchCard, ...], tuple[FrenchCard, ...]]
"""Front, middle, back and the cards thrown away."""


def best_board(cards: Sequence[FrenchCard], valuer: Valuer, budget: int = SEARCH_BUDGET) -> Arranged:
    """The Fantasyland board of ``cards`` (13 to 17) with the highest :meth:`Valuer.final` (the best found within
    ``budget``, when the search would take longer)."""
    n = len(cards)
    if not 13 <= n <= 17 or len(set(cards)) != n:
        raise ValueError("a Fantasyland hand has 13 to 17 distinct cards")
    idx = [card_index(c) for c in cards]
    rules = valuer.rules
    scheme = valuer.scheme
    keep = valuer.keep
    stay = valuer.stay_value if valuer.in_fl else 0.0
    stay_f = rules.stay_front_trips()
    stay_m = rules.stay_middle_fh()
    stay_b = rules.stay_back_quads()
    strict = valuer.strict
    scoop = valuer.scoop

    # value, worth as a back (scoop bound included), worth as a middle
    five: dict[tuple[int, ...], tuple[int, float, float]] = {}
    for t in combinations(range(n), 5):
        v = eval5_idx(idx[t[0]], idx[t[1]], idx[t[2]], idx[t[3]], idx[t[4]])
        wb, lb = valuer.equity(2, v)
        wm, lm = valuer.equity(1, v)
        back = valuer.base + scheme.back(v) + keep * (wb - lb + scoop * wb)
        back += stay if stay_b and v >> 20 >= QUADS else 0.0
        mid = scheme.middle(v) + keep * (wm - lm) + (stay if stay_m and v >> 20 >= FULL_HOUSE else 0.0)
        five[t] = (v, back, mid)
    three: dict[tuple[int, ...], tuple[int, float]] = {}
    for t3 in combinations(range(n), 3):
        v = eval3_idx(idx[t3[0]], idx[t3[1]], idx[t3[2]])
        wf, lf = valuer.equity(0, v)
        front = scheme.front(v) + keep * (wf - lf) + (stay if stay_f and v >> 20 == TRIPS else 0.0)
        three[t3] = (v, front)

    by_value = sorted(five.values(), key=lambda e: e[0])
    five_values = [e[0] for e in by_value]
    mid_best = list(accumulate((e[2] for e in by_value), max))
    fronts = sorted(three.values(), key=lambda e: e[0])
    front_values = [e[0] for e in fronts]
    front_best = list(accumulate((e[1] for e in fronts), max))

    def best_mid_upto(value: int) -> float:
        i = (bisect_left(five_values, value) if strict else bisect_right(five_values, value)) - 1
        return mid_best[i] if i >= 0 else -1e9

    def best_front_upto(value: int) -> float:
        i = bisect_right(front_values, value) - 1
        return front_best[i] if i >= 0 else -1e9

    backs = sorted(
        ((e[1] + best_mid_upto(e[0]) + best_front_upto(e[0]), t, e) for t, e in five.items()),
        key=lambda x: (-x[0], x[1]),
    )
    best = -1e18
    pick: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None
    everything = set(range(n))
    tried = 0
    for bound, bt, be in backs:
        if bound <= best or (tried >= budget and pick is not None):
            break
        bv = be[0]
        rest = sorted(everything.difference(bt))
        tried += _MIDDLES[len(rest)]
        mids = []
        for mt in combinations(rest, 5):
            me = five[mt]
            mv = me[0]
            if mv > bv or (strict and mv == bv):
                continue
            mbound = be[1] + me[2] + best_front_upto(mv)
            if mbound > best:
                mids.append((mbound, mt, me))
        mids.sort(key=lambda x: (-x[0], x[1]))
        for mbound, mt, me in mids:
            if mbound <= best:
                break
            tried += 3
            mv = me[0]
            left = sorted(everything.difference(bt, mt))
            for ft in combinations(left, 3):
                fv, fw = three[ft]
                if fv > mv or be[1] + me[2] + fw <= best:
                    continue
                worth = valuer.final(fv, mv, bv)
                if worth > best:
                    best = worth
                    pick = (ft, mt, bt)
    assert pick is not None  # 13 cards or more always make a board that does not foul
    front_at, middle_at, back_at = pick
    used = set(front_at) | set(middle_at) | set(back_at)
    return (
        tuple(cards[i] for i in front_at),
        tuple(cards[i] for i in middle_at),
        tuple(cards[i] for i in back_at),
        tuple(cards[i] for i in range(n) if i not in used),
    )
