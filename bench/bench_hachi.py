"""Hachi-Hachi Trick engine speed: random full games per second at 3 and at 7 seats, and the bot's decision time.

    python bench/bench_hachi.py [games]

Each figure is printed against the engine's own ``legal_actions`` cost measured in the same run, on the same
positions, so the ratios hold where absolute times do not (a loaded CI box, a laptop):

* **random games** — whole games (default rules: 12 rounds, 50 chips each) at 3 seats and at 7 seats, played by
  picking a random legal action, everything included (shuffles, dealing, hand settlement, settling the round);
  the ratio says how many ``legal_actions`` calls one game costs;
* **policy** — ``games.hachi_hachi.policy.choose`` given the seat view and the legal actions, in games the
  policy plays itself (3 to 7 seats): median and p99 per decision, each as a multiple of the median
  ``legal_actions`` call. The policy must stay well under 5 ms a decision.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from games.core.rng import Shuffler
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.policy import choose
from games.hachi_hachi.rules import HachiHachiRules


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def new_engine(index: int, seats: int) -> HachiHachiEngine:
    seeds = random.Random(10_000 + index)
    return HachiHachiEngine(HachiHachiRules(), [50] * seats, Shuffler(seed_source=lambda: seeds.randbytes(32).hex()))


def random_games(count: int, seats: int) -> tuple[list[float], list[float], int]:
    """Wall time of each random game, and of a ``legal_actions`` call on the same positions (timed apart)."""
    game_times: list[float] = []
    legal_times: list[float] = []
    actions = 0
    for index in range(count):
        rng = random.Random(index)
        engine = new_engine(index, seats)
        start = time.perf_counter()
        while not engine.is_over:
            seat = rng.choice(sorted(engine.to_act()))
            engine.apply(seat, rng.choice(engine.legal_actions(seat)))  # type: ignore[arg-type]
            actions += 1
        game_times.append(time.perf_counter() - start)
        rng = random.Random(index)
        engine = new_engine(index, seats)
        while not engine.is_over:
            seat = rng.choice(sorted(engine.to_act()))
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
        engine = new_engine(index, 3 + index % 5)
        while not engine.is_over:
            seat = min(engine.to_act())
            view = engine.view(seat)
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
    us = 1e6
    for seats in (3, 7):
        game_times, legal_times, actions = random_games(count, seats)
        legal_med = statistics.median(legal_times)
        game_mean = statistics.mean(game_times)
        print(f"Hachi-Hachi Trick, {count} random full games at {seats} seats (default rules), {actions} actions")
        print(
            f"  legal_actions              : median {legal_med * us:7.1f} µs   p99 {p(legal_times, 0.99) * us:7.1f} µs"
        )
        print(f"  random full game           : mean {game_mean * 1000:7.1f} ms   = {1 / game_mean:6.1f} games/s")
        print(
            f"    one game costs {game_mean / legal_med:,.0f}× a median legal_actions call "
            f"({actions / count:.0f} actions a game)"
        )
    decide, legal_policy = policy_games(count)
    legal_med = statistics.median(legal_policy)
    med, p99 = statistics.median(decide), p(decide, 0.99)
    print(f"policy, {len(decide)} decisions in {count} games it plays itself (3 to 7 seats)")
    print(f"  legal_actions, same positions: median {legal_med * us:7.1f} µs")
    print(f"  decision median              : {med * us:7.1f} µs = {med / legal_med:5.2f}× legal_actions")
    print(f"  decision p99                 : {p99 * us:7.1f} µs = {p99 / legal_med:5.2f}× legal_actions")
    print(f"  decision max                 : {max(decide) * us:7.1f} µs (budget 5000 µs)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
