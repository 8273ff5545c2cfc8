"""What a board is worth to the bots, in points against one opponent, and the fast pieces their search is built on.

**A finished board** (:meth:`Valuer.final`) is valued as its expected result against one typical opponent, the
reference player of :mod:`games.ofc.bot_tables` (the normal bot's boards):

* fouled: ``-(1 - q) × (3 + scoop + R̄)`` (``q`` the reference's foul rate, ``R̄`` its mean royalties when clean);
* clean: ``R + q × (3 + scoop) + (1 - q) × (rows + scoop term - R̄)``, where each row counts
  ``P(win) - P(lose)`` against the reference's rows of that kind, and the scoop term is
  ``scoop × (P(win all) - P(lose all))`` with the rows taken as independent;
* plus, for a board that enters Fantasyland, the expected worth of the Fantasyland hands it earns (the hand
  itself and every hand it stays for), by the number of cards it earns (:data:`bot_tables.FL_GAIN`).

Every opponent counts the same in this model, so the value for one is enough to rank boards.

**A partial board** (:meth:`Valuer.partial`) gets a quick heuristic score, the default policy of the strong bot's
run-outs: order (a row stronger than the one below it is a foul in the making, the more so the fuller the lower
row), made hands, flush and straight draws, and the front's royalties and Fantasyland chances.

Cards here are ints ``4 × (rank - 2) + suit`` (:func:`games.ofc.eval.card_index`) and rows tuples of them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product

from games.ofc import bot_tables as tables
from games.ofc.eval import (
    FLUSH,
    FULL_HOUSE,
    PAIR,
    QUADS,
    RANK_KEY,
    SUIT_BIT,
    TRIPS,
    RoyaltyScheme,
    eval3_idx,
    eval5_idx,
)
from games.ofc.rules import OFCRules

Rows = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
SIZES = (3, 5, 5)
_ENTRY_RANK = {"QQ": 12, "KK": 13, "AA": 14}
_PAIR_KEY = {12: "QQ", 13: "KK", 14: "AA"}


def _pack(category: int, ranks: list[int]) -> int:
    v = ranks + [0] * (5 - len(ranks))
    return category << 20 | v[0] << 16 | v[1] << 12 | v[2] << 8 | v[3] << 4 | v[4]


def _partial_table() -> dict[int, int]:
    """Made part of every incomplete row (0 to 4 cards) by rank key: pairs, two pair, trips, quads only, ranks
    ordered as in :func:`games.ofc.eval.eval_partial` (count, then rank), missing kickers as 0."""
    out: dict[int, int] = {0: 0}
    for n in range(1, 5):
        for combo in combinations_with_replacement(range(2, 15), n):
            counts = {r: combo.count(r) for r in set(combo)}
            if max(counts.values()) > 4:
                continue
            order = sorted(counts, key=lambda r: (-counts[r], -r))
            shape = [counts[r] for r in order]
            if shape[0] == 4:
                cat = QUADS
            elif shape[0] == 3:
                cat = FULL_HOUSE if len(shape) > 1 and shape[1] >= 2 else TRIPS
            elif shape[0] == 2:
                cat = 2 if len(shape) > 1 and shape[1] == 2 else PAIR
            else:
                cat = 0
            out[sum(5 ** (r - 2) for r in combo)] = _pack(cat, order)
    return out


PARTIAL = _partial_table()


def row_value(cards: tuple[int, ...], size: int) -> int:
    """A complete row's strength, or an incomplete row's made part (as :data:`PARTIAL`)."""
    n = len(cards)
    if n == size:
        return eval5_idx(*cards) if size == 5 else eval3_idx(*cards)
    key = 0
    for c in cards:
        key += RANK_KEY[c]
    return PARTIAL[key]


@lru_cache(maxsize=256)
def patterns(n: int, free: tuple[int, int, int]) -> tuple[tuple[int, ...], ...]:
    """Every way to send ``n`` cards to rows with ``free`` room: a row (0 front, 1 middle, 2 back) per card."""
    return tuple(
        rows
        for rows in product(range(3), repeat=n)
        if rows.count(0) <= free[0] and rows.count(1) <= free[1] and rows.count(2) <= free[2]
    )


def placed(rows: Rows, cards: tuple[int, ...], pattern: tuple[int, ...]) -> Rows:
    """``rows`` with ``cards`` added, card ``i`` to row ``pattern[i]``."""
    f, m, b = rows
    for c, r in zip(cards, pattern, strict=True):
        if r == 0:
            f = (*f, c)
        elif r == 1:
            m = (*m, c)
        else:
            b = (*b, c)
    return f, m, b


def keeps(cards: tuple[int, ...], discard: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every (kept cards, discarded cards) split of a street."""
    if not discard:
        return [(cards, ())]
    out = []
    for thrown in combinations(range(len(cards)), discard):
        out.append(
            (tuple(c for i, c in enumerate(cards) if i not in thrown), tuple(cards[i] for i in thrown)),
        )
    return out


