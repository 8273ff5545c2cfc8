"""A baseline bot player for Oicho-Kabu that looks only at its own seat view."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core.actions import Action, AmountRange, LegalAction
from games.core.cards import KabuCard
from games.oicho.views import OichoSeatView


def _points(cards: Sequence[KabuCard | None]) -> int | None:
    if any(c is None for c in cards):
        return None
    return sum(c.points for c in cards if c is not None) % 10


def choose(view: OichoSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """One sensible action among ``legal``.

    * betting: one or two modest bets (about a tenth of the stack, within the offered range), then done;
    * a pile decision or the dealer's optional second extra: keep any special hand (Kuppin, Shippin,
      a local yaku), else draw on 4 or less, stand from 6, and flip a coin on 5;
    * between rounds the dealer continues.
    """
    ranges = [item for item in legal if isinstance(item, AmountRange)]
    exact = [item for item in legal if isinstance(item, Action)]
    verbs = {a.verb: a for a in exact}
    if view.phase == "betting":
        wanted = 1 if view.my_bets and rng.random() < 0.6 else 2
        if ranges and len({p for p, _ in view.my_bets}) < wanted:
            pick = rng.choice(ranges)
            modest = max(1, view.stacks[view.seat] // 10)
            amount = min(pick.hi, max(pick.lo, rng.randint(1, modest)))
            return pick.make(amount)
        return verbs["done"]
    if "continue" in verbs:
        return verbs["continue"]
    if "draw" in verbs and "stand" in verbs:
        if view.phase == "dealer":
            hand, total = view.dealer_hand.hand, _points(view.dealer_hand.cards)
        else:
            pile = view.piles[(view.current_pile or 1) - 1]
            hand, total = pile.hand, _points(pile.cards)
        if hand is not None and hand.tier > 0:
            return verbs["stand"]  # keep Kuppin / Shippin / a local yaku
        if total is None:
            return verbs[rng.choice(["draw", "stand"])]
        if total <= 4:
            return verbs["draw"]
        if total >= 6:
            return verbs["stand"]
        return verbs["draw"] if rng.random() < 0.5 else verbs["stand"]
    if exact:
        return exact[0]
    return ranges[0].make(ranges[0].lo)
