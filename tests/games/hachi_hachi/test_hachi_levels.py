"""The three Hachi-Hachi Trick bot levels (issue 19): the interface, the strong bot's pieces (hand values, what the
view rebuilds, the sampler), clear-cut decisions on stacked decks, determinism, no peeking, and a small seeded
head-to-head."""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Sequence

import pytest
from hachi_kit import P1, P2, P3, P4, act, calls, only, sp_draw, table

from games.core.actions import exact_actions, is_listed
from games.core.cards import FrenchCard, french_deck, notation
from games.core.errors import IllegalAction
from games.core.rng import Shuffle, Shuffler
from games.hachi_hachi import easy, normal, sim, strong
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.policy import POLICIES, choose
from games.hachi_hachi.rules import HachiHachiRules, YakuRow, YakuTable
from games.hachi_hachi.yaku import classify
from games.registry import Policy

FAST = functools.partial(strong.choose, budget_ms=15.0)
"""The strong bot on a small budget, for tests that play many decisions."""


def decide(e: HachiHachiEngine, seat: int, policy: Policy, seed: int = 1) -> str:
    legal = e.legal_actions(seat)
    action = policy(e.view(seat), legal, random.Random(seed))
    assert is_listed(action, legal)
    return str(action.text)


# ---------------------------------------------------------------- interface


def test_three_levels_and_choose_is_still_the_baseline_bot() -> None:
    assert set(POLICIES) == {"easy", "normal", "strong"}
    assert POLICIES["normal"] is normal.choose_normal
    assert POLICIES["easy"] is easy.choose and POLICIES["strong"] is strong.choose
    assert choose is normal.choose


MIDDLING = "Ac 9c 4h 7d Ks 3s 5d"
"""Two trumps (clubs) with the Ace, a bare King, nothing else."""


def test_normal_plays_a_middling_hand_first_at_a_small_table_where_the_baseline_folded() -> None:
    # Two players to speak after it: each joins with probability 0.4, so nobody joins (the pot and both fees, 5,
    # at no risk) 36 % of the time; the baseline priced that as 0.8 of a rival and folded.
    e = table({P1: MIDDLING}, seats=3, mizuten_enabled=False)
    assert decide(e, P1, normal.choose) == "fold"
    assert decide(e, P1, normal.choose_normal) == "play"
    assert normal.play_value_joined(e.view(P1)) > normal.play_value(e.view(P1)) + 3
    e = table({P1: MIDDLING}, seats=7, mizuten_enabled=False)
    assert decide(e, P1, normal.choose_normal) == "fold", "six to speak: someone will join"


def test_every_level_is_always_legal_at_3_to_7_seats() -> None:
    for index in range(10):
        seats = 3 + index % 5
        rng = random.Random(index)
        seeds = random.Random(50 + index)
        e = HachiHachiEngine(
            HachiHachiRules(rounds=2), [50] * seats, Shuffler(seed_source=lambda s=seeds: s.randbytes(32).hex())
        )
        levels: list[Policy] = [easy.choose, normal.choose_normal, FAST]
        while not e.is_over:
            seat = min(e.to_act())
            legal = e.legal_actions(seat)
            action = levels[(seat + index) % 3](e.view(seat), legal, rng)
            assert is_listed(action, legal), action.text
            e.apply(seat, action)


