"""OFC bot levels: decision time per level, head-to-head results, and the reference tables of the board values.

Run:

* ``python bench/bench_bots_ofc.py [games]``: decision time p50 / p99 / max of every level and of the current
  ``choose``, timed on the same decisions (taken from games where the seats rotate through the levels), for each
  rule set (variants a, b, c, d with 2 to 4 seats, Pineapple streets) and overall.
* ``python bench/bench_bots_ofc.py match [games]``: the levels against each other in two-seat variant c, seats
  swapped on the same deals (mirrored), as points per hand with a 95% interval.
* ``python bench/bench_bots_ofc.py calibrate [hands] > games/ofc/bot_tables.py``: the tables the bots' board
  values rest on (:mod:`games.ofc.bot_tables`), from the normal bot's own boards and solved Fantasyland hands;
  ``weights`` instead of ``calibrate`` refits only the quick score's weights, keeping the other tables.
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.core.cards import french_deck
from games.core.rng import Shuffler
from games.ofc import bot_tables
from games.ofc.aids import unseen_cards
from games.ofc.board import ROWS, Board
from games.ofc.bot_fantasyland import best_board
from games.ofc.bot_value import Rows, Valuer, mask_patterns
from games.ofc.engine import OFCEngine
from games.ofc.eval import card_index
from games.ofc.fantasyland import stays
from games.ofc.policy import POLICIES, choose
from games.ofc.rules import OFCRules
from games.ofc.scoring import BoardScore, pairwise, score_board, score_values
from games.registry import Policy

SETUPS: list[tuple[str, dict[str, Any], int]] = [
    ("a, 2 seats", {"variant": "a"}, 2),
    ("b, 2 seats", {"variant": "b"}, 2),
    ("c, 2 seats", {"variant": "c"}, 2),
    ("c, 4 seats", {"variant": "c"}, 4),
    ("d, 3 seats", {"variant": "d"}, 3),
    ("d Pineapple, 3 seats", {"variant": "d", "d_pineapple_streets": True}, 3),
]
LEVELS: dict[str, Policy] = {**POLICIES, "choose": choose}
STACK = 1_000_000


def seeded(seed: int) -> Shuffler:
    rng = random.Random(seed)
    return Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ------------------------------------------------------------------ timing


def timing(games: int) -> None:
    print(f"decision time in ms, the same decisions for every level ({games} games per rule set)")
    print(f"{'rules':<22} {'level':<7} {'decisions':>9} {'p50':>7} {'p99':>7} {'max':>7}")
    overall: dict[str, list[float]] = {name: [] for name in LEVELS}
    names = list(POLICIES)
    for label, rules_kw, seats in SETUPS:
        rules = OFCRules.model_validate({**rules_kw, "dealer_orbits": 1})
        times: dict[str, list[float]] = {name: [] for name in LEVELS}
        for game in range(games):
            engine = OFCEngine(rules, [STACK] * seats, seeded(game))
            rng = random.Random(game)
            while not engine.is_over:
                seat = min(engine.to_act())
                view, legal = engine.view(seat), engine.legal_actions(seat)
                order = list(LEVELS)
                shift = len(times["easy"]) % len(order)  # rotated, so no level always meets warm caches
                for name in order[shift:] + order[:shift]:
                    start = time.perf_counter()
                    LEVELS[name](view, legal, random.Random(game))
                    times[name].append((time.perf_counter() - start) * 1000)
                player = names[(seat + game) % len(names)]
                engine.apply(seat, LEVELS[player](view, legal, rng))
        for name, values in times.items():
            overall[name] += values
            print(
                f"{label:<22} {name:<7} {len(values):>9} {_pct(values, 0.5):>7.1f} {_pct(values, 0.99):>7.1f} "
                f"{max(values):>7.1f}"
            )
    for name, values in overall.items():
        print(
            f"{'all':<22} {name:<7} {len(values):>9} {_pct(values, 0.5):>7.1f} {_pct(values, 0.99):>7.1f} "
            f"{max(values):>7.1f}"
        )


# ------------------------------------------------------------------ head-to-head


def play(rules: OFCRules, seats: int, players: list[str], seed: int) -> tuple[list[int], int]:
    """One game with ``players[seat]``'s policy at each seat: each seat's points won, and the hands played."""
    engine = OFCEngine(rules, [STACK] * seats, seeded(seed))
    rngs = [random.Random(seed * 31 + s) for s in range(seats)]
    while not engine.is_over:
        seat = min(engine.to_act())
        policy = LEVELS[players[seat]]
        engine.apply(seat, policy(engine.view(seat), engine.legal_actions(seat), rngs[seat]))
    return [s - STACK for s in engine.stacks], engine.hand_no


def match(games: int) -> None:
    rules = OFCRules(variant="c", dealer_orbits=1)
    print(f"two-seat variant c, {games} games of mirrored deals per pairing (seats swapped on the same deals)")
    for a, b in (("strong", "normal"), ("normal", "easy"), ("strong", "easy")):
        per_hand: list[float] = []
        for game in range(games):
            first, hands_first = play(rules, 2, [a, b], game)
            second, hands_second = play(rules, 2, [b, a], game)
            per_hand.append((first[0] + second[1]) / (hands_first + hands_second))
        mean = statistics.mean(per_hand)
        half = 1.96 * statistics.stdev(per_hand) / len(per_hand) ** 0.5
        print(f"{a} against {b}: {mean:+.2f} ± {half:.2f} points a hand")


# ------------------------------------------------------------------ calibration


def _reference_boards(hands: int) -> list[BoardScore]:
    """Finished boards of the normal bot playing itself (two seats, variant c)."""
    rules = OFCRules(variant="c", dealer_orbits=50)
    scores: list[BoardScore] = []
    game = 0
    while len(scores) < 2 * hands:
        engine = OFCEngine(rules, [STACK] * 2, seeded(10_000 + game))
        rng = random.Random(game)
        game += 1
        last = None
        while not engine.is_over and len(scores) < 2 * hands:
            seat = min(engine.to_act())
            engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), rng))
            if engine.last is not None and engine.last is not last:
                last = engine.last
                scores += [score_board(Board.parse(text), rules) for text in last.boards]
    return scores


def _fantasyland_figures(
    variant: str, sizes: list[int], refs: list[BoardScore], hands: int, rnd: random.Random
) -> dict[int, tuple[float, float]]:
    """For each number of cards: the mean points of the strong bot's Fantasyland board against a reference board,
    and how often it stays."""
    rules = OFCRules(variant=variant)  # type: ignore[arg-type]
    valuer = Valuer(rules, in_fantasyland=True)
    out: dict[int, tuple[float, float]] = {}
    for n in sizes:
        points: list[int] = []
        stayed = 0
        for _ in range(hands):
            front, middle, back, _thrown = best_board(rnd.sample(french_deck(), n), valuer)
            mine = score_board(Board(front, middle, back), rules)
            stayed += stays(mine, rules)
            for ref in rnd.sample(refs, 20):
                theirs = score_values(ref.front, ref.middle, ref.back, rules)
                points.append(pairwise(mine, theirs, rules.scoop()).points)
        out[n] = (statistics.mean(points), stayed / hands)
    return out


def calibrate(hands: int, weights_only: bool = False) -> None:
    log: Callable[..., None] = functools.partial(print, file=sys.stderr)
    if weights_only:
        foul_rate, mean_royalties = bot_tables.FOUL_RATE, bot_tables.MEAN_ROYALTIES
        quantiles = list(bot_tables.ROW_QUANTILES)
        gain, stay = bot_tables.FL_GAIN, bot_tables.FL_STAY
    else:
        refs = _reference_boards(hands)
        clean = [s for s in refs if not s.fouled]
        foul_rate = 1 - len(clean) / len(refs)
        mean_royalties = statistics.mean(s.royalties for s in clean)
        quantiles = []
        for attr in ("front", "middle", "back"):
            values = sorted(getattr(s, attr) for s in clean)
            quantiles.append(tuple(values[int((i + 0.5) * len(values) / 128)] for i in range(128)))
        log(f"{len(refs)} reference boards, foul rate {foul_rate:.4f}, mean royalties {mean_royalties:.3f}")
        bot_tables.FOUL_RATE = foul_rate
        bot_tables.MEAN_ROYALTIES = mean_royalties
        bot_tables.ROW_QUANTILES = tuple(quantiles)
        rnd = random.Random(5)
        gain = {}
        stay = {}
        for variant in "abcd":
            for _ in range(2):  # the stay value depends on the figures: settle it first on 13 cards
                figures = _fantasyland_figures(variant, [13], refs, hands // 10, rnd)
                bot_tables.FL_GAIN[variant][13], bot_tables.FL_STAY[variant][13] = figures[13]
            figures = _fantasyland_figures(variant, [13, 14, 15, 16, 17], refs, hands // 5, rnd)
            gain[variant] = {n: round(g, 2) for n, (g, _) in figures.items()}
            stay[variant] = {n: round(p, 3) for n, (_, p) in figures.items()}
            bot_tables.FL_GAIN[variant], bot_tables.FL_STAY[variant] = dict(gain[variant]), dict(stay[variant])
            log(variant, gain[variant], stay[variant])
    weights = fit_weights(max(50, hands // 8), log)
    print(_module_text(hands, foul_rate, mean_royalties, quantiles, gain, stay, weights))


# the quick score's weights: fitted value iteration, street by street from the last one back

KINDS: dict[str, OFCRules] = {
    "a": OFCRules(variant="a"),
    "b": OFCRules(variant="b"),
    "c": OFCRules(variant="c"),
    "p": OFCRules(variant="d", d_pineapple_streets=True),
}


def _states(rules: OFCRules, empty: int, count: int, seed: int) -> list[tuple[Rows, tuple[int, ...], int, list[int]]]:
    """Decisions of the normal bot's games after which ``empty`` slots are left: (rows, cards dealt, discards due,
    the cards the seat has not seen)."""
    out: list[tuple[Rows, tuple[int, ...], int, list[int]]] = []
    game = seed
    while len(out) < count:
        engine = OFCEngine(rules.model_copy(update={"dealer_orbits": 1}), [STACK] * 2, seeded(game))
        rng = random.Random(game)
        game += 1
        while not engine.is_over and len(out) < count:
            seat = min(engine.to_act())
            view, legal = engine.view(seat), engine.legal_actions(seat)
            board = view.full_board()
            if not view.fantasyland_hand and 13 - len(board.cards()) - len(view.to_place) + view.discard == empty:
                rows = tuple(tuple(card_index(c) for c in board.row(r)) for r in ROWS)
                pool = [card_index(c) for c in unseen_cards(view)]
                out.append((rows, tuple(card_index(c) for c in view.to_place), view.discard, pool))  # type: ignore[arg-type]
            engine.apply(seat, choose(view, legal, rng))
    return out


def _targets(
    valuer: Valuer, state: tuple[Rows, tuple[int, ...], int, list[int]], rnd: random.Random, samples: int, most: int
) -> list[tuple[dict[str, float], float]]:
    """For (at most ``most``) placements of the state's street: the board's features, and its value when the next
    street is dealt (``samples`` draws) and placed as well as the weights fitted so far (exactly on the last)."""
    rows, cards, discard, pool = state
    f, m, b = rows
    empty = 13 - len(f) - len(m) - len(b) - len(cards) + discard
    patterns, subsets = mask_patterns(len(cards), (3 - len(f), 5 - len(m), 5 - len(b)), discard)
    chosen = list(patterns) if len(patterns) <= most else rnd.sample(list(patterns), most)
    streets = valuer.rules.streets()
    dealt, thrown = streets[-1]
    kept = 0
    for n, d in streets:
        if kept >= 13 - empty:
            dealt, thrown = n, d
            break
        kept += n - d
    draws = [tuple(rnd.sample(pool, dealt)) for _ in range(samples)]
    out = []
    for mf, mm, mb in chosen:
        after = (
            f + tuple(cards[i] for i in subsets[mf]),
            m + tuple(cards[i] for i in subsets[mm]),
            b + tuple(cards[i] for i in subsets[mb]),
        )
        total = 0.0
        for draw in draws:
            if empty == dealt - thrown:
                total += valuer.best_finish(after, draw, thrown)[0]
            else:
                total += valuer.partial(valuer.best_partial(after, draw, thrown)[0])
        out.append((valuer.features(after), total / samples))
    return out


def _fit(groups: list[list[tuple[dict[str, float], float]]], ridge: float = 1.0) -> dict[str, float]:
    """Least squares on the differences within each decision (what ranks placements), then the constant that makes
    the values right on average."""
    names = sorted({k for g in groups for feats, _ in g for k in feats})
    size = len(names)
    xtx = [[0.0] * size for _ in range(size)]
    xty = [0.0] * size
    rows_seen: list[tuple[list[float], float]] = []
    for g in groups:
        vectors = [[feats.get(k, 0.0) for k in names] for feats, _ in g]
        means = [sum(v[i] for v in vectors) / len(g) for i in range(size)]
        target_mean = sum(t for _, t in g) / len(g)
        for v, (_, t) in zip(vectors, g, strict=True):
            rows_seen.append((v, t))
            x = [v[i] - means[i] for i in range(size)]
            y = t - target_mean
            for i in range(size):
                if x[i]:
                    xty[i] += x[i] * y
                    row = xtx[i]
                    for j in range(size):
                        row[j] += x[i] * x[j]
    for i in range(size):
        xtx[i][i] += ridge
    w = _solve(xtx, xty)
    bias = statistics.mean(t - sum(wi * xi for wi, xi in zip(w, v, strict=True)) for v, t in rows_seen)
    out = {name: round(wi, 3) for name, wi in zip(names, w, strict=True) if abs(wi) >= 0.0005}
    out["bias"] = round(bias, 3)
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row[:], b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _regret(valuer: Valuer, groups: list[list[tuple[dict[str, float], float]]], w: dict[str, float]) -> float:
    """Mean value lost by picking each decision's placement by the weights instead of the best."""
    lost = []
    for g in groups:
        scores = [sum(w.get(k, 0.0) * x for k, x in feats.items()) for feats, _ in g]
        best = max(t for _, t in g)
        lost.append(best - g[scores.index(max(scores))][1])
    return statistics.mean(lost)


