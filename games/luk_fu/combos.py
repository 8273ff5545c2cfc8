"""Luk Fu card combinations (rules.md §2.4, §2.5): what a play is, what beats what, what a hand can form.

Everything here is pure and works on tuples of :class:`LukFuCard` in the canonical order of :func:`card_key`
(suit C < S < M < T, then rank; Li Tyen last), so results can be cached by hand.

A play is one of five kinds:

* ``single`` — one card;
* ``triple`` / ``quad`` — 3 or 4 cards of one rank (never Li Tyen);
* ``run`` — 3 or more cards of consecutive ranks in one suit, no wrap (never Li Tyen);
* ``tigers`` — 1C 1S 1M 1T LT led as one unbeatable 5-card lead (option ``five_tigers_lead``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Literal

from games.core.cards import LI_TYEN, LUKFU_SUITS, LukFuCard, lukfu_deck

Kind = Literal["single", "triple", "quad", "run", "tigers"]

C1 = LukFuCard(1, "C")
T1 = LukFuCard(1, "T")
PERMANENT_OLD: frozenset[LukFuCard] = frozenset({C1, T1, LI_TYEN})
"""Always old (§2.6), and unbeatable when led singly (§2.5)."""
FIVE_TIGERS: frozenset[LukFuCard] = frozenset({C1, LukFuCard(1, "S"), LukFuCard(1, "M"), T1, LI_TYEN})
RED: frozenset[LukFuCard] = frozenset({LukFuCard(9, s) for s in LUKFU_SUITS} | {LukFuCard(8, "T"), C1, T1, LI_TYEN})
"""The eight red cards (§2.1)."""


_CANONICAL_KEY: dict[LukFuCard, tuple[int, int]] = {
    c: (4, 0) if c.is_li_tyen else (c.suit_order, c.rank) for c in lukfu_deck()
}
_STRENGTH_KEY: dict[LukFuCard, tuple[int, int]] = {
    c: (-1, 0) if c.is_li_tyen else (c.suit_order, c.rank) for c in lukfu_deck()
}


def card_key(card: LukFuCard) -> tuple[int, int]:
    """Canonical order: suit C < S < M < T, then rank; Li Tyen after everything."""
    return _CANONICAL_KEY[card]


def strength_key(card: LukFuCard) -> tuple[int, int]:
    """Display order of a hand, strongest last: suit then rank, Li Tyen first (it never wins a following trick)."""
    return _STRENGTH_KEY[card]


def canonical(cards: Iterable[LukFuCard]) -> tuple[LukFuCard, ...]:
    return tuple(sorted(cards, key=card_key))


def set_rank(card_rank: int) -> int:
    """Rank of a set under ``ones_set_rank = high``: 2 < … < 8 < 1 < 9 (doubled to stay whole)."""
    return 17 if card_rank == 1 else card_rank * 2


def classify(cards: Sequence[LukFuCard]) -> Kind | None:
    """The kind of a play of these (distinct) cards, or None if it is no lead type."""
    n = len(cards)
    if n == 1:
        return "single"
    if n < 3:
        return None
    if n == 5 and frozenset(cards) == FIVE_TIGERS:
        return "tigers"
    if any(c.is_li_tyen for c in cards):
        return None
    ranks = {c.rank for c in cards}
    if len(ranks) == 1:
        return "triple" if n == 3 else "quad" if n == 4 else None
    suits = {c.suit for c in cards}
    if len(suits) == 1:
        ordered = sorted(c.rank for c in cards)
        if ordered == list(range(ordered[0], ordered[0] + n)):
            return "run"
    return None


def unbeatable_lead(cards: Sequence[LukFuCard]) -> bool:
    """A lead nothing can beat: 1C, 1T or LT led singly, or the Five Tigers lead."""
    return (len(cards) == 1 and cards[0] in PERMANENT_OLD) or classify(cards) == "tigers"


def beats(
    challenger: Sequence[LukFuCard],
    current: Sequence[LukFuCard],
    *,
    current_is_lead: bool,
    ones_high: bool,
) -> bool:
    """Whether ``challenger`` beats the play ``current`` winning the trick now (§2.5 item 4).

    ``current_is_lead``: ``current`` is the lead itself (led 1s and led 1C/1T/LT are special).
    """
    kind = classify(current)
    if kind is None or len(challenger) != len(current):
        return False
    if kind == "tigers":
        return False
    if kind == "single":
        cur, ch = current[0], challenger[0]
        if cur.is_li_tyen or ch.is_li_tyen:
            return False
        if current_is_lead and cur in PERMANENT_OLD:
            return False
        return ch.suit == cur.suit and ch.rank > cur.rank
    other = classify(challenger)
    if kind in ("triple", "quad"):
        if other != kind:
            return False
        cur_rank, ch_rank = current[0].rank, challenger[0].rank
        if ones_high:
            return set_rank(ch_rank) > set_rank(cur_rank)
        if current_is_lead and cur_rank == 1:
            return ch_rank == 9
        return ch_rank > cur_rank
    # a run: same length, same suit with a higher top, or any higher suit
    if other != "run":
        return False
    cur_suit, ch_suit = current[0].suit_order, challenger[0].suit_order
    if ch_suit != cur_suit:
        return ch_suit > cur_suit
    return max(c.rank for c in challenger) > max(c.rank for c in current)


# ---------------------------------------------------------------- what a hand can form


def _by_rank(hand: Sequence[LukFuCard]) -> dict[int, list[LukFuCard]]:
    out: dict[int, list[LukFuCard]] = {}
    for c in hand:
        if not c.is_li_tyen:
            out.setdefault(c.rank, []).append(c)
    return out


def _runs(hand: Sequence[LukFuCard], length: int | None) -> list[tuple[LukFuCard, ...]]:
    """Every run in the hand (of exactly ``length`` cards, or of every length ≥ 3), sub-runs included."""
    held = {(c.suit, c.rank) for c in hand if not c.is_li_tyen}
    out: list[tuple[LukFuCard, ...]] = []
    for suit in LUKFU_SUITS:
        for lo in range(1, 8):
            if (suit, lo) not in held:
                continue
            hi = lo
            while (suit, hi + 1) in held:
                hi += 1
            lengths = range(3, hi - lo + 2) if length is None else (length,)
            for n in lengths:
                if lo + n - 1 <= hi:
                    out.append(tuple(LukFuCard(r, suit) for r in range(lo, lo + n)))
    return out


@lru_cache(maxsize=4096)
def combos(hand: tuple[LukFuCard, ...]) -> tuple[tuple[LukFuCard, ...], ...]:
    """Every triple, quad and run the hand can lead (every 3 of a 4-of-a-kind, every sub-run), canonical."""
    out: list[tuple[LukFuCard, ...]] = []
    for _rank, cards in sorted(_by_rank(hand).items()):
        if len(cards) >= 3:
            out += [canonical(t) for t in combinations(cards, 3)]
        if len(cards) == 4:
            out.append(canonical(cards))
    out += _runs(hand, None)
    return tuple(out)


@lru_cache(maxsize=4096)
def beating_plays(
    hand: tuple[LukFuCard, ...], current: tuple[LukFuCard, ...], current_is_lead: bool, ones_high: bool
) -> tuple[tuple[LukFuCard, ...], ...]:
    """Every play of ``len(current)`` cards from ``hand`` that beats ``current`` (must-beat, §2.5 item 2)."""
    kind = classify(current)
    n = len(current)
    candidates: list[tuple[LukFuCard, ...]] = []
    if kind == "single":
        candidates = [(c,) for c in hand]
    elif kind in ("triple", "quad"):
        for _rank, cards in sorted(_by_rank(hand).items()):
            if len(cards) >= n:
                candidates += [canonical(t) for t in combinations(cards, n)]
    elif kind == "run":
        candidates = _runs(hand, n)
    return tuple(p for p in candidates if beats(p, current, current_is_lead=current_is_lead, ones_high=ones_high))


def has_big_combination(hand: Sequence[LukFuCard]) -> bool:
    """A quad or a run of 4 or more (the parent-pass penalty's condition, §2.9)."""
    if any(len(cards) == 4 for cards in _by_rank(hand).values()):
        return True
    return bool(_runs(hand, 4))


def holds_five_tigers(hand: Iterable[LukFuCard]) -> bool:
    return set(hand) >= FIVE_TIGERS


def sitter_rank(card: LukFuCard) -> int:
    """Rank for the sitter bonus: Li Tyen counts as 1 (§2.9)."""
    return 1 if card.is_li_tyen else card.rank
