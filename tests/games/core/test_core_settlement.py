"""Settlement (rules.md §0.4): zero sum, never below 0, netting, receiving-to-pay, pro rata with remainders."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.core.settlement as settlement
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
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
def test_a_payer_short_of_their_debts_ends_at_zero(
    monkeypatch: pytest.MonkeyPatch, case: tuple[list[int], list[Debt], int]
) -> None:
    """Every payer either pays all they owe or everything they have (stack plus what they received)."""
    stacks, debts, first = case
    calls: list[tuple[int, int]] = []
    original: Callable[..., dict[int, int]] = settlement._pro_rata

    def spy(paid: int, creditors: dict[int, int], total: int, n: int, first: int) -> dict[int, int]:
        calls.append((paid, total))
        return original(paid, creditors, total, n, first)

    monkeypatch.setattr(settlement, "_pro_rata", spy)
    deltas = settle(debts, stacks, first)
    # settle() plans every payer once per round, in the order their first netted debt appears.
    payers: list[int] = []
    owes, _ = netted(debts, len(stacks))
    for d in debts:
        if owes[d.payer] > 0 and d.payer not in payers and d.payer != d.payee and d.amount > 0:
            net_to = sum(x.amount for x in debts if (x.payer, x.payee) == (d.payer, d.payee))
            back = sum(x.amount for x in debts if (x.payer, x.payee) == (d.payee, d.payer))
            if net_to > back:
                payers.append(d.payer)
    assert len(payers) == sum(1 for o in owes if o > 0)
    final_round = calls[len(calls) - len(payers) :] if payers else []
    for payer, (paid, total) in zip(payers, final_round, strict=True):
        assert total == owes[payer]
        if paid < total:
            assert stacks[payer] + deltas[payer] == 0, f"seat {payer} paid {paid} of {total} but kept chips"
