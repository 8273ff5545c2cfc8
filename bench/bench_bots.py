"""How strong each bot level is: the levels play each other, and a random legal player, with luck cancelled out.

For every game and every pairing (each two levels, and each level against a player who picks a legal move at random),
whole games are played at the game's usual table size (``--seats``), in **groups**: a group is one set of shuffles
played once for every way of seating the two sides (every seat either side's, each side holding at least one: 2
seatings heads-up, 6 at three seats), each time with the same shuffles, so every card dealt to one side in one
seating is dealt to the other side in another. A deal's figure is half the difference between the mean chips won by
the first side's seats and by the second's (at a stake of one chip a point; a game's pot is nobody's), so heads-up
it is simply what the first side won; a group's figure is its mean over all its seatings' deals, and the printed
mean is over groups, with a 95% interval from the spread of the groups' figures (groups are independent; the deals
within one are not).

It prints, per game: chips a deal the stronger side wins from the weaker for each pairing, with its interval and the
deals played, and each level's decision time (median and 99th percentile of every decision it made, each policy
call timed on its own in the worker that made it).

The work is spread over ``--workers`` processes (default 2: the machine's cores), a group at a time, so a run's
figures do not depend on the number of workers. ``--save`` writes the figures the lobby quotes
(``bot/ui/bot_strength.json``): each level against the level below it, and the easy one against the random player.
``--quoted`` plays only those pairings (half the work of a run), to measure the quoted figures over more deals.
``--effort E`` has the strong level spend the share ``E`` of its search budget, as a bot does when the bots' worker
is busy (down to 0.1): what strength a loaded bot keeps.

    python bench/bench_bots.py [--deals N] [--games oicho,ofc,...] [--seats oicho=3,...] [--workers W] [--quoted]
                               [--save]
    # default: 10,000 deals per pairing in every game (hours for OFC, whose every decision searches)
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.core.actions import Action, ActionFamily, AmountRange, LegalAction
from games.core.rng import Shuffler
from games.registry import LEVELS, STRONG, SearchingPolicy, all_games, get_game

RANDOM = "random"
SEATS = {"oicho": 3, "ofc": 2, "luk_fu": 3, "hachi_hachi": 3}
"""The table size each game is measured at: Oicho-Kabu a dealer and two children, OFC heads-up, the trick games
three (their smallest table)."""
STRENGTH_FILE = Path(__file__).resolve().parent.parent / "bot" / "ui" / "bot_strength.json"
STEP_BOUND = 100_000


def random_player(view: Any, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """A legal move picked at random (an amount anywhere in its range, a placement among all)."""
    item = rng.choice(list(legal))
    if isinstance(item, AmountRange):
        return item.make(rng.randint(item.lo, item.hi))
    if isinstance(item, ActionFamily):
        return item.sample(rng)
    return item


def seeds(rng: random.Random) -> Callable[[], str]:
    """A table's shuffle seeds, drawn from ``rng`` (the same ``rng`` state: the same shuffles)."""
    return lambda: rng.randbytes(32).hex()


BELOW = {"normal": "easy", "strong": "normal", "easy": RANDOM}
"""The pairings the lobby quotes: each level against the level below it, the easy one against the random player."""


def pairings(quoted: bool = False) -> list[tuple[str, str]]:
    """(stronger, weaker): each two levels, and each level against the random player (``quoted``: only the pairings
    the lobby quotes, :data:`BELOW`)."""
    every: list[tuple[str, str]] = [(b, a) for a, b in itertools.combinations(LEVELS, 2)] + [
        (level, RANDOM) for level in LEVELS
    ]
    return [p for p in every if BELOW.get(p[0]) == p[1]] if quoted else every


def seatings(seats: int) -> list[tuple[bool, ...]]:
    """Every way of seating two sides (True: the first side's seat), each side holding a seat at least."""
    return [s for s in itertools.product((True, False), repeat=seats) if any(s) and not all(s)]


