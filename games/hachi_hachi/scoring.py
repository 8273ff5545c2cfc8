"""Hachi-Hachi Trick money as pure functions (rules.md §3.2): fold fees and who owes whom.

Every amount here is before the §0.4 cap; the engine settles a round's payments once, at its end, through
:func:`games.core.settlement.settle`. ``mult`` is the field multiplier M.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Payment:
    """``payer`` owes ``payee`` ``amount``; ``kind`` is ``forced_out``, ``hand``, ``trick`` or ``mizuten``."""

    payer: int
    payee: int
    amount: int
    kind: str


def fold_fee(folder_no: int, *, first: int, step: int, mult: int) -> int:
    """The fee of the ``folder_no``-th folder of a round (1-based): ``first + step × (folder_no − 1)``, times M
    (pass ``mult = 1`` when M does not apply to fees)."""
    return (first + step * (folder_no - 1)) * mult


def forced_out_payments(values: Mapping[int, int], declarers: Sequence[int], mult: int) -> list[Payment]:
    """6(a): each forced-out seat F (``values[F]`` = forced-out column + Aces × ace value) receives
    ``M × value`` from each declarer."""
    return [
        Payment(d, f, value * mult, "forced_out") for f, value in values.items() if value * mult > 0 for d in declarers
    ]


def pairwise(values: Mapping[int, int], order: Sequence[int], rate: int, kind: str) -> list[Payment]:
    """For each pair with ``values[i] > values[j]``, j pays i ``rate × (vᵢ − vⱼ)`` (``order``: the declarers)."""
    out: list[Payment] = []
    for a, i in enumerate(order):
        for j in order[a + 1 :]:
            diff = values[i] - values[j]
            if diff > 0 and rate:
                out.append(Payment(j, i, rate * diff, kind))
            elif diff < 0 and rate:
                out.append(Payment(i, j, -rate * diff, kind))
    return out


def hand_payments(normal: Mapping[int, int], declarers: Sequence[int], mult: int) -> list[Payment]:
    """6(b): for each pair of declarers with normal values vᵢ > vⱼ, j pays i ``M × (vᵢ − vⱼ)``."""
    return pairwise(normal, declarers, mult, "hand")


def trick_payments(tricks: Mapping[int, int], declarers: Sequence[int], mult: int, trick_rate: int) -> list[Payment]:
    """Step 8: for each pair of declarers with tricks tᵢ > tⱼ, j pays i ``M × trick_rate × (tᵢ − tⱼ)``."""
    return pairwise(tricks, declarers, mult * trick_rate, "trick")


def pot_taker(tricks: Mapping[int, int], declarers: Sequence[int]) -> int:
    """Step 9: the declarer with the most tricks; among tied ones, the earliest declarer."""
    most = max(tricks[d] for d in declarers)
    return next(d for d in declarers if tricks[d] == most)


def split_pot(pot: int) -> tuple[int, int]:
    """A split: D1 gets ⌈pot/2⌉ and D2 ⌊pot/2⌋."""
    return (pot + 1) // 2, pot // 2


def mizuten_payments(sp: int, others: Sequence[int], bonus: int, mult: int) -> list[Payment]:
    """A successful Mizuten: every other player of the round pays SP ``bonus × M``."""
    amount = bonus * mult
    return [Payment(o, sp, amount, "mizuten") for o in others if amount > 0]
