"""The classifier against the exact Frequency column of rules.md §3.3, over all C(52,7) = 133,784,560 hands.

Enumerating every hand is far too slow, so the hands are grouped into classes that the rules cannot tell apart,
and the real classifier is called on one concrete hand per class, weighted by the class size:

(a) no suit holds 5 or more cards: no flush and no straight flush is possible, so the classification depends only
    on the rank multiset. One representative per rank-count vector (each rank 0-4, 7 cards), weighted by the
    number of suit assignments (``C(4, c)`` choices for a rank of count ``c``) that keep every suit under 5 cards,
    counted by a small DP over the ranks (memoised by the sorted counts, which is all it depends on);
(b) one suit holds k = 5, 6 or 7 cards (at most one suit can): enumerate the k ranks in that suit (spades in the
    representative), and the other 7 − k cards as a rank-count vector over the three other suits, weighted
    ``C(3, c)`` per rank; times 4 for the choice of the suit.

The weights must add up to C(52, 7), and each row's count must equal the table's.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from functools import cache

from games.core.cards import FrenchCard
from games.hachi_hachi.rules import COMBINATION_KEYS, YakuRow, YakuTable
from games.hachi_hachi.yaku import classify

RANKS = tuple(range(2, 15))
SUITS = "cdhs"

COMBINATION_COUNTS = {
    "four_three": 624,
    "straight_flush": 41_584,
    "two_triples": 54_912,
    "haneken": 123_552,
    "one_two_four": 41_184,
    "four_kind": 183_040,
    "full_house": 3_294_720,
    "flush": 4_047_644,
    "three_pairs": 2_471_040,
    "straight": 6_180_020,
    "three_kind": 6_461_620,
    None: 110_884_620,  # two pair, one pair, nothing
}
WEAK_COUNTS = {
    "karasu": 3_365_856,  # C(32,7)
    "pikaichi": 3_624_768,  # 4·C(32,6)
    "toichi": 14_499_072,  # 16·C(32,6)
    "sunashi": 77_520,  # C(20,7)
}
FOUR_KIND_WITHOUT_ONE_TWO_FOUR = 224_224


def count_vectors(total: int, cap: int, ranks: int = len(RANKS)) -> list[tuple[int, ...]]:
    """Every way to give ``total`` cards to ``ranks`` ranks, at most ``cap`` each."""
    if ranks == 0:
        return [()] if total == 0 else []
    return [(c, *rest) for c in range(min(cap, total) + 1) for rest in count_vectors(total - c, cap, ranks - 1)]


@cache
def spread_weight(counts: tuple[int, ...]) -> int:
    """Suit assignments for ranks holding ``counts`` cards in which every suit holds fewer than 5 cards."""
    loads: Counter[tuple[int, ...]] = Counter({(0, 0, 0, 0): 1})
    for c in counts:
        following: Counter[tuple[int, ...]] = Counter()
        for load, ways in loads.items():
            for suits in itertools.combinations(range(4), c):
                new = list(load)
                for s in suits:
                    new[s] += 1
                if max(new) < 5:
                    following[tuple(new)] += ways
        loads = following
    return sum(loads.values())


def representative(vector: tuple[int, ...]) -> list[FrenchCard]:
    """A hand with these rank counts and no suit holding 5 cards (each rank goes to the least-filled suits)."""
    loads = [0, 0, 0, 0]
    cards = []
    for rank, c in zip(RANKS, vector, strict=True):
        for s in sorted(range(4), key=lambda s: (loads[s], s))[:c]:
            loads[s] += 1
            cards.append(FrenchCard(rank, SUITS[s]))
    assert max(loads) < 5
    return cards


def weighted_hands() -> Iterator[tuple[list[FrenchCard], int]]:
    for vector in count_vectors(7, 4):
        weight = spread_weight(tuple(sorted(c for c in vector if c)))
        if weight:
            yield representative(vector), weight
    for k in (5, 6, 7):
        others = []
        for vector in count_vectors(7 - k, 3):
            cards = [FrenchCard(r, s) for r, c in zip(RANKS, vector, strict=True) for s in "cdh"[:c]]
            others.append((cards, 4 * math.prod(math.comb(3, c) for c in vector)))
        for in_suit in itertools.combinations(RANKS, k):
            base = [FrenchCard(r, "s") for r in in_suit]
            for cards, weight in others:
                yield base + cards, weight


def test_the_classifier_matches_the_table_frequencies_exactly() -> None:
    table = YakuTable(sunashi=YakuRow(enabled=True, normal=6, forced_out=3))  # the weak rows' counts include it
    no_one_two_four = YakuTable(one_two_four=YakuRow(enabled=False, normal=8, forced_out=4))
    total = 0
    combination: Counter[str | None] = Counter()
    weak: Counter[str] = Counter()
    four_kind_alone = 0
    for cards, weight in weighted_hands():
        total += weight
        value = classify(cards, table)
        key = value.combination.key if value.combination else None
        combination[key] += weight
        if value.weak is not None:
            weak[value.weak.key] += weight
        if key in ("four_three", "one_two_four", "four_kind"):
            # Disabling a row changes only the hands that scored it; the other four-card hands are checked too.
            other = classify(cards, no_one_two_four).combination
            four_kind_alone += weight if other is not None and other.key == "four_kind" else 0
    assert total == math.comb(52, 7) == 133_784_560
    assert dict(combination) == COMBINATION_COUNTS
    assert set(combination) == {*COMBINATION_KEYS, None}
    assert dict(weak) == WEAK_COUNTS
    assert four_kind_alone == FOUR_KIND_WITHOUT_ONE_TWO_FOUR


def test_the_spread_weights_are_right_on_small_cases() -> None:
    assert spread_weight((4, 3)) == 1 * 4  # a quad uses every suit (one way); any 3 of 4 for the triple
    assert spread_weight((1,) * 7) == 4**7 - 4 * (math.comb(7, 5) * 3**2 + math.comb(7, 6) * 3 + 1)
