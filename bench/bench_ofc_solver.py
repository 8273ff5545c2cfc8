"""Fantasyland solver time for 13 to 17 dealt cards.

Run: ``python bench/bench_ofc_solver.py [hands per size]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.core.cards import french_deck
from games.ofc.fantasyland import solve
from games.ofc.rules import OFCRules


def main(per_size: int = 30) -> None:
    rules = OFCRules(variant="d")
    rnd = random.Random(7)
    print(f"{'cards':>5} {'mean ms':>9} {'median ms':>10} {'max ms':>8}  ({per_size} random hands each)")
    for n in (13, 14, 15, 16, 17):
        times = []
        for _ in range(per_size):
            cards = rnd.sample(french_deck(), n)
            start = time.perf_counter()
            solve(cards, rules)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{n:>5} {statistics.mean(times):>9.1f} {statistics.median(times):>10.1f} {max(times):>8.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
