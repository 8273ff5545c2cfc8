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

**A partial board** (:meth:`Valuer.partial`) gets a quick score, the strong bot's default policy in its run-outs
and its first sort of a street's placements: a linear function of the board's features (per row: empty slots,
made pairs and trips and their rank, high cards, flush and straight draws, a full row's royalty and chances;
across rows: a row already stronger than the one below it, and what a made front is worth in royalties and
Fantasyland and whether the middle already covers it). A full row under a stronger one is a certain foul. The
weights (:data:`bot_tables.PARTIAL_WEIGHTS`) depend on the shape of the streets and the empty slots left; they
are fitted to what placements are worth when the next street is dealt and played well, from the last street
back (``bench/bench_bots_ofc.py``).

Cards here are ints ``4 × (rank - 2) + suit`` (:func:`games.ofc.eval.card_index`) and rows tuples of them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import combinations_with_replacement, product

from games.ofc import bot_tables as tables
from games.ofc.eval import (
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


class _RowWeights:
    """One row's weights, laid out for :meth:`Valuer._row`."""

    __slots__ = (
        "category",
        "category_full",
        "done",
        "empty",
        "empty2",
        "flush_draw",
        "high",
        "highcnt",
        "made_rank",
        "ranksum",
        "straight_draw",
    )

    def __init__(self, w: dict[str, float], prefix: str) -> None:
        def get(name: str) -> float:
            return w.get(prefix + name, 0.0)

        self.empty, self.empty2 = get("empty"), get("empty2")
        self.category = tuple(get(name) if name else 0.0 for name in _CATEGORY_FEATURE)
        self.category_full = tuple(
            get(name if cat < 4 else "done_cat") if cat else 0.0 for cat, name in enumerate(_CATEGORY_FEATURE)
        )
        self.made_rank, self.high, self.ranksum = get("made_rank"), get("high"), get("ranksum")
        self.highcnt, self.done = get("highcnt"), get("done")
        self.flush_draw = tuple(get(name) if name else 0.0 for name in _FLUSH_DRAW)
        self.straight_draw = tuple(get(name) if name else 0.0 for name in _STRAIGHT_DRAW)


class Weights:
    """A set of the quick score's weights (feature name to weight), laid out for the fast path."""

    def __init__(self, raw: dict[str, float]) -> None:
        self.raw = raw
        self.rows = tuple(_RowWeights(raw, prefix) for prefix in _PREFIX)
        self.bias = raw.get("bias", 0.0)
        self.worth_safe = raw.get("f_worth_safe", 0.0)
        self.worth_unsafe = raw.get("f_worth_unsafe", 0.0)
        self.worth_unsafe_nm = raw.get("f_worth_unsafe_nm", 0.0)
        self.o_fm, self.o_fm_n = raw.get("o_fm", 0.0), raw.get("o_fm_n", 0.0)
        self.o_mb, self.o_mb_n = raw.get("o_mb", 0.0), raw.get("o_mb_n", 0.0)
        self.o_fb = raw.get("o_fb", 0.0)


def _certain_foul(rows: Rows, strict: bool) -> bool:
    """A full row under a stronger one."""
    f, m, b = rows
    vf, vm, vb = row_value(f, 3), row_value(m, 5), row_value(b, 5)
    return (vf > vm and len(m) == 5) or (len(b) == 5 and (vm > vb or (strict and vm == vb)))


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
        self.kind = "a" if rules.variant == "a" else "b" if rules.variant == "b" else "p" if rules.pineapple() else "c"
        """The shape of the streets, which the quick score's weights depend on."""
        self._weights: dict[int, Weights] = {}

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

    def partial(self, rows: Rows, memo: dict[tuple[int, tuple[int, ...]], tuple[int, float]] | None = None) -> float:
        """Quick score of an incomplete board: its expected value as fitted for boards with as many empty slots
        (a finished board gets :meth:`final_rows`). ``memo`` keeps the rows' parts for boards sharing rows."""
        f, m, b = rows
        nf, nm, nb = len(f), len(m), len(b)
        if nf == 3 and nm == 5 and nb == 5:
            return self.final_rows(rows)
        w = self.weights(13 - nf - nm - nb)
        if memo is None:
            return self._combine(self._row(f, 0, w), self._row(m, 1, w), self._row(b, 2, w), nm, nb, w)
        parts = []
        for row, cards in enumerate(rows):
            part = memo.get((row, cards))
            if part is None:
                part = memo[(row, cards)] = self._row(cards, row, w)
            parts.append(part)
        return self._combine(parts[0], parts[1], parts[2], nm, nb, w)

    def weights(self, empty: int) -> Weights:
        """The quick score's weights for boards with ``empty`` slots left (fitted for the rule set's streets)."""
        found = self._weights.get(empty)
        if found is None:
            found = self._weights[empty] = Weights(tables.partial_weights(self.kind, empty))
        return found

    def row_features(self, cards: tuple[int, ...], row: int) -> tuple[int, list[tuple[str, float]]]:
        """A row's made value and its features (names without the row's prefix) for the quick score."""
        size = 3 if row == 0 else 5
        n = len(cards)
        e = size - n
        v = row_value(cards, size)
        out: list[tuple[str, float]] = [("empty", e), ("empty2", e * e)]
        if not n:
            return v, out
        cat = v >> 20
        if cat:
            out.append((_CATEGORY_FEATURE[cat] if e or cat < 4 else "done_cat", 1.0))
            out.append(("made_rank", ((v >> 16) & 15) / 14))
        top = 0
        total = 0
        high = 0
        suits = 15
        for c in cards:
            r = (c >> 2) + 2
            total += r
            top = max(top, r)
            high += r >= 10
            suits &= SUIT_BIT[c]
        out.append(("high", top / 14))
        out.append(("ranksum", total / 14))
        if row == 0:
            out.append(("highcnt", high))
        if e and n >= 2 and row:
            if suits:
                out.append((_FLUSH_DRAW[n], 1.0))
            if _connected(cards):
                out.append((_STRAIGHT_DRAW[n], 1.0))
        if not e:
            wins, loses = self.equity(row, v)
            done = wins - loses
            if row == 1:
                done += self.scheme.middle(v)
            elif row == 2:
                done += self.scheme.back(v)
            out.append(("done", done))
        return v, out

    def board_features(self, vf: int, vm: int, vb: int, nm: int, nb: int) -> list[tuple[str, float]]:
        """The features of how the rows stand to each other (order, and what a made front is worth)."""
        out: list[tuple[str, float]] = []
        if vf >> 20:
            worth = float(self.scheme.front(vf))
            if not self.in_fl:
                worth += self.entry_value(vf)
            if vm > vf:
                out.append(("f_worth_safe", worth))
            else:
                out += [("f_worth_unsafe", worth), ("f_worth_unsafe_nm", worth * nm / 5)]
        if vf > vm:
            out += [("o_fm", 1.0), ("o_fm_n", nm / 5)]
        if vm > vb:
            out += [("o_mb", 1.0), ("o_mb_n", nb / 5)]
        if vf > vb:
            out.append(("o_fb", 1.0))
        return out

    def features(self, rows: Rows) -> dict[str, float]:
        """Every feature of an incomplete board, by name (for fitting the weights)."""
        out: dict[str, float] = {}
        values = []
        for row, cards in enumerate(rows):
            v, feats = self.row_features(cards, row)
            values.append(v)
            out.update({_PREFIX[row] + name: x for name, x in feats})
        out.update(self.board_features(values[0], values[1], values[2], len(rows[1]), len(rows[2])))
        return out

    def score(self, rows: Rows) -> float:
        """The quick score the slow way, from :meth:`features` and the weights (what the fast one must equal)."""
        f, m, b = rows
        if len(f) == 3 and len(m) == 5 and len(b) == 5:
            return self.final_rows(rows)
        if _certain_foul(rows, self.strict):
            return self.foul
        w = self.weights(13 - len(f) - len(m) - len(b)).raw
        return w.get("bias", 0.0) + sum(w.get(name, 0.0) * x for name, x in self.features(rows).items())

    def _row(self, cards: tuple[int, ...], row: int, w: Weights) -> tuple[int, float]:
        """A row's made value and its own part of the quick score (:meth:`row_features` and the weights, unrolled:
        this is the run-outs' inner loop)."""
        ww = w.rows[row]
        size = 3 if row == 0 else 5
        n = len(cards)
        e = size - n
        v = row_value(cards, size)
        score = ww.empty * e + ww.empty2 * e * e
        if not n:
            return v, score
        cat = v >> 20
        if cat:
            score += (ww.category[cat] if e else ww.category_full[cat]) + ww.made_rank * ((v >> 16) & 15) / 14
        top = 0
        total = 0
        high = 0
        suits = 15
        for c in cards:
            r = (c >> 2) + 2
            total += r
            if r > top:
                top = r
            if r >= 10:
                high += 1
            suits &= SUIT_BIT[c]
        score += ww.high * top / 14 + ww.ranksum * total / 14
        if row == 0:
            score += ww.highcnt * high
        elif e and n >= 2:
            if suits:
                score += ww.flush_draw[n]
            if _connected(cards):
                score += ww.straight_draw[n]
        if not e:
            wins, loses = self.equity(row, v)
            done = wins - loses
            if row == 1:
                done += self.scheme.middle(v)
            elif row == 2:
                done += self.scheme.back(v)
            score += ww.done * done
        return v, score

    def _combine(
        self,
        front: tuple[int, float],
        middle: tuple[int, float],
        back: tuple[int, float],
        nm: int,
        nb: int,
        w: Weights,
    ) -> float:
        vf, sf = front
        vm, sm = middle
        vb, sb = back
        # A full row under a stronger one is a foul already.
        if (vf > vm and nm == 5) or (nb == 5 and (vm > vb or (self.strict and vm == vb))):
            return self.foul
        score = w.bias + sf + sm + sb
        if vf >> 20:
            worth = float(self.scheme.front(vf))
            if not self.in_fl:
                worth += self.entry_value(vf)
            if vm > vf:
                score += w.worth_safe * worth
            else:
                score += (w.worth_unsafe + w.worth_unsafe_nm * nm / 5) * worth
        if vf > vm:
            score += w.o_fm + w.o_fm_n * nm / 5
        if vm > vb:
            score += w.o_mb + w.o_mb_n * nb / 5
        if vf > vb:
            score += w.o_fb
        return score

    def best_partial(self, rows: Rows, cards: tuple[int, ...], discard: int) -> tuple[Rows, int]:
        """The placement of a street (``discard`` of ``cards`` thrown) with the best quick score: the board it
        makes, and the placements tried."""
        f, m, b = rows
        nf, nm, nb = len(f), len(m), len(b)
        pats, subsets = mask_patterns(len(cards), (3 - nf, 5 - nm, 5 - nb), discard)
        picked = [tuple(cards[i] for i in sub) for sub in subsets]
        fronts: dict[int, tuple[int, float]] = {}
        middles: dict[int, tuple[int, float]] = {}
        backs: dict[int, tuple[int, float]] = {}
        full = nf + nm + nb + len(cards) - discard == 13
        w = self.weights(13 - nf - nm - nb - len(cards) + discard)
        best = pats[0]
        top = -1e18
        for pat in pats:
            mf, mm, mb = pat
            if full:
                v = self.final_rows((f + picked[mf], m + picked[mm], b + picked[mb]))
            else:
                fi = fronts.get(mf)
                if fi is None:
                    fi = fronts[mf] = self._row(f + picked[mf], 0, w)
                mi = middles.get(mm)
                if mi is None:
                    mi = middles[mm] = self._row(m + picked[mm], 1, w)
                bi = backs.get(mb)
                if bi is None:
                    bi = backs[mb] = self._row(b + picked[mb], 2, w)
                v = self._combine(fi, mi, bi, nm + _BITS[mm], nb + _BITS[mb], w)
            if v > top:
                top = v
                best = pat
        mf, mm, mb = best
        return (f + picked[mf], m + picked[mm], b + picked[mb]), len(pats)

    def best_finish(self, rows: Rows, cards: tuple[int, ...], discard: int) -> tuple[float, int]:
        """The best value reachable by placing ``cards`` (``discard`` of them thrown) to complete ``rows``, and
        the placements tried."""
        f, m, b = rows
        pats, subsets = mask_patterns(len(cards), (3 - len(f), 5 - len(m), 5 - len(b)), discard)
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


_PREFIX = ("f_", "m_", "b_")
_CATEGORY_FEATURE = ("", "pair", "twopair", "trips", "done_cat", "done_cat", "big", "big", "big")
_FLUSH_DRAW = ("", "", "fd2", "fd3", "fd4")
_STRAIGHT_DRAW = ("", "", "sd2", "sd3", "sd4")
_BITS = tuple(bin(mask).count("1") for mask in range(1 << 6))


@lru_cache(maxsize=256)
def mask_patterns(
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


def _connected(cards: tuple[int, ...]) -> bool:
    """Distinct ranks that fit in one straight (the ace high or low)."""
    ranks = {(c >> 2) + 2 for c in cards}
    if len(ranks) != len(cards):
        return False
    if max(ranks) - min(ranks) <= 4:
        return True
    if 14 in ranks:
        low = {1 if r == 14 else r for r in ranks}
        return max(low) - min(low) <= 4
    return False


def _stays(f: int, m: int, b: int, rules: OFCRules) -> bool:
    return (
        (rules.stay_front_trips() and f >> 20 == TRIPS)
        or (rules.stay_middle_fh() and m >> 20 >= FULL_HOUSE)
        or (rules.stay_back_quads() and b >> 20 >= QUADS)
    )