class Valuer:
    """Board values for one rule set (see the module docstring)."""

    def __init__(self, rules: OFCRules, in_fantasyland: bool = False) -> None:
        self.rules = rules
        self.scheme = RoyaltyScheme.of(rules)
        self.strict = rules.foul_on_equal
        s = rules.scoop()
        q = tables.FOUL_RATE
        self.scoop = s
        self.keep = 1.0 - q
        self.foul = -(1.0 - q) * (3 + s + tables.MEAN_ROYALTIES)
        self.base = q * (3 + s) - (1.0 - q) * tables.MEAN_ROYALTIES
        self.in_fl = in_fantasyland
        gain, stay = tables.fl_tables(rules.variant)
        cont_n = rules.fl_cards_continue
        self.stay_value = gain[cont_n] / (1.0 - stay[cont_n])
        """Worth of a Fantasyland board that stays: the next Fantasyland hand and the ones it stays for."""
        self.entry_min = _ENTRY_RANK[rules.fl_entry_min]
        self._entry: dict[str, float] = {}
        for key in ("QQ", "KK", "AA", "trips"):
            n = rules.fl_cards[key] if rules.variant == "d" else 13
            self._entry[key] = gain[n] + stay[n] * self.stay_value
        self._eq: tuple[dict[int, tuple[float, float]], ...] = ({}, {}, {})

    def entry_value(self, front: int) -> float:
        """What entering Fantasyland with this (complete, clean) front is worth; 0 when it does not enter."""
        cat = front >> 20
        if cat == TRIPS:
            return self._entry["trips"]
        if cat == PAIR:
            top = (front >> 16) & 15
            if top >= self.entry_min:
                return self._entry[_PAIR_KEY[top]]
        return 0.0

    def equity(self, row: int, value: int) -> tuple[float, float]:
        """(P(win), P(lose)) of a complete row of ``value`` against the reference player's row ``row``."""
        cache = self._eq[row]
        found = cache.get(value)
        if found is None:
            ref = tables.ROW_QUANTILES[row]
            n = len(ref)
            found = cache[value] = (bisect_left(ref, value) / n, (n - bisect_right(ref, value)) / n)
        return found

    def royalties(self, f: int, m: int, b: int) -> int:
        return self.scheme.front(f) + self.scheme.middle(m) + self.scheme.back(b)

    def fouls(self, f: int, m: int, b: int) -> bool:
        return f > m or m > b or (self.strict and m == b)

    def final(self, f: int, m: int, b: int) -> float:
        """Expected points against one opponent of a finished board with row strengths ``f``, ``m``, ``b``."""
        if f > m or m > b or (self.strict and m == b):
            return self.foul
        wf, lf = self.equity(0, f)
        wm, lm = self.equity(1, m)
        wb, lb = self.equity(2, b)
        rows = wf - lf + wm - lm + wb - lb + self.scoop * (wf * wm * wb - lf * lm * lb)
        value = self.royalties(f, m, b) + self.base + self.keep * rows
        if self.in_fl:
            if _stays(f, m, b, self.rules):
                value += self.stay_value
        else:
            value += self.entry_value(f)
        return value

    def final_rows(self, rows: Rows) -> float:
        f, m, b = rows
        return self.final(eval3_idx(*f), eval5_idx(*m), eval5_idx(*b))

    # ------------------------------------------------------------------ partial boards

    def partial(self, rows: Rows) -> float:
        """Quick score of an incomplete board (higher is better); a finished board gets :meth:`final_rows`."""
        f, m, b = rows
        if len(f) == 3 and len(m) == 5 and len(b) == 5:
            return self.final_rows(rows)
        return self._combine(self._front(f), self._five(m, 1), self._five(b, 2), len(f), len(m), len(b))

    def _front(self, cards: tuple[int, ...]) -> tuple[int, float, float]:
        """(made value, score on its own, royalty and Fantasyland worth if it holds) of a front."""
        v = row_value(cards, 3)
        if v >> 20:
            worth = float(self.scheme.front(v))
            if not self.in_fl:
                worth += self.entry_value(v)
            return v, 0.0, worth
        # High singletons up top block the middle.
        return v, -sum(_HIGH[c] for c in cards) / 6, 0.0

    def _five(self, cards: tuple[int, ...], row: int) -> tuple[int, float, float]:
        """(value, score on its own, 0) of a middle (``row`` 1) or back (2) row."""
        v = row_value(cards, 5)
        cat = v >> 20
        rank_sum = 0
        for c in cards:
            rank_sum += (c >> 2) + 2
        if row == 2:
            score = 1.2 * cat + rank_sum / 40
            score += 0.8 * self.scheme.back(v) if len(cards) == 5 else _draws(cards, 1.0)
        else:
            score = 0.8 * cat + rank_sum / 70
            score += 0.8 * self.scheme.middle(v) if len(cards) == 5 else _draws(cards, 0.6)
        return v, score, 0.0

    def _combine(
        self,
        front: tuple[int, float, float],
        middle: tuple[int, float, float],
        back: tuple[int, float, float],
        nf: int,
        nm: int,
        nb: int,
    ) -> float:
        vf, sf, worth = front
        vm, sm, _ = middle
        vb, sb, _ = back
        score = sf + sm + sb
        # Order. A full row below a stronger one is a foul already.
        if vf > vm:
            if nm == 5:
                return self.foul - 5.0
            score -= 3.0 + 1.6 * nm
        if vm > vb or (self.strict and nb == 5 and vm == vb):
            if nb == 5:
                return self.foul - 5.0
            score -= 3.0 + 1.6 * nb
        if vf > vb:
            score -= 4.0
        if worth:
            # A front pair or trips: its royalty, and Fantasyland if it is good enough, discounted by how safe
            # the rows below are (a middle already holding a stronger hand makes it nearly sure).
            score += (0.9 if vm > vf else 0.5 - 0.08 * nm) * worth
        if nf >= nm:
            score -= 0.3 * (nf - nm + 1)
        return score

    def best_partial(self, rows: Rows, cards: tuple[int, ...], discard: int) -> tuple[Rows, int]:
        """The placement of a street (``discard`` of ``cards`` thrown) with the best quick score: the board it
        makes, and the placements tried."""
        f, m, b = rows
        nf, nm, nb = len(f), len(m), len(b)
        pats, subsets = _mask_patterns(len(cards), (3 - nf, 5 - nm, 5 - nb), discard)
        picked = [tuple(cards[i] for i in sub) for sub in subsets]
        fronts: dict[int, tuple[int, float, float]] = {}
        middles: dict[int, tuple[int, float, float]] = {}
        backs: dict[int, tuple[int, float, float]] = {}
        full = nf + nm + nb + len(cards) - discard == 13
        best = pats[0]
        top = -1e18
        for pat in pats:
            mf, mm, mb = pat
            if full:
                v = self.final_rows((f + picked[mf], m + picked[mm], b + picked[mb]))
            else:
                fi = fronts.get(mf)
                if fi is None:
                    fi = fronts[mf] = self._front(f + picked[mf])
                mi = middles.get(mm)
                if mi is None:
                    mi = middles[mm] = self._five(m + picked[mm], 1)
                bi = backs.get(mb)
                if bi is None:
                    bi = backs[mb] = self._five(b + picked[mb], 2)
                v = self._combine(fi, mi, bi, nf + _BITS[mf], nm + _BITS[mm], nb + _BITS[mb])
            if v > top:
                top = v
                best = pat
        mf, mm, mb = best
        return (f + picked[mf], m + picked[mm], b + picked[mb]), len(pats)

    def best_finish(self, rows: Rows, cards: tuple[int, ...], discard: int) -> tuple[float, int]:
        """The best value reachable by placing ``cards`` (``discard`` of them thrown) to complete ``rows``, and
        the placements tried."""
        f, m, b = rows
        pats, subsets = _mask_patterns(len(cards), (3 - len(f), 5 - len(m), 5 - len(b)), discard)
        picked = [tuple(cards[i] for i in sub) for sub in subsets]
        fronts: dict[int, int] = {}
        middles: dict[int, int] = {}
        backs: dict[int, int] = {}
        best = self.foul - 1.0
        for mf, mm, mb in pats:
            fv = fronts.get(mf)
            if fv is None:
                fv = fronts[mf] = eval3_idx(*(f + picked[mf]))
            mv = middles.get(mm)
            if mv is None:
                mv = middles[mm] = eval5_idx(*(m + picked[mm]))
            bv = backs.get(mb)
            if bv is None:
                bv = backs[mb] = eval5_idx(*(b + picked[mb]))
            v = self.final(fv, mv, bv)
            if v > best:
                best = v
        return best, len(pats)


