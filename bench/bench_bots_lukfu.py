"""Luk Fu bot levels: decision time of easy, normal and strong against the current ``choose``, on the same positions.

    python bench/bench_bots_lukfu.py [games] [--h2h DEALS]

Positions come from seeded games (half at 3 seats, half at 4) played by the current policy; at every decision
with more than one legal action, each level decides the same seat view, timed one after the other, so the
figures compare on one machine in one run. For each level it prints the median and p99 wall time and CPU time
of a decision, and each median as a multiple of ``choose``'s median.

The strong level counts its work instead of reading a clock (``games.luk_fu.search``): the last lines check that
count against the CPU time it really took (``cpu ms per budget ms``; the budget rate ``WORK_PER_MS`` is right when
the median is near 1). The strong level must keep its p99 under 200 ms.

``--h2h DEALS`` also plays a seeded head-to-head (``tests/games/luk_fu/bots_kit.head_to_head``: every deal played
by the baseline alone and with the tested level in each seat in turn) and prints chips a deal with a 95% interval.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing
sys.path.insert(0, str(ROOT / "tests" / "games" / "luk_fu"))

from games.core.actions import Action, LegalAction  # noqa: E402
from games.core.rng import Shuffler  # noqa: E402
from games.luk_fu import search  # noqa: E402
from games.luk_fu.engine import LukFuEngine  # noqa: E402
from games.luk_fu.policy import POLICIES, choose  # noqa: E402
from games.luk_fu.rules import LukFuRules  # noqa: E402

Policy = Callable[[Any, Sequence[LegalAction], random.Random], Action]


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def positions(games: int) -> list[tuple[Any, list[LegalAction]]]:
    """(seat view, legal actions) at every real choice of seeded games played by ``choose``."""
    out: list[tuple[Any, list[LegalAction]]] = []
    for index in range(games):
        seats = 3 if index % 2 == 0 else 4
        seeds = random.Random(20_000 + index)
        engine = LukFuEngine(
            LukFuRules(players=seats), [100] * seats, Shuffler(seed_source=lambda s=seeds: s.randbytes(32).hex())
        )
        rng = random.Random(index)
        while not engine.is_over:
            seat = sorted(engine.to_act())[0]
            view, legal = engine.view(seat), engine.legal_actions(seat)
            if len(legal) > 1:
                out.append((view, legal))
            engine.apply(seat, choose(view, legal, rng))
    return out


def timed(policy: Policy, spots: list[tuple[Any, list[LegalAction]]]) -> tuple[list[float], list[float]]:
    wall: list[float] = []
    cpu: list[float] = []
    for n, (view, legal) in enumerate(spots):
        rng = random.Random(n)
        w, c = time.perf_counter(), time.process_time()
        policy(view, legal, rng)
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
    return wall, cpu


def main() -> None:
    args = sys.argv[1:]
    h2h = 0
    if "--h2h" in args:
        i = args.index("--h2h")
        h2h = int(args[i + 1])
        del args[i : i + 2]
    games = int(args[0]) if args else 4
    spots = positions(games)
    print(f"{len(spots)} decisions with a choice, from {games} games (half at 3 seats, half at 4)")
    base_wall, base_cpu = timed(choose, spots)
    base = statistics.median(base_wall)
    print(f"{'level':<8} {'wall p50':>10} {'wall p99':>10} {'cpu p50':>10} {'cpu p99':>10} {'p50 / choose':>14}")
    rows = [("choose", base_wall, base_cpu)]
    for name, policy in POLICIES.items():
        wall, cpu = timed(policy, spots)
        rows.append((name, wall, cpu))
    for name, wall, cpu in rows:
        print(
            f"{name:<8} {statistics.median(wall):>8.2f}ms {p(wall, 0.99):>8.2f}ms "
            f"{statistics.median(cpu):>8.2f}ms {p(cpu, 0.99):>8.2f}ms {statistics.median(wall) / base:>13.1f}x"
        )
    strong_cpu = rows[-1][2]
    ratio = [c / search.BUDGET_MS for c in strong_cpu]
    print(
        f"strong: cpu ms per budget ms p50 {statistics.median(ratio):.2f}, p99 {p(ratio, 0.99):.2f} "
        f"(budget {search.BUDGET_MS:.0f} ms, {search.WORK_PER_MS:.0f} work units a ms)"
    )
    if p(rows[-1][1], 0.99) > 200:
        print("strong p99 is over 200 ms: lower search.BUDGET_MS or WORK_PER_MS")
    if h2h:
        from bots_kit import head_to_head

        for tested, baseline in (("strong", "normal"), ("normal", "easy"), ("strong", "easy")):
            start = time.perf_counter()
            mean, half, n = head_to_head(POLICIES[tested], POLICIES[baseline], h2h, seed=7)
            took = time.perf_counter() - start
            print(f"{tested} over {baseline}: {mean:+.2f} ± {half:.2f} chips a deal ({n} hands compared, {took:.0f} s)")


if __name__ == "__main__":
    main()
