"""Oicho-Kabu bot players at three levels; each reads only its own seat view, its legal actions and the rng.

* ``easy``: a newcomer. Reads only the points: draws on 3 or less and stands on 4 or more, everywhere (so it
  stands on a Yotsuya it should draw to, and as the dealer throws away a Kuppin, whose points are 0); bets a fifth
  of its chips, every round, on the pile whose face card shows the most points (as if a 9 on the table were
  nearly a Kabu; the first card says nothing about the final total).
* ``normal``: the original baseline (:func:`choose`): modest bets, keeps special hands, draws on 4 or less,
  stands from 6, and flips a coin on 5.
* ``strong``: expected value over the cards still possible (:func:`strong`); see the model notes there.

All three keep the dealer's bank between rounds.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.core.actions import Action, AmountRange, LegalAction
from games.core.cards import KabuCard
from games.oicho import actions as act
from games.oicho.hands import Draw, Role, classify, local_yaku, second_extra
from games.oicho.rules import OichoRules
from games.oicho.views import OichoSeatView, PileView
from games.registry import Policy


def _points(cards: Sequence[KabuCard | None]) -> int | None:
    if any(c is None for c in cards):
        return None
    return sum(c.points for c in cards if c is not None) % 10


def choose(view: OichoSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """One sensible action among ``legal`` (the ``normal`` level).

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


# ================================================================= easy


EASY_STAND_FROM = 4
"""The newcomer's one rule: stand on this many points or more, draw below (special hands unknown to it)."""