def fit_weights(states: int, log: Callable[..., None]) -> dict[str, dict[str, float]]:
    """Every street shape's weights, fitted from the last street back: a street's placements are valued by dealing
    the next street and placing it by the weights already fitted (exactly, when it is the last)."""
    rnd = random.Random(17)
    for kind, rules in KINDS.items():
        kept = [n - d for n, d in rules.streets()]
        empties = [13 - sum(kept[: i + 1]) for i in range(len(kept) - 1)]
        for empty in sorted(empties):
            valuer = Valuer(rules)
            data = _states(rules, empty, states, 1000 * empty)
            last = empty == kept[-1]
            samples = 60 if last else 24
            groups = [_targets(valuer, st, rnd, samples, 24) for st in data]
            held = len(groups) // 5
            w = _fit(groups[held:])
            log(f"{kind}{empty}: regret {_regret(valuer, groups[:held], w):.2f} on held-out decisions")
            bot_tables.PARTIAL_WEIGHTS[f"{kind}{empty}"] = _fit(groups)
    return dict(bot_tables.PARTIAL_WEIGHTS)


def _module_text(
    hands: int,
    foul_rate: float,
    mean_royalties: float,
    quantiles: list[tuple[int, ...]],
    gain: dict[str, dict[int, float]],
    stay: dict[str, dict[int, float]],
    weights: dict[str, dict[str, float]],
) -> str:
    rows = ",\n".join(f"    {q!r}" for q in quantiles)
    return f'''"""Reference figures the bots' board values rest on (:mod:`games.ofc.bot_value`). Generated: do not edit by hand.

Made by ``python bench/bench_bots_ofc.py calibrate {hands}`` from {2 * hands} boards the normal bot finished playing
itself (two seats, variant c), and from Fantasyland hands dealt at random and set by the strong bot's solver,
scored against those boards. Numbers are points against one opponent. The quick score's weights are fitted to
the values of placements in the normal bot's games, street by street from the last one back.
"""

from __future__ import annotations

FOUL_RATE = {foul_rate:.4f}
"""How often the reference player fouls."""
MEAN_ROYALTIES = {mean_royalties:.3f}
"""The reference player's mean royalties when it does not foul."""
ROW_QUANTILES: tuple[tuple[int, ...], ...] = (
{rows},
)
"""128 quantiles of the reference player's front, middle and back strengths (clean boards), ascending."""
FL_GAIN: dict[str, dict[int, float]] = {gain!r}
"""By variant and cards dealt: mean points of a Fantasyland hand against a reference board."""
FL_STAY: dict[str, dict[int, float]] = {stay!r}
"""By variant and cards dealt: how often that Fantasyland hand stays in Fantasyland."""


PARTIAL_WEIGHTS: dict[str, dict[str, float]] = {weights!r}
"""The quick score's weights, by street shape (a, b, c/d, p: Pineapple) and empty slots left after the street."""


def partial_weights(kind: str, empty: int) -> dict[str, float]:
    """The quick score's weights for the street shape ``kind`` with ``empty`` slots left (the nearest fitted)."""
    fitted = [(abs(int(key[1:]) - empty), key) for key in PARTIAL_WEIGHTS if key[0] == kind] or [
        (abs(int(key[1:]) - empty), key) for key in PARTIAL_WEIGHTS
    ]
    return PARTIAL_WEIGHTS[min(fitted)[1]] if fitted else {{}}


def fl_tables(variant: str) -> tuple[dict[int, float], dict[int, float]]:
    """(gain, stay) by cards dealt, for a variant."""
    return FL_GAIN[variant], FL_STAY[variant]
'''


def main(argv: list[str]) -> None:
    if argv and argv[0] == "match":
        match(int(argv[1]) if len(argv) > 1 else 200)
    elif argv and argv[0] in ("calibrate", "weights"):
        calibrate(int(argv[1]) if len(argv) > 1 else 1500, weights_only=argv[0] == "weights")
    else:
        timing(int(argv[0]) if argv else 4)


if __name__ == "__main__":
    main(sys.argv[1:])
