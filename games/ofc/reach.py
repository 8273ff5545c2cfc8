"""Can a partial board still finish without fouling? An exact answer, fast enough for the bot.

The question: is there an assignment of distinct cards from ``unseen`` to the empty slots with
front ≤ middle ≤ back (middle < back under ``foul_on_equal``), rows compared as in
:func:`games.ofc.eval.is_foul`?

**Classes.** A row's completion matters only through its value and the cards it takes, and a value
depends on ranks plus, for a 5-card row, whether all five cards share a suit. So completions are
grouped into *classes*: the multiset of ranks added, and the suit when the row becomes a flush. A
class is real when the unseen cards hold those ranks (and, for a flush, those cards of the suit). One
catch: five distinct ranks on a one-suit (or empty) row are a *plain* hand only if some card can be
off that suit; when every usable card is of the suit, those ranks make the flush class instead.

**Joint fit.** The front takes no suits into account, so three classes fit together when the rank
counts of all three fit in the unseen counts, the middle's and the back's flush cards (named cards)
do not collide, and each plain one-suit row gets its off-suit card (checked by trying the few
candidates). Rows compared this way are exact: every real board belongs to exactly one triple.

**Search**, stopping at the first board that does not foul:

1. The weakest front ``f0`` (cards taken from all unseen cards); the weakest middle ``m0`` at least
   ``f0``; the weakest back ``b0`` beating ``m0``. If ``m0`` or ``b0`` does not exist, no board is
   clean even if rows could share cards: the foul is certain. If they fit together (and the front's
   weakest completion in what they leave is at most ``m0``), a clean board exists. This settles
   almost every call with a few table look-ups.
2. Otherwise rows compete for scarce cards: every middle class from ``f0`` up (while the strongest
   back could still beat it), skipping those after which the front cannot stay under it; for each,
   the backs beating it strongest first, until one fits with it and leaves a low enough front.

Tables: for each partial row, the 5-card (or 3-card) rank multisets that contain it, sorted by value,
are built once and kept (``lru_cache``); a class is then checked with one packed comparison of rank
counts (a 4-bit field per rank, so ``need ≤ have`` for all 13 ranks is one subtraction and a mask).
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections.abc import Collection, Iterator
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

from games.core.cards import FrenchCard
from games.ofc.eval import FLUSH5, FRONT3, PLAIN5, card_index, eval3_idx, eval5_idx

Cls = tuple[int, int, int, int, bool]
"""A row completion class: value, added rank counts (packed), flush suit or -1, added ranks (bit mask),
whether it needs an off-suit card to stay plain."""

_UNIT: tuple[int, ...] = tuple(1 << (4 * r) for r in range(13))
_GUARD = sum(8 << (4 * r) for r in range(13))
_FOUR = 4 * sum(_UNIT)
_NONE = 1 << 30
"""Above every row value: what the weakest completion of a row that cannot be completed counts as."""


def _le(need: int, have: int) -> bool:
    """Every rank count in ``need`` is at most the one in ``have`` (counts up to 8 in ``need``, 7 in ``have``).

    Each 4-bit field of ``have | _GUARD`` is 8 + count, so subtracting a count of at most 8 never borrows
    from the next field, and the field's guard bit survives exactly when need ≤ have."""
    return ((have | _GUARD) - need) & _GUARD == _GUARD


def _bits(mask: int) -> list[int]:
    return [r for r in range(13) if mask >> r & 1]


def _multisets(k: int) -> tuple[list[int], list[int], list[int]]:
    """Every multiset of ``k`` ranks (at most 4 of a rank): packed counts, rank masks, eval keys (sum of 5 ** rank).
    Parallel lists of ints, not tuples: the collector never has to walk them."""
    counts: list[int] = []
    masks: list[int] = []
    keys: list[int] = []
    for combo in combinations_with_replacement(range(13), k):
        if k < 5 or max(combo.count(r) for r in combo) <= 4:
            counts.append(sum(_UNIT[r] for r in combo))
            masks.append(sum(1 << r for r in set(combo)))
            keys.append(sum(5**r for r in combo))
    return counts, masks, keys


_ADDED = tuple(_multisets(k) for k in range(6))


# ------------------------------------------------------------------ tables of completions by partial row


