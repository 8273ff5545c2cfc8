"""The strong-level bot for Hachi-Hachi Trick: expected chips over sampled hidden hands, and determinized search of
the tricks. It reads only its seat's view (what that seat saw this round), the legal actions and the rng.

**What it knows.** Its own seven cards, the trump indicator and M, every declaration and fold fee of this round
in order, the pot, the hands shown at hand settlement (a declarer's yaku cards and yaku, a forced-out player's
Aces and yaku cards), each declarer's split/fight choice once shown, and every card played, trick by trick
(``view.trick_history``), hence the suits each declarer has shown void in (``view.shown_void``).

**Sampling.** Hidden cards are dealt at random from the cards it has not seen. Each sample is weighted by how
likely the other players were to act as they did with the hands it gives them: a Play (or Fold) is scored by a
softened copy of the normal bot's rule (:func:`games.hachi_hachi.sim.p_play`), a split/fight choice likewise.
In trick play a sample also respects everything shown: a declarer's revealed cards are in his hand, his hand
scores exactly the yaku he revealed, and he holds no card of a suit he failed to follow.

**Decisions.**

* play or fold: the mean chips of Play over samples (the players still to speak decide by the model; then the
  split choice, the forced-out payments, hand settlement, a playout of the tricks, the pot and Mizuten), capped
  at the seat's stack, against the fold fee;
* Mizuten: over sampled deals, the Mizuten bonus against what being bound to play costs on the hands it would
  have folded;
* split or fight: its choice matters only when the other declarer splits, so it fights when the mean chips of
  fighting, over samples weighted as hands that would have split, beat its share of the pot;
* trick play: for each sample (a determinization), every legal card is scored by playing the round out (a
  quick full-information playout for everyone, or an exact max-n search once few cards are left); the card with
  the best weighted mean wins.

The work is counted in samples and playouts, never in time, so a decision depends only on its arguments. The
counts scale with ``budget_ms``; their rates per millisecond are calibrated so that the default keeps p99 under
200 ms a decision at 7 seats on the project's 2-core machine (``bench/bench_bots_hachi.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.core.actions import Action, LegalAction, exact_actions
from games.hachi_hachi import actions as act
from games.hachi_hachi import sim
from games.hachi_hachi.normal import JoinOutcome, fight_value_of, join_outcomes
from games.hachi_hachi.rules import HachiHachiRules
from games.hachi_hachi.scoring import fold_fee
from games.hachi_hachi.views import HachiSeatView

BUDGET_MS = 100.0
"""The default budget of a decision."""
DECLARE_SAMPLES_PER_MS = 1.6
"""Play-or-fold and Mizuten: sampled deals (each with a playout) per millisecond of budget."""
CHOOSE_SAMPLES_PER_MS = 3.0
"""Split or fight: sampled hands (each with a playout) per millisecond of budget."""
TRICK_UNITS_PER_MS = 180.0
"""Trick play: units of work per millisecond of budget (a card played in a playout, a position searched)."""
SAMPLE_UNITS = 10
"""The work of weighting one trick-play sample, in the same units (about 3.5 µs each on the project's machine)."""
TRY_UNITS = 15
"""The work of one attempt at dealing a trick-play sample."""
MIN_SAMPLES = 8
EXACT_LEAVES = 36
"""Search exactly (max-n) once the play sequences left are at most this many; play out quickly before."""
MIZUTEN_INNER = 4
"""Mizuten: deals of the other hands per sampled hand of its own, to judge whether it would have played it."""
SAMPLE_TRIES = 30
"""Attempts to deal a trick-play sample whose hands also score the yaku their owners revealed."""


@dataclass(frozen=True)
class _Spoke:
    """One earlier declaration, as the spot it was made in."""

    seat: int
    play: bool
    declared: int
    later: int
    folds: int
    pot: int
    fee: int


class _Seat:
    """What the seat knows, as ints, and the model of the others built from it."""

    def __init__(self, view: HachiSeatView) -> None:
        self.view = view
        rules = view.rules
        self.rules: HachiHachiRules = rules
        self.me = view.seat
        self.mult = view.mult
        self.trump = sim.suit_int(view.trump) if view.trump is not None else 0
        self.valuer = sim.Valuer(rules.yaku_table, rules.forced_out_ace_value)
        self.dealt = [sim.to_int(c) for c in view.dealt]
        self.hand = [sim.to_int(c) for c in view.hand]
        self.fee_mult = view.mult if rules.mult_applies_to_fold_fees else 1
        self._outcomes: dict[tuple[int, int, int, int, int], list[JoinOutcome]] = {}
        self.spoke = self._spoke()

    def fee(self, seat: int, folds: int) -> int:
        rules = self.rules
        due = fold_fee(folds + 1, first=rules.fold_fee_first, step=rules.fold_fee_step, mult=self.fee_mult)
        return min(due, self.view.stacks[seat])

    def _spoke(self) -> list[_Spoke]:
        view = self.view
        out: list[_Spoke] = []
        declared = folds = 0
        pot = view.pot_carried
        n = len(view.players)
        for k, (seat, what) in enumerate(view.declarations):
            if what == "forced_out":
                continue
            compulsory = bool(view.mizuten) and seat == view.sp
            if not compulsory:
                out.append(_Spoke(seat, what == "play", declared, n - k - 1, folds, pot, self.fee(seat, folds)))
            if what == "play":
                declared += 1
            else:
                folds += 1
                pot += view.fees[seat]
        return out

    def outcomes(self, *, declared: int, later: int, folds: int, pot: int, mult: int) -> list[JoinOutcome]:
        """:func:`games.hachi_hachi.normal.join_outcomes`, kept for the rest of this decision."""
        key = (declared, later, folds, pot, mult)
        found = self._outcomes.get(key)
        if found is None:
            found = join_outcomes(declared=declared, later=later, folds=folds, pot=pot, mult=mult, rules=self.rules)
            self._outcomes[key] = found
        return found

    def p_play(self, spoke: _Spoke, cards: Sequence[int]) -> float:
        est = sim.estimate(cards, self.trump)
        value = self.valuer.values(cards)[0]
        outcomes = self.outcomes(
            declared=spoke.declared, later=spoke.later, folds=spoke.folds, pot=spoke.pot, mult=self.mult
        )
        return sim.p_play(est, value, outcomes=outcomes, fee=spoke.fee, mult=self.mult, rules=self.rules)

    def likelihood(self, spoke: _Spoke, cards: Sequence[int]) -> float:
        """How likely the model says ``spoke`` was, had its speaker held ``cards`` (all seven)."""
        p = self.p_play(spoke, cards)
        return p if spoke.play else 1.0 - p

    def p_fight(self, cards: Sequence[int], pot: int) -> float:
        est = sim.estimate(cards, self.trump)
        value = self.valuer.values(cards)[0]
        return sim.p_fight(est, value, pot=pot, mult=self.mult, trick_rate=self.rules.trick_rate)

    def order(self, declarers: Sequence[int]) -> list[int]:
        """The declarers in playing order from D1."""
        n = self.view.seats
        d1 = declarers[0]
        if self.rules.trick_direction == "clockwise":
            return sorted(declarers, key=lambda s: (s - d1) % n)
        return sorted(declarers, key=lambda s: (d1 - s) % n)

    def utility(self, declarers: Sequence[int], order: Sequence[int], pot: int, *, mizuten: bool) -> sim.Utility:
        rules = self.rules
        sp = self.view.sp
        paid = mizuten and len(declarers) == 3 and sp in declarers
        bonus = rules.mizuten_bonus * self.mult
        return sim.trick_utility(
            d=len(order),
            declarer_rank=[declarers.index(s) for s in order],
            mult=self.mult,
            trick_rate=rules.trick_rate,
            pot=pot,
            mizuten_pos=order.index(sp) if paid else None,
            mizuten_min=rules.mizuten_min_tricks,
            mizuten_gain=bonus * (len(self.view.players) - 1),
            mizuten_loss=bonus,
        )


# ---------------------------------------------------------------- a round from the declarations on


@dataclass
class _Deal:
    """One sampled deal as the simulation needs it (every hand of seven, by seat)."""

    hands: dict[int, list[int]]
    trump: int
    mult: int


def _play_out(
    seat: _Seat,
    deal: _Deal,
    declarers: list[int],
    later: Sequence[int],
    folds: int,
    pot: int,
    rng: random.Random,
    *,
    mizuten: bool,
) -> tuple[float, float]:
    """The rest of the round after ``seat`` has declared Play (it is in ``declarers``): the players in ``later``
    decide by the model, then the round is settled with a playout of the tricks. Returns what ``seat`` makes of
    it, without and with a Mizuten bonus (the same unless ``mizuten`` and it is the start player)."""
    rules = seat.rules
    me = seat.me
    mult = deal.mult
    hands = deal.hands
    forced: list[int] = []
    for i, s in enumerate(later):
        if len(declarers) == rules.max_declarers:
            forced = list(later[i:])
            break
        fee = min(
            fold_fee(folds + 1, first=rules.fold_fee_first, step=rules.fold_fee_step, mult=seat.fee_mult),
            seat.view.stacks[s],
        )
        cards = hands[s]
        est = sim.estimate(cards, deal.trump)
        value = seat.valuer.values(cards)[0]
        outcomes = seat.outcomes(declared=len(declarers), later=len(later) - i - 1, folds=folds, pot=pot, mult=mult)
        p = sim.p_play(est, value, outcomes=outcomes, fee=fee, mult=mult, rules=rules)
        if rng.random() < p:
            declarers.append(s)
        else:
            folds += 1
            pot += fee
    d = len(declarers)
    if d == 1:
        return float(pot), float(pot)
    values = {s: seat.valuer.values(hands[s]) for s in (*declarers, *forced)}
    paid_out = -mult * sum(values[f][1] for f in forced)
    mine = values[me][0]
    hand = mult * sum(mine - values[j][0] for j in declarers if j != me)
    if d == 2 and rules.two_player_split_allowed:
        other = next(j for j in declarers if j != me)
        my_est = sim.estimate(hands[me], deal.trump)
        i_fight = fight_value_of(my_est, mine, pot=pot, mult=mult, trick_rate=rules.trick_rate) > 0
        other_est = sim.estimate(hands[other], deal.trump)
        p_other = sim.p_fight(other_est, values[other][0], pot=pot, mult=mult, trick_rate=rules.trick_rate)
        if not i_fight and rng.random() >= p_other:
            share = (pot + 1) // 2 if declarers[0] == me else pot // 2
            split = share + paid_out + (hand if rules.split_settles_hands else 0)
            return float(split), float(split)
    order = seat.order(declarers)
    tricks = sim.rollout([hands[s] for s in order], 0, (), [0] * d, deal.trump)
    pos = order.index(me)
    base = seat.utility(declarers, order, pot, mizuten=False)(tricks)[pos]
    bonus = seat.utility(declarers, order, pot, mizuten=True)(tricks)[pos] if mizuten else base
    return paid_out + hand + base, paid_out + hand + bonus


def _capped(seat: _Seat, value: float) -> float:
    """A loss is capped at the stack (rules.md §0.4)."""
    return max(value, -float(seat.view.stacks_after_fees[seat.me]))


def play_ev(view: HachiSeatView, rng: random.Random, samples: int) -> float:
    """The mean chips Play is worth to the seat declaring now (Fold is worth ``-view.fold_fee``)."""
    seat = _Seat(view)
    me = view.seat
    k = len(view.declarations)
    later = view.players[k + 1 :]
    others = [s for s in view.players if s != me]
    seen = set(seat.dealt)
    if view.indicator is not None:
        seen.add(sim.to_int(view.indicator))
    pool = [c for c in range(52) if c not in seen]
    folds = sum(1 for _, what in view.declarations if what == "fold")
    total = weight = 0.0
    for _ in range(samples):
        rng.shuffle(pool)
        hands = {s: pool[7 * i : 7 * i + 7] for i, s in enumerate(others)}
        hands[me] = seat.dealt
        w = 1.0
        for spoke in seat.spoke:
            w *= seat.likelihood(spoke, hands[spoke.seat])
        deal = _Deal(hands, seat.trump, seat.mult)
        value, _ = _play_out(seat, deal, [*view.declarers, me], later, folds, view.pot, rng, mizuten=bool(view.mizuten))
        total += w * _capped(seat, value)
        weight += w
    return total / weight


def mizuten_gain(view: HachiSeatView, rng: random.Random, samples: int) -> float:
    """What declaring Mizuten is worth to the start player, over about ``samples`` playouts: for each sampled hand
    and trump, the Mizuten bonus it may earn, less what being bound to play costs where it would have folded (its
    Play worth, estimated over ``MIZUTEN_INNER`` more deals of the other hands, below the fold fee). The noise of
    that estimate can only overstate the cost, so the bot errs towards not declaring."""
    seat = _Seat(view)
    rules = view.rules
    me = view.seat
    later = [s for s in view.players if s != me]
    deck = list(range(52))
    outer = max(MIN_SAMPLES, samples // (MIZUTEN_INNER + 1))
    gain = 0.0
    for _ in range(outer):
        rng.shuffle(deck)
        mine = sorted(deck[:7])
        indicator = deck[7]
        rest = deck[8:]
        _, mult = rules.field_of(sim.RANK[indicator])
        seat.mult = mult
        seat.fee_mult = mult if rules.mult_applies_to_fold_fees else 1
        fee = min(rules.fold_fee_first * seat.fee_mult, view.stacks[me])
        bonus = worth = 0.0
        for k in range(MIZUTEN_INNER + 1):
            if k:
                rng.shuffle(rest)
            hands = {s: rest[7 * i : 7 * i + 7] for i, s in enumerate(later)}
            hands[me] = mine
            deal = _Deal(hands, sim.SUIT[indicator], mult)
            plain, bound = _play_out(seat, deal, [me], later, 0, view.pot, rng, mizuten=True)
            if not k:
                bonus = _capped(seat, bound) - _capped(seat, plain)
            worth += _capped(seat, plain)
        worth /= MIZUTEN_INNER + 1
        gain += bonus + min(0.0, worth + fee)
    return gain / outer


def fight_ev(view: HachiSeatView, rng: random.Random, samples: int) -> float:
    """The mean chips of fighting, when the other declarer has chosen split (the only case where this seat's choice
    matters), against which its share of the pot stands."""
    seat = _Seat(view)
    rules = view.rules
    me = view.seat
    (other,) = [d for d in view.declarers if d != me]
    seen = set(seat.dealt)
    if view.indicator is not None:
        seen.add(sim.to_int(view.indicator))
    pool = [c for c in range(52) if c not in seen]
    spoke = next((s for s in seat.spoke if s.seat == other), None)
    order = seat.order(view.declarers)
    utility = seat.utility(view.declarers, order, view.pot, mizuten=False)
    pos = order.index(me)
    mine = seat.valuer.values(seat.dealt)[0]
    total = weight = 0.0
    for _ in range(samples):
        rng.shuffle(pool)
        theirs = pool[:7]
        w = 1.0 - seat.p_fight(theirs, view.pot)
        if spoke is not None:
            w *= seat.likelihood(spoke, theirs)
        hands = {me: seat.dealt, other: theirs}
        tricks = sim.rollout([hands[s] for s in order], 0, (), [0, 0], seat.trump)
        value = utility(tricks)[pos]
        if not rules.split_settles_hands:
            value += seat.mult * (mine - seat.valuer.values(theirs)[0])
        total += w * _capped(seat, value)
        weight += w
    return total / weight


# ---------------------------------------------------------------- trick play


class _TrickState:
    """The trick position as the seat sees it, and a sampler of the other declarers' hands consistent with it."""

    def __init__(self, seat: _Seat) -> None:
        view = seat.view
        self.seat = seat
        self.order = list(view.trick_order)
        self.d = len(self.order)
        self.pos = self.order.index(seat.me)
        trick = view.trick
        plays = trick.plays if trick is not None and not trick.complete else ()
        self.cur = [sim.to_int(p.card) for p in plays]
        leader = trick.leader if trick is not None else self.order[0]
        self.leader = self.order.index(leader)
        self.tricks = [view.tricks[s] for s in self.order]
        self.others = [s for s in self.order if s != seat.me]
        played: dict[int, list[int]] = {s: [] for s in self.order}
        for past in (*view.trick_history, *([trick] if plays and trick is not None else [])):
            for p in past.plays:
                played[p.seat].append(sim.to_int(p.card))
        self.played = played
        public = {sim.to_int(c) for c in view.played}
        if view.indicator is not None:
            public.add(sim.to_int(view.indicator))
        self.known: dict[int, list[int]] = {s: [] for s in self.others}
        self.reveal: dict[int, tuple[str, ...]] = {}
        for r in view.reveals:
            cards = [sim.to_int(c) for c in r.cards]
            public.update(cards)
            if r.role == "declarer" and r.seat in self.known:
                self.known[r.seat] = sorted(c for c in cards if c not in played[r.seat])
                self.reveal[r.seat] = tuple(r.yaku)
        self.pool = sorted(c for c in range(52) if c not in public and c not in seat.dealt)
        self.size = {s: view.lines[s].cards for s in self.others}
        self.voids = {s: {sim.suit_int(x) for x in view.shown_void.get(s, frozenset())} for s in self.others}
        self.fill_order = sorted(self.others, key=lambda s: (-len(self.voids[s]), s))
        self.choice = dict(view.choices)
        self.utility = seat.utility(view.declarers, self.order, view.pot, mizuten=bool(view.mizuten))

    def _deal(self, rng: random.Random, *, voids: bool) -> dict[int, list[int]] | None:
        pool = list(self.pool)
        rng.shuffle(pool)
        hands: dict[int, list[int]] = {}
        for s in self.fill_order:
            void = self.voids[s] if voids else set()
            hand = list(self.known[s])
            need = self.size[s] - len(hand)
            rest: list[int] = []
            for c in pool:
                if need > 0 and sim.SUIT[c] not in void:
                    hand.append(c)
                    need -= 1
                else:
                    rest.append(c)
            if need > 0:
                return None
            pool = rest
            hands[s] = hand
        return hands

    def _shows_revealed(self, hands: dict[int, list[int]]) -> bool:
        for s, keys in self.reveal.items():
            combo, weak = self.seat.valuer.keys(self.played[s] + hands[s])
            if tuple(k for k in (combo, weak) if k is not None) != keys:
                return False
        return True

    def sample(self, rng: random.Random) -> tuple[dict[int, list[int]], float, int]:
        """Hidden hands for the other declarers, the sample's weight, and the attempts it took."""
        hands: dict[int, list[int]] | None = None
        tries = 0
        for _ in range(SAMPLE_TRIES):
            tries += 1
            dealt = self._deal(rng, voids=True)
            if dealt is None:
                continue
            hands = dealt
            if self._shows_revealed(dealt):
                break
        if hands is None:  # the voids cannot be met (should not happen): deal without them
            hands = self._deal(rng, voids=False)
            assert hands is not None
        seat = self.seat
        w = 1.0
        for spoke in seat.spoke:
            if spoke.seat in hands:
                w *= seat.likelihood(spoke, self.played[spoke.seat] + hands[spoke.seat])
        for s, choice in self.choice.items():
            if s in hands:
                p = seat.p_fight(self.played[s] + hands[s], seat.view.pot)
                w *= p if choice == "fight" else 1.0 - p
        return hands, w, tries

    def value(self, hands: Sequence[list[int]], card: int, work: list[int]) -> float:
        """What the seat makes of the round if it plays ``card`` now and the round is played out; adds the work
        done to ``work[0]``."""
        after = [[c for c in h if c != card] if i == self.pos else h for i, h in enumerate(hands)]
        cur = (*self.cur, card)
        trump = self.seat.trump
        if sim.leaves(after) <= EXACT_LEAVES:
            return sim.exact(after, self.leader, cur, self.tricks, trump, self.utility, work)[self.pos]
        work[0] += sim.plies(after)
        tricks = sim.rollout(after, self.leader, cur, self.tricks, trump)
        return self.utility(tricks)[self.pos]


def best_card(view: HachiSeatView, cards: Sequence[int], rng: random.Random, units: int) -> int:
    """The card with the best weighted mean over determinizations, sampled until ``units`` of work are done (and
    at least ``MIN_SAMPLES``)."""
    state = _TrickState(_Seat(view))
    moves = sorted(cards, key=lambda c: (sim.RANK[c], c))  # on a tie, the lower card
    totals = [0.0] * len(moves)
    work = [0]
    samples = 0
    while samples < MIN_SAMPLES or work[0] < units:
        others, w, tries = state.sample(rng)
        work[0] += SAMPLE_UNITS + TRY_UNITS * tries
        samples += 1
        hands = [others.get(s, state.seat.hand) for s in state.order]
        for i, card in enumerate(moves):
            totals[i] += w * state.value(hands, card, work)
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return moves[best]


# ---------------------------------------------------------------- the policy


def choose(
    view: HachiSeatView,
    legal: Sequence[LegalAction],
    rng: random.Random,
    *,
    budget_ms: float = BUDGET_MS,
    effort: float = 1.0,
) -> Action:
    """The strong bot's action among ``legal``, searching ``effort`` times its budget (less when the bot is busy)."""
    budget_ms *= effort
    actions = exact_actions(legal)
    verbs = {a.verb: a for a in actions}
    if "mizuten" in verbs:
        if not view.rules.mizuten_can_pay:
            return verbs["no-mizuten"]  # it could only take away the right to fold
        samples = max(MIN_SAMPLES, int(budget_ms * DECLARE_SAMPLES_PER_MS))
        return verbs["mizuten"] if mizuten_gain(view, rng, samples) > 0 else verbs["no-mizuten"]
    if "fold" in verbs:
        samples = max(MIN_SAMPLES, int(budget_ms * DECLARE_SAMPLES_PER_MS))
        return verbs["play"] if play_ev(view, rng, samples) >= -view.fold_fee else verbs["fold"]
    if "play" in verbs:
        return verbs["play"]
    if "split" in verbs:
        samples = max(MIN_SAMPLES, int(budget_ms * CHOOSE_SAMPLES_PER_MS))
        share = (view.pot + 1) // 2 if view.declarers[0] == view.seat else view.pot // 2
        return verbs["fight"] if fight_ev(view, rng, samples) > share else verbs["split"]
    cards = [sim.to_int(a.card) for a in actions if isinstance(a, act.Card)]
    if len(cards) == 1:
        return act.Card(sim.to_card(cards[0]))
    if cards:
        units = int(budget_ms * TRICK_UNITS_PER_MS)
        return act.Card(sim.to_card(best_card(view, cards, rng, units)))
    return actions[0]