@dataclass
class GroupResult:
    game: str
    pairing: tuple[str, str]
    figure: float
    """The group's chips a deal won by the first side from the second (see the module's docstring)."""
    deals: int
    times: dict[str, list[float]] = field(default_factory=dict)
    """Level → seconds of each of its decisions."""


def play_group(
    game: str, pairing: tuple[str, str], seats: int, group: int, seed: str, effort: float = 1.0
) -> GroupResult:
    """One group: the same shuffles played once per seating of the two sides (the strong level spending ``effort``
    times its search budget, as a busy bot does: :func:`bot.tables.autoplay.effort`)."""
    spec = get_game(game)
    rules = spec.rules_model()
    policies = {**spec.policies, RANDOM: random_player}
    if effort != 1.0:
        policies[STRONG] = functools.partial(cast(SearchingPolicy, spec.policies[STRONG]), effort=effort)
    times: dict[str, list[float]] = {}
    total = 0.0
    deals = 0
    for index, seating in enumerate(seatings(seats)):
        shuffles = seeds(random.Random(f"{seed}:{game}:{pairing}:{group}:shuffles"))
        engine = spec.engine(rules, [spec.starting_chips(rules)] * seats, Shuffler(seed_source=shuffles))
        players = [pairing[0] if first else pairing[1] for first in seating]
        for step in range(STEP_BOUND):
            if engine.is_over:
                break
            seat = min(engine.to_act())
            rng = random.Random(f"{seed}:{game}:{pairing}:{group}:{index}:{step}")
            view, legal = engine.view(seat), engine.legal_actions(seat)
            started = time.perf_counter()
            action = policies[players[seat]](view, legal, rng)
            if players[seat] != RANDOM:
                times.setdefault(players[seat], []).append(time.perf_counter() - started)
            engine.apply(seat, action)
        else:
            raise RuntimeError(f"{game}: no end after {STEP_BOUND} moves")
        first = [s for s in range(seats) if seating[s]]
        second = [s for s in range(seats) if not seating[s]]
        for result in engine.results:
            mine = sum(result.deltas[s] for s in first) / len(first)
            theirs = sum(result.deltas[s] for s in second) / len(second)
            total += (mine - theirs) / 2
            deals += 1
    return GroupResult(game, pairing, total / deals if deals else 0.0, deals, times)


def deals_per_group(game: str, seats: int) -> int:
    """How many deals a group plays (the games here last a fixed number of deals under their default rules)."""
    spec = get_game(game)
    rules = spec.rules_model()
    rng = random.Random(0)
    engine = spec.engine(
        rules, [spec.starting_chips(rules)] * seats, Shuffler(seed_source=lambda: rng.randbytes(32).hex())
    )
    while not engine.is_over:
        seat = min(engine.to_act())
        engine.apply(seat, random_player(engine.view(seat), engine.legal_actions(seat), rng))
    return max(1, len(engine.results)) * len(seatings(seats))


@dataclass
class Pairing:
    figures: list[float] = field(default_factory=list)
    deals: int = 0

    def interval(self) -> tuple[float, float]:
        """The mean over groups and the half-width of its 95% interval (normal approximation; Student's t for
        fewer than 30 groups would be wider: the figures printed at a small size are rough)."""
        n = len(self.figures)
        mean = statistics.fmean(self.figures) if n else math.nan
        half = 1.96 * statistics.stdev(self.figures) / math.sqrt(n) if n > 1 else math.inf
        return mean, half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1)))] if ordered else math.nan


def tasks(
    games: Sequence[str], seats: dict[str, int], deals: int, seed: str, quoted: bool = False, effort: float = 1.0
) -> Iterator[tuple[Any, ...]]:
    for game in games:
        groups = max(2, math.ceil(deals / deals_per_group(game, seats[game])))
        for pairing in pairings(quoted):
            for group in range(groups):
                yield game, pairing, seats[game], group, seed, effort


