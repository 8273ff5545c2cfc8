"""Who sits where in each round of a tournament: pure functions, no Discord, no database.

* :func:`table_sizes` — how many tables a round needs and how many members (and bots) each seats: as few tables as hold
  everyone at the moderator's table size at most, their sizes within one of each other; a table below the game's
  fewest players is filled with bot players (they play with tournament chips and are never ranked).
* :func:`draw` — the first round: the entrants shuffled by the tournament's seed and dealt into the tables in turn.
* :func:`snake` — every later round: the entrants ranked by standing, best first, dealt across the tables one way and
  back the other (1, 2, …, k, k, …, 2, 1, 1, 2, …), so each table gets a fair share of the strong and the weak.
* :func:`ranked` — the standing order: chips won, best first; ties broken by lot, by a draw fixed by the seed and the
  round, so the same standings always seat the same way (a restart seats a round exactly as before).

Seats in a table are in the order dealt: the first dealt sits at seat 0.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import NamedTuple


class TablePlan(NamedTuple):
    """One table of a round: its members in seat order, then ``bots`` bot players."""

    members: tuple[int, ...]
    bots: int


def table_sizes(entrants: int, table_size: int, fewest: int) -> list[tuple[int, int]]:
    """(members, bots) for each table of a round of ``entrants``: ``ceil(entrants / table_size)`` tables, the larger
    first, sizes differing by at most one; bots fill any table up to ``fewest`` seats."""
    if entrants < 1 or table_size < 1:
        return []
    count = math.ceil(entrants / table_size)
    base, extra = divmod(entrants, count)
    sizes = [base + 1] * extra + [base] * (count - extra)
    return [(size, max(0, fewest - size)) for size in sizes]


def _deal(order: Sequence[int], sizes: Sequence[tuple[int, int]], *, snake: bool) -> list[TablePlan]:
    """Deal ``order`` across the tables one seat per table per pass (straight passes, or alternating directions),
    skipping a table once it is full."""
    seats: list[list[int]] = [[] for _ in sizes]
    pending = iter(order)
    remaining = len(order)
    forward = True
    while remaining:
        indexes = range(len(sizes)) if forward or not snake else range(len(sizes) - 1, -1, -1)
        for index in indexes:
            if remaining and len(seats[index]) < sizes[index][0]:
                seats[index].append(next(pending))
                remaining -= 1
        forward = not forward
    return [TablePlan(tuple(members), bots) for members, (_, bots) in zip(seats, sizes, strict=True)]


def draw(entrants: Sequence[int], seed: str, table_size: int, fewest: int) -> list[TablePlan]:
    """The first round: the entrants (user ids, any order) shuffled by ``seed`` and dealt into the tables."""
    order = sorted(entrants)
    random.Random(f"{seed}:draw").shuffle(order)
    return _deal(order, table_sizes(len(order), table_size, fewest), snake=False)


def ranked(scores: Mapping[int, int], seed: str, round_no: int) -> list[int]:
    """User ids by standing, best first; equal scores in an order drawn by lot for this round."""
    order = sorted(scores)
    random.Random(f"{seed}:rank:{round_no}").shuffle(order)
    return sorted(order, key=lambda user: -scores[user])  # stable: the lot orders each tie


def snake(scores: Mapping[int, int], seed: str, round_no: int, table_size: int, fewest: int) -> list[TablePlan]:
    """A later round: the entrants seeded by standing (:func:`ranked`), dealt across the tables in a snake."""
    order = ranked(scores, seed, round_no)
    return _deal(order, table_sizes(len(order), table_size, fewest), snake=True)


def places(ordered: Sequence[tuple[int, int]]) -> list[int]:
    """Competition places (1, 2, 2, 4) of ``(user, score)`` pairs ordered best first: equal scores share a place."""
    found: list[int] = []
    for index, (_, score) in enumerate(ordered):
        found.append(found[-1] if index and score == ordered[index - 1][1] else index + 1)
    return found
