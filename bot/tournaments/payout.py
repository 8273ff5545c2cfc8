"""Prize pools: the payout tables a moderator chooses from, and how a pool is shared by the final standings.

The pool is every buy-in. Each paid place gets its share of the pool, rounded down; places beyond the entrants are
not paid (their share stays in the pool). Members tied on chips share the places they cover: the sum of those
places' amounts, split evenly, rounded down. Whatever rounding leaves over goes to the top place (the first member
in the standings order), so the prizes always add up to the pool exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

PAYOUTS: dict[str, tuple[int, ...]] = {
    "winner": (100,),
    "65-35": (65, 35),
    "50-30-20": (50, 30, 20),
    "40-30-20-10": (40, 30, 20, 10),
}
"""Each payout table's shares of the pool, in percent, by place."""
DEFAULT_PAYOUT = "50-30-20"


def prizes(pool: int, shares: Sequence[int], standings: Sequence[tuple[int, int]]) -> dict[int, int]:
    """Each member's prize: ``standings`` is ``(user, chips won)`` ordered best first (ties in their tie-break order).
    Every member is in the answer (0 when unpaid); the prizes sum to ``pool``."""
    if not standings:
        return {}
    amounts = [pool * share // 100 for share in shares[: len(standings)]]
    amounts += [0] * (len(standings) - len(amounts))
    prize: dict[int, int] = {}
    start = 0
    while start < len(standings):
        end = start
        while end + 1 < len(standings) and standings[end + 1][1] == standings[start][1]:
            end += 1
        group = standings[start : end + 1]
        each = sum(amounts[start : end + 1]) // len(group)
        for user, _ in group:
            prize[user] = each
        start = end + 1
    top = standings[0][0]
    prize[top] += pool - sum(prize.values())
    return prize