VARIANTS = [
    {"trick_direction": "counterclockwise", "mizuten_min_tricks": 0},
    {"max_declarers": 2},
    {"max_declarers": 2, "two_player_split_allowed": False},
    {"split_settles_hands": True, "mult_applies_to_fold_fees": False, "void_pot": "refund"},
    {"fold_fee_first": 0, "fold_fee_step": 0, "trick_rate": 5, "zetsuba_ranks": ["2", "3", "4", "5"]},
    {"yaku_table": {"karasu": {"enabled": False}, "sunashi": {"enabled": True, "normal": 9, "forced_out": 5}}},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_every_level_is_legal_under_house_rules_and_short_stacks(options: dict[str, object]) -> None:
    rules = HachiHachiRules.model_validate({"rounds": 3, **options})
    strong_phases: set[str] = set()
    for seats in (3, 6):
        seeds = random.Random(seats)
        stacks = [50, 3, 8, 50, 1, 20][:seats]
        e = HachiHachiEngine(rules, stacks, Shuffler(seed_source=lambda s=seeds: s.randbytes(32).hex()))
        rng = random.Random(seats)
        levels: list[Policy] = [FAST, easy.choose, normal.choose_normal]
        while not e.is_over:
            seat = min(e.to_act())
            legal = e.legal_actions(seat)
            view = e.view(seat)
            if seat % 3 == 0:
                strong_phases.add(view.phase)
            action = levels[seat % 3](view, legal, rng)
            assert is_listed(action, legal), action.text
            e.apply(seat, action)
    assert {"declare", "trick"} <= strong_phases


# ---------------------------------------------------------------- the fast pieces agree with the engine's


def _tables() -> list[YakuTable]:
    edited = YakuTable(
        one_two_four=YakuRow(enabled=False, normal=8, forced_out=4),
        sunashi=YakuRow(enabled=True, normal=6, forced_out=3),
        flush=YakuRow(normal=9, forced_out=1),
        pikaichi=YakuRow(enabled=False, normal=4, forced_out=2),
    )
    return [YakuTable(), edited]


def _skewed_hands(rng: random.Random, count: int) -> list[list[FrenchCard]]:
    """Random hands, and hands drawn from few ranks or one suit so that rare yaku turn up."""
    deck = french_deck()
    hands = [rng.sample(deck, 7) for _ in range(count)]
    for _ in range(count):
        ranks = rng.sample(range(2, 15), rng.randint(2, 4))
        hands.append(rng.sample([c for c in deck if c.rank in ranks], 7))
        suit = rng.choice("cdhs")
        hands.append(rng.sample([c for c in deck if c.suit == suit or rng.random() < 0.1], 7))
        hands.append(rng.sample([c for c in deck if c.rank >= 9 or c.rank <= 3], 7))
    return hands


def test_the_fast_hand_value_is_the_classifier() -> None:
    rng = random.Random(3)
    for table_ in _tables():
        valuer = sim.Valuer(table_, 1)
        for hand in _skewed_hands(rng, 1500):
            value = classify(hand, table_)
            ints = [sim.to_int(c) for c in hand]
            assert tuple(k for k in valuer.keys(ints) if k) == value.keys, notation(hand)
            assert valuer.values(ints) == (value.normal, value.forced_out_total(1)), notation(hand)


def test_the_fast_trick_estimate_is_the_normal_bots() -> None:
    rng = random.Random(4)
    for hand in _skewed_hands(rng, 500):
        trump = rng.choice("cdhs")
        fast = sim.estimate([sim.to_int(c) for c in hand], sim.suit_int(trump))
        assert fast == pytest.approx(normal.estimate_tricks(hand, trump))


def test_the_view_rebuilds_the_tricks_and_the_voids_shown() -> None:
    for index in range(12):
        seeds = random.Random(index)
        e = HachiHachiEngine(
            HachiHachiRules(rounds=1), [50] * 5, Shuffler(seed_source=lambda s=seeds: s.randbytes(32).hex())
        )
        rng = random.Random(index)
        checked = False
        while not e.is_over:
            seat = min(e.to_act())
            view = e.view(seat)
            if view.phase == "trick":
                logged = [(t.leader, t.winner, tuple((p.seat, p.card) for p in t.plays)) for t in e.trick_log]
                rebuilt = [
                    (t.leader, t.winning, tuple((p.seat, p.card.notation) for p in t.plays)) for t in view.trick_history
                ]
                assert rebuilt == logged
                assert e.public_view().trick_history == view.trick_history
                assert e.public_view().shown_void == view.shown_void
                for s, suits in view.shown_void.items():
                    assert not any(c.suit in suits for c in e.hands[s]), "a shown void is a real one"
                checked = True
            e.apply(seat, normal.choose(view, e.legal_actions(seat), rng))
        assert checked or not e.results[-1].summary["trick_log"]


RUFF = {P1: "As Ks Qs Js 2d 3d 4d", P2: "2c 9c Ah Kh Qh Jh 2h", P3: "3c 8c Ad Kd Qd Jd 5d"}


def test_a_seat_that_did_not_follow_has_shown_a_void() -> None:
    e = table(RUFF, seats=3, mizuten_enabled=False)
    calls(e, "play", "play", "play")
    act(e, P1, "card As")
    act(e, P2, "card 2c")
    view = e.view(P3)
    assert view.shown_void == {P2: frozenset({"s"})}
    act(e, P3, "card 3c")
    assert e.view(P1).trick_history[0].winning == P3


# ---------------------------------------------------------------- the sampler


def test_the_sampler_respects_voids_reveals_and_never_deals_a_seen_card() -> None:
    # P2 has no yaku, P3 three pairs (both shown at hand settlement); both show a void in spades at trick 1.
    hands = {P1: "As Ks Qs Js 2d 3d 4d", P2: "2c 9c Ah Kh Qh 6d 4h", P3: "3c 3h 8c 8d Kd Kc 5d"}
    e = table(hands, seats=5, mizuten_enabled=False)
    calls(e, "play", "play", "play")
    for card in ("As", "2c", "3c"):
        act(e, only(e), f"card {card}")
    view = e.view(P1)
    assert view.shown_void == {P2: frozenset({"s"}), P3: frozenset({"s"})}
    shown = {c for r in view.reveals for c in r.cards}
    assert {r.seat: r.yaku for r in view.reveals if r.role == "declarer"} == {P1: (), P2: (), P3: ("three_pairs",)}
    seen = set(e.dealt[P1]) | set(e.played) | {e.indicator} | shown
    p3_shown = {c for r in view.reveals if r.seat == P3 for c in r.cards} - set(e.played)
    state = strong._TrickState(strong._Seat(view))
    rng = random.Random(5)
    for _ in range(300):
        sampled, weight, _ = state.sample(rng)
        assert weight > 0 and sorted(sampled) == [P2, P3]
        p2 = [sim.to_card(c) for c in sampled[P2]]
        p3 = [sim.to_card(c) for c in sampled[P3]]
        assert len(p2) == len(e.hands[P2]) and len(p3) == len(e.hands[P3])
        assert not set(p2) & set(p3), "no card dealt twice"
        assert not any(c.suit == "s" for c in p2 + p3), "both showed a void in spades"
        assert not seen.intersection(p2), "a card the seat has seen is dealt to P2"
        assert p3_shown <= set(p3), "P3's shown cards stay in his hand"
        assert not (seen - p3_shown).intersection(p3)
        assert classify([*p3, FrenchCard.parse("3c")], view.rules.yaku_table).keys == ("three_pairs",)
        assert classify([*p2, FrenchCard.parse("2c")], view.rules.yaku_table).keys == ()


# ---------------------------------------------------------------- clear-cut decisions of the strong bot

HOPELESS = "2s 3h 4d 6s 8h Jd Qh"
"""No trump (clubs), no high card, no yaku."""
STRONG = "Ac Kc Qc Jc As Ah Ad"


@pytest.mark.parametrize("seats", [5, 7])
def test_strong_folds_a_hopeless_hand_for_a_small_fee_and_plays_a_strong_one(seats: int) -> None:
    e = table({P1: HOPELESS}, seats=seats, mizuten_enabled=False)
    assert e.view(P1).fold_fee == 2
    assert decide(e, P1, strong.choose) == "fold"
    assert decide(table({P1: STRONG}, seats=seats, mizuten_enabled=False), P1, strong.choose) == "play"


def test_strong_folds_a_hopeless_hand_behind_two_declarers_and_on_a_zetsuba() -> None:
    e = table({P3: HOPELESS}, seats=5, mizuten_enabled=False)
    calls(e, "play", "play")
    assert decide(e, P3, strong.choose) == "fold", "it would pay two forced-out players and lose the tricks"
    e = table({P1: HOPELESS}, seats=5, mizuten_enabled=False, indicator="Kc")
    assert e.view(P1).fold_fee == 8
    assert decide(e, P1, strong.choose) == "fold", "everything is worth four times more, the fee too"


def test_strong_plays_as_the_last_speaker_when_nobody_has() -> None:
    e = table({P3: HOPELESS}, seats=3, mizuten_enabled=False)
    calls(e, "fold", "fold")
    assert decide(e, P3, strong.choose) == "play", "a single declarer takes the pot"


def test_strong_splits_a_weak_hand_and_fights_with_a_strong_one() -> None:
    e = table({P2: HOPELESS, P4: STRONG}, seats=4)
    calls(e, "no-mizuten", "fold", "play", "fold", "play")
    assert decide(e, P2, strong.choose) == "split"
    assert decide(e, P4, strong.choose) == "fight"


def test_strong_never_declares_mizuten_where_it_cannot_pay() -> None:
    e = table({}, seats=5, max_declarers=2)
    assert all(decide(e, P1, strong.choose, seed) == "no-mizuten" for seed in range(5))


def test_strong_mizuten_costs_more_than_it_pays_at_a_full_table() -> None:
    # At seven seats a bound start player plays many hands he should fold; the bonus does not make up for it.
    e = table({}, seats=7)
    assert strong.mizuten_gain(e.view(P1), random.Random(1), 1000) < -1.0
    assert decide(e, P1, strong.choose) == "no-mizuten"


def test_strong_over_ruffs_cheaply_and_keeps_its_king_when_it_cannot_win() -> None:
    ruff = {P1: "As Ks Qs Js 2d 3d 4d", P2: "2c 9c Ah Kh Qh Jh 2h", P3: "3c 8c Ad Kd Qd Jd 5d"}
    e = table(ruff, seats=3, mizuten_enabled=False)
    calls(e, "play", "play", "play")
    act(e, P1, "card As")
    act(e, P2, "card 2c")
    assert decide(e, P3, strong.choose) == "card 3c", "last to play: the cheapest card that wins"
    keep = {P1: "As 2s 3s 4d 5d 6d 7d", P2: "Ks 5s 9h Th Jh 8d 9d", P3: "6s 7s 2h 3h 4h Td Jd"}
    e = table(keep, seats=3, mizuten_enabled=False, indicator="2c")
    calls(e, "play", "play", "play")
    act(e, P1, "card As")
    assert decide(e, P2, strong.choose) == "card 5s", "the King is the top spade once the Ace is out"


def test_easy_plays_by_its_count_of_high_cards_and_its_highest_card() -> None:
    e = table({P1: HOPELESS}, seats=5, mizuten_enabled=False, indicator="7d")
    assert easy.strong_cards(e.hands[P1], "d") == 3 and decide(e, P1, easy.choose) == "fold"
    e = table({P1: "2s 3h 4d 6s 8h Jd Qh"}, seats=5, mizuten_enabled=False, indicator="7h")
    assert easy.strong_cards(e.hands[P1], "h") == 4 and decide(e, P1, easy.choose) == "play"
    e = table({P3: "Ts Jh 2d 3d 4d 5c 6c"}, seats=5, mizuten_enabled=False)
    calls(e, "play", "play")
    assert decide(e, P3, easy.choose) == "play", "a newcomer ignores the two declarers and the forced-out cost"
    assert decide(table({}, seats=5), P1, easy.choose) == "no-mizuten"
    ruff = {P1: "As Ks Qs Js 2d 3d 4d", P2: "2c 9c Ah Kh Qh Jh 2h", P3: "3c 8c Ad Kd Qd Jd 5d"}
    e = table(ruff, seats=3, mizuten_enabled=False)
    calls(e, "play", "play", "play")
    act(e, P1, "card As")
    assert decide(e, P2, easy.choose) == "card Ah", "void in spades, it throws its highest card"
    e = table({P2: HOPELESS, P4: "2d 3c 5h 7s 9h Ts Kd"}, seats=4)
    calls(e, "no-mizuten", "fold", "play", "fold", "play")
    assert decide(e, P2, easy.choose) == "fight"


# ---------------------------------------------------------------- determinism and no peeking


def _positions(seats: int, seed: int) -> list[tuple[HachiHachiEngine, int]]:
    """Engines at every decision of one round played by the normal bot (copies, in order)."""
    import copy

    seeds = random.Random(seed)
    e = HachiHachiEngine(
        HachiHachiRules(rounds=1), [50] * seats, Shuffler(seed_source=lambda: seeds.randbytes(32).hex())
    )
    rng = random.Random(seed)
    out: list[tuple[HachiHachiEngine, int]] = []
    while not e.is_over:
        seat = min(e.to_act())
        out.append((copy.deepcopy(e), seat))
        e.apply(seat, normal.choose(e.view(seat), e.legal_actions(seat), rng))
    return out


_DECISIONS_SCRIPT = """
import functools, random, sys
sys.path.insert(0, {kit!r})
from test_hachi_levels import _positions
from games.hachi_hachi import strong
budgeted = functools.partial(strong.choose, budget_ms=10.0)
for e, seat in _positions(5, 4)[::2]:
    view = e.view(seat)
    print(budgeted(view, e.legal_actions(seat), random.Random(2)).text)
    if view.phase == "declare":
        print(repr(strong.play_ev(view, random.Random(2), 40)))
    if view.phase == "trick":
        state = strong._TrickState(strong._Seat(view))
        rng = random.Random(2)
        print([state.sample(rng) for _ in range(5)])
"""


def test_strong_decides_the_same_in_processes_with_other_hash_seeds() -> None:
    # Decisions run in a worker process: nothing may hang on the order of a set of strings.
    import os
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).parent
    script = _DECISIONS_SCRIPT.format(kit=str(here))
    outputs = []
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        outputs.append(done.stdout)
    assert len(set(outputs)) == 1 and len(outputs[0].split()) > 10


