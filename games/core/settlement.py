"""Turning what players owe each other into stack changes that never overdraw (rules.md §0.4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Debt:
    """``payer`` owes ``payee`` ``amount`` points (amount ≥ 0)."""

    payer: int
    payee: int
    amount: int


def settle(debts: Sequence[Debt], stacks: Sequence[int], first: int = 0) -> list[int]:
    """Per-seat stack changes, summing to zero, with no stack driven below 0.

    Opposite debts between two players are netted first. A player may pay from their stack plus
    what they receive in the same settlement; one who still cannot cover everything pays all they
    have and their creditors share it pro rata (rounded down), the chips left by rounding going one
    at a time to those creditors in seat order starting at seat ``first`` (the dealer's left).
    """
    n = len(stacks)
    if any(s < 0 for s in stacks):
        raise ValueError("stacks cannot be negative")
    net: dict[tuple[int, int], int] = {}
    for d in debts:
        if d.amount < 0:
            raise ValueError("a debt cannot be negative")
        if d.payer == d.payee or d.amount == 0:
            continue
        net[(d.payer, d.payee)] = net.get((d.payer, d.payee), 0) + d.amount
    owed: dict[int, dict[int, int]] = {}
    for (a, b), amount in net.items():
        back = net.get((b, a), 0)
        if amount > back:
            owed.setdefault(a, {})[b] = amount - back
    total_owed = {p: sum(c.values()) for p, c in owed.items()}
    pays = dict(total_owed)

    def distribute() -> dict[int, dict[int, int]]:
        plan: dict[int, dict[int, int]] = {}
        for payer, creditors in owed.items():
            plan[payer] = _pro_rata(pays[payer], creditors, total_owed[payer], n, first)
        return plan

    # Paying less can only lower what others receive, so this converges to the largest consistent payments.
    while True:
        plan = distribute()
        received = [0] * n
        for shares in plan.values():
            for payee, amount in shares.items():
                received[payee] += amount
        changed = False
        for payer in owed:
            can = min(total_owed[payer], stacks[payer] + received[payer])
            if can < pays[payer]:
                pays[payer] = can
                changed = True
        if not changed:
            break
    deltas = list(received)
    for payer in owed:
        deltas[payer] -= pays[payer]
    return deltas


def _pro_rata(paid: int, creditors: dict[int, int], total: int, n: int, first: int) -> dict[int, int]:
    if paid >= total:
        return dict(creditors)
    shares = {p: owed * paid // total for p, owed in creditors.items()}
    left = paid - sum(shares.values())
    order = [(first + k) % n for k in range(n)]
    while left > 0:
        for seat in order:
            if left == 0:
                break
            if seat in creditors and shares[seat] < creditors[seat]:
                shares[seat] += 1
                left -= 1
    return shares
