"""Cost of the exact foul check (``games.ofc.aids.foul_status``) on mid-hand boards, in 5-card row evaluations.

Run: ``python bench/bench_ofc_foul.py [games]``.
The boards are those the bot judges: every placement it may choose, on every street, in games played by the bot
(variants a-d), each with the cards its seat has not seen. Both costs are measured in the same run and printed as
a ratio to ``eval_row`` of one 5-card row, so the numbers travel between machines. Tables the check builds on
first use are built before timing; the cold cost is printed on its own line.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.core.cards import FrenchCard, french_deck
from games.core.rng import Shuffler
from games.ofc.actions import Place
from games.ofc.aids import foul_status, unseen_cards
from games.ofc.board import ROWS, Board
from games.ofc.engine import OFCEngine
from games.ofc.eval import eval_row
from games.ofc.policy import choose
from games.ofc.reach import Unseen
from games.ofc.rules import OFCRules

TABLES = [("a", 2, {}), ("b", 3, {}), ("c", 4, {}), ("d", 3, {"d_pineapple_streets": True})]


def seeded(seed: int) -> Shuffler:
    rng = random.Random(seed)
    return Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}")


def situations(games: int) -> list[tuple[Board, OFCRules, list[FrenchCard]]]:
    """(board after a candidate placement, rules, cards the seat has not seen) for every candidate of every decision."""
    out: list[tuple[Board, OFCRules, list[FrenchCard]]] = []
    for variant, seats, extra in TABLES:
        rules = OFCRules.model_validate({"variant": variant, "dealer_orbits": 1, **extra})
        for game in range(games):
            rng = random.Random(game)
            e = OFCEngine(rules, [1000] * seats, seeded(game))
            while not e.is_over:
                seat = min(e.to_act())
                view, legal = e.view(seat), e.legal_actions(seat)
                if not view.fantasyland_hand:
                    pool = [c for c in unseen_cards(view) if c not in view.to_place]
                    for p in legal:
                        assert isinstance(p, Place)
                        after = view.full_board().with_cards({r: p.to(r) for r in ROWS})
                        if not after.complete:
                            out.append((after, rules, pool))
                e.apply(seat, choose(view, legal, rng))
    return out


def per_call(fn: Callable[[], object], n: int) -> float:
    """Best of three runs of ``fn`` repeated ``n`` times, in seconds per call."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, time.perf_counter() - start)
    return best / n


def main(games: int = 2) -> None:
    rnd = random.Random(1)
    rows = [tuple(rnd.sample(french_deck(), 5)) for _ in range(2000)]

    def eval_rows() -> int:
        total = 0
        for row in rows:
            total ^= eval_row(row)
        return total

    base = per_call(eval_rows, 20) / len(rows)
    print(f"baseline eval_row (5 cards): {base * 1e6:.2f} us per row")

    start = time.perf_counter()
    cases = situations(games)
    print(f"{len(cases)} boards from {games} bot game(s) per table, collected in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    for board, rules, pool in cases:  # first use builds the tables
        foul_status(board, rules, pool)
    print(f"cold pass (tables built on first use): {(time.perf_counter() - start) / len(cases) / base:.0f} x eval_row")

    prepared = {id(pool): Unseen(pool) for _, _, pool in cases}
    buckets: dict[str, list[float]] = {}
    for board, rules, pool in cases:
        missing = 13 - len(board.cards())
        unseen = prepared[id(pool)]
        t = per_call(lambda b=board, r=rules, u=unseen: foul_status(b, r, u), 3)  # type: ignore[misc]
        outcome = foul_status(board, rules, unseen)
        for label in ("1-3" if missing <= 3 else "4-6" if missing <= 6 else "7-12", outcome, "all"):
            buckets.setdefault(label, []).append(t)
    print(
        f"{'boards':>12} {'count':>7} {'mean':>8} {'median':>8} {'p99':>8} {'max':>8}   (x eval_row, warm, prepared pool)"
    )
    for label in ("1-3", "4-6", "7-12", "ok", "unavoidable", "all"):
        times = sorted(buckets.get(label, []))
        if not times:
            continue
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{(label + ' missing' if label[0].isdigit() else label):>12} {len(times):>7} {statistics.mean(times) / base:>8.0f} {statistics.median(times) / base:>8.0f}"
            f" {p99 / base:>8.0f} {times[-1] / base:>8.0f}"
        )
    sample = cases[:: max(1, len(cases) // 500)]
    plain = [per_call(lambda b=b, r=r, p=p: foul_status(b, r, p), 3) for b, r, p in sample]  # type: ignore[misc]
    print(
        f"with a plain list of unseen cards (prepared on each call): mean {statistics.mean(plain) / base:.0f} x eval_row"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
