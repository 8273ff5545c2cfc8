"""Seating a tournament of 200 members, against a plain shuffle and chunk of the same 200 ids.

Run: ``python bench/bench_tournament.py [rounds]``. Each round of the benchmark times, alternately and on the same
ids, the baseline (``random.Random(seed).shuffle`` of the ids, then cut into tables of the size asked) and the
tournament's own seating (:mod:`bot.tournaments.seating`): the first round's draw (the shuffle, the balanced table
sizes and the bots below the game's fewest players) and a later round's seeding (the standings ranked with ties
broken by lot, then dealt across the tables in a snake). The figures are the medians over the rounds, and the
ratio is each against the baseline.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.tournaments.seating import draw, snake

MEMBERS = 200
SIZES = ((4, 2), (7, 3))
"""(table size, fewest players): four-seat tables of a game playable heads-up; seven-seat Hachi-Hachi tables."""
REPEAT = 50
"""Calls per timing (each call seats all 200)."""


def baseline(ids: list[int], seed: str, size: int) -> list[list[int]]:
    order = sorted(ids)
    random.Random(seed).shuffle(order)
    return [order[i : i + size] for i in range(0, len(order), size)]


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    for _ in range(REPEAT):
        fn()
    return (time.perf_counter() - start) / REPEAT


def main(rounds: int = 40) -> None:
    rnd = random.Random(7)
    ids = [rnd.randrange(10**17, 10**18) for _ in range(MEMBERS)]
    scores = {user: rnd.randrange(-300, 300, 5) for user in ids}  # steps of 5: plenty of ties to break by lot
    for size, fewest in SIZES:
        base: list[float] = []
        drawn: list[float] = []
        seeded: list[float] = []
        for r in range(rounds):
            seed = f"bench:{r}"
            base.append(timed(lambda seed=seed, size=size: baseline(ids, seed, size)))
            drawn.append(timed(lambda seed=seed, size=size, fewest=fewest: draw(ids, seed, size, fewest)))
            seeded.append(
                timed(lambda seed=seed, r=r, size=size, fewest=fewest: snake(scores, seed, r + 2, size, fewest))
            )
        b, d, s = (statistics.median(x) * 1e6 for x in (base, drawn, seeded))
        print(f"{MEMBERS} members, tables of {size} (fewest {fewest}):")
        print(f"  baseline: shuffle and chunk           {b:8.1f} µs")
        print(f"  first round: draw                     {d:8.1f} µs  {d / b:4.2f}×")
        print(f"  later round: rank by standing, snake  {s:8.1f} µs  {s / b:4.2f}×")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