@lru_cache(maxsize=4096)
def _plain_supersets(
    penc: int, pkey: tuple[int, int], size: int, k: int
) -> tuple[list[int], list[int], list[int], list[bool]]:
    """Every ``size``-card rank multiset containing the partial row (packed counts ``penc``; ``pkey`` its rank mask
    and eval key), by value: (values, added counts, added ranks mask, all five ranks distinct)."""
    table = PLAIN5 if size == 5 else FRONT3
    pmask, base = pkey
    counts, masks, keys = _ADDED[k]
    ok = [j for j in range(len(counts)) if _le(penc + counts[j], _FOUR)]
    values = [table[base + keys[j]] for j in ok]
    order = sorted(range(len(ok)), key=values.__getitem__)
    picked = [ok[i] for i in order]
    return (
        [values[i] for i in order],
        [counts[j] for j in picked],
        [masks[j] & ~pmask for j in picked],
        [size == 5 and (pmask | masks[j]).bit_count() == 5 for j in picked],
    )


@lru_cache(maxsize=1024)
def _flush_supersets(pmask: int) -> tuple[list[int], list[int], list[int]]:
    """Every five distinct ranks containing ``pmask``, as one suit, by value: (values, added counts, added mask)."""
    free = [r for r in range(13) if not pmask >> r & 1]
    base = sum(5**r for r in _bits(pmask))
    combos = list(combinations(free, 5 - pmask.bit_count()))
    values = [FLUSH5[base + sum(5**r for r in combo)] for combo in combos]
    order = sorted(range(len(combos)), key=values.__getitem__)
    return (
        [values[i] for i in order],
        [sum(_UNIT[r] for r in combos[i]) for i in order],
        [sum(1 << r for r in combos[i]) for i in order],
    )


# ------------------------------------------------------------------ the unseen cards and the rows


class _Pool:
    """The unseen cards: packed rank counts, and suits by rank for flushes and off-suit cards."""

    __slots__ = ("cards", "enc", "in_suit", "off", "only", "suits")

    def __init__(self, cards: frozenset[int]) -> None:
        self.cards = cards
        suits = [0] * 13
        in_suit = [0, 0, 0, 0]
        enc = 0
        for c in cards:
            r = c >> 2
            suits[r] |= 1 << (c & 3)
            in_suit[c & 3] |= 1 << r
            enc += _UNIT[r]
        self.suits = suits
        self.enc = enc
        self.in_suit = in_suit
        """Ranks available in each suit."""
        c, d, h, sp = in_suit
        self.off = [d | h | sp, c | h | sp, c | d | sp, c | d | h]
        """Ranks with a card of some other suit."""
        self.only = [in_suit[s] & ~self.off[s] for s in range(4)]
        """Ranks whose only unseen card is of this suit."""


class Unseen(Collection[FrenchCard]):
    """Unseen cards prepared once, for many checks against the same cards (the bot tries every placement)."""

    def __init__(self, cards: Collection[FrenchCard]) -> None:
        self._cards = tuple(cards)
        self._pool = _Pool(frozenset(card_index(c) for c in self._cards))

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[FrenchCard]:
        return iter(self._cards)

    def __contains__(self, card: object) -> bool:
        return card in self._cards


