"""Helpers for the Luk Fu bot tests: positions from seeded games, the real deal behind a view, re-deals of the
cards a seat cannot see, and seeded head-to-head matches."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from games.core.actions import Action, LegalAction
from games.core.cards import LukFuCard
from games.core.rng import Shuffler
from games.luk_fu import sim
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.policy import normal
from games.luk_fu.rules import LukFuRules
from games.luk_fu.sampler import LATE, Knowledge
from games.luk_fu.views import LukFuSeatView

Policy = Callable[[LukFuSeatView, Sequence[LegalAction], random.Random], Action]

RULE_SETS: list[dict[str, Any]] = [
    {},
    {"players": 4},
    {"old_card_mode": "knowledge"},
    {
        "ones_set_rank": "high",
        "five_tigers_lead": True,
        "red_bonus": True,
        "red_scope": "all_captured",
        "big_hand_multiplier": True,
    },
    {"players": 4, "four_player_layout": "opposite_sits_out", "five_tigers_timing": "after_call", "red_bonus": True},
    {"old_lead_exempt_declarer": False, "old_card_mode": "knowledge", "single_lead_highest_suit": False},
]
"""Defaults and the house rules that change what the bots' model must know."""


def new_engine(seed: int, **options: Any) -> LukFuEngine:
    rules = LukFuRules.model_validate(options)
    seeds = random.Random(seed)
    return LukFuEngine(rules, [100] * rules.players, Shuffler(seed_source=lambda: seeds.randbytes(32).hex()))


def positions(
    seed: int, *, games: int = 1, wild: float = 0.3, **options: Any
) -> Iterator[tuple[LukFuEngine, int, random.Random]]:
    """Every decision of an active player in seeded games played by the normal level (a share of random legal
    actions mixed in, for odd positions). Yields before the move; the caller must not change the engine."""
    for game in range(games):
        engine = new_engine(seed * 100 + game, **options)
        rng = random.Random(seed * 100 + game)
        while not engine.is_over:
            seat = sorted(engine.to_act())[0]
            view, legal = engine.view(seat), engine.legal_actions(seat)
            if view.playing:
                yield engine, seat, rng
            if rng.random() < wild:
                action = rng.choice(legal)
                assert isinstance(action, Action)
            else:
                action = normal(view, legal, rng)
            engine.apply(seat, action)


def true_world(engine: LukFuEngine, knowledge: Knowledge) -> list[int]:
    """The real cards of each slot of ``knowledge`` (what the sampler deals blind), read from the engine."""
    cards = [0] * len(knowledge.slots)
    for j, slot in enumerate(knowledge.slots):
        if slot.owner == -1:
            extra = engine.dead if engine.dead is not None else engine.sitter_card
            assert extra is not None
            cards[j] = 1 << sim.ID[extra]
        elif slot.time == LATE:
            cards[j] = sim.mask_of(engine.hands[knowledge.active[slot.owner]])
    for p in knowledge.others:
        discards = iter(engine.own_discards[knowledge.active[p]])
        for j, slot in enumerate(knowledge.slots):
            if slot.owner == p and slot.time != LATE:
                for _ in range(slot.size):
                    cards[j] |= 1 << sim.ID[next(discards)]
    return cards


def redealt(engine: LukFuEngine, seat: int, rng: random.Random) -> LukFuEngine:
    """A copy of ``engine`` in which the cards hidden from ``seat`` (the others' hands and face-down follows,
    the dead card, the sitter's card) are dealt again at random, wherever they lie."""
    hidden = sorted(engine.hidden_from(seat), key=sim.ID.__getitem__)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))

    def remap(obj: Any) -> Any:
        if isinstance(obj, LukFuCard):
            return swap.get(obj, obj)
        if isinstance(obj, list):
            return [remap(x) for x in obj]
        if isinstance(obj, tuple):
            return tuple(remap(x) for x in obj)
        return obj

    other = copy.deepcopy(engine)
    for name in ("hands", "dealt", "own_discards", "captured", "current", "last_trick", "dead", "sitter_card"):
        setattr(other, name, remap(getattr(other, name)))
    return other


def head_to_head(
    tested: Policy, baseline: Policy, deals: int, *, seed: int = 0, **options: Any
) -> tuple[float, float, int]:
    """Chips a deal ``tested`` wins over ``baseline`` in the same seat, same cards and same opponents (the
    baseline level in the other seats): every deal is played once by the baseline alone and once with
    ``tested`` in each seat in turn. Returns (mean, half-width of a 95% interval, hands compared)."""
    rules = {"hands_total": 1, **options}
    players = LukFuRules.model_validate(rules).players
    diffs: list[int] = []
    for deal in range(deals):
        alone = _play_deal(seed * 10_000 + deal, [baseline] * players, rules)
        for seat in range(players):
            policies = [baseline] * players
            policies[seat] = tested
            diffs.append(_play_deal(seed * 10_000 + deal, policies, rules)[seat] - alone[seat])
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, 1.96 * (var / n) ** 0.5, n


def _play_deal(seed: int, policies: list[Policy], rules: dict[str, Any]) -> tuple[int, ...]:
    engine = new_engine(seed, **rules)
    rng = random.Random(seed)
    while not engine.is_over:
        seat = sorted(engine.to_act())[0]
        engine.apply(seat, policies[seat](engine.view(seat), engine.legal_actions(seat), rng))
    return engine.results[-1].deltas
