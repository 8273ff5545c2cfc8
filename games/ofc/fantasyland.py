"""Fantasyland (rules.md §4.6): entry, progressive card counts, staying, and an exact arrangement solver.

The solver picks 13 of the dealt cards (13-17) and arranges them without fouling to maximise
``royalties + stay_value × (the board stays in Fantasyland)``. ``stay_value`` is what staying is
worth in points; :data:`FL_STAY_VALUE` (10) is the default the bot uses, roughly the royalty
advantage of one more Fantasyland hand. Among arrangements of equal worth the solver keeps the
first it meets, trying backs and middles strongest-potential first.

Search: every 5-card subset is evaluated once. Backs are tried in decreasing order of an upper
bound (back worth + best middle worth among subsets no stronger than that back + best front worth
likewise); a back whose bound cannot beat the best found ends the search. Middles are the 5-subsets
of the cards left, each bounded the same way before its fronts are tried.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, combinations

from games.core.cards import FrenchCard
from games.ofc.eval import (
    FULL_HOUSE,
    PAIR,
    QUADS,
    TRIPS,
    RoyaltyScheme,
    card_index,
    eval3_idx,
    eval5_idx,
    top_rank,
)
from games.ofc.rules import OFCRules
from games.ofc.scoring import BoardScore

FL_STAY_VALUE = 10
"""Points the solver (and the bot) counts for a board that stays in Fantasyland."""

_ENTRY_RANK = {"QQ": 12, "KK": 13, "AA": 14}
_PAIR_KEY = {12: "QQ", 13: "KK", 14: "AA"}


def entry_cards(score: BoardScore, rules: OFCRules) -> int | None:
    """Cards dealt next hand to a player entering Fantasyland with this board, or ``None`` (no entry)."""
    if score.fouled:
        return None
    cat = score.front >> 20
    top = top_rank(score.front)
    if cat == TRIPS:
        key = "trips"
    elif cat == PAIR and top >= _ENTRY_RANK[rules.fl_entry_min]:
        key = _PAIR_KEY[top]
    else:
        return None
    return rules.fl_cards[key] if rules.variant == "d" else 13


DECK_SIZE = 52


def dealt_counts(wanted: Mapping[int, int], seats: int, rules: OFCRules) -> dict[int, int]:
    """The Fantasyland card counts the pack can deal, from the counts earned (seat -> cards).

    The one place the trim happens: the engine deals these counts and the result of the hand that
    earned them announces the same numbers, so the two cannot disagree. When the Fantasyland hands plus
    every normal player's streets need more than 52 cards, the largest count (the first such seat in
    ``wanted``'s order on a tie) loses a card, again and again, never below 13.
    """
    counts = dict(wanted)
    per_normal = sum(n for n, _ in rules.streets())
    while sum(counts.values()) + per_normal * (seats - len(counts)) > DECK_SIZE:
        seat = max((s for s in counts if counts[s] > 13), key=lambda s: counts[s], default=None)
        if seat is None:
            break
        counts[seat] -= 1
    return counts


def stays(score: BoardScore, rules: OFCRules) -> bool:
    """Whether a Fantasyland board keeps its player in Fantasyland (§4.6, by variant)."""
    return not score.fouled and _stay_flags(score.front, score.middle, score.back, rules)


def _stay_flags(front: int, middle: int, back: int, rules: OFCRules) -> bool:
    return (
        (rules.stay_front_trips() and front >> 20 == TRIPS)
        or (rules.stay_middle_fh() and middle >> 20 >= FULL_HOUSE)
        or (rules.stay_back_quads() and back >> 20 >= QUADS)
    )


@dataclass(frozen=True)
class Arrangement:
    """A Fantasyland board chosen by the solver."""

    front: tuple[FrenchCard, ...]
    middle: tuple[FrenchCard, ...]
    back: tuple[FrenchCard, ...]
    discards: tuple[FrenchCard, ...]
    royalties: int
    stays: bool
    worth: int
    """royalties + stay_value if it stays."""


def solve(cards: Sequence[FrenchCard], rules: OFCRules, stay_value: int = FL_STAY_VALUE) -> Arrangement:
    """The best non-fouling 13-card board from ``cards`` (13 to 17 cards)."""
    n = len(cards)
    if not 13 <= n <= 17 or len(set(cards)) != n:
        raise ValueError("the solver takes 13 to 17 distinct cards")
    idx = [card_index(c) for c in cards]
    scheme = RoyaltyScheme.of(rules)
    stay_f, stay_m, stay_b = rules.stay_front_trips(), rules.stay_middle_fh(), rules.stay_back_quads()
    strict = rules.foul_on_equal

    # 5-card subsets: (value, back worth, middle worth, back royalty, middle royalty, stays as back/middle)
    five: dict[tuple[int, ...], tuple[int, int, int, int, int, bool, bool]] = {}
    for t in combinations(range(n), 5):
        v = eval5_idx(idx[t[0]], idx[t[1]], idx[t[2]], idx[t[3]], idx[t[4]])
        rb, rm = scheme.back(v), scheme.middle(v)
        sb = stay_b and v >> 20 >= QUADS
        sm = stay_m and v >> 20 >= FULL_HOUSE
        five[t] = (v, rb + (stay_value if sb else 0), rm + (stay_value if sm else 0), rb, rm, sb, sm)
    three: dict[tuple[int, ...], tuple[int, int, bool]] = {}
    for t3 in combinations(range(n), 3):
        v = eval3_idx(idx[t3[0]], idx[t3[1]], idx[t3[2]])
        sf = stay_f and v >> 20 == TRIPS
        three[t3] = (v, scheme.front(v), sf)

    by_value = sorted(five.values(), key=lambda e: e[0])
    five_values = [e[0] for e in by_value]
    mid_best = list(accumulate((e[2] for e in by_value), max))
    fronts = sorted(three.values(), key=lambda e: e[0])
    front_values = [e[0] for e in fronts]
    front_best = list(accumulate((e[1] + (stay_value if e[2] else 0) for e in fronts), max))

    def best_mid_upto(value: int) -> int:
        i = (bisect_left(five_values, value) if strict else bisect_right(five_values, value)) - 1
        return mid_best[i] if i >= 0 else -1

    def best_front_upto(value: int) -> int:
        i = bisect_right(front_values, value) - 1
        return front_best[i] if i >= 0 else -1

    backs = sorted(
        ((e[1] + best_mid_upto(e[0]) + best_front_upto(e[0]), t, e) for t, e in five.items()),
        key=lambda x: (-x[0], -x[2][0]),
    )
    best = -1
    best_pick: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None
    everything = set(range(n))
    for bound, bt, be in backs:
        if bound <= best:
            break
        bv = be[0]
        rest = sorted(everything.difference(bt))
        mids = []
        for mt in combinations(rest, 5):
            me = five[mt]
            mv = me[0]
            if mv > bv or (strict and mv == bv):
                continue
            mbound = be[1] + me[2] + best_front_upto(mv)
            if mbound > best:
                mids.append((mbound, mt, me))
        mids.sort(key=lambda x: (-x[0], -x[2][0]))
        for mbound, mt, me in mids:
            if mbound <= best:
                break
            mv = me[0]
            left = sorted(everything.difference(bt, mt))
            for ft in combinations(left, 3):
                fe = three[ft]
                if fe[0] > mv:
                    continue
                stay = be[5] or me[6] or fe[2]
                worth = be[3] + me[4] + fe[1] + (stay_value if stay else 0)
                if worth > best:
                    best = worth
                    best_pick = (ft, mt, bt)
    assert best_pick is not None  # a non-fouling board always exists with 13+ cards
    front_t, mid_t, back_t = best_pick
    used = set(front_t) | set(mid_t) | set(back_t)
    fv, mv, bv = three[front_t][0], five[mid_t][0], five[back_t][0]
    royalties = scheme.front(fv) + scheme.middle(mv) + scheme.back(bv)
    stay = _stay_flags(fv, mv, bv, rules)
    return Arrangement(
        front=tuple(cards[i] for i in front_t),
        middle=tuple(cards[i] for i in mid_t),
        back=tuple(cards[i] for i in back_t),
        discards=tuple(cards[i] for i in range(n) if i not in used),
        royalties=royalties,
        stays=stay,
        worth=royalties + (stay_value if stay else 0),
    )


_CACHE: dict[tuple[tuple[FrenchCard, ...], str, int], Arrangement] = {}


def solve_cached(cards: tuple[FrenchCard, ...], rules: OFCRules, stay_value: int = FL_STAY_VALUE) -> Arrangement:
    """:func:`solve`, remembered for the last few hands (legal_actions and the bot ask repeatedly)."""
    key = (cards, rules.model_dump_json(), stay_value)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        found = _CACHE[key] = solve(cards, rules, stay_value)
    return found
