"""Who sits where in each round of a tournament: pure functions, no Discord, no database.

* :func:`table_sizes` — how many tables a round needs and how many members (and bots) each seats: as few tables as hold
  everyone at the moderator's table size at most, their sizes within one of each other; a table below the game's
  fewest players is filled with bot players (they play with tournament chips and are never ranked).
* :func:`draw` — the first round: the entrants shuffled by the tournament's seed and cut into the tables.
* :func:`snake` — every later round: the entrants ranked by standing, best first, dealt across the tables one way and
  back the other (1, 2, …, k, k, …, 2, 1, 1, 2, …), so each table gets a fair share of the strong and the weak.
* :func:`ranked` — the standing order: chips won, best first; ties broken by lot, by a draw fixed by the seed and the
  round, so the same standings always seat the same way (a restart seats a round exactly as before).

Seats in a table are in the order dealt (or cut): the first sits at seat 0.
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


def _chunk(order: Sequence[int], sizes: Sequence[tuple[int, int]]) -> list[TablePlan]:
    """Cut ``order`` into the tables, each taking the next members up to its size."""
    plans: list[TablePlan] = []
    start = 0
    for members, bots in sizes:
        plans.append(TablePlan(tuple(order[start : start + members]), bots))
        start += members
    return plans


def _snake(order: Sequence[int], sizes: Sequence[tuple[int, int]]) -> list[TablePlan]:
    """Deal ``order`` across the tables one seat per table per pass, each pass the other way (1…k, k…1, …); the
    last pass goes on in its direction over the tables with room (the larger ones, which come first)."""
    count = len(sizes)
    seats: list[list[int]] = [[] for _ in sizes]
    passes = min(members for members, _ in sizes) if sizes else 0
    for index in range(passes):
        chunk = order[index * count : (index + 1) * count]
        for table, member in enumerate(chunk if index % 2 == 0 else reversed(chunk)):
            seats[table].append(member)
    room = [table for table in range(count) if len(seats[table]) < sizes[table][0]]
    if passes % 2:
        room.reverse()
    for table, member in zip(room, order[passes * count :], strict=True):
        seats[table].append(member)
    return [TablePlan(tuple(members), bots) for members, (_, bots) in zip(seats, sizes, strict=True)]


def draw(entrants: Sequence[int], seed: str, table_size: int, fewest: int) -> list[TablePlan]:
    """The first round: the entrants (user ids, any order) shuffled by ``seed`` and dealt into the tables."""
    order = sorted(entrants)
    random.Random(f"{seed}:draw").shuffle(order)
    return _chunk(order, table_sizes(len(order), table_size, fewest))


def ranked(scores: Mapping[int, int], seed: str, round_no: int) -> list[int]:
    """User ids by standing, best first; equal scores in an order drawn by lot for this round."""
    order = sorted(scores)
    random.Random(f"{seed}:rank:{round_no}").shuffle(order)
    return sorted(order, key=scores.__getitem__, reverse=True)  # stable (reversed too): the lot orders each tie


def snake(scores: Mapping[int, int], seed: str, round_no: int, table_size: int, fewest: int) -> list[TablePlan]:
    """A later round: the entrants seeded by standing (:func:`ranked`), dealt across the tables in a snake."""
    order = ranked(scores, seed, round_no)
    return _snake(order, table_sizes(len(order), table_size, fewest))


def places(ordered: Sequence[tuple[int, int]]) -> list[int]:
    """Competition places (1, 2, 2, 4) of ``(user, score)`` pairs ordered best first: equal scores share a place."""
    found: list[int] = []
    for index, (_, score) in enumerate(ordered):
        found.append(found[-1] if index and score == ordered[index - 1][1] else index + 1)
    return found