def test_every_level_is_deterministic_given_the_rng() -> None:
    for seats, seed in ((3, 1), (5, 2), (7, 3)):
        for e, seat in _positions(seats, seed)[::2]:
            view, legal = e.view(seat), e.legal_actions(seat)
            for policy in (easy.choose, normal.choose_normal, FAST):
                first = policy(view, legal, random.Random(11))
                assert policy(view, legal, random.Random(11)) == first


def _stacked(rules: HachiHachiRules, seats: int, deck: Sequence[FrenchCard]) -> HachiHachiEngine:
    """A one-round table where P1 starts and the round is dealt from ``deck``."""
    stacks = [50] * seats
    planned = [Shuffle(order=sp_draw(P1, stacks), purpose="draw_sp"), Shuffle(order=notation(deck))]
    return HachiHachiEngine(rules, stacks, Shuffler(planned=planned))


def _replayed(e: HachiHachiEngine, deck: Sequence[FrenchCard]) -> HachiHachiEngine | None:
    """``e``'s table and history dealt from ``deck`` (None if the history is not legal with it)."""
    other = _stacked(e.rules, e.seats, deck)
    try:
        for seat, action in e.history:
            other.apply(seat, action)
    except IllegalAction:
        return None
    return other


def _redealt(e: HachiHachiEngine, seat: int, rng: random.Random) -> HachiHachiEngine:
    """The same table and history with the cards hidden from ``seat`` dealt differently, wherever the table looks
    the same to everyone (cards swapped two at a time; a swap the history or the public view would show, as an
    illegal card or another hand revealed, is undone). ``seat``'s own cards never move."""
    deck = list(e.deck)
    hidden = [i for i, c in enumerate(deck) if c in e.hidden_from(seat)]
    public = e.public_view()
    moved = 0
    for _ in range(120):
        i, j = rng.sample(hidden, 2)
        trial = list(deck)
        trial[i], trial[j] = trial[j], trial[i]
        other = _replayed(e, trial)
        if other is not None and other.public_view() == public:
            deck = trial
            moved += 1
    assert moved >= 5
    redealt = _replayed(e, deck)
    assert redealt is not None
    assert redealt.deck != e.deck, "the re-deal moved no card"
    if e.phase != "mizuten":
        others = [s for s in range(e.seats) if s != seat]
        assert [redealt.dealt[s] for s in others] != [e.dealt[s] for s in others], "no other hand changed"
    return redealt