class _Row:
    """One row's placed cards and what completing it may look like."""

    __slots__ = ("fixed", "flush_suits", "k", "mono", "need_off", "penc", "pkey", "size")

    def __init__(self, cards: tuple[int, ...], size: int) -> None:
        self.size = size
        self.k = size - len(cards)
        penc = pmask = pkey = suits = 0
        for c in cards:
            penc += _UNIT[c >> 2]
            pmask |= 1 << (c >> 2)
            pkey += 5 ** (c >> 2)
            suits |= 1 << (c & 3)
        self.penc = penc
        self.pkey = (pmask, pkey)
        self.mono = suits.bit_length() - 1 if suits.bit_count() == 1 else -1
        five = size == 5 and self.k > 0
        self.flush_suits: tuple[int, ...] = (
            (0, 1, 2, 3) if five and not cards else (self.mono,) if five and self.mono >= 0 else ()
        )
        self.need_off = five and (not cards or self.mono >= 0)
        self.fixed: Cls | None = None
        if self.k == 0:
            value = eval5_idx(*cards) if size == 5 else eval3_idx(*cards)
            self.fixed = (value, 0, -1, 0, False)

    def weakest(self, have: int) -> int:
        """The weakest value the rank counts ``have`` can complete this row to, suits aside (for the front,
        which has no flushes); above every row when they cannot."""
        if self.fixed is not None:
            return self.fixed[0]
        values, adds, _, _ = _plain_supersets(self.penc, self.pkey, self.size, self.k)
        return next((values[j] for j in range(len(values)) if _le(adds[j], have)), _NONE)

    def off_ok(self, pool: _Pool, added: int) -> bool:
        """Five distinct ranks ``added`` to this one-suit or empty row can include a card off the row's suit."""
        if self.mono >= 0:
            return bool(added & pool.off[self.mono])
        return all(added & ~pool.only[s] for s in range(4))

    def asc(self, pool: _Pool, lo: int) -> Iterator[Cls]:
        """The row's classes with value ≥ ``lo``, weakest first."""
        if self.fixed is not None:
            if self.fixed[0] >= lo:
                yield self.fixed
            return
        streams = [self._plain(pool, lo, False)] + [self._flush(pool, s, lo, False) for s in self.flush_suits]
        yield from streams[0] if len(streams) == 1 else heapq.merge(*streams)

    def desc(self, pool: _Pool, lo: int) -> Iterator[Cls]:
        """The row's classes with value ≥ ``lo``, strongest first."""
        if self.fixed is not None:
            if self.fixed[0] >= lo:
                yield self.fixed
            return
        streams = [self._plain(pool, lo, True)] + [self._flush(pool, s, lo, True) for s in self.flush_suits]
        yield from streams[0] if len(streams) == 1 else heapq.merge(*streams, reverse=True)

    def _plain(self, pool: _Pool, lo: int, down: bool) -> Iterator[Cls]:
        values, adds, masks, distinct = _plain_supersets(self.penc, self.pkey, self.size, self.k)
        start = bisect_left(values, lo)
        have = pool.enc
        check_off = self.need_off
        for j in range(len(values) - 1, start - 1, -1) if down else range(start, len(values)):
            add = adds[j]
            if not _le(add, have):
                continue
            con = check_off and distinct[j]
            if con and not self.off_ok(pool, masks[j]):
                continue
            yield (values[j], add, -1, masks[j], con)

    def _flush(self, pool: _Pool, suit: int, lo: int, down: bool) -> Iterator[Cls]:
        values, adds, masks = _flush_supersets(self.pkey[0])
        start = bisect_left(values, lo)
        missing = ~pool.in_suit[suit]
        for j in range(len(values) - 1, start - 1, -1) if down else range(start, len(values)):
            if not masks[j] & missing:
                yield (values[j], adds[j], suit, masks[j], False)


class _Lazy:
    """A class stream read once and replayed: the backs are walked again for every middle tried."""

    def __init__(self, stream: Iterator[Cls]) -> None:
        self._stream = stream
        self._seen: list[Cls] = []

    def __iter__(self) -> Iterator[Cls]:
        i = 0
        while True:
            if i == len(self._seen):
                item = next(self._stream, None)
                if item is None:
                    return
                self._seen.append(item)
            yield self._seen[i]
            i += 1


# ------------------------------------------------------------------ fitting the middle and the back together


def _suits_left(pool: _Pool, other: Cls, taken: tuple[int, ...], r: int) -> int:
    """Suits of rank ``r`` still unseen once the other row's named flush cards and the ``taken`` cards are out."""
    suits = pool.suits[r]
    if other[2] >= 0 and other[3] >> r & 1:
        suits &= ~(1 << other[2])
    for card in taken:
        if card >> 2 == r:
            suits &= ~(1 << (card & 3))
    return suits


def _off_suit_choices(row: _Row, cls: Cls, pool: _Pool, other: Cls) -> Iterator[tuple[int, ...]]:
    """The cards (indexes) that can keep a plain one-suit row off a flush: one card off the row's suit, or for an
    empty row two cards of different suits."""
    ranks = _bits(cls[3])
    if row.mono >= 0:
        for r in ranks:
            suits = _suits_left(pool, other, (), r) & ~(1 << row.mono)
            yield from ((4 * r + a,) for a in range(4) if suits >> a & 1)
        return
    for r1, r2 in combinations(ranks, 2):
        s1, s2 = _suits_left(pool, other, (), r1), _suits_left(pool, other, (), r2)
        yield from ((4 * r1 + a, 4 * r2 + b) for a in range(4) for b in range(4) if a != b and s1 >> a & s2 >> b & 1)


