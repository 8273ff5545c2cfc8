"""What a settled OFC hand gives each seat's statistics (``/stats``).

:func:`facts` is a pure function of the hand's result and a seat: ``{fact: value}``, non-zero values only. The bot
stores one row per fact and sums them (``COUNT`` is how many hands gave the fact, ``SUM`` its total). Everything read
here is in the hand's summary, which its results message shows to everyone: every board is turned up at the
scoring, so no fact can tell what a seat kept hidden (a Fantasyland player's discards are never read).

* ``foul``: the board fouled (バースト); ``royalties``: the board's royalties in points (a fouled board has none).
* ``scoops``: opponents the seat beat on all three rows (a fouled opponent is scooped).
* ``fl_entry``: the hand earned Fantasyland from outside it; ``fl_hand``: the hand was played in Fantasyland;
  ``fl_stay``: a Fantasyland hand that earned another.
"""

from __future__ import annotations

from games.core.engine import DealResult
from games.ofc.results import OFCResult

FACTS: tuple[str, ...] = ("foul", "royalties", "scoops", "fl_entry", "fl_hand", "fl_stay")
"""Every fact :func:`facts` may give, in the order ``/stats`` shows them."""


def facts(result: DealResult[OFCResult], seat: int) -> dict[str, int]:
    """What the hand gives ``seat``'s statistics."""
    hand = result.detail
    in_fantasyland = hand.fantasyland[seat]
    earned = hand.fantasyland_next[seat] > 0
    scoops = sum(
        1
        for pair in hand.pairs
        if (pair.a == seat and pair.rows == (1, 1, 1)) or (pair.b == seat and pair.rows == (-1, -1, -1))
    )
    found = {
        "foul": int(hand.fouled[seat]),
        "royalties": hand.royalties[seat],
        "scoops": scoops,
        "fl_entry": int(earned and not in_fantasyland),
        "fl_hand": int(in_fantasyland),
        "fl_stay": int(earned and in_fantasyland),
    }
    return {fact: value for fact, value in found.items() if value}
