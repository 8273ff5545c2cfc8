"""The baseline bot for Hachi-Hachi Trick (:func:`choose`) and the normal level (:func:`choose_normal`); both look
only at their own seat view and differ only in how they value Play.

* Mizuten: decided before any card is seen, so on the position alone: rarely (``MIZUTEN_RATE``), a little more
  often with a fat pot carried over, never with a short stack, and never where it cannot pay (two declarers at
  most), since there it only takes away the right to fold;
* play or fold: an expected-value guess in points (the normal level averages it over how many of the players still
  to speak join, :func:`play_value_by_joiners`; the baseline plugs in the mean number, :func:`play_value`). Playing is worth the tricks the hand should take
  (:func:`estimate_tricks`: Aces, Kings, trumps, voids to ruff with) against the rivals it will probably face
  (those who declared, and a share of those still to speak), plus its hand value against an average hand, plus a
  chance at the pot, less what forced-out players would be paid if its Play closes the declarations. Folding
  costs the fee now. The last speaker with nobody declared always plays: a single declarer takes the pot;
* split or fight: fights when the tricks and hand value it expects beat half the pot;
* trick play: leads an established card (the highest left of its suit) or draws trumps with the top trump;
  otherwise leads low from its longest side suit. Following, it wins as cheaply as it can when it plays last,
  otherwise only with a card that cannot be beaten in the suit; it ruffs a side-suit trick with its lowest trump
  (over-ruffs when it can) and otherwise dumps its least useful card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from games.core.actions import Action, LegalAction, exact_actions
from games.core.cards import SUIT_CHARS, FrenchCard, french_deck
from games.hachi_hachi import actions as act
from games.hachi_hachi.rules import HachiHachiRules
from games.hachi_hachi.views import HachiSeatView

MIZUTEN_RATE = 0.03
"""How often a start player declares Mizuten blind (more with a large pot carried over)."""
AVERAGE_HAND = 1.0
"""The mean normal value of a 7-card hand under the default table (about 0.55 from combinations, 0.43 weak)."""
AVERAGE_FORCED_OUT = 1.1
"""What a forced-out player is paid on average before M (0.54 Aces and about 0.55 from the table)."""
JOIN_RATE = 0.4
"""How likely each player still to speak is to declare Play, as the bot guesses."""

_TRUMP_WORTH = {14: 1.0, 13: 0.85, 12: 0.7, 11: 0.55, 10: 0.45}
_SIDE_WORTH = {14: 0.8, 13: 0.4, 12: 0.12}
_FULL_DECK = tuple(french_deck())


def estimate_tricks(hand: Sequence[FrenchCard], trump: str | None) -> float:
    """A rough count of the tricks ``hand`` should take in trick play with ``trump``."""
    est = 0.0
    by_suit: dict[str, list[int]] = {s: [] for s in SUIT_CHARS}
    for card in hand:
        by_suit[card.suit].append(card.rank)
    trumps = len(by_suit[trump]) if trump else 0
    for suit, ranks in by_suit.items():
        if suit == trump:
            est += sum(_TRUMP_WORTH.get(r, 0.3) for r in ranks)
            continue
        for r in ranks:
            worth = _SIDE_WORTH.get(r, 0.0)
            if r == 13 and 14 not in ranks and len(ranks) == 1:
                worth = 0.2  # a bare King falls to the Ace
            est += worth
    if trumps:
        voids = sum(1 for s, ranks in by_suit.items() if s != trump and not ranks)
        est += 0.35 * min(voids, trumps)
    return est


def _remaining_to_speak(view: HachiSeatView) -> int:
    return len(view.players) - len(view.declarations) - 1


def play_value(view: HachiSeatView) -> float:
    """What the bot expects Play to be worth in points, against ``-fold_fee`` for Fold."""
    value = view.hand_value.normal if view.hand_value is not None else 0
    return play_value_of(
        estimate_tricks(view.hand, view.trump),
        value,
        declared=len(view.declarers),
        later=_remaining_to_speak(view),
        pot=view.pot,
        mult=view.mult,
        rules=view.rules,
    )


def play_value_of(
    est: float, value: int, *, declared: int, later: int, pot: int, mult: int, rules: HachiHachiRules
) -> float:
    """:func:`play_value` from its parts: ``est`` tricks (:func:`estimate_tricks`), the hand's normal ``value``,
    the declarers so far, the players still to speak after this one, the pot now and M."""
    slots = rules.max_declarers - declared - 1
    further = min(float(slots), later * JOIN_RATE)
    rivals = declared + further
    if rivals <= 0.0:
        return float(pot)  # nobody can join: the single declarer takes the pot
    share = 7.0 / (rivals + 1.0)
    gain = (est - share) * rules.trick_rate * rivals * mult
    gain += (value - AVERAGE_HAND) * rivals * mult
    chance = min(0.95, max(0.03, 1.0 / (rivals + 1.0) + 0.18 * (est - share)))
    gain += chance * pot
    if declared + 1 == rules.max_declarers and later > 0:
        gain -= later * AVERAGE_FORCED_OUT * mult  # this Play forces them out, and each declarer pays them
    return gain


JoinOutcome = tuple[float, int, float, int]
"""One way the players still to speak may go: (probability, rivals, pot, forced-out players)."""


def join_outcomes(
    *, declared: int, later: int, folds: int, pot: int, mult: int, rules: HachiHachiRules
) -> list[JoinOutcome]:
    """The ways the ``later`` players may go once this one plays: each in turn plays with probability
    ``JOIN_RATE`` (until the declarers are full, when the rest are forced out) or folds and adds his fee to the
    pot. Outcomes with the same rivals, pot and forced-out players are merged."""
    fee_mult = mult if rules.mult_applies_to_fold_fees else 1
    out: dict[tuple[int, float, int], float] = {}

    def branch(p: float, left: int, rivals: int, folded: int, pot_now: float) -> None:
        if left == 0 or rivals + 1 >= rules.max_declarers:
            key = (rivals, pot_now, left)  # left > 0: the declarers are full and the rest are forced out
            out[key] = out.get(key, 0.0) + p
            return
        fee = (rules.fold_fee_first + rules.fold_fee_step * folded) * fee_mult
        branch(p * JOIN_RATE, left - 1, rivals + 1, folded, pot_now)
        branch(p * (1.0 - JOIN_RATE), left - 1, rivals, folded + 1, pot_now + fee)

    branch(1.0, later, declared, folds, float(pot))
    return [(p, rivals, pot_now, forced) for (rivals, pot_now, forced), p in out.items()]


def value_over(outcomes: Sequence[JoinOutcome], est: float, value: int, *, mult: int, rules: HachiHachiRules) -> float:
    """What Play is worth in points over ``outcomes`` (:func:`join_outcomes`), for a hand of ``est`` tricks and
    normal ``value``. With no rival the pot is taken at no risk."""
    total = 0.0
    for p, rivals, pot_now, forced in outcomes:
        if rivals == 0:
            total += p * pot_now
            continue
        share = 7.0 / (rivals + 1.0)
        gain = (est - share) * rules.trick_rate * rivals * mult + (value - AVERAGE_HAND) * rivals * mult
        chance = min(0.95, max(0.03, 1.0 / (rivals + 1.0) + 0.18 * (est - share)))
        total += p * (gain + chance * pot_now - forced * AVERAGE_FORCED_OUT * mult)
    return total


def play_value_by_joiners(
    est: float, value: int, *, declared: int, later: int, folds: int, pot: int, mult: int, rules: HachiHachiRules
) -> float:
    """What Play is worth in points, averaged over what the ``later`` players do (:func:`join_outcomes`). So
    nobody joining, which gives the pot and its new fees with no trick to lose, counts for what it is, instead of
    a fraction of a rival (:func:`play_value`)."""
    outcomes = join_outcomes(declared=declared, later=later, folds=folds, pot=pot, mult=mult, rules=rules)
    return value_over(outcomes, est, value, mult=mult, rules=rules)


def fight_value(view: HachiSeatView) -> float:
    """Fight minus split, in points, as the bot guesses it (two declarers)."""
    value = view.hand_value.normal if view.hand_value is not None else 0
    est = estimate_tricks(view.hand, view.trump)
    return fight_value_of(est, value, pot=view.pot, mult=view.mult, trick_rate=view.rules.trick_rate)


def fight_value_of(est: float, value: int, *, pot: int, mult: int, trick_rate: int) -> float:
    """:func:`fight_value` from its parts."""
    chance = min(0.95, max(0.05, 0.5 + 0.2 * (est - 3.5)))
    gain = (2 * est - 7) * trick_rate * mult + (value - AVERAGE_HAND) * mult
    return gain + (chance - 0.5) * pot


def play_value_joined(view: HachiSeatView) -> float:
    """:func:`play_value_by_joiners` for the seat declaring now."""
    value = view.hand_value.normal if view.hand_value is not None else 0
    return play_value_by_joiners(
        estimate_tricks(view.hand, view.trump),
        value,
        declared=len(view.declarers),
        later=_remaining_to_speak(view),
        folds=sum(1 for _, what in view.declarations if what == "fold"),
        pot=view.pot,
        mult=view.mult,
        rules=view.rules,
    )


def choose(view: HachiSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """One sensible action among ``legal`` (the baseline bot: Play judged by :func:`play_value`)."""
    return _decide(view, legal, rng, play_value)


def choose_normal(view: HachiSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """The normal level: the baseline with Play judged by :func:`play_value_joined`."""
    return _decide(view, legal, rng, play_value_joined)


def _decide(
    view: HachiSeatView, legal: Sequence[LegalAction], rng: random.Random, worth: Callable[[HachiSeatView], float]
) -> Action:
    actions = exact_actions(legal)
    verbs = {a.verb: a for a in actions}
    if "mizuten" in verbs:
        rate = MIZUTEN_RATE * (3 if view.pot_carried >= 2 * len(view.players) else 1)
        short = view.stacks[view.seat] < view.rules.starting_chips // 2
        declare = view.rules.mizuten_can_pay and not short and rng.random() < rate
        return verbs["mizuten"] if declare else verbs["no-mizuten"]
    if "fold" in verbs:
        return verbs["play"] if worth(view) + view.fold_fee >= 0 else verbs["fold"]
    if "play" in verbs:
        return verbs["play"]
    if "split" in verbs:
        return verbs["fight"] if fight_value(view) > 0 else verbs["split"]
    cards = [a.card for a in actions if isinstance(a, act.Card)]
    if cards:
        return act.Card(_card(view, cards))
    return actions[0]


# ---------------------------------------------------------------- trick play


def _unseen(view: HachiSeatView) -> set[FrenchCard]:
    """Cards that may still be in a rival's hand (not ours, not played, not the indicator)."""
    known = set(view.hand) | set(view.played)
    if view.indicator is not None:
        known.add(view.indicator)
    return set(_FULL_DECK) - known


