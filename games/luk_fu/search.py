"""The strong Luk Fu bot: determinized Monte Carlo search over the seat's own view.

For each decision with more than one sensible choice:

1. list the candidates: the call, every legal lead, every beating follow, the few face-down follows worth
   weighing (the least useful cards, see :func:`discard_candidates`), stop or continue (Five Tigers are always
   revealed: a sure win);
2. deal the cards the seat cannot see into a possible world that agrees with everything it has seen
   (:class:`games.luk_fu.sampler.Knowledge`: must-beat, the lead restriction, the call);
3. in that world, play each candidate and then the rest of the hand fast (:func:`games.luk_fu.sim.rollout`:
   the bot greedily with every card in view, the others the baseline's way from their own cards), and score
   the seat's chips for the hand;
4. repeat over many worlds (every candidate in the same worlds, so their differences are not luck), dropping
   the clearly worse half of the candidates as the evidence comes in, and choose the best average.

The work is counted, not timed: each world costs its dealing plus the cards its rollouts play, and
``budget_ms`` converts to that count at a rate measured on the project's machine (``bench/bench_bots_lukfu.py``),
so the same view and seed give the same decision on any machine, fast or slow.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations

from games.core.actions import Action, LegalAction, exact_actions
from games.luk_fu import actions as act
from games.luk_fu import sim
from games.luk_fu.sampler import Knowledge
from games.luk_fu.sim import ABOVE, PERM, Hand, make_play, mask_of, multi_leads
from games.luk_fu.views import LukFuSeatView

BUDGET_MS = 50.0
"""The default search budget. On the project's 2-core machine a decision's p99 is about 75 ms when it is quiet
and stays well under 200 ms when other work shares it (``bench/bench_bots_lukfu.py``); searching longer hardly
plays better (measured against the baseline at 15 and 50 ms)."""
WORK_PER_MS = 250.0
"""Work units (a card played in a rollout, about 4 µs) the project's machine does in a millisecond."""
ROLLOUT_COST = 3
"""Work units a rollout costs besides its cards (copying the world, playing the candidate, scoring)."""
MIN_WORLDS = 8
"""Worlds searched whatever the budget (below this, the averages say little)."""
DISCARD_CANDIDATES = 8


def keep_value(view: LukFuSeatView, card: int, in_combo: int, unknown: int) -> float:
    """How much the seat wants to keep a card, from what it sees: a card no unseen card can beat is worth its
    rank plus 10; 1C, 1T and LT a lot to an exempt declarer (unbeatable leads), little to anyone else; a card
    in a set or a run 4 more."""
    if (1 << card) & PERM:
        free = view.rules.old_lead_exempt_declarer and view.declarer == view.seat
        return 12.0 if free else 0.5
    r = card % 9 + 1
    value = r + 0.3 * (card // 9) if unknown & ABOVE[card] else 10.0 + r
    if in_combo >> card & 1:
        value += 4
    return value


def discard_candidates(view: LukFuSeatView, count: int) -> list[act.Discard]:
    """The face-down follows worth comparing: sets of ``count`` cards from the least useful few, cheapest first
    (at most :data:`DISCARD_CANDIDATES`)."""
    hand = mask_of(view.hand)
    unknown = sim.ALL & ~(hand | mask_of(view.faceup_played) | mask_of(view.own_discards))
    in_combo = 0
    for play in multi_leads(hand):
        in_combo |= play[1]
    ranked = sorted(sim.ids_of(hand), key=lambda c: (keep_value(view, c, in_combo, unknown), c))
    pool = ranked[: min(len(ranked), count + (3 if count == 1 else 2))]
    options = sorted(
        combinations(pool, count),
        key=lambda combo: (sum(keep_value(view, c, in_combo, unknown) for c in combo), combo),
    )
    return [act.Discard(sim.cards_of(mask_of(sim.CARDS[c] for c in combo))) for combo in options][:DISCARD_CANDIDATES]


def candidates(view: LukFuSeatView, legal: Sequence[LegalAction]) -> list[Action]:
    """The choices the search weighs (all of them, except face-down follows, where only the likely ones)."""
    actions = exact_actions(legal)
    if actions and all(isinstance(a, act.Discard) for a in actions):
        wanted = discard_candidates(view, view.must_play)
        listed = set(actions)
        return [a for a in wanted if a in listed] or actions[:1]
    return actions


Move = Callable[[Hand], None]


def _move(action: Action, me: int) -> Move:
    if isinstance(action, act.Play):
        return lambda h: h.call(me, True)
    if isinstance(action, act.Pass):
        return lambda h: h.call(me, False)
    if isinstance(action, act.Tigers):
        return lambda h: h.reveal(me)
    if isinstance(action, act.Keep):
        return lambda h: h.keep()
    if isinstance(action, act.Stop):
        return lambda h: h.stop(me)
    if isinstance(action, act.Continue):
        return lambda h: h.cont(me)
    if isinstance(action, act.CardsAction):
        mask = mask_of(action.cards)
        if isinstance(action, act.Discard):
            return lambda h: h.discard(me, mask)
        play = make_play(mask)
        if isinstance(action, act.Follow):
            return lambda h: h.follow(me, play)
        return lambda h: h.lead(me, play)
    raise ValueError(f"no move for {action.text!r}")


def evaluate(
    view: LukFuSeatView, options: Sequence[Action], rng: random.Random, *, budget_ms: float = BUDGET_MS
) -> list[tuple[float, int]]:
    """(average chips for the hand, worlds played) of each option, over possible worlds dealt with ``rng``."""
    knowledge = Knowledge(view)
    me = knowledge.me
    moves = [_move(a, me) for a in options]
    alive = list(range(len(options)))
    totals = [0.0] * len(options)
    counts = [0] * len(options)
    work = budget_ms * WORK_PER_MS
    spent = rollouts = 0.0
    worlds = 0
    # Successive halving: after each round the worse half of the candidates still in play drops out.
    rounds = max(1, (len(options) - 1).bit_length())
    round_end = work / rounds
    while True:
        cards = knowledge.deal(rng)
        base = knowledge.world(cards)
        cost = sim.remaining_cards(base) + ROLLOUT_COST
        for j in alive:
            h = base.copy()
            moves[j](h)
            totals[j] += sim.rollout(h)
            counts[j] += 1
        worlds += 1
        rollouts += cost * len(alive)
        spent = knowledge.work + rollouts
        if spent >= work and worlds >= MIN_WORLDS:
            break
        if spent >= round_end and len(alive) > 2:
            alive.sort(key=lambda j: (-totals[j] / counts[j], j))
            alive = sorted(alive[: (len(alive) + 1) // 2])
            round_end += work / rounds
    return [(totals[j] / counts[j] if counts[j] else float("-inf"), counts[j]) for j in range(len(options))]


def strong(
    view: LukFuSeatView,
    legal: Sequence[LegalAction],
    rng: random.Random,
    *,
    budget_ms: float = BUDGET_MS,
    effort: float = 1.0,
) -> Action:
    """The strong level: search over possible worlds (module docstring), ``effort`` times its budget (less when the
    bot is busy)."""
    options = candidates(view, legal)
    if len(options) == 1 or not view.playing:
        return options[0]
    for option in options:
        if isinstance(option, act.Tigers):
            # A sure win now. Rollouts in which the bot sees every card overrate playing on instead (measured:
            # in an example hand, revealing won 2 chips where playing on won about 1 on average).
            return option
    scores = evaluate(view, options, rng, budget_ms=budget_ms * effort)
    best = max(range(len(options)), key=lambda j: (scores[j][1], scores[j][0], -j))
    return options[best]