_HIGH = tuple(max(0, (c >> 2) + 2 - 9) for c in range(52))
"""How far above a nine each card is (a high singleton up top)."""
_BITS = tuple(bin(mask).count("1") for mask in range(1 << 6))


@lru_cache(maxsize=256)
def _mask_patterns(
    n: int, free: tuple[int, int, int], discard: int
) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]]:
    """Every way to send ``n`` cards to the rows (``free`` room each) with ``discard`` of them thrown, as the
    subsets (bit masks over the cards) going to the front, middle and back; and each mask's card positions."""
    out = []
    for rows in product(range(4), repeat=n):
        if rows.count(3) != discard:
            continue
        if rows.count(0) > free[0] or rows.count(1) > free[1] or rows.count(2) > free[2]:
            continue
        masks = [0, 0, 0]
        for i, r in enumerate(rows):
            if r < 3:
                masks[r] |= 1 << i
        out.append((masks[0], masks[1], masks[2]))
    subsets = tuple(tuple(i for i in range(n) if mask >> i & 1) for mask in range(1 << n))
    return tuple(out), subsets


def _draws(row: tuple[int, ...], weight: float) -> float:
    """Credit for the flush and straight draws still open in an incomplete 5-card row."""
    n = len(row)
    if n < 2:
        return 0.0
    bonus = 0.0
    suits = 15
    for c in row:
        suits &= SUIT_BIT[c]
    if suits:
        bonus += 0.7 * n
    ranks = {(c >> 2) + 2 for c in row}
    if len(ranks) == n:
        hi, lo = max(ranks), min(ranks)
        if hi - lo <= 4:
            bonus += 0.4 * n
        elif 14 in ranks:
            low = {1 if r == 14 else r for r in ranks}
            if max(low) - min(low) <= 4:
                bonus += 0.4 * n
    return weight * bonus


def _stays(f: int, m: int, b: int, rules: OFCRules) -> bool:
    return (
        (rules.stay_front_trips() and f >> 20 == TRIPS)
        or (rules.stay_middle_fh() and m >> 20 >= FULL_HOUSE)
        or (rules.stay_back_quads() and b >> 20 >= QUADS)
    )


__all__ = ["FLUSH", "PARTIAL", "Rows", "Valuer", "keeps", "patterns", "placed", "row_value"]
