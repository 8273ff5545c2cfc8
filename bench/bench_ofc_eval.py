"""Row evaluations per second: Fudaba's OFC evaluator against ``treys`` on the same random hands.

Run: ``python bench/bench_ofc_eval.py [hands]`` (``pip install treys`` first; without it only ours runs).
Both evaluators see the same 5-card hands in the same run; the ratio is ours / treys.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.core.cards import french_deck
from games.ofc.eval import card_index, eval3_idx, eval5_idx, eval_row


def rate(label: str, fn: Callable[[], int], n: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    per_second = n / best
    print(f"{label:<44} {per_second:>12,.0f} rows/s")
    return per_second


def main(n: int = 200_000) -> None:
    rnd = random.Random(1)
    deck = french_deck()
    hands = [rnd.sample(deck, 5) for _ in range(n)]
    idx = [tuple(card_index(c) for c in h) for h in hands]
    fronts = [i[:3] for i in idx]

    def ours_idx() -> int:
        total = 0
        for a, b, c, d, e in idx:
            total ^= eval5_idx(a, b, c, d, e)
        return total

    def ours_front() -> int:
        total = 0
        for a, b, c in fronts:
            total ^= eval3_idx(a, b, c)
        return total

    def ours_cards() -> int:
        total = 0
        for h in hands:
            total ^= eval_row(h)
        return total

    ours = rate("fudaba eval5_idx (int cards)", ours_idx, n)
    rate("fudaba eval3_idx (front, int cards)", ours_front, n)
    rate("fudaba eval_row (FrenchCard rows)", ours_cards, n)
    try:
        from treys import Card, Evaluator
    except ImportError:
        print("treys is not installed: pip install treys to compare")
        return
    evaluator = Evaluator()
    treys_hands = [[Card.new(c.notation) for c in h] for h in hands]

    def treys_eval() -> int:
        total = 0
        five = evaluator._five  # the 5-card path, without the hand/board split
        for h in treys_hands:
            total ^= five(h)
        return total

    def treys_public() -> int:
        total = 0
        for h in treys_hands:
            total ^= evaluator.evaluate(h[:2], h[2:])
        return total

    theirs = rate("treys Evaluator._five (int cards)", treys_eval, n)
    rate("treys Evaluator.evaluate", treys_public, n)
    print(f"ratio fudaba / treys (5-card, int cards): {ours / theirs:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
