"""The easy-level bot for Hachi-Hachi Trick: a newcomer's rules of thumb, each one understandable, none random.

* Mizuten: never (a newcomer does not gamble before seeing his cards);
* play or fold: counts its high cards (10 to Ace) and trumps, and plays with ``PLAY_COUNT`` or more of them,
  whatever the pot, the fee, the field or how many have already declared (so it joins two strong declarers, and
  pays the players its Play forces out, with a middling hand); the last speaker with nobody declared still plays,
  as anyone would see that a lone declarer takes the pot;
* split or fight: always fights (it came to play);
* trick play: plays its highest card every trick (the highest rank it may play, a trump before a side card of the
  same rank), so it wastes Aces on tricks already lost and ruffs high.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core.actions import Action, LegalAction, exact_actions
from games.core.cards import FrenchCard
from games.hachi_hachi import actions as act
from games.hachi_hachi.views import HachiSeatView

PLAY_COUNT = 4
"""High cards (10 to Ace, or any trump) the easy bot wants before it plays."""


def strong_cards(hand: Sequence[FrenchCard], trump: str | None) -> int:
    """The cards a newcomer counts as strong: honours (10 to Ace) and trumps."""
    return sum(1 for c in hand if c.rank >= 10 or c.suit == trump)


def choose(view: HachiSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """The easy bot's action among ``legal``."""
    actions = exact_actions(legal)
    verbs = {a.verb: a for a in actions}
    if "mizuten" in verbs:
        return verbs["no-mizuten"]
    if "fold" in verbs:
        lone = not view.declarers and len(view.declarations) == len(view.players) - 1
        plays = lone or strong_cards(view.hand, view.trump) >= PLAY_COUNT
        return verbs["play"] if plays else verbs["fold"]
    if "play" in verbs:
        return verbs["play"]
    if "fight" in verbs:
        return verbs["fight"]
    cards = [a.card for a in actions if isinstance(a, act.Card)]
    if cards:
        return act.Card(max(cards, key=lambda c: (c.rank, c.suit == view.trump, c.suit)))
    return actions[0]
