"""Settlement (rules.md §0.4): zero sum, never below 0, netting, receiving-to-pay, pro rata with remainders."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.settlement import Debt, settle


def test_everyone_can_pay_in_full() -> None:
    debts = [Debt(0, 1, 10), Debt(2, 1, 5), Debt(1, 3, 4)]
    assert settle(debts, [50, 50, 50, 50]) == [-10, 11, -5, 4]


def test_zero_self_and_empty_debts_change_nothing() -> None:
    assert settle([], [5, 5]) == [0, 0]
    assert settle([Debt(0, 0, 7), Debt(0, 1, 0)], [5, 5]) == [0, 0]


def test_opposite_debts_are_netted_before_the_stack_check() -> None:
    # A owes B 5 and B owes A 3: A pays only the net 2, which a stack of 2 covers.
    assert settle([Debt(0, 1, 5), Debt(1, 0, 3)], [2, 0]) == [-2, 2]
    assert settle([Debt(0, 1, 5), Debt(1, 0, 5)], [0, 0]) == [0, 0]


def test_repeated_debts_add_up() -> None:
    assert settle([Debt(0, 1, 3), Debt(0, 1, 4)], [10, 0]) == [-7, 7]


def test_a_player_may_pay_with_what_they_receive_in_the_same_settlement() -> None:
    # Seat 1 has nothing but is owed 10 by seat 2, and owes 10 to seat 0.
    assert settle([Debt(1, 0, 10), Debt(2, 1, 10)], [0, 0, 10]) == [10, 0, -10]
    # Only part of what comes in can be passed on when the incoming payer is short.
    assert settle([Debt(1, 0, 10), Debt(2, 1, 10)], [0, 0, 4]) == [4, 0, -4]


def test_short_payer_pays_everything_pro_rata() -> None:
    # Seat 0 has 9 and owes seat 1 twelve and seat 2 six: 9 * 12/18 = 6 and 9 * 6/18 = 3 exactly.
    assert settle([Debt(0, 1, 12), Debt(0, 2, 6)], [9, 0, 0]) == [-9, 6, 3]


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        # 5 chips for debts of 3, 3, 3: 1 each by rounding down, 2 left go one at a time from seat `first`.
        (0, [-5, 2, 2, 1]),
        (1, [-5, 2, 2, 1]),
        (2, [-5, 1, 2, 2]),
        (3, [-5, 2, 1, 2]),
    ],
)
def test_rounding_remainder_goes_in_seat_order_from_first(first: int, expected: list[int]) -> None:
    debts = [Debt(0, 1, 3), Debt(0, 2, 3), Debt(0, 3, 3)]
    assert settle(debts, [5, 0, 0, 0], first=first) == expected


def test_remainder_never_pays_a_creditor_more_than_owed() -> None:
    # 3 chips for debts 1 and 100: shares 0 and 2, remainder 1; seat 1 is first in order and still short.
    assert settle([Debt(0, 1, 1), Debt(0, 2, 100)], [3, 0, 0], first=1) == [-3, 1, 2]
    # Seat 1 is owed 1 and gets it from the rounding; the next remainder chip skips nobody wrongly.
    assert settle([Debt(0, 1, 1), Debt(0, 2, 2)], [2, 0, 0], first=1) == [-2, 1, 1]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        settle([Debt(0, 1, -1)], [5, 5])
    with pytest.raises(ValueError, match="negative"):
        settle([], [5, -1])


# ---------------------------------------------------------------- properties


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[int], list[Debt], int]:
    n = draw(st.integers(2, 6))
    stacks = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
    seat = st.integers(0, n - 1)
    debts = draw(st.lists(st.builds(Debt, seat, seat, st.integers(0, 60)), max_size=10))
    return stacks, debts, draw(seat)


def netted(debts: list[Debt], n: int) -> tuple[list[int], list[int]]:
    """What each seat owes in total and is owed in total, after netting opposite debts."""
    net = [[0] * n for _ in range(n)]
    for d in debts:
        if d.payer != d.payee:
            net[d.payer][d.payee] += d.amount
    owes = [sum(max(0, net[i][j] - net[j][i]) for j in range(n)) for i in range(n)]
    owed = [sum(max(0, net[j][i] - net[i][j]) for j in range(n)) for i in range(n)]
    return owes, owed


@given(cases())
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
def test_settlement_properties(case: tuple[list[int], list[Debt], int]) -> None:
    stacks, debts, first = case
    n = len(stacks)
    deltas = settle(debts, stacks, first)
    owes, owed = netted(debts, n)
    assert len(deltas) == n
    assert sum(deltas) == 0
    assert all(s + d >= 0 for s, d in zip(stacks, deltas, strict=True)), "a stack went below 0"
    for i in range(n):
        assert -owes[i] <= deltas[i] <= owed[i], "nobody pays more than owed nor receives more than due"
        if owed[i] == 0:
            # Someone only paying pays exactly what they owe, or their whole stack.
            assert deltas[i] == -min(owes[i], stacks[i])
    if all(stacks[i] >= owes[i] for i in range(n)):
        assert deltas == [owed[i] - owes[i] for i in range(n)], "with enough chips, debts are paid exactly"
    assert settle(debts, stacks, first) == deltas, "deterministic"


@given(case=cases())
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
def test_a_payer_short_of_their_debts_ends_at_zero(case: tuple[list[int], list[Debt], int]) -> None:
    """Every payer either pays all they owe or everything they have (stack plus what they received).

    Seen from outside: a seat that keeps chips paid in full, so a seat owed only by seats that keep
    chips is paid in full; and nobody ends up with more than stack + what is owed to them − what they owe.
    """
    stacks, debts, first = case
    n = len(stacks)
    deltas = settle(debts, stacks, first)
    owes, owed = netted(debts, n)
    keeps = [stacks[i] + deltas[i] > 0 for i in range(n)]
    for i in range(n):
        assert deltas[i] <= owed[i] - owes[i] or owes[i] == 0 or not keeps[i], f"seat {i} kept chips it owed"
        debtors = {d.payer for d in debts if d.payee == i and d.payer != i and d.amount > 0}
        if keeps[i] and all(keeps[j] for j in debtors):
            assert deltas[i] == owed[i] - owes[i], (
                f"seat {i} and all its debtors kept chips, yet it was not paid in full"
            )


@pytest.mark.parametrize(
    ("stacks", "debts", "first", "expected"),
    [
        # Found by the property above. Seat 3's 4 chips are all seat 0 gets; seat 0 owes 1, 6 and 2 to seats 1, 2
        # and 4 and passes them on pro rata, and seat 1 passes its share to seat 2. Seats 2 and 4 get 28/9 and 8/9:
        # 3 and 0 rounded down, the chip left going to seat 4 (first from seat 3). Rounding at each payer instead
        # let seat 1 keep a chip it owed seat 2.
        (
            [0, 0, 0, 4, 0],
            [Debt(0, 1, 1), Debt(0, 2, 6), Debt(0, 4, 3), Debt(1, 2, 1), Debt(3, 0, 5), Debt(4, 0, 1)],
            3,
            [0, 0, 3, -4, 1],
        ),
        # A chain of short players: 2 pays its 4 to 1, who passes all of it to 0.
        ([0, 0, 4], [Debt(1, 0, 10), Debt(2, 1, 10)], 0, [4, 0, -4]),
        # A cycle where nobody is short once receipts count: nothing moves.
        ([0, 0, 0], [Debt(0, 1, 5), Debt(1, 2, 5), Debt(2, 0, 5)], 0, [0, 0, 0]),
        # A cycle of unequal debts with empty stacks: only seat 1 (owing 3, receiving 3) pays in full.
        ([0, 0, 0], [Debt(0, 1, 5), Debt(1, 2, 3), Debt(2, 0, 4)], 0, [0, 0, 0]),
    ],
)
def test_short_players_who_owe_each_other(
    stacks: list[int], debts: list[Debt], first: int, expected: list[int]
) -> None:
    assert settle(debts, stacks, first) == expected