def _spots(rules: HachiHachiRules, seats: int, seed: int) -> list[tuple[HachiHachiEngine, int]]:
    """Engines at the decisions of one stacked round in which everyone plays while declarers are wanted, and
    fights rather than splits (so the round reaches the tricks); the rest decide as the normal bot."""
    rng = random.Random(seed)
    deck = french_deck()
    rng.shuffle(deck)
    e = _stacked(rules, seats, deck)
    spots: list[tuple[HachiHachiEngine, int]] = []
    while not e.is_over:
        seat = min(e.to_act())
        spots.append((copy.deepcopy(e), seat))
        legal = e.legal_actions(seat)
        verbs = [a.verb for a in exact_actions(legal)]
        eager = "play" if "play" in verbs else "fight" if "fight" in verbs else None
        pick = legal[verbs.index(eager)] if eager else normal.choose_normal(e.view(seat), legal, rng)
        e.apply(seat, pick)  # type: ignore[arg-type]
    return spots


@pytest.mark.parametrize(
    ("seats", "seed", "options", "phases"),
    [
        (4, 1, {}, {"mizuten", "declare", "trick"}),
        (6, 2, {"mizuten_enabled": False}, {"declare", "trick"}),
        (5, 3, {"max_declarers": 2}, {"declare", "choose", "trick"}),
    ],
)
def test_no_peeking_a_redeal_of_the_unseen_cards_gives_the_same_decision(
    seats: int, seed: int, options: dict[str, object], phases: set[str]
) -> None:
    rules = HachiHachiRules.model_validate({"rounds": 1, **options})
    spots = _spots(rules, seats, seed)
    seen = set()
    rng = random.Random(seed)
    firsts = {e.phase: (e, seat) for e, seat in reversed(spots)}
    for e, seat in [*firsts.values(), *spots[1::3]]:
        view = e.view(seat)
        seen.add(view.phase)
        other = _redealt(e, seat, rng)
        assert other.view(seat) == view, "the seat's view shows something of the cards it cannot see"
        legal = e.legal_actions(seat)
        assert other.legal_actions(seat) == legal
        for name, policy in (("easy", easy.choose), ("normal", normal.choose_normal), ("strong", FAST)):
            mine = policy(view, legal, random.Random(3))
            assert policy(other.view(seat), legal, random.Random(3)) == mine, (name, view.phase)
    assert phases <= seen


