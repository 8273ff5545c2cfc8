"""Luk Fu engine speed: random full games per second, and the bot policy's decision time.

    python bench/bench_lukfu.py [games]

Each figure is printed against the engine's own ``legal_actions`` cost measured in the same run, on the same
positions, so the ratios hold where absolute times do not (a loaded CI box, a laptop):

* **random games** — whole games (default rules: 12 deals; half at 3 seats, half at 4) played by picking a
  random legal action, everything included (shuffles, dealing, settling); the ratio says how many
  ``legal_actions`` calls one game costs;
* **policy** — ``games.luk_fu.policy.choose`` given the seat view and the legal actions, in games the policy
  plays itself: median and p99 per decision, each as a multiple of the median ``legal_actions`` call.
  The policy must stay well under 5 ms a decision.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from games.core.rng import Shuffler
from games.luk_fu.engine import LukFuEngine, discard_choices
from games.luk_fu.policy import choose
from games.luk_fu.rules import LukFuRules


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def new_engine(index: int) -> LukFuEngine:
    seats = 3 if index % 2 == 0 else 4
    seeds = random.Random(10_000 + index)
    return LukFuEngine(
        LukFuRules(players=seats), [100] * seats, Shuffler(seed_source=lambda: seeds.randbytes(32).hex())
    )


def random_games(count: int) -> tuple[list[float], list[float], int]:
    """Wall time of each random game, and of a ``legal_actions`` call on fresh positions (timed apart)."""
    game_times: list[float] = []
    legal_times: list[float] = []
    actions = 0
    for index in range(count):
        rng = random.Random(index)
        engine = new_engine(index)
        start = time.perf_counter()
        while not engine.is_over:
            seat = rng.choice(sorted(engine.to_act()))
            engine.apply(seat, rng.choice(engine.legal_actions(seat)))  # type: ignore[arg-type]
            actions += 1
        game_times.append(time.perf_counter() - start)
        # The same game again, timing legal_actions alone with its caches cold for every new position.
        rng = random.Random(index)
        engine = new_engine(index)
        while not engine.is_over:
            seat = rng.choice(sorted(engine.to_act()))
            discard_choices.cache_clear()
            t0 = time.perf_counter()
            legal = engine.legal_actions(seat)
            legal_times.append(time.perf_counter() - t0)
            engine.apply(seat, rng.choice(legal))  # type: ignore[arg-type]
    return game_times, legal_times, actions


def policy_games(count: int) -> tuple[list[float], list[float]]:
    """Per decision: the policy's time, and the ``legal_actions`` time of the same position."""
    decide: list[float] = []
    legal_times: list[float] = []
    for index in range(count):
        rng = random.Random(index)
        engine = new_engine(index)
        while not engine.is_over:
            seat = min(engine.to_act())
            view = engine.view(seat)
            discard_choices.cache_clear()
            t0 = time.perf_counter()
            legal = engine.legal_actions(seat)
            t1 = time.perf_counter()
            action = choose(view, legal, rng)
            t2 = time.perf_counter()
            legal_times.append(t1 - t0)
            decide.append(t2 - t1)
            engine.apply(seat, action)
    return decide, legal_times


def main(count: int = 40) -> None:
    game_times, legal_times, actions = random_games(count)
    legal_med = statistics.median(legal_times)
    game_mean = statistics.mean(game_times)
    us = 1e6
    print(f"Luk Fu, {count} random full games (default rules, 3 and 4 seats alternately), {actions} actions")
    print(f"  legal_actions, cold caches : median {legal_med * us:7.1f} µs   p99 {p(legal_times, 0.99) * us:7.1f} µs")
    print(f"  random full game           : mean {game_mean * 1000:7.1f} ms   = {1 / game_mean:6.1f} games/s")
    print(
        f"    one game costs {game_mean / legal_med:,.0f}× a median legal_actions call "
        f"({actions / count:.0f} actions a game)"
    )
    decide, legal_policy = policy_games(count)
    legal_med = statistics.median(legal_policy)
    med, p99 = statistics.median(decide), p(decide, 0.99)
    print(f"policy, {len(decide)} decisions in {count} games it plays itself")
    print(f"  legal_actions, same positions: median {legal_med * us:7.1f} µs")
    print(f"  decision median              : {med * us:7.1f} µs = {med / legal_med:5.2f}× legal_actions")
    print(f"  decision p99                 : {p99 * us:7.1f} µs = {p99 / legal_med:5.2f}× legal_actions")
    print(f"  decision max                 : {max(decide) * us:7.1f} µs (budget 5000 µs)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
