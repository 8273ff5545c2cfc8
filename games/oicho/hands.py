"""Oicho-Kabu hands as pure functions: points, classification, comparison, payouts, draw rules.

A hand is a sequence of cards in dealing order: ``c1`` (pile card or the dealer's own card),
``c2`` (first extra, 決め札①) and optionally ``c3`` (second extra, 決め札②). rules.md §1.2, §1.5–§1.7.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from games.core.cards import KabuCard
from games.oicho.rules import YAKU_KEYS, OichoRules, OrderedYakuOption

Role = Literal["dealer", "child"]

TIER_PLAIN = 0
TIER_YAKU = 1
TIER_KUPPIN_SHIPPIN = 2
TIER_ARASHI = 3

POINT_NAMES_JA = ("ブタ", "ピン", "ニゾウ", "サンタ", "ヨツヤ", "ゴケ", "ロッポウ", "シチケン", "オイチョ", "カブ")
POINT_NAMES_EN = ("Buta", "Pin", "Nizō", "Santa", "Yotsuya", "Goke", "Roppō", "Shichiken", "Oicho", "Kabu")


@dataclass(frozen=True)
class Hand:
    """A classified hand: ``kind`` is plain / arashi / kuppin / shippin / a local yaku key."""

    points: int
    tier: int
    kind: str
    multiplier: int

    @property
    def strength(self) -> tuple[int, int]:
        """Comparison key: tier first, then points (Arashi strength is its points, §1.5)."""
        return (self.tier, self.points)


class Draw(Enum):
    """Whether a pile's decider may take the second extra (rules.md §1.4 step 6)."""

    MUST = "must"
    MAY = "may"
    MAY_NOT = "may_not"


def points(cards: Sequence[KabuCard]) -> int:
    """(sum of point values) mod 10; month 10 counts 0, 11 counts 1, 12 counts 2."""
    return sum(c.points for c in cards) % 10


def _months(cards: Sequence[KabuCard]) -> list[int]:
    return [c.month for c in cards]


def is_arashi(cards: Sequence[KabuCard]) -> bool:
    """Exactly three cards of one month (months 11 and 12 included)."""
    return len(cards) == 3 and len(set(_months(cards))) == 1


def kuppin_or_shippin(cards: Sequence[KabuCard], rules: OichoRules) -> str | None:
    """``"kuppin"`` (9+1) or ``"shippin"`` (4+1) for two cards, honouring the strict-order option."""
    if len(cards) != 2:
        return None
    m = _months(cards)
    for kind, high in (("kuppin", 9), ("shippin", 4)):
        if rules.kuppin_shippin_strict_order:
            if m == [high, 1]:
                return kind
        elif sorted(m) == sorted([high, 1]):
            return kind
    return None


def _yaku_shape(key: str, months: list[int], strict: bool) -> bool:
    """Whether ``months`` (dealing order) make the local yaku ``key``; 11 and 12 never count."""
    if any(m > 10 for m in months):
        return False
    if key == "gogo":
        return months == [5, 5]
    if key == "tsuru":
        return months == [2, 2]
    if key == "toichi":
        return sorted(months) == [1, 10]
    if len(months) != 3:
        return False
    a, b, c = months
    if key == "nobori":
        return b == a + 1 and c == a + 2
    if key == "kudari":
        return b == a - 1 and c == a - 2
    target = {"hifumi": [1, 2, 3], "shichigosan": [7, 5, 3], "doshippin": [1, 10, 10]}[key]
    return months == target if strict else sorted(months) == sorted(target)


def local_yaku(cards: Sequence[KabuCard], role: Role, rules: OichoRules) -> str | None:
    """The best enabled local yaku this hand makes for ``role``: highest multiplier, then table order."""
    months = _months(cards)
    best: str | None = None
    best_mult = 0
    for key in YAKU_KEYS:
        option = rules.yaku(key)
        if not option.enabled or option.scope not in ("both", role):
            continue
        strict = isinstance(option, OrderedYakuOption) and option.strict_order
        if _yaku_shape(key, months, strict) and option.multiplier > best_mult:
            best, best_mult = key, option.multiplier
    return best


def classify(cards: Sequence[KabuCard], role: Role, rules: OichoRules) -> Hand:
    """The hand's highest tier for ``role`` (Kuppin/Shippin only for the dealer; §1.5)."""
    p = points(cards)
    if is_arashi(cards):
        return Hand(p, TIER_ARASHI, "arashi", rules.arashi_multiplier)
    if role == "dealer":
        ks = kuppin_or_shippin(cards, rules)
        if ks is not None:
            return Hand(p, TIER_KUPPIN_SHIPPIN, ks, rules.kuppin_shippin_multiplier)
    yaku = local_yaku(cards, role, rules)
    if yaku is not None:
        return Hand(p, TIER_YAKU, yaku, rules.yaku(yaku).multiplier)
    return Hand(p, TIER_PLAIN, "plain", 1)


Outcome = Literal["pile", "dealer", "push"]


def compare(pile: Hand, dealer: Hand, rules: OichoRules) -> tuple[Outcome, int]:
    """Who wins a pile against the dealer, and at what multiplier (§1.7); a push pays 0."""
    if pile.strength > dealer.strength:
        return "pile", pile.multiplier
    if pile.strength < dealer.strength:
        return "dealer", dealer.multiplier
    if rules.tie_goes_to_dealer:
        return "dealer", 1
    return "push", 0


def max_child_multiplier(rules: OichoRules) -> int:
    """Largest multiplier at which a child's hand can win (§0.4): sizes the cap."""
    m = max(1, rules.arashi_multiplier)
    for key in YAKU_KEYS:
        option = rules.yaku(key)
        if option.enabled and option.scope in ("both", "child"):
            m = max(m, option.multiplier)
    return m


def bank_cap(rules: OichoRules, dealer_stack: int) -> int:
    """Cap on the sum of all bets this round: ``min(bank_cap, dealer stack // m)`` (§0.4)."""
    return min(rules.bank_cap, dealer_stack // max_child_multiplier(rules))


def second_extra(two_cards: Sequence[KabuCard], rules: OichoRules) -> Draw:
    """Draw legality for a pile's second extra from its two cards (§1.4 step 6, ``yaku_may_stand``)."""
    t = points(two_cards)
    if t >= 7:
        return Draw.MAY_NOT
    if t >= 4:
        return Draw.MAY
    # Decision: only a yaku a child can score (scope both/child) lets the pile stand on 0-3.
    if rules.yaku_may_stand and local_yaku(two_cards, "child", rules) is not None:
        return Draw.MAY
    return Draw.MUST
