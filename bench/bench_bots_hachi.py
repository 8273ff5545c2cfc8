"""Hachi-Hachi Trick bot levels: decision time per level (p50, p99, max) at 3, 5 and 7 seats, each against the
current ``games.hachi_hachi.policy.choose`` timed on the very same positions in the same run.

    python bench/bench_bots_hachi.py [games] [seats ...]

Each game (default rules but ``rounds = 4``, 50 chips each) seats the three levels in turn (seat ``s`` plays level
``(s + game) % 3``), so every level meets every position: declaring early and late, splitting, leading and
following. Every decision a level makes is timed, then ``choose`` is timed on the same view and legal actions (its
action is not played). The strong level must keep p99 <= 200 ms at 7 seats; the default ``budget_ms`` is
calibrated for that on the project's 2-core machine. The ratio to ``choose`` holds better than the absolute times
on a loaded or a different machine.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from games.core.rng import Shuffler
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.policy import POLICIES, choose
from games.hachi_hachi.rules import HachiHachiRules

LEVELS = ("easy", "normal", "strong")
TARGET_P99_MS = 200.0


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(games: int, seats: int) -> dict[str, tuple[list[float], list[float]]]:
    """Per level: its decision times, and ``choose``'s on the same positions (seconds)."""
    times: dict[str, tuple[list[float], list[float]]] = {level: ([], []) for level in LEVELS}
    for game in range(games):
        seeds = random.Random(1000 * seats + game)
        engine = HachiHachiEngine(
            HachiHachiRules(rounds=4), [50] * seats, Shuffler(seed_source=lambda s=seeds: s.randbytes(32).hex())
        )
        rngs = [random.Random(game * 10 + s) for s in range(seats)]
        while not engine.is_over:
            seat = min(engine.to_act())
            level = LEVELS[(seat + game) % 3]
            view = engine.view(seat)
            legal = engine.legal_actions(seat)
            t0 = time.perf_counter()
            action = POLICIES[level](view, legal, rngs[seat])
            t1 = time.perf_counter()
            choose(view, legal, random.Random(0))
            t2 = time.perf_counter()
            own, base = times[level]
            own.append(t1 - t0)
            base.append(t2 - t1)
            engine.apply(seat, action)
    return times


def main(games: int, seat_counts: list[int]) -> None:
    ms = 1000.0
    print(f"Hachi-Hachi Trick bot levels: {games} games of 4 rounds per table size, levels rotated over the seats")
    print(
        f"{'seats':>5} {'level':>7} {'decisions':>9}  {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  choose: p50/p99 ms  ×p50"
    )
    for seats in seat_counts:
        for level, (own, base) in play(games, seats).items():
            ratio = p(own, 0.5) / max(p(base, 0.5), 1e-9)
            print(
                f"{seats:>5} {level:>7} {len(own):>9}  {p(own, 0.5) * ms:8.2f} {p(own, 0.99) * ms:8.2f} "
                f"{max(own) * ms:8.2f}  {p(base, 0.5) * ms:7.3f} / {p(base, 0.99) * ms:7.3f}  {ratio:8.1f}"
            )
            if level == "strong" and seats == 7:
                verdict = "ok" if p(own, 0.99) * ms <= TARGET_P99_MS else "OVER"
                print(
                    f"      strong p99 at 7 seats {p(own, 0.99) * ms:.0f} ms against {TARGET_P99_MS:.0f} ms: {verdict}"
                )


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    sizes = [int(a) for a in sys.argv[2:]] or [3, 5, 7]
    main(count, sizes)