# ---------------------------------------------------------------- a small head-to-head


def _round(policies: Sequence[Policy], deck_seed: int) -> tuple[int, ...]:
    """One round (a one-round game) from a seeded deck; each seat has its own seeded rng."""
    seats = len(policies)
    seeds = random.Random(deck_seed)
    e = HachiHachiEngine(
        HachiHachiRules(rounds=1), [50] * seats, Shuffler(seed_source=lambda: seeds.randbytes(32).hex())
    )
    rngs = [random.Random(deck_seed * 10 + s) for s in range(seats)]
    while not e.is_over:
        seat = min(e.to_act())
        e.apply(seat, policies[seat](e.view(seat), e.legal_actions(seat), rngs[seat]))
    return e.results[-1].deltas


def _gain(hero: Policy, base: Policy, seats: int, decks: int) -> tuple[float, float]:
    """What one ``hero`` seat wins a round in place of a ``base`` seat at a table of ``base`` players: every deck is
    played once by ``base`` alone and once with ``hero`` at each seat in turn (the same cards, the seats rotated),
    and each ``hero`` result is compared with the same seat's in the all-``base`` round. Mean and standard error."""
    diffs: list[float] = []
    for deck in range(decks):
        ref = _round([base] * seats, deck)
        for seat in range(seats):
            got = _round([hero if s == seat else base for s in range(seats)], deck)
            diffs.append(got[seat] - ref[seat])
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean, (var / len(diffs)) ** 0.5


def test_head_to_head_strong_beats_normal_and_normal_beats_easy() -> None:
    mean, se = _gain(functools.partial(strong.choose, budget_ms=8.0), normal.choose_normal, seats=3, decks=40)
    assert mean > 3 * se, f"strong in place of normal: {mean:+.2f} ± {se:.2f} a round"
    mean, se = _gain(easy.choose, normal.choose_normal, seats=5, decks=60)
    assert mean < -2 * se, f"easy in place of normal: {mean:+.2f} ± {se:.2f} a round"