def _is_boss(card: FrenchCard, unseen: set[FrenchCard]) -> bool:
    """No unseen card of its suit is higher."""
    return not any(c.suit == card.suit and c.rank > card.rank for c in unseen)


def _dump(cards: list[FrenchCard], trump: str | None, unseen: set[FrenchCard]) -> FrenchCard:
    """The least useful card: a low side card from a short suit, never an established one while others remain."""
    side = [c for c in cards if c.suit != trump] or cards
    plain = [c for c in side if not _is_boss(c, unseen)] or side
    counts = {s: sum(1 for c in cards if c.suit == s) for s in SUIT_CHARS}
    return min(plain, key=lambda c: (c.rank, counts[c.suit]))


def _beats(card: FrenchCard, best: FrenchCard, trump: str | None) -> bool:
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump


def _card(view: HachiSeatView, cards: list[FrenchCard]) -> FrenchCard:
    trump = view.trump
    unseen = _unseen(view)
    trick = view.trick
    if trick is None or not trick.plays:
        return _lead(view, cards, unseen)
    plays = trick.plays
    best = next(p.card for p in plays if p.seat == trick.winning)
    last = len(plays) == len(view.trick_order) - 1
    winners = sorted((c for c in cards if _beats(c, best, trump)), key=lambda c: (c.suit == trump, c.rank))
    if not winners:
        return _dump(cards, trump, unseen)
    if last:
        return winners[0]
    safe = [c for c in winners if _is_boss(c, unseen) or c.suit == trump != trick.led_suit]
    if safe:
        return safe[0]
    if winners[0].suit == trump and trick.led_suit != trump:
        return winners[0]
    return _dump(cards, trump, unseen)


def _lead(view: HachiSeatView, cards: list[FrenchCard], unseen: set[FrenchCard]) -> FrenchCard:
    trump = view.trump
    trumps = sorted((c for c in cards if c.suit == trump), key=lambda c: c.rank)
    unseen_trumps = sum(1 for c in unseen if c.suit == trump)
    if trumps and unseen_trumps and len(trumps) >= 3 and _is_boss(trumps[-1], unseen):
        return trumps[-1]
    bosses = [c for c in cards if c.suit != trump and _is_boss(c, unseen)]
    if bosses:
        return max(bosses, key=lambda c: c.rank)
    side = [c for c in cards if c.suit != trump]
    if not side:
        return trumps[-1] if _is_boss(trumps[-1], unseen) else trumps[0]
    counts = {s: sum(1 for c in side if c.suit == s) for s in SUIT_CHARS}
    longest = max(counts.values())
    return min((c for c in side if counts[c.suit] == longest), key=lambda c: c.rank)
