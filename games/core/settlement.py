"""Turning what players owe each other into stack changes that never overdraw (rules.md §0.4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Debt:
    """``payer`` owes ``payee`` ``amount`` points (amount ≥ 0)."""

    payer: int
    payee: int
    amount: int


def settle(debts: Sequence[Debt], stacks: Sequence[int], first: int = 0) -> list[int]:
    """Per-seat stack changes, summing to zero, with no stack driven below 0.

    Opposite debts between two players are netted first. A player may pay from their stack plus
    what they receive in the same settlement; one who still cannot cover everything (*short*) pays
    all they have, stack and receipts alike, and ends at 0. What the short players have flows to
    their creditors pro rata to what each was owed, passing on through creditors who are short
    themselves, until it reaches players who pay in full (the exact clearing of a payment network,
    computed in fractions). Only then is it rounded: each such player gets their share rounded down,
    and the chips left by rounding go one at a time to them in seat order starting at seat ``first``
    (the dealer's left), never beyond what the short players owed them.

    Rounding once at the end, rather than at each short payer, is what keeps the rule exact when
    short players owe each other: rounding at every step makes what a creditor receives go *down*
    when a debtor pays *more* (the Alabama paradox), and no consistent set of payments may exist.
    """
    n = len(stacks)
    if any(s < 0 for s in stacks):
        raise ValueError("stacks cannot be negative")
    owed = _netted(debts)
    total = {p: sum(c.values()) for p, c in owed.items()}
    short = _short_payers(owed, total, stacks, n)
    deltas = [0] * n
    # Players paying in full pay exactly what they owe; what goes to short players is passed on below.
    into_short = [Fraction(0)] * n
    for payer, creditors in owed.items():
        if payer in short:
            continue
        deltas[payer] -= total[payer]
        for payee, amount in creditors.items():
            if payee in short:
                into_short[payee] += amount
            else:
                deltas[payee] += amount
    if not short:
        return deltas
    # Everything short players hold ends with players outside that set: absorb it along the debts.
    held = {i: stacks[i] + into_short[i] for i in short}
    reach = _absorption(owed, total, short, n)
    due = [Fraction(0)] * n
    cap = [0] * n
    for i in short:
        deltas[i] -= stacks[i]
        for k in range(n):
            due[k] += held[i] * reach[i][k]
        for payee, amount in owed[i].items():
            if payee not in short:
                cap[payee] += amount
    shares = [int(d) for d in due]  # rounded down (non-negative)
    left = int(sum(held.values())) - sum(shares)
    order = [(first + k) % n for k in range(n)]
    while left > 0:
        for seat in order:
            if left == 0:
                break
            if shares[seat] < cap[seat]:
                shares[seat] += 1
                left -= 1
    for k in range(n):
        deltas[k] += shares[k]
    return deltas


def _netted(debts: Sequence[Debt]) -> dict[int, dict[int, int]]:
    """payer → payee → amount, opposite debts netted, zero and self debts dropped."""
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
    return owed


def _short_payers(owed: dict[int, dict[int, int]], total: dict[int, int], stacks: Sequence[int], n: int) -> set[int]:
    """The payers who cannot pay in full, by the largest consistent payments (Eisenberg-Noe).

    Start by assuming everyone pays in full; whoever then cannot is short and pays all they have,
    which may make others short in turn. The set only grows, so this ends within ``len(owed)`` rounds.
    """
    short: set[int] = set()
    while True:
        pays = _payments(owed, total, stacks, short, n)
        received = [Fraction(0)] * n
        for payer, creditors in owed.items():
            for payee, amount in creditors.items():
                received[payee] += pays[payer] * amount / total[payer]
        more = {p for p in owed if p not in short and stacks[p] + received[p] < total[p]}
        if not more:
            return short
        short |= more


def _payments(
    owed: dict[int, dict[int, int]], total: dict[int, int], stacks: Sequence[int], short: set[int], n: int
) -> dict[int, Fraction]:
    """What each payer pays when those in ``short`` pay all they have and the rest pay in full."""
    pays: dict[int, Fraction] = {p: Fraction(t) for p, t in total.items()}
    if not short:
        return pays
    members = sorted(short)
    index = {s: k for k, s in enumerate(members)}
    size = len(members)
    # p_i = stack_i + Σ_j p_j · owed_j[i] / total_j, for i short; the p_j of full payers are known.
    rows = [[Fraction(0)] * (size + 1) for _ in range(size)]
    for k, i in enumerate(members):
        rows[k][k] += 1
        rows[k][size] += stacks[i]
    for payer, creditors in owed.items():
        for payee, amount in creditors.items():
            if payee not in short:
                continue
            weight = Fraction(amount, total[payer])
            if payer in short:
                rows[index[payee]][index[payer]] -= weight
            else:
                rows[index[payee]][size] += total[payer] * weight
    for k, value in enumerate(_solve(rows)):
        pays[members[k]] = value
    return pays


def _absorption(
    owed: dict[int, dict[int, int]], total: dict[int, int], short: set[int], n: int
) -> dict[int, list[Fraction]]:
    """For each short payer, the fraction of a chip it holds that ends with each player outside ``short``."""
    members = sorted(short)
    index = {s: k for k, s in enumerate(members)}
    size = len(members)
    reach: dict[int, list[Fraction]] = {i: [Fraction(0)] * n for i in members}
    for target in range(n):
        if target in short:
            continue
        # x_i = owed_i[target]/total_i + Σ_{j short} owed_i[j]/total_i · x_j
        rows = [[Fraction(0)] * (size + 1) for _ in range(size)]
        for k, i in enumerate(members):
            rows[k][k] += 1
            for payee, amount in owed[i].items():
                weight = Fraction(amount, total[i])
                if payee == target:
                    rows[k][size] += weight
                elif payee in short:
                    rows[k][index[payee]] -= weight
        for k, value in enumerate(_solve(rows)):
            reach[members[k]][target] = value
    return reach


def _solve(rows: list[list[Fraction]]) -> list[Fraction]:
    """Gauss-Jordan elimination of an augmented square system with a unique solution, in fractions."""
    size = len(rows)
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[r][size] for r in range(size)]
