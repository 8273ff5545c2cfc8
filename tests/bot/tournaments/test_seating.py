"""Seating a tournament's rounds: the tables' sizes, the first round's draw, the snake seeding by standing, the
standing order with ties broken by lot, and the places ties share."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments.seating import TablePlan, draw, places, ranked, snake, table_sizes


@pytest.mark.parametrize(
    ("entrants", "size", "fewest", "expected"),
    [
        (8, 4, 2, [(4, 0), (4, 0)]),
        (7, 4, 2, [(4, 0), (3, 0)]),
        (5, 2, 2, [(2, 0), (2, 0), (1, 1)]),  # heads-up: the odd one out plays a bot
        (4, 3, 3, [(2, 1), (2, 1)]),  # Luk Fu needs three: a bot fills each table
        (2, 4, 4, [(2, 2)]),
        (200, 7, 3, [(7, 0)] * 26 + [(6, 0)] * 3),
        (0, 4, 2, []),
    ],
)
def test_tables_are_as_few_as_fit_and_balanced(entrants: int, size: int, fewest: int, expected: list[Any]) -> None:
    assert table_sizes(entrants, size, fewest) == expected


@given(st.integers(1, 300), st.integers(2, 7), st.integers(2, 4))
def test_every_entrant_sits_once_at_tables_no_larger_than_asked(entrants: int, size: int, fewest: int) -> None:
    fewest = min(fewest, size)
    users = list(range(1000, 1000 + entrants))
    for plans in (draw(users, "seed", size, fewest), snake(dict.fromkeys(users, 0), "seed", 2, size, fewest)):
        seated = [u for plan in plans for u in plan.members]
        assert sorted(seated) == users
        sizes = [len(plan.members) for plan in plans]
        assert max(sizes) <= size and max(sizes) - min(sizes) <= 1
        assert all(len(plan.members) + plan.bots >= fewest for plan in plans)


def test_the_draw_is_fixed_by_the_seed_not_by_the_order_given() -> None:
    users = list(range(1, 13))
    first = draw(users, "abc", 4, 2)
    assert draw(list(reversed(users)), "abc", 4, 2) == first
    assert draw(users, "abd", 4, 2) != first
    assert [u for plan in first for u in plan.members] != users  # shuffled


def test_the_snake_spreads_the_strong_across_the_tables() -> None:
    scores = {user: 100 - user for user in range(1, 13)}  # user 1 leads, user 12 trails
    plans = snake(scores, "s", 2, 4, 2)
    assert plans == [
        TablePlan((1, 6, 7, 12), 0),
        TablePlan((2, 5, 8, 11), 0),
        TablePlan((3, 4, 9, 10), 0),
    ]


def test_ties_are_ordered_by_a_lot_fixed_for_the_round() -> None:
    scores = {1: 5, 2: 5, 3: 5, 4: 9, 5: -3}
    order = ranked(scores, "seed", 2)
    assert order[0] == 4 and order[-1] == 5 and sorted(order[1:4]) == [1, 2, 3]
    assert ranked(scores, "seed", 2) == order
    # Another round's lot may order the tie otherwise: over many rounds each of the three comes first sometimes.
    assert {ranked(scores, "seed", r)[1] for r in range(2, 40)} == {1, 2, 3}


def test_ties_share_a_place() -> None:
    assert places([(1, 10), (2, 7), (3, 7), (4, 0)]) == [1, 2, 2, 4]
    assert places([(1, 0), (2, 0)]) == [1, 1]
    assert places([]) == []
