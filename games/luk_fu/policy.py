"""The Luk Fu bots, at three levels, each looking only at its own seat view (:data:`POLICIES`).

**normal** (:func:`normal`, the baseline every table has had as ``choose``):

* call: counts the tricks the hand is likely to take (established top cards and, as declarer, 1C 1T LT; high
  sets; long runs in high suits) and plays from ``CALL_AT`` (half a trick less for a parent holding a quad or a
  4+ run, who would be paid only half if he won after passing);
* Five Tigers: always reveals when allowed (the credit alone wins the hand);
* lead: the lead with the best expected tricks (chance that nothing can beat it × cards); an established
  (old) card or a set/run that cannot be beaten first; with nothing likely to win, its cheapest single;
* follow: the weakest beating play when it plays last, else the strongest (a set of 1s ranks as the rules
  say); face down, its least useful cards (never an established card or one of a set/run while a worse card
  is left);
* stop/continue: stops as soon as it may (it holds 6+, so it wins now).

**easy** (:func:`easy`): a newcomer's game. It declares by counting its high cards (7s, 8s, 9s) and nothing
else, leads its lowest card (a set or run only when no single is allowed), beats with its highest card
whenever it must beat, discards its lowest cards, reveals Five Tigers and stops as soon as it may.

**strong** (:func:`games.luk_fu.search.strong`): searches possible deals of the unseen cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core.actions import Action, LegalAction, exact_actions
from games.core.cards import LUKFU_SUITS, LukFuCard
from games.luk_fu import actions as act
from games.luk_fu.combos import (
    PERMANENT_OLD,
    canonical,
    classify,
    combos,
    has_big_combination,
    set_rank,
    unbeatable_lead,
)
from games.luk_fu.search import strong
from games.luk_fu.views import LukFuSeatView
from games.registry import Policy

CALL_AT = 4.0
"""Declare from this estimate: measured in self-play, declaring from 4 wins more chips than from 5 or 6 (the
declarer wins most hands he plays, and most deals get played rather than passed out)."""


def estimate_tricks(hand: Sequence[LukFuCard], *, as_declarer: bool = True) -> float:
    """A rough count of the tricks this hand should take if it declares."""
    held = set(hand)
    used: set[LukFuCard] = set()
    est = 0.0
    if as_declarer:
        est += sum(1 for c in hand if c in PERMANENT_OLD)
        used |= held & PERMANENT_OLD
    for suit in LUKFU_SUITS:
        rank = 9
        while rank >= 1 and LukFuCard(rank, suit) in held:
            used.add(LukFuCard(rank, suit))
            est += 1
            rank -= 1
    for combo in combos(tuple(canonical(hand))):
        if used & set(combo):
            continue
        kind = classify(combo)
        top = max(c.rank for c in combo)
        if kind in ("triple", "quad"):
            if combo[0].rank == 1 or top >= 7:
                est += len(combo) * 0.8
                used |= set(combo)
        elif kind == "run" and len(combo) >= 4 and combo[0].suit in "MT":
            est += len(combo) * 0.7
            used |= set(combo)
    return est


def _unknown(card: LukFuCard, view: LukFuSeatView) -> bool:
    return card not in view.hand and card not in view.faceup_played and card not in view.own_discards


def win_chance(play: tuple[LukFuCard, ...], view: LukFuSeatView) -> float:
    """How likely a lead is to win its trick, from what the seat can see."""
    if unbeatable_lead(play):
        return 1.0
    kind = classify(play)
    if kind == "single":
        card = play[0]
        if card in view.old:
            return 0.95
        higher = sum(1 for r in range(card.rank + 1, 10) if _unknown(LukFuCard(r, card.suit), view))
        return 0.5**higher
    size = len(play)
    threats = 0
    if kind in ("triple", "quad"):
        rank = play[0].rank
        above = [9] if rank == 1 else list(range(rank + 1, 10))
        for r in above:
            unknown = sum(1 for s in LUKFU_SUITS if _unknown(LukFuCard(r, s), view))
            threats += unknown >= size
        return 0.4**threats
    suit = play[0].suit_order
    top = max(c.rank for c in play)
    for s in range(suit, 4):
        for lo in range(1, 11 - size):
            hi = lo + size - 1
            if s == suit and hi <= top:
                continue
            if all(_unknown(LukFuCard(r, LUKFU_SUITS[s]), view) for r in range(lo, hi + 1)):
                threats += 1
    return 0.6**threats


def card_value(card: LukFuCard, view: LukFuSeatView, in_combo: set[LukFuCard]) -> float:
    """How much a card is worth keeping (discard the lowest).

    1C, 1T and LT (always old) are kept: an exempt declarer leads them as sure tricks, and so may anyone else
    whose cards are all old (measured: valuing them as junk for a player who did not declare loses chips)."""
    if card in view.old:
        return 20.0 if card not in PERMANENT_OLD else 15.0
    value = card.rank + card.suit_order * 0.3
    if card in in_combo:
        value += 6
    return value


def _strength(play: tuple[LukFuCard, ...], ones_high: bool = False) -> tuple[int, int, int]:
    """Orders the plays of one kind from weakest to strongest (sets of 1s rank between 8s and 9s under
    ``ones_set_rank = high``)."""
    top = max(play, key=lambda c: c.rank)
    kind = classify(play)
    if kind == "run":
        return (play[0].suit_order, top.rank, 0)
    if kind in ("triple", "quad") and ones_high:
        return (set_rank(top.rank), top.suit_order, 0)
    return (top.rank, top.suit_order, 0)


def normal(view: LukFuSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """The normal level: one sensible action among ``legal`` (module docstring)."""
    actions = exact_actions(legal)
    by_verb: dict[str, list[Action]] = {}
    for a in actions:
        by_verb.setdefault(a.verb, []).append(a)
    if "tigers" in by_verb:
        return by_verb["tigers"][0]
    if "keep" in by_verb:
        return by_verb["keep"][0]
    if "stop" in by_verb:
        return by_verb["stop"][0]
    if "play" in by_verb:
        est = estimate_tricks(view.hand)
        threshold = CALL_AT - 0.5 if view.seat == view.parent and has_big_combination(view.hand) else CALL_AT
        return by_verb["play"][0] if est >= threshold else by_verb["pass"][0]
    if "lead" in by_verb:
        return _lead(view, [a for a in by_verb["lead"] if isinstance(a, act.Lead)])
    if "follow" in by_verb:
        follows = [a for a in by_verb["follow"] if isinstance(a, act.Follow)]
        last = view.trick is not None and len(view.trick.plays) == len(view.active) - 1
        ones_high = view.rules.ones_set_rank == "high"
        ordered = sorted(follows, key=lambda a: _strength(a.cards, ones_high))
        return ordered[0] if last else ordered[-1]
    if "discard" in by_verb:
        return _discard(view, by_verb["discard"]) or actions[0]
    return actions[0] if actions else rng.choice(list(legal))  # type: ignore[return-value]


def _lead(view: LukFuSeatView, leads: list[act.Lead]) -> Action:
    scored = [(win_chance(a.cards, view) * len(a.cards), len(a.cards), a) for a in leads]
    best = max(scored, key=lambda t: (t[0], t[1]))
    if best[0] >= 0.6:
        return best[2]
    in_combo = {c for combo in combos(canonical(view.hand)) for c in combo}
    singles = [a for a in leads if len(a.cards) == 1]
    if singles:
        return min(singles, key=lambda a: card_value(a.cards[0], view, in_combo))
    return min(leads, key=lambda a: _strength(a.cards))


def _discard(view: LukFuSeatView, options: list[Action]) -> Action | None:
    count = view.must_play
    if count <= 0:
        return None
    in_combo = {c for combo in combos(canonical(view.hand)) for c in combo}
    ranked = sorted(view.hand, key=lambda c: card_value(c, view, in_combo))
    wanted = act.Discard(tuple(ranked[:count]))
    return wanted if wanted in options else None


# ---------------------------------------------------------------------------------------------- easy

EASY_HIGH_CARDS = 5
"""Easy declares holding this many 7s, 8s and 9s (about one hand in four), whatever else it holds."""


def _low_first(card: LukFuCard) -> tuple[int, int]:
    return (card.rank, card.suit_order)


def easy(view: LukFuSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """The easy level: a newcomer's mistakes (module docstring), never a random click."""
    actions = exact_actions(legal)
    by_verb: dict[str, list[Action]] = {}
    for a in actions:
        by_verb.setdefault(a.verb, []).append(a)
    for verb in ("tigers", "keep", "stop"):
        if verb in by_verb:
            return by_verb[verb][0]
    if "play" in by_verb:
        high = sum(1 for c in view.hand if c.rank >= 7)
        return by_verb["play"][0] if high >= EASY_HIGH_CARDS else by_verb["pass"][0]
    if "lead" in by_verb:
        leads = [a for a in by_verb["lead"] if isinstance(a, act.Lead)]
        singles = [a for a in leads if len(a.cards) == 1]
        if singles:
            return min(singles, key=lambda a: _low_first(a.cards[0]))
        ones_high = view.rules.ones_set_rank == "high"
        return min(leads, key=lambda a: (len(a.cards), _strength(a.cards, ones_high)))
    if "follow" in by_verb:
        follows = [a for a in by_verb["follow"] if isinstance(a, act.Follow)]
        ones_high = view.rules.ones_set_rank == "high"
        return max(follows, key=lambda a: _strength(a.cards, ones_high))
    if "discard" in by_verb:
        lowest = act.Discard(tuple(sorted(view.hand, key=_low_first)[: view.must_play]))
        return lowest if lowest in by_verb["discard"] else by_verb["discard"][0]
    return actions[0] if actions else rng.choice(list(legal))  # type: ignore[return-value]


choose = normal
"""The policy every table used before levels existed (the registry's ``policy`` until it lists levels)."""

POLICIES: dict[str, Policy] = {"easy": easy, "normal": normal, "strong": strong}
"""The three bot levels (issue 19's interface): each reads only its seat view, the legal actions and the rng."""
