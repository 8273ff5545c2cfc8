"""Row evaluation (rules.md §4.3) and royalties (§4.5) on integer-encoded cards.

A card is an int ``4 * (rank - 2) + suit`` (0..51). A row's strength is one int,
``category << 20 | v0 << 16 | v1 << 12 | v2 << 8 | v3 << 4 | v4``, where ``v`` is the tie-break
vector: the distinct ranks sorted by (count desc, rank desc), padded with 0. So rows compare as
plain ints, suits never break ties, the wheel is (5, 4, 3, 2, 1), and a 3-card front lives on the
same scale (high card 0, pair 1, trips 3, kickers padded with 0) for the front-vs-middle check.

Speed: each card carries a base-5 rank digit ``5 ** (rank - 2)``; the sum over a row is a unique key
of its rank multiset, looked up in tables built once at import, plus a suit-bit AND for flushes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from games.core.cards import SUIT_CHARS, FrenchCard
from games.ofc.rules import RANKS, OFCRules

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high_card",
    "pair",
    "two_pair",
    "trips",
    "straight",
    "flush",
    "full_house",
    "quads",
    "straight_flush",
)
ROYAL_FLUSH_NAME = "royal_flush"

RANK_KEY: tuple[int, ...] = tuple(5 ** (c >> 2) for c in range(52))
SUIT_BIT: tuple[int, ...] = tuple(1 << (c & 3) for c in range(52))


def card_index(card: FrenchCard) -> int:
    """FrenchCard → 0..51."""
    return _INDEX[card]


def index_card(index: int) -> FrenchCard:
    return _CARDS[index]


_CARDS: tuple[FrenchCard, ...] = tuple(FrenchCard((c >> 2) + 2, SUIT_CHARS[c & 3]) for c in range(52))
_INDEX: dict[FrenchCard, int] = {card: i for i, card in enumerate(_CARDS)}


def _pack(category: int, vector: Sequence[int]) -> int:
    v = list(vector) + [0] * (5 - len(vector))
    return category << 20 | v[0] << 16 | v[1] << 12 | v[2] << 8 | v[3] << 4 | v[4]


def _grouped(ranks: Sequence[int]) -> tuple[list[int], list[int]]:
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts, key=lambda r: (-counts[r], -r))
    return order, [counts[r] for r in order]


def _straight_top(ranks: Sequence[int]) -> int:
    """The top rank of a 5-card straight (5 for the wheel), or 0."""
    s = sorted(set(ranks))
    if len(s) != 5:
        return 0
    if s[4] - s[0] == 4:
        return s[4]
    if s == [2, 3, 4, 5, 14]:
        return 5
    return 0


def _value5(ranks: Sequence[int], flush: bool) -> int:
    top = _straight_top(ranks)
    if top:
        vector = [5, 4, 3, 2, 1] if top == 5 else [top - i for i in range(5)]
        return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, vector)
    if flush:
        return _pack(FLUSH, sorted(ranks, reverse=True))
    order, counts = _grouped(ranks)
    category = {
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
        (1, 1, 1, 1, 1): HIGH_CARD,
    }[tuple(counts)]
    return _pack(category, order)


def _value3(ranks: Sequence[int]) -> int:
    order, counts = _grouped(ranks)
    category = {(3,): TRIPS, (2, 1): PAIR, (1, 1, 1): HIGH_CARD}[tuple(counts)]
    return _pack(category, order)


def _build() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    plain: dict[int, int] = {}
    flush: dict[int, int] = {}
    front: dict[int, int] = {}
    for combo in combinations_with_replacement(range(2, 15), 5):
        if max(combo.count(r) for r in combo) > 4:
            continue
        key = sum(5 ** (r - 2) for r in combo)
        plain[key] = _value5(combo, False)
        if len(set(combo)) == 5:
            flush[key] = _value5(combo, True)
    for combo3 in combinations_with_replacement(range(2, 15), 3):
        front[sum(5 ** (r - 2) for r in combo3)] = _value3(combo3)
    return plain, flush, front


PLAIN5, FLUSH5, FRONT3 = _build()


def eval5_idx(a: int, b: int, c: int, d: int, e: int) -> int:
    """Strength of a 5-card row given as card indexes."""
    key = RANK_KEY[a] + RANK_KEY[b] + RANK_KEY[c] + RANK_KEY[d] + RANK_KEY[e]
    if SUIT_BIT[a] & SUIT_BIT[b] & SUIT_BIT[c] & SUIT_BIT[d] & SUIT_BIT[e]:
        return FLUSH5[key]
    return PLAIN5[key]


def eval3_idx(a: int, b: int, c: int) -> int:
    """Strength of a 3-card front row (on the 5-card scale, kickers padded with 0)."""
    return FRONT3[RANK_KEY[a] + RANK_KEY[b] + RANK_KEY[c]]


def eval_row(cards: Sequence[FrenchCard]) -> int:
    """Strength of a complete row of 3 or 5 cards."""
    idx = [_INDEX[c] for c in cards]
    if len(idx) == 5:
        return eval5_idx(*idx)
    if len(idx) == 3:
        return eval3_idx(*idx)
    raise ValueError(f"a row has 3 or 5 cards, not {len(idx)}")


def eval_partial(cards: Sequence[FrenchCard]) -> int:
    """Strength of the made part of an incomplete row (pairs, trips, quads only; missing cards as 0)."""
    ranks = [c.rank for c in cards]
    if not ranks:
        return 0
    order, counts = _grouped(ranks)
    shape = tuple(counts)
    if shape[0] == 4:
        category = QUADS
    elif shape[0] == 3:
        category = FULL_HOUSE if len(shape) > 1 and shape[1] >= 2 else TRIPS
    elif shape[0] == 2:
        category = TWO_PAIR if len(shape) > 1 and shape[1] == 2 else PAIR
    else:
        category = HIGH_CARD
    return _pack(category, order[:5])


def category(value: int) -> int:
    return value >> 20


def vector(value: int) -> tuple[int, ...]:
    """The tie-break vector without its padding zeros."""
    out = [(value >> s) & 15 for s in (16, 12, 8, 4, 0)]
    while out and out[-1] == 0:
        out.pop()
    return tuple(out)


def top_rank(value: int) -> int:
    return (value >> 16) & 15


def category_name(value: int) -> str:
    """The hand's name key: ``royal_flush`` for an ace-high straight flush, else CATEGORY_NAMES."""
    cat = value >> 20
    if cat == STRAIGHT_FLUSH and top_rank(value) == 14:
        return ROYAL_FLUSH_NAME
    return CATEGORY_NAMES[cat]


