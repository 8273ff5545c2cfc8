"""The hand-combination classifier (手役, rules.md §3.3): what a 7-card hand scores under a yaku table.

* Only the 7 dealt cards count (never the trump indicator).
* A hand scores at most one **Combination** yaku, the met and enabled row with the highest normal value (ties:
  the higher forced-out value, then the row higher in the table), plus at most one **Weak-hand** yaku (their
  conditions exclude each other). The two values add up, separately for the normal and forced-out columns.
* A row's condition is met whatever the other rows say; which row *scores* is decided only by the values. So a
  4-2-1 hand meets One-two-four and Four of a kind and scores One-two-four (8 > 6), or Four of a kind when
  One-two-four is disabled; a straight flush also meets Flush and Straight.
* "Pattern" is the sorted multiset of rank counts (4-2-1 …). Straights are 5+ consecutive ranks, the Ace high
  (10-J-Q-K-A) or low (A-2-3-4-5), with no wrap; flushes are 5+ cards of one suit.
* "Pips" are 2-9 and "honours" 10, J, Q, K, A.

Each scored yaku carries the cards that make it, the ones shown at a reveal: the groups of a pattern (the
single card too for One-two-four and the patterns without one), the run of a straight (one card per rank), the
suit's cards of a flush, and all seven cards for a weak-hand yaku (which is a condition on the whole hand).
A forced-out player also shows his Aces (:meth:`HandValue.reveal`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.core.cards import FrenchCard
from games.hachi_hachi.rules import COMBINATION_KEYS, YakuTable

ACE = 14
PIP_MAX = 9

_PATTERN_YAKU: dict[tuple[int, ...], tuple[str, int]] = {
    # pattern → (key, smallest group shown: 1 shows every card, 2 only the groups of two or more)
    (4, 3): ("four_three", 1),
    (3, 3, 1): ("two_triples", 2),
    (3, 2, 2): ("haneken", 1),
    (4, 2, 1): ("one_two_four", 1),
    (3, 2, 1, 1): ("full_house", 2),
    (2, 2, 2, 1): ("three_pairs", 2),
    (3, 1, 1, 1, 1): ("three_kind", 3),
}
_TABLE_ORDER = {key: i for i, key in enumerate(COMBINATION_KEYS)}


@dataclass(frozen=True)
class Yaku:
    """One scored hand combination: its table key, the cards that make it, and its two values."""

    key: str
    cards: tuple[FrenchCard, ...]
    normal: int
    forced_out: int


@dataclass(frozen=True)
class HandValue:
    """What a hand scores: at most one Combination and one Weak-hand yaku, and its Aces."""

    combination: Yaku | None
    weak: Yaku | None
    aces: tuple[FrenchCard, ...]

    @property
    def yaku(self) -> tuple[Yaku, ...]:
        return tuple(y for y in (self.combination, self.weak) if y is not None)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(y.key for y in self.yaku)

    @property
    def normal(self) -> int:
        """The normal column: what the hand is worth in the declarers' hand settlement."""
        return sum(y.normal for y in self.yaku)

    @property
    def forced_out(self) -> int:
        """The forced-out column of the table (without the Aces)."""
        return sum(y.forced_out for y in self.yaku)

    def forced_out_total(self, ace_value: int) -> int:
        """What a forced-out player with this hand receives from each declarer, before M: column + Aces."""
        return self.forced_out + ace_value * len(self.aces)

    def reveal(self, *, forced_out: bool) -> tuple[FrenchCard, ...]:
        """The cards shown at hand settlement: the yaku's cards (and a forced-out player's Aces), in order."""
        shown: set[FrenchCard] = {c for y in self.yaku for c in y.cards}
        if forced_out:
            shown.update(self.aces)
        return tuple(sorted(shown))


def pattern(cards: Iterable[FrenchCard]) -> tuple[int, ...]:
    """The sorted multiset of rank counts, largest first: ``(4, 2, 1)``."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    return tuple(sorted(counts.values(), reverse=True))


def longest_run(ranks: Iterable[int]) -> list[int]:
    """The longest run of consecutive ranks (the Ace counts high and low; 1 stands for a low Ace), lowest first."""
    present = set(ranks)
    if ACE in present:
        present.add(1)
    best: list[int] = []
    run: list[int] = []
    for r in range(1, ACE + 1):
        if r in present:
            run.append(r)
            if len(run) > len(best):
                best = list(run)
        else:
            run = []
    return best


def _run_cards(cards: Sequence[FrenchCard], run: list[int]) -> tuple[FrenchCard, ...]:
    """One card per rank of ``run`` (the lowest suit of each rank), in run order."""
    out = []
    for r in run:
        rank = ACE if r == 1 else r
        out.append(min(c for c in cards if c.rank == rank))
    return tuple(out)


def combinations_met(cards: Sequence[FrenchCard]) -> dict[str, tuple[FrenchCard, ...]]:
    """Every Combination condition the hand meets (enabled or not), with the cards that make each."""
    groups: dict[int, list[FrenchCard]] = {}
    suits: dict[str, list[FrenchCard]] = {}
    for c in cards:
        groups.setdefault(c.rank, []).append(c)
        suits.setdefault(c.suit, []).append(c)
    met: dict[str, tuple[FrenchCard, ...]] = {}
    shape = tuple(sorted((len(g) for g in groups.values()), reverse=True))
    found = _PATTERN_YAKU.get(shape)
    if found is not None:
        key, smallest = found
        met[key] = tuple(sorted(c for g in groups.values() if len(g) >= smallest for c in g))
    if shape[0] == 4:
        met["four_kind"] = tuple(sorted(next(g for g in groups.values() if len(g) == 4)))
    if len(groups) >= 5:
        run = longest_run(groups)
        if len(run) >= 5:
            met["straight"] = _run_cards(cards, run)
        flush = next((s for s in suits.values() if len(s) >= 5), None)
        if flush is not None:
            met["flush"] = tuple(sorted(flush))
            run = longest_run(c.rank for c in flush)
            if len(run) >= 5:
                met["straight_flush"] = _run_cards(flush, run)
    return met


def weak_met(cards: Sequence[FrenchCard]) -> str | None:
    """The Weak-hand condition the hand meets (they exclude each other), enabled or not."""
    honours = [c for c in cards if c.rank > PIP_MAX]
    if not honours:
        return "karasu"
    if len(honours) == len(cards):
        return "sunashi"
    if len(honours) == 1:
        return "pikaichi" if honours[0].rank == ACE else "toichi"
    return None


def classify(cards: Sequence[FrenchCard], table: YakuTable) -> HandValue:
    """What ``cards`` (a 7-card hand) score under ``table``."""
    combination: Yaku | None = None
    best: tuple[int, int, int] | None = None
    for key, shown in combinations_met(cards).items():
        row = table.row(key)
        if not row.enabled:
            continue
        order = (row.normal, row.forced_out, -_TABLE_ORDER[key])
        if best is None or order > best:
            best = order
            combination = Yaku(key, shown, row.normal, row.forced_out)
    weak: Yaku | None = None
    weak_key = weak_met(cards)
    if weak_key is not None:
        row = table.row(weak_key)
        if row.enabled:
            weak = Yaku(weak_key, tuple(sorted(cards)), row.normal, row.forced_out)
    aces = tuple(sorted(c for c in cards if c.rank == ACE))
    return HandValue(combination, weak, aces)