def easy(view: OichoSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """A newcomer's play: deterministic, and wrong in the ways a beginner is wrong (see the module notes)."""
    ranges = {
        item.action.pile: item for item in legal if isinstance(item, AmountRange) and isinstance(item.action, act.Bet)
    }
    verbs = {a.verb: a for a in legal if isinstance(a, Action)}
    if view.phase == "betting":
        if not view.my_bets and ranges:
            shown = {p.number: p.cards[0].points for p in view.piles if p.number in ranges and p.cards[0] is not None}
            pile = max(sorted(shown), key=lambda n: shown[n]) if shown else min(ranges)
            pick = ranges[pile]
            return pick.make(min(pick.hi, max(pick.lo, view.stacks[view.seat] // 5)))
        return verbs["done"]
    if "draw" in verbs and "stand" in verbs:
        cards = view.dealer_hand.cards if view.phase == "dealer" else _current(view).cards
        total = _points(cards)
        if total is not None and total < EASY_STAND_FROM:
            return verbs["draw"]
        return verbs["stand"]
    if "continue" in verbs:
        return verbs["continue"]
    return _first(legal)


def _current(view: OichoSeatView) -> PileView:
    return view.piles[(view.current_pile or 1) - 1]


def _first(legal: Sequence[LegalAction]) -> Action:
    for item in legal:
        if isinstance(item, Action):
            return item
    for item in legal:
        if isinstance(item, AmountRange):
            return item.make(item.lo)
    raise ValueError("no legal action to choose from")


# ================================================================= strong: the model
#
# Everything is counted by month: the cards a seat cannot see are a multiset of months (the 40- or 48-card deck
# less every card its view shows), and each of them is equally likely to be any hidden card (the dealer's own
# card, a face-down first extra, the cards still to come). Two modelling assumptions, both stated where used:
#
# * the dealer, as a child sees him, stands on a special two-card hand (Kuppin, Shippin, a local yaku he scores)
#   or on 6 or more, and draws on 5 or less (the best fixed rule against children who draw on 5 or less);
# * a pile's decider who is not this seat draws on an optional total with the probabilities DECIDER_DRAWS
#   (most draw on 4, half on 5, few on 6, few give up a local yaku), which is what the dealer reads from a
#   pile's draw or stand.

STRENGTHS = 40
"""A hand's strength index ``tier * 10 + points``: comparing indices compares hands (rules.md §1.7)."""

DEALER_MODEL_STANDS_FROM = 6
DECIDER_DRAWS = {4: 0.85, 5: 0.5, 6: 0.15}
"""Chance that another seat's decider draws on an optional two-card total (a plain hand)."""
DECIDER_DRAWS_ON_YAKU = 0.2
"""Chance that another seat's decider gives up a two-card local yaku by drawing."""
MIN_EDGE = 0.01
"""The expected chips per chip bet a pile must promise before the strong child stakes more than the minimum."""

_HandKey = tuple[int, int]
"""(strength index, multiplier)."""


@dataclass(frozen=True, eq=False)
class _Tables:
    """Every two- and three-card hand by months under one set of rules, and the draw rule of every pile."""

    months: int
    child2: list[list[_HandKey]]
    child3: list[list[list[_HandKey]]]
    dealer2: list[list[_HandKey]]
    dealer3: list[list[list[_HandKey]]]
    rule: list[list[Draw]]
    """The second-extra rule of a pile whose two cards are these months."""
    child_yaku2: list[list[bool]]
    """Two months that make a local yaku a child scores."""
    dealer_model_draws: list[list[bool]]
    tie: float
    """What a tie costs a child per chip: 1 when ties go to the dealer, else 0."""


def _key(cards: list[KabuCard], role: Role, rules: OichoRules) -> _HandKey:
    hand = classify(cards, role, rules)
    return (hand.tier * 10 + hand.points, hand.multiplier)


@functools.lru_cache(maxsize=16)
def _tables(rules: OichoRules) -> _Tables:
    """A pure memo of hand classification (the same rules always give the same tables)."""
    months = 12 if rules.use_months_11_12 else 10
    size = months + 1
    card = [KabuCard(1)] + [KabuCard(m) for m in range(1, size)]
    empty2: _HandKey = (0, 1)
    child2 = [[empty2] * size for _ in range(size)]
    dealer2 = [[empty2] * size for _ in range(size)]
    child3 = [[[empty2] * size for _ in range(size)] for _ in range(size)]
    dealer3 = [[[empty2] * size for _ in range(size)] for _ in range(size)]
    rule = [[Draw.MAY_NOT] * size for _ in range(size)]
    yaku2 = [[False] * size for _ in range(size)]
    model = [[False] * size for _ in range(size)]
    for a in range(1, size):
        for b in range(1, size):
            two = [card[a], card[b]]
            child2[a][b] = _key(two, "child", rules)
            dealer2[a][b] = _key(two, "dealer", rules)
            rule[a][b] = second_extra(two, rules)
            yaku2[a][b] = local_yaku(two, "child", rules) is not None
            strength = dealer2[a][b][0]
            model[a][b] = strength < 10 and strength % 10 < DEALER_MODEL_STANDS_FROM
            for c in range(1, size):
                three = [card[a], card[b], card[c]]
                child3[a][b][c] = _key(three, "child", rules)
                dealer3[a][b][c] = _key(three, "dealer", rules)
    return _Tables(
        months=months,
        child2=child2,
        child3=child3,
        dealer2=dealer2,
        dealer3=dealer3,
        rule=rule,
        child_yaku2=yaku2,
        dealer_model_draws=model,
        tie=1.0 if rules.tie_goes_to_dealer else 0.0,
    )


class _DealerHand:
    """A distribution of the dealer's final hand, ready to price any child hand against it.

    ``below[s]`` is the chance the dealer ends weaker than strength ``s``; ``cost[s]`` what a child with strength
    ``s`` loses per chip on the dealer's stronger hands (chance × multiplier) and on ties (when they go to him),
    ``cost2[s]`` the same with the multipliers squared. A child hand ``(s, m)`` is then worth
    ``m * below[s] - cost[s]`` per chip, and its square ``m² * below[s] + cost2[s]`` (for the variance).
    """

    __slots__ = ("below", "cost", "cost2")

    def __init__(self, mass: list[float], loss: list[float], loss2: list[float], tie: float) -> None:
        self.below = [0.0] * STRENGTHS
        self.cost = [0.0] * STRENGTHS
        self.cost2 = [0.0] * STRENGTHS
        running = 0.0
        for s in range(STRENGTHS):
            self.below[s] = running
            running += mass[s]
        running = running2 = 0.0
        for s in range(STRENGTHS - 1, -1, -1):
            self.cost[s] = running + tie * mass[s]
            self.cost2[s] = running2 + tie * mass[s]
            running += loss[s]
            running2 += loss2[s]

    def value(self, hand: _HandKey) -> float:
        """A child's expected chips per chip bet with ``hand`` against this dealer."""
        s, m = hand
        return m * self.below[s] - self.cost[s]

    def moments(self, hand: _HandKey) -> tuple[float, float]:
        """The expectation and the mean square of what a chip on ``hand`` returns against this dealer."""
        s, m = hand
        below = self.below[s]
        return m * below - self.cost[s], m * m * below + self.cost2[s]


class _Model:
    """The unseen months of one seat's view, with memoised dealer distributions under card removal."""

    def __init__(self, pool: list[int], tables: _Tables) -> None:
        self.pool = pool
        self.t = tables
        self.months = range(1, tables.months + 1)
        self._dealers: dict[tuple[int, ...], _DealerHand] = {}
        self._shifts: list[tuple[list[float], list[float], list[float]]] | None = None

    def dealer(self, removed: tuple[int, ...] = ()) -> _DealerHand:
        """The modelled dealer's final hand when the months ``removed`` are also out of the unseen cards."""
        key = tuple(sorted(removed))
        found = self._dealers.get(key)
        if found is None:
            pool = list(self.pool)
            for m in key:
                pool[m] -= 1
            found = self._dealers[key] = _dealer_hand(self.t, tuple(pool))
        return found

    def draw(self, a: int, b: int, removed: tuple[int, ...]) -> tuple[float, float]:
        """What a chip returns drawing a third card to months ``a``, ``b`` with ``removed`` also out of the unseen
        cards: its expectation and mean square."""
        pool = list(self.pool)
        for m in removed:
            pool[m] -= 1
        n = sum(pool)
        if n <= 0:
            return self.stand(a, b, removed)
        row = self.t.child3[a][b]
        total = total2 = 0.0
        for d in self.months:
            if pool[d] > 0:
                v, v2 = self.dealer((*removed, d)).moments(row[d])
                total += pool[d] * v
                total2 += pool[d] * v2
        return total / n, total2 / n

    def _removal_shifts(self) -> list[tuple[list[float], list[float], list[float]]]:
        """Per month ``d``: how removing one ``d`` changes the dealer's ``below``, ``cost`` and ``cost2``."""
        if self._shifts is None:
            base = self.dealer()
            zero = [0.0] * STRENGTHS
            shifts = [(zero, zero, zero)]
            for d in self.months:
                if self.pool[d] > 0:
                    after = self.dealer((d,))
                    shifts.append(
                        (
                            [x - y for x, y in zip(after.below, base.below, strict=True)],
                            [x - y for x, y in zip(after.cost, base.cost, strict=True)],
                            [x - y for x, y in zip(after.cost2, base.cost2, strict=True)],
                        )
                    )
                else:
                    shifts.append((zero, zero, zero))
            self._shifts = shifts
        return self._shifts

    def draw_first_order(self, a: int, x: int) -> tuple[float, float]:
        """:meth:`draw` for months ``a``, ``x`` where ``x`` is still in the pool, with the dealer's hand after
        removing ``x`` and the third card ``d`` taken to first order: ``D(x) + D(d) - D()``.

        Eleven dealer distributions instead of sixty-six; the error is of second order in the removals (measured
        below 0.002 chips per chip for one first extra, 0.001 for a pile, on random tables), too little for any
        betting decision to notice.
        """
        pool = self.pool
        n = sum(pool) - 1
        if n <= 0:
            return self.stand(a, x, (x,))
        row = self.t.child3[a][x]
        shifts = self._removal_shifts()
        after_x = self.dealer((x,))
        below, cost, cost2 = after_x.below, after_x.cost, after_x.cost2
        total = total2 = 0.0
        for d in self.months:
            count = pool[d] - (d == x)
            if count > 0:
                s, m = row[d]
                db, dc, dc2 = shifts[d]
                weaker = below[s] + db[s]
                total += count * (m * weaker - cost[s] - dc[s])
                total2 += count * (m * m * weaker + cost2[s] + dc2[s])
        return total / n, total2 / n

    def stand(self, a: int, b: int, removed: tuple[int, ...]) -> tuple[float, float]:
        """What a chip returns standing on months ``a``, ``b``: its expectation and mean square."""
        return self.dealer(removed).moments(self.t.child2[a][b])


@functools.lru_cache(maxsize=2048)
def _dealer_hand(t: _Tables, pool: tuple[int, ...]) -> _DealerHand:
    """A pure memo of :func:`_model_dealer` (the children of one round, and one seat's successive calls in a betting
    turn, see the same unseen cards). It only saves time: every decision is the same with it or without it."""
    return _model_dealer(list(pool), t)


def _model_dealer(pool: list[int], t: _Tables) -> _DealerHand:
    """Own card, compulsory extra and (by the model rule) a second extra, all from ``pool``."""
    n = sum(pool)
    mass = [0.0] * STRENGTHS
    loss = [0.0] * STRENGTHS
    loss2 = [0.0] * STRENGTHS
    months = range(1, t.months + 1)
    if n < 3:
        mass[0] = loss[0] = loss2[0] = 1.0  # never at a real table (a round uses at most 15 of 40 cards)
        return _DealerHand(mass, loss, loss2, t.tie)
    for a in months:
        na = pool[a]
        if not na:
            continue
        pa = na / n
        pool[a] -= 1
        draws, two, three = t.dealer_model_draws[a], t.dealer2[a], t.dealer3[a]
        for b in months:
            nb = pool[b]
            if not nb:
                continue
            pab = pa * nb / (n - 1)
            if draws[b]:
                pool[b] -= 1
                row = three[b]
                scale = pab / (n - 2)
                for c in months:
                    nc = pool[c]
                    if nc:
                        s, m = row[c]
                        p = scale * nc
                        mass[s] += p
                        loss[s] += p * m
                        loss2[s] += p * m * m
                pool[b] += 1
            else:
                s, m = two[b]
                mass[s] += pab
                loss[s] += pab * m
                loss2[s] += pab * m * m
        pool[a] += 1
    return _DealerHand(mass, loss, loss2, t.tie)


def _unseen(view: OichoSeatView, months: int) -> list[int]:
    """How many cards of each month (index 1..months) this seat cannot see."""
    pool = [0] + [4] * months
    seen: list[KabuCard | None] = list(view.maki_fuda)
    for pile in view.piles:
        seen.extend(pile.cards)
    seen.extend(view.dealer_hand.cards)
    for c in seen:
        if c is not None and pool[c.month] > 0:
            pool[c.month] -= 1
    return pool


def _others_draw(t: _Tables, a: int, b: int) -> float:
    """How likely another seat's decider draws to months ``a``, ``b`` (the rule decides when it is forced)."""
    rule = t.rule[a][b]
    if rule is Draw.MUST:
        return 1.0
    if rule is Draw.MAY_NOT:
        return 0.0
    if t.child_yaku2[a][b]:
        return DECIDER_DRAWS_ON_YAKU
    return DECIDER_DRAWS.get(t.child2[a][b][0] % 10, 0.5)


# ================================================================= strong: the three decisions


def pile_moments(view: OichoSeatView, *, exact: bool = False) -> dict[int, tuple[float, float]]:
    """Before the first extras: for each pile, the expectation and mean square of what a chip bet on it returns.

    The first extra is any unseen card; if nobody else has bet on the pile this seat would decide its second
    extra and takes the better of drawing and standing, otherwise the decider draws as DECIDER_DRAWS says. Unless
    ``exact``, the dealer's hand after a draw is taken to first order in the removals
    (:meth:`_Model.draw_first_order`), six times faster.
    """
    t = _tables(view.rules)
    model = _Model(_unseen(view, t.months), t)
    others = _others_stakes(view)
    out: dict[int, tuple[float, float]] = {}
    n = sum(model.pool)
    for pile in view.piles:
        first = pile.cards[0]
        if first is None or n <= 0:
            continue
        a = first.month
        mine_decides = not others.get(pile.number)
        total = total2 = 0.0
        for x in model.months:
            nx = model.pool[x]
            if not nx:
                continue
            rule = t.rule[a][x]
            if rule is Draw.MAY_NOT:
                v, v2 = model.stand(a, x, (x,))
            else:
                draw = model.draw(a, x, (x,)) if exact else model.draw_first_order(a, x)
                if rule is Draw.MUST:
                    v, v2 = draw
                else:
                    stand = model.stand(a, x, (x,))
                    if mine_decides:
                        v, v2 = max(stand, draw)
                    else:
                        p = _others_draw(t, a, x)
                        v, v2 = p * draw[0] + (1 - p) * stand[0], p * draw[1] + (1 - p) * stand[1]
            total += nx * v
            total2 += nx * v2
        out[pile.number] = (total / n, total2 / n)
    return out


def pile_values(view: OichoSeatView, *, exact: bool = False) -> dict[int, float]:
    """Before the first extras: each pile's expected chips per chip bet (see :func:`pile_moments`)."""
    return {pile: mean for pile, (mean, _) in pile_moments(view, exact=exact).items()}


def _others_stakes(view: OichoSeatView) -> dict[int, int]:
    """Per pile: the largest stake another seat has on it."""
    out: dict[int, int] = {}
    for pile in view.piles:
        per: dict[int, int] = {}
        for seat, amount in pile.bets:
            if seat != view.seat:
                per[seat] = per.get(seat, 0) + amount
        if per:
            out[pile.number] = max(per.values())
    return out


def bet_plan(view: OichoSeatView) -> dict[int, int]:
    """How much this seat wants on each pile in total this betting turn (piles left out: nothing).

    Each pile promising more than MIN_EDGE per chip gets a Kelly stake (edge ÷ variance of a chip's return, as a
    share of the stack: the stake that grows a stack fastest, where a larger one adds expected chips only by
    risking the seat's future deals), best pile first, within the room left under the cap and the seat's chips.
    With no such pile it still plays, at the minimum on the best pile: sitting every round out would cost even
    less, but a bot that never bets is no opponent (and, playing for an away member, leaves their seat idle), so it
    plays the round as a careful player does, risking the least it may (about 0.05 chips a round at the usual edge).
    """
    moments = pile_moments(view)
    if not moments:
        return {}
    values = {pile: mean for pile, (mean, _) in moments.items()}
    room = min(view.cap_left + view.my_bet_total, view.stacks[view.seat])
    stack = view.stacks[view.seat]
    order = sorted(values, key=lambda p: (-values[p], p))
    plan: dict[int, int] = {}
    for pile in order:
        edge, square = moments[pile]
        if edge <= MIN_EDGE or room <= 0:
            break
        variance = max(square - edge * edge, 1e-6)
        amount = min(room, max(1, int(edge / variance * stack)))
        plan[pile] = amount
        room -= amount
    if plan:
        return plan
    return {order[0]: 1} if room >= 1 else {}


def draw_values(view: OichoSeatView) -> tuple[float, float] | None:
    """For the pile being decided: (stand, draw) expected chips per chip bet, or None if a card is hidden."""
    pile = _current(view)
    if len(pile.cards) != 2 or pile.cards[0] is None or pile.cards[1] is None:
        return None
    t = _tables(view.rules)
    model = _Model(_unseen(view, t.months), t)
    a, b = pile.cards[0].month, pile.cards[1].month
    return model.stand(a, b, ())[0], model.draw(a, b, ())[0]


def dealer_values(view: OichoSeatView) -> tuple[float, float] | None:
    """For the dealer's optional second extra: (stand, draw) in the dealer's expected chips, or None.

    Each bet pile's face-down first extra is any unseen month, weighed by how likely the pile's visible draw or
    stand was with it (the rule when forced, DECIDER_DRAWS when optional). The dealer's third card is drawn from
    the unseen cards less that pile's first extra and, on average, the other piles' (their posterior means).
    """
    own = view.dealer_hand.cards
    if len(own) != 2 or own[0] is None or own[1] is None:
        return None
    t = _tables(view.rules)
    pool = _unseen(view, t.months)
    months = range(1, t.months + 1)
    a, b = own[0].month, own[1].month
    stand_key, row = t.dealer2[a][b], t.dealer3[a][b]
    bet = [p for p in view.piles if p.total > 0 and p.cards[0] is not None]
    posts: list[list[float]] = []
    for pile in bet:
        first = pile.cards[0]
        assert first is not None
        known = pile.cards[1]
        drew = len(pile.cards) == 3
        weights = [0.0] * (t.months + 1)
        for x in months:
            if known is not None:
                weights[x] = 1.0 if x == known.month else 0.0
                continue
            if not pool[x]:
                continue
            p_draw = _others_draw(t, first.month, x)
            weights[x] = pool[x] * (p_draw if drew else 1 - p_draw)
        total = sum(weights)
        if total <= 0:  # the model thought this play impossible: fall back on the unseen counts alone
            weights = [float(pool[x]) if x else 0.0 for x in range(t.months + 1)]
            total = sum(weights) or 1.0
        posts.append([w / total for w in weights])
    stand_ev = draw_ev = 0.0
    for i, pile in enumerate(bet):
        first = pile.cards[0]
        assert first is not None
        third = pile.cards[2] if len(pile.cards) == 3 else None
        hidden = pile.cards[1] is None
        others = [0.0] * (t.months + 1)
        for j, post in enumerate(posts):
            if j != i and bet[j].cards[1] is None:
                for m in months:
                    others[m] += post[m]
        base = [pool[m] - others[m] for m in range(t.months + 1)]
        base[0] = 0.0
        s_pile = d_pile = 0.0
        for x in months:
            w = posts[i][x]
            if w <= 0:
                continue
            child = t.child3[first.month][x][third.month] if third is not None else t.child2[first.month][x]
            s_pile += w * _settle(child, stand_key, t.tie)
            draw_pool = list(base)
            if hidden:
                draw_pool[x] -= 1
            size = sum(max(0.0, q) for q in draw_pool)
            if size <= 0:
                d_pile += w * _settle(child, stand_key, t.tie)
                continue
            acc = 0.0
            for c in months:
                q = draw_pool[c]
                if q > 0:
                    acc += q * _settle(child, row[c], t.tie)
            d_pile += w * acc / size
        stand_ev -= pile.total * s_pile
        draw_ev -= pile.total * d_pile
    return stand_ev, draw_ev


def _settle(child: _HandKey, dealer: _HandKey, tie: float) -> float:
    """What one chip on a pile with ``child`` returns against ``dealer`` (rules.md §1.7)."""
    if child[0] > dealer[0]:
        return float(child[1])
    if child[0] < dealer[0]:
        return -float(dealer[1])
    return -tie


def strong(view: OichoSeatView, legal: Sequence[LegalAction], rng: random.Random, *, effort: float = 1.0) -> Action:
    """The action with the most expected chips for this seat, by exact enumeration over the unseen months.

    * betting: :func:`bet_plan` (Kelly stakes on piles with an edge; usually none has, since the bank has the edge,
      and it then plays the minimum on the best pile);
    * a pile's second extra: draw when :func:`draw_values` says drawing beats the modelled dealer more often,
      weighed by multipliers (ties stand); on a pile nobody bet on, the same (no chips ride on it);
    * the dealer's second extra: draw when :func:`dealer_values` says it wins more chips over the bet piles;
    * between rounds: keep the bank (dealing is where the edge is).

    It never uses ``rng``: the same view always gives the same action. Nor ``effort``: the enumeration is exact, and
    takes about a millisecond.
    """
    ranges = {
        item.action.pile: item for item in legal if isinstance(item, AmountRange) and isinstance(item.action, act.Bet)
    }
    verbs = {a.verb: a for a in legal if isinstance(a, Action)}
    if view.phase == "betting" and "done" in verbs:
        plan = bet_plan(view)
        placed: dict[int, int] = {}
        for pile, amount in view.my_bets:
            placed[pile] = placed.get(pile, 0) + amount
        for pile in sorted(plan, key=lambda p: (-plan[p], p)):
            short = plan[pile] - placed.get(pile, 0)
            pick = ranges.get(pile)
            if short > 0 and pick is not None:
                return pick.make(min(pick.hi, max(pick.lo, short)))
        return verbs["done"]
    if "draw" in verbs and "stand" in verbs:
        values = dealer_values(view) if view.phase == "dealer" else draw_values(view)
        if values is None:  # a card of the hand hidden from this seat: never so for a decider or the dealer
            return verbs["stand"]
        stand_value, draw_value = values
        return verbs["draw"] if draw_value > stand_value + 1e-9 else verbs["stand"]
    if "continue" in verbs:
        return verbs["continue"]
    return _first(legal)


POLICIES: dict[str, Policy] = {"easy": easy, "normal": choose, "strong": strong}
"""The three bot levels (docs/issue 19). ``choose`` is ``POLICIES["normal"]``, the policy the registry uses today."""
