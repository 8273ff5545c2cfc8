"""What a settled Hachi-Hachi Trick round gives each seat's statistics (``/stats``).

:func:`facts` is a pure function of the round's result and a seat: ``{fact: value}``, non-zero values only. The bot
stores one row per fact and sums them (``COUNT`` is how many rounds gave the fact, ``SUM`` its total). Amounts taken
from ``result.deltas`` are in that result's unit (the bot passes chips: points × the table's stake). Everything read
here is in the round's summary, which its results message shows to everyone: the declarations, the hands the rules
reveal at the settlement (a declarer's, a forced-out player's) and the tricks. A folded player's hand is never
revealed, so it is never counted.

* ``dealt``: the seat was dealt in (a player out of chips is not);
  ``played`` / ``folded`` / ``forced_out``: what the seat declared (出る・降りる), or that it was forced out (降ろされ).
* ``pot_won``: the seat took the pot (alone, by a split, or with the most tricks).
* ``mizuten``: the seat declared Mizuten (見ず転) as the start player; ``mizuten_bonus``: and was paid its bonus;
  ``mizuten_net``: the seat's result over its Mizuten rounds.
* ``tricks``: tricks the seat took in a round played out.
* ``yaku_<key>``: a hand combination (手役) of the hand table the seat scored with a revealed hand.

A table stopped with chips in the pot ends with a refund, not a round: it gives no facts.
"""

from __future__ import annotations

from collections import Counter

from games.core.engine import DealResult
from games.hachi_hachi.results import HachiResult, RoundResult
from games.hachi_hachi.rules import YAKU_KEYS

FACTS: tuple[str, ...] = (
    "dealt",
    "played",
    "folded",
    "forced_out",
    "pot_won",
    "tricks",
    "mizuten",
    "mizuten_bonus",
    "mizuten_net",
    *(f"yaku_{key}" for key in YAKU_KEYS),
)
"""Every fact :func:`facts` may give, in the order ``/stats`` shows them."""


def facts(result: DealResult[HachiResult], seat: int) -> dict[str, int]:
    """What the round gives ``seat``'s statistics."""
    round_ = result.detail
    if not isinstance(round_, RoundResult) or seat not in round_.players:
        return {}
    found: Counter[str] = Counter(dealt=1)
    calls = {d.seat: d.call for d in round_.declarations}
    found["played"] += seat in round_.declarers
    found["folded"] += calls.get(seat) == "fold"
    found["forced_out"] += seat in round_.forced_out
    found["pot_won"] += any(share.seat == seat and share.how != "refund" for share in round_.pot_to)
    if round_.tricks is not None:
        found["tricks"] += round_.tricks[seat]
    if round_.mizuten and round_.sp == seat:
        found["mizuten"] += 1
        found["mizuten_bonus"] += round_.mizuten_paid
        found["mizuten_net"] += result.deltas[seat]
    for hand in round_.hands:
        if hand.seat == seat:
            for key in hand.yaku:
                found[f"yaku_{key}"] += 1
    return {fact: value for fact, value in found.items() if value}
