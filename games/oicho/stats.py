"""What a settled Oicho-Kabu round gives each seat's statistics (``/stats``).

:func:`facts` is a pure function of the round's result and a seat: ``{fact: value}``, non-zero values only. The bot
stores one row per fact and sums them (``COUNT`` is how many rounds gave the fact, ``SUM`` its total), so a fact is
either a count (1 per round) or an amount. Amounts taken from ``result.deltas`` are in that result's unit (the bot
passes chips: points × the table's stake). Everything read here is in the round's summary, which its results
message shows to everyone: every pile and the dealer's hand are turned up at the showdown, so no fact can tell what
a seat kept hidden.

* ``bank``: a round held as the dealer (親) with bets on it (a void round, where nobody bet, holds nothing);
  ``bank_net``: the seat's result over those rounds.
* ``piles``: piles (場札) the seat bet on as a child, counted once however many bets it put on one;
  ``piles_won``: those that beat the dealer.
* ``hand_<name>``: a named hand the seat had: the dealer's own hand, or a pile it backed. ``<name>`` is a special
  hand (``arashi``, the dealer's ``kuppin`` / ``shippin``, an enabled local hand such as ``gogo``) or ``kabu`` for
  a plain nine (カブ).
"""

from __future__ import annotations

from collections import Counter

from games.core.engine import DealResult
from games.oicho.results import HandResult, OichoResult
from games.oicho.rules import YAKU_KEYS

HANDS: tuple[str, ...] = ("arashi", "kuppin", "shippin", *YAKU_KEYS, "kabu")
"""The hands counted by name, strongest kinds first."""

FACTS: tuple[str, ...] = ("bank", "bank_net", "piles", "piles_won", *(f"hand_{name}" for name in HANDS))
"""Every fact :func:`facts` may give, in the order ``/stats`` shows them."""


def hand_name(hand: HandResult) -> str | None:
    """The name a hand is counted under, or None for a plain hand below nine."""
    if hand.kind != "plain":
        return hand.kind
    return "kabu" if hand.points == 9 else None


def facts(result: DealResult[OichoResult], seat: int) -> dict[str, int]:
    """What the round gives ``seat``'s statistics."""
    round_ = result.detail
    found: Counter[str] = Counter()
    if round_.void or round_.piles is None:
        return {}
    named: list[str | None] = []
    if seat == round_.dealer:
        found["bank"] += 1
        found["bank_net"] += result.deltas[seat]
        if round_.dealer_hand is not None:
            named.append(hand_name(round_.dealer_hand.hand))
    else:
        for pile in round_.piles:
            if not any(bet.seat == seat for bet in pile.bets):
                continue
            found["piles"] += 1
            found["piles_won"] += pile.outcome == "pile"
            named.append(hand_name(pile.hand))
    for name in named:
        if name is not None:
            found[f"hand_{name}"] += 1
    return {fact: value for fact, value in found.items() if value}
