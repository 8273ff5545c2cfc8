"""Sharing a prize pool by the final standings: each payout table, places beyond the entrants, ties, and every
remainder to the top place, the prizes always adding up to the pool."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments.payout import PAYOUTS, prizes


def test_winner_takes_all() -> None:
    assert prizes(300, PAYOUTS["winner"], [(1, 40), (2, 0), (3, -40)]) == {1: 300, 2: 0, 3: 0}


def test_fifty_thirty_twenty_with_the_rounding_to_the_top_place() -> None:
    assert prizes(101, PAYOUTS["50-30-20"], [(1, 9), (2, 5), (3, 1), (4, 0)]) == {1: 51, 2: 30, 3: 20, 4: 0}


def test_places_beyond_the_entrants_go_to_the_top_place() -> None:
    # Two entrants and a 50/30/20 table: the third share is nobody's, so the winner gets it.
    assert prizes(200, PAYOUTS["50-30-20"], [(1, 5), (2, -5)]) == {1: 140, 2: 60}


def test_ties_split_the_places_they_cover() -> None:
    # Second and third tie: they share 30 % + 20 % of 400 = 200, 100 each.
    assert prizes(400, PAYOUTS["50-30-20"], [(1, 50), (2, 10), (3, 10), (4, -70)]) == {1: 200, 2: 100, 3: 100, 4: 0}
    # A tie for first in 65/35 over 301 chips: 195 + 105 = 300 split 150 each, the chip left to the top place.
    assert prizes(301, PAYOUTS["65-35"], [(7, 3), (8, 3), (9, 0)]) == {7: 151, 8: 150, 9: 0}
    # Everyone even: an even split, the remainder to the first in the standings order.
    assert prizes(100, PAYOUTS["50-30-20"], [(1, 0), (2, 0), (3, 0)]) == {1: 34, 2: 33, 3: 33}


@pytest.mark.parametrize("name", sorted(PAYOUTS))
def test_every_table_shares_all_of_its_pool(name: str) -> None:
    assert sum(PAYOUTS[name]) == 100


@given(
    st.integers(0, 10**9),
    st.sampled_from(sorted(PAYOUTS)),
    st.lists(st.integers(-50, 50), min_size=1, max_size=30),
)
def test_the_prizes_add_up_to_the_pool_and_never_favour_a_lower_place(pool: int, name: str, raw: list[int]) -> None:
    standings = sorted(((i, score) for i, score in enumerate(raw)), key=lambda pair: -pair[1])
    paid = prizes(pool, PAYOUTS[name], standings)
    assert sum(paid.values()) == pool and set(paid) == {u for u, _ in standings}
    assert all(p >= 0 for p in paid.values())
    for (upper, high), (lower, low) in itertools.pairwise(standings):
        if high == low:
            assert abs(paid[upper] - paid[lower]) <= (pool if upper == standings[0][0] else 0)
        else:
            assert paid[upper] >= paid[lower]