def _run(task: tuple[Any, ...]) -> GroupResult:
    return play_group(*task)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000, help="deals per pairing (default 10,000)")
    parser.add_argument("--games", default=",".join(all_games()), help="comma-separated game ids")
    parser.add_argument("--seats", default="", help="table sizes, e.g. ofc=3,oicho=4 (default: " + str(SEATS) + ")")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--seed", default="fudaba bots")
    parser.add_argument("--save", action="store_true", help=f"write the lobby's figures to {STRENGTH_FILE.name}")
    parser.add_argument(
        "--quoted", action="store_true", help="only the pairings the lobby quotes (each level against the one below)"
    )
    parser.add_argument(
        "--effort",
        type=float,
        default=1.0,
        help="the share of its search budget the strong level spends (a busy bot's is down to 0.1); not with --save",
    )
    args = parser.parse_args()
    if not 0 < args.effort <= 1 or (args.save and args.effort != 1.0):
        parser.error("--effort is a share in (0, 1], and the lobby quotes the whole budget's figures (no --save)")
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for game in games:
        get_game(game)
    seats = dict(SEATS)
    for item in filter(None, args.seats.split(",")):
        game, _, count = item.partition("=")
        seats[game.strip()] = int(count)
    results: dict[tuple[str, tuple[str, str]], Pairing] = {}
    times: dict[tuple[str, str], list[float]] = {}
    started = time.perf_counter()
    work = list(tasks(games, seats, args.deals, args.seed, args.quoted, args.effort))
    with ProcessPoolExecutor(max_workers=args.workers, mp_context=get_context("spawn")) as pool:
        for done in pool.map(_run, work, chunksize=4):
            tally = results.setdefault((done.game, done.pairing), Pairing())
            tally.figures.append(done.figure)
            tally.deals += done.deals
            for level, spent in done.times.items():
                times.setdefault((done.game, level), []).extend(spent)
    print(f"{len(work)} groups in {time.perf_counter() - started:.0f} s on {args.workers} worker(s)")
    if args.effort != 1.0:
        print(f"the strong level spent {args.effort:g} of its search budget (a busy bot's share)")
    saved: dict[str, dict[str, dict[str, Any]]] = {}
    for game in games:
        print(
            f"\n{game} ({seats[game]} seats): chips a deal (stake 1) the first side wins from the second, 95% interval"
        )
        for pairing in pairings(args.quoted):
            found = results[(game, pairing)]
            mean, half = found.interval()
            print(f"  {pairing[0]:>6} vs {pairing[1]:<6} {mean:+8.3f} ± {half:.3f}   ({found.deals:,} deals)")
            if BELOW.get(pairing[0]) == pairing[1]:
                saved.setdefault(game, {})[pairing[0]] = {
                    "against": pairing[1],
                    "mean": round(mean, 3),
                    "half": round(half, 3),
                    "deals": found.deals,
                }
        for level in LEVELS:
            spent = times.get((game, level), [])
            print(
                f"  {level:>6} decisions: p50 {percentile(spent, 0.5) * 1000:.2f} ms, "
                f"p99 {percentile(spent, 0.99) * 1000:.2f} ms ({len(spent):,})"
            )
    if args.save:
        data: dict[str, Any] = {}
        if STRENGTH_FILE.exists():
            data = json.loads(STRENGTH_FILE.read_text(encoding="utf-8"))
        data.setdefault("games", {}).update(saved)
        if not isinstance(data.get("measured_with"), dict):
            data["measured_with"] = {}
        for game in saved:  # games may be measured in separate runs, each at its own size
            data["measured_with"][game] = "python bench/bench_bots.py " + " ".join(sys.argv[1:])
        STRENGTH_FILE.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"\nwrote {STRENGTH_FILE}")


if __name__ == "__main__":
    main()