def _has_off_suit(row: _Row, cls: Cls, pool: _Pool, other: Cls, taken: tuple[int, ...]) -> bool:
    """Whether such cards exist without the ``taken`` ones."""
    left = [_suits_left(pool, other, taken, r) for r in _bits(cls[3])]
    if row.mono >= 0:
        return any(s & ~(1 << row.mono) for s in left)
    # Two ranks give two different suits unless at most one rank has a card left, or all have only the same suit.
    left = [s for s in left if s]
    return len(left) >= 2 and not (left[0].bit_count() == 1 and all(s == left[0] for s in left))


def _fits(mid: _Row, cm: Cls, back: _Row, cb: Cls, pool: _Pool) -> bool:
    """The middle class and the back class can be dealt together (the front is checked on what they leave)."""
    if not _le(cm[1] + cb[1], pool.enc):
        return False
    if cm[2] >= 0 and cm[2] == cb[2] and cm[3] & cb[3]:
        return False
    if not (cm[4] or cb[4]):
        return True
    if cm[4] and cb[4]:
        # Both plain, so no named cards: the middle's off-suit cards must leave the back some of its own.
        return any(_has_off_suit(back, cb, pool, cm, x) for x in _off_suit_choices(mid, cm, pool, cb))
    row, cls, other = (mid, cm, cb) if cm[4] else (back, cb, cm)
    # Next to a plain row (blind to suits, it takes what is left of each rank) the single-row check stands.
    return other[2] < 0 or _has_off_suit(row, cls, pool, other, ())


# ------------------------------------------------------------------ the search


def can_finish(
    front: tuple[FrenchCard, ...],
    middle: tuple[FrenchCard, ...],
    back: tuple[FrenchCard, ...],
    unseen: Collection[FrenchCard],
    foul_on_equal: bool = False,
) -> bool:
    """Whether some assignment of distinct ``unseen`` cards to the empty slots gives a board that does not foul.

    ``unseen`` may be an :class:`Unseen`, prepared once for many boards."""
    rows = (
        _Row(tuple(card_index(c) for c in front), 3),
        _Row(tuple(card_index(c) for c in middle), 5),
        _Row(tuple(card_index(c) for c in back), 5),
    )
    placed = {card_index(c) for c in (*front, *middle, *back)}
    if isinstance(unseen, Unseen) and not placed & unseen._pool.cards:
        pool = unseen._pool
    else:
        cards = unseen._pool.cards if isinstance(unseen, Unseen) else frozenset(card_index(c) for c in unseen)
        pool = _Pool(cards - placed)
    if len(pool.cards) < sum(r.k for r in rows):
        return False
    return _search(*rows, pool, foul_on_equal)


def _search(front: _Row, mid: _Row, back: _Row, pool: _Pool, strict: bool) -> bool:
    lowest: dict[int, int] = {}

    def front_min(have: int) -> int:
        """The weakest front that the rank counts ``have`` can complete (above every row if none)."""
        found = lowest.get(have)
        if found is None:
            found = lowest[have] = front.weakest(have)
        return found

    f0 = front_min(pool.enc)
    mids = mid.asc(pool, f0)
    m0 = next(mids, None)
    if m0 is None:
        return False
    need = m0[0] + 1 if strict else m0[0]
    b0 = next(back.asc(pool, need), None)
    if b0 is None:
        return False
    if _fits(mid, m0, back, b0, pool) and front_min(pool.enc - m0[1] - b0[1]) <= m0[0]:
        return True
    backs = _Lazy(back.desc(pool, need))
    strongest = next(iter(backs))[0]
    for cm in _chain(m0, mids):
        need = cm[0] + 1 if strict else cm[0]
        if strongest < need:
            return False
        rest = pool.enc - cm[1]
        if front_min(rest) > cm[0]:
            continue
        for cb in backs:
            if cb[0] < need:
                break
            if _fits(mid, cm, back, cb, pool) and front_min(rest - cb[1]) <= cm[0]:
                return True
    return False


def _chain(first: Cls, rest: Iterator[Cls]) -> Iterator[Cls]:
    yield first
    yield from rest
