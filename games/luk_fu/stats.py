"""What a settled Luk Fu hand gives each seat's statistics (``/stats``).

:func:`facts` is a pure function of the hand's result and a seat: ``{fact: value}``, non-zero values only. The bot
stores one row per fact and sums them (``COUNT`` is how many hands gave the fact, ``SUM`` its total). Everything read
here is in the hand's summary, which its results message shows to everyone (the call, who won, the tricks, a
revealed Five Tigers); cards discarded face down and a hand's unplayed cards are never read.

* ``sat_out``: with four at the table, the hand the seat sat out (休み).
* ``declared``: the seat was the declarer (宣言者); ``declared_won``: and won the hand.
* ``five_tigers``: the seat revealed Five Tigers (五虎).
* ``tricks``: tricks the seat took.
"""

from __future__ import annotations

from games.core.engine import DealResult
from games.luk_fu.results import LukFuResult

FACTS: tuple[str, ...] = ("declared", "declared_won", "five_tigers", "tricks", "sat_out")
"""Every fact :func:`facts` may give, in the order ``/stats`` shows them."""


def facts(result: DealResult[LukFuResult], seat: int) -> dict[str, int]:
    """What the hand gives ``seat``'s statistics."""
    hand = result.detail
    if seat not in hand.active:
        return {"sat_out": 1}
    declared = hand.declarer == seat
    found = {
        "declared": int(declared),
        "declared_won": int(declared and hand.winner == seat),
        "five_tigers": int(hand.five_tigers is not None and hand.five_tigers.seat == seat),
        "tricks": hand.tricks[seat],
    }
    return {fact: value for fact, value in found.items() if value}