def is_foul(front: int, middle: int, back: int, foul_on_equal: bool = False) -> bool:
    """Front > middle or middle > back (or middle == back with ``foul_on_equal``)."""
    return front > middle or middle > back or (foul_on_equal and middle == back)


@dataclass(frozen=True)
class RoyaltyScheme:
    """Royalty lookups for one rule set: ``front(v)``, ``middle(v)``, ``back(v)`` from row strengths."""

    front_pair: tuple[int, ...]
    front_trips: tuple[int, ...]
    middle_cat: tuple[int, ...]
    back_cat: tuple[int, ...]
    middle_royal: int
    back_royal: int

    @classmethod
    def of(cls, rules: OFCRules) -> RoyaltyScheme:
        return _scheme(rules)

    def front(self, value: int) -> int:
        cat = value >> 20
        if cat == PAIR:
            return self.front_pair[(value >> 16) & 15]
        if cat == TRIPS:
            return self.front_trips[(value >> 16) & 15]
        return 0

    def middle(self, value: int) -> int:
        cat = value >> 20
        if cat == STRAIGHT_FLUSH and (value >> 16) & 15 == 14:
            return self.middle_royal
        return self.middle_cat[cat]

    def back(self, value: int) -> int:
        cat = value >> 20
        if cat == STRAIGHT_FLUSH and (value >> 16) & 15 == 14:
            return self.back_royal
        return self.back_cat[cat]


def _scheme(rules: OFCRules) -> RoyaltyScheme:
    key = rules.royalties.model_dump_json() + str(rules.middle_royal)
    cached = _SCHEME_BY_KEY.get(key)
    if cached is not None:
        return cached
    t = rules.royalties
    front_pair = [0] * 15
    front_trips = [0] * 15
    for i, r in enumerate(RANKS):
        front_pair[i + 2] = t.front[r + r]
        front_trips[i + 2] = t.front[r * 3]
    middle = [0] * 9
    back = [0] * 9
    for cat, name in enumerate(CATEGORY_NAMES):
        middle[cat] = t.middle.get(name, 0)
        back[cat] = t.back.get(name, 0)
    scheme = RoyaltyScheme(
        tuple(front_pair), tuple(front_trips), tuple(middle), tuple(back), rules.middle_royal, t.back["royal_flush"]
    )
    _SCHEME_BY_KEY[key] = scheme
    return scheme


_SCHEME_BY_KEY: dict[str, RoyaltyScheme] = {}
