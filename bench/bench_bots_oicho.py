"""Oicho-Kabu bot levels: decision time of easy, normal and strong, against the baseline policy in the same run.

    python bench/bench_bots_oicho.py [games]

Whole games at 4-seat tables whose seats play the three levels (rotated from game to game), under three sets of
house rules in turn: the defaults; maki-fuda with Toichi and Arashi paid x3; the 48-card deck with months 11 and
12. Every decision a seat makes is timed for its level, and the baseline (``choose``, the policy the registry
used before the levels) is timed on the very same position, so the ratios hold where absolute times do not.
The strong level's memo of dealer distributions is emptied before each of its decisions: its figures are for a
position it has never seen (in play, the children of one round share some of that work).

The budget: strong p99 ≤ 200 ms a decision on this machine (2 shared cores).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from games.core.rng import Shuffler
from games.oicho import policy
from games.oicho.engine import OichoEngine
from games.oicho.policy import POLICIES, choose
from games.oicho.rules import OichoRules

RULES = (
    OichoRules(),
    OichoRules(
        maki_fuda=True,
        arashi_multiplier=3,
        local_yaku={"toichi": {"enabled": True, "multiplier": 2}},  # type: ignore[arg-type]
    ),
    OichoRules(use_months_11_12=True),
)
LEVELS = ("easy", "normal", "strong")


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(games: int) -> tuple[dict[str, list[float]], dict[str, list[float]], dict[str, list[float]]]:
    """Per level: its decision times, the baseline's on the same positions, and strong's times by phase."""
    own: dict[str, list[float]] = {level: [] for level in LEVELS}
    base: dict[str, list[float]] = {level: [] for level in LEVELS}
    phases: dict[str, list[float]] = {}
    for index in range(games):
        seeds = random.Random(50_000 + index)
        rules = RULES[index % len(RULES)]
        engine = OichoEngine(rules, [100] * 4, Shuffler(seed_source=lambda s=seeds: s.randbytes(32).hex()))
        seats = [LEVELS[(index + k) % 3] for k in range(4)]
        rng = random.Random(index)
        while engine.phase != "game_over":
            (seat,) = engine.to_act()
            view, legal = engine.view(seat), engine.legal_actions(seat)
            level = seats[seat]
            choose(view, legal, random.Random(0))  # once untimed, so neither side pays for a cold position
            spare = random.Random(0)
            t0 = time.perf_counter()
            choose(view, legal, spare)
            base[level].append(time.perf_counter() - t0)
            policy._dealer_hand.cache_clear()
            t0 = time.perf_counter()
            action = POLICIES[level](view, legal, rng)
            spent = time.perf_counter() - t0
            own[level].append(spent)
            if level == "strong":
                phases.setdefault(view.phase, []).append(spent)
            engine.apply(seat, action)
    return own, base, phases


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    start = time.perf_counter()
    own, base, phases = play(games)
    print(f"{games} games in {time.perf_counter() - start:.1f} s (4 seats, rules rotated)")
    print(
        f"{'level':8} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'baseline p50':>13} {'p99':>8} {'x p50':>7} {'x p99':>7}"
    )
    for level in LEVELS:
        mine, theirs = own[level], base[level]
        a50, a99, b50, b99 = (p(mine, 0.5), p(mine, 0.99), p(theirs, 0.5), p(theirs, 0.99))
        print(
            f"{level:8} {len(mine):9d} {a50 * 1e3:8.3f} {a99 * 1e3:8.3f} {b50 * 1e3:13.3f} {b99 * 1e3:8.3f}"
            f" {a50 / b50:6.1f}x {a99 / b99:6.1f}x"
        )
    print(
        "strong by phase: "
        + ", ".join(f"{k} p50 {p(v, 0.5) * 1e3:.1f} / p99 {p(v, 0.99) * 1e3:.1f} ms" for k, v in sorted(phases.items()))
    )
    worst = p(own["strong"], 0.99) * 1e3
    print(f"strong p99 {worst:.1f} ms: {'within' if worst <= 200 else 'OVER'} the 200 ms budget")


if __name__ == "__main__":
    main()
