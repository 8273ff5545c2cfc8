"""The strong Luk Fu bot's parts: the card model against the engine, the sampler of possible deals (it deals only
unseen cards and keeps every inference the rules allow), and the search's decisions in stacked deals."""

from __future__ import annotations

import copy
import functools
import random
from typing import Any

import pytest
from bots_kit import RULE_SETS, new_engine, positions, true_world
from lukfu_kit import A, B, C, act, low_discard, play, summary, table, trick

from games.core.actions import is_listed
from games.core.cards import LukFuCard, parse_lukfu
from games.luk_fu import actions as act_
from games.luk_fu import sim
from games.luk_fu.combos import beating_plays, canonical, combos
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.old import old_in_hand, single_leads
from games.luk_fu.policy import normal
from games.luk_fu.sampler import Knowledge, unseen
from games.luk_fu.search import evaluate, strong
from games.luk_fu.views import LukFuSeatView

fast = functools.partial(strong, budget_ms=3)


def decide(policy: Any, e: LukFuEngine, seat: int, seed: int = 1) -> str:
    legal = e.legal_actions(seat)
    action = policy(e.view(seat), legal, random.Random(seed))
    assert is_listed(action, legal)
    return str(action.text)


# ------------------------------------------------------------------ the model plays by the engine's rules


def _mirror(hand: sim.Hand, me: int, action: act_.Action) -> None:
    if isinstance(action, act_.Play | act_.Pass):
        hand.call(me, isinstance(action, act_.Play))
    elif isinstance(action, act_.Tigers):
        hand.reveal(me)
    elif isinstance(action, act_.Keep):
        hand.keep()
    elif isinstance(action, act_.Stop):
        hand.stop(me)
    elif isinstance(action, act_.Continue):
        hand.cont(me)
    elif isinstance(action, act_.Discard):
        hand.discard(me, sim.mask_of(action.cards))
    elif isinstance(action, act_.Follow):
        hand.follow(me, sim.make_play(sim.mask_of(action.cards)))
    else:
        assert isinstance(action, act_.Lead)
        hand.lead(me, sim.make_play(sim.mask_of(action.cards)))


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_the_model_agrees_with_the_engine(options: dict[str, Any]) -> None:
    """Rebuilt from a seat's view and the real hidden cards, the model lists the engine's leads, old cards and
    beating plays, and after the same move scores the hand as the engine does (``owed``, before stack caps)."""
    checked = ends = 0
    for e, seat, rng in positions(3, games=2, **options):
        view = e.view(seat)
        knowledge = Knowledge(view)
        world = knowledge.world(true_world(e, knowledge))
        me = knowledge.me
        if e.phase == "lead":
            assert sorted(p[1] for p in world.leads(me)) == sorted(sim.mask_of(p) for p in e.lead_plays(seat))
            assert world.may_reveal(me) == e.may_reveal_at_lead(seat)
            for p, s in enumerate(knowledge.active):
                assert world.old_mask(p) == sim.mask_of(e.old_cards(s))
            checked += 1
        elif e.phase == "follow":
            assert sorted(p[1] for p in world.follow_beaters(me)) == sorted(sim.mask_of(p) for p in e.beating(seat))
            checked += 1
        action = rng.choice(e.legal_actions(seat))
        assert isinstance(action, act_.Action)
        mirrored = world.copy()
        _mirror(mirrored, me, action)
        branch = copy.deepcopy(e)
        deal = branch.deal_no
        branch.apply(seat, action)
        if branch.deal_no != deal or branch.is_over:
            assert mirrored.phase == sim.END
            assert mirrored.payoff() == branch.results[-1].summary["owed"][seat]
            ends += 1
        else:
            assert mirrored.phase != sim.END
            after = Knowledge(branch.view(seat))
            assert mirrored.hands[me] == after.my_hand and mirrored.faceup == after.faceup
            assert mirrored.tricks[me] == branch.tricks[seat]
        if checked > 150:
            break
    assert checked > 40 and ends >= 1


def test_rollouts_finish_every_hand_with_legal_chips() -> None:
    for e, seat, _rng in positions(5, games=1):
        knowledge = Knowledge(e.view(seat))
        world = knowledge.world(true_world(e, knowledge))
        chips = sim.rollout(world.copy())
        assert -60 <= chips <= 60


# ------------------------------------------------------------------ the sampler


def _past_holdings(view: LukFuSeatView, knowledge: Knowledge, cards: list[int]) -> None:
    """Checks one world against the rules' inferences with the engine's own functions (not the sampler's):
    every face-down follow of another player had nothing that beat, every restricted single lead was legal."""
    rules = view.rules
    ones_high = rules.ones_set_rank == "high"
    history = [*view.finished_tricks, *([view.trick] if view.trick is not None else [])]
    faceup: set[LukFuCard] = set()
    caps = {s: [9, 9, 9, 9] for s in knowledge.active}
    for k, trick_view in enumerate(history):
        lead = trick_view.plays[0]
        led = tuple(c for c in lead.cards if c is not None)
        p = knowledge.idx[lead.seat]
        if p != knowledge.me:
            held = sim.cards_of(knowledge.holding(cards, p, k))
            if len(led) == 1 and not (rules.old_lead_exempt_declarer and lead.seat == view.declarer):
                disc = set()
                for j, slot in enumerate(knowledge.slots):
                    if slot.owner == p and slot.time < k:
                        disc |= set(sim.cards_of(cards[j]))
                dealt = set(sim.cards_of(knowledge.holding(cards, p, 0)))
                others = [caps[s] for s in knowledge.active if s != lead.seat]
                old = old_in_hand(
                    set(held),
                    mode=rules.old_card_mode,
                    faceup=faceup,
                    own_discards=disc,
                    dealt=dealt,
                    other_caps=others,
                )
                allowed = single_leads(
                    held,
                    old,
                    is_declarer=lead.seat == view.declarer,
                    exempt_declarer=rules.old_lead_exempt_declarer,
                    exempt_only_old=rules.old_lead_exempt_only_old_left,
                    highest_suit=rules.single_lead_highest_suit,
                ).allowed
                assert led[0] in allowed or (not allowed and not combos(canonical(held))), (k, led, held)
        winning, win_index = led, 0
        for i, pv in enumerate(trick_view.plays[1:], start=1):
            if not pv.face_down:
                winning, win_index = tuple(c for c in pv.cards if c is not None), i
                continue
            p = knowledge.idx[pv.seat]
            if (
                len(winning) == 1
                and not winning[0].is_li_tyen
                and not (win_index == 0 and sim.ID[winning[0]] in (0, 27))
            ):
                s = winning[0].suit_order
                caps[pv.seat][s] = min(caps[pv.seat][s], winning[0].rank)
            if p == knowledge.me:
                continue
            held = canonical(sim.cards_of(knowledge.holding(cards, p, k)))
            assert not beating_plays(held, canonical(winning), win_index == 0, ones_high), (k, pv.seat, held, winning)
        for pv in trick_view.plays:
            if not pv.face_down:
                faceup.update(c for c in pv.cards if c is not None)


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_sampled_deals_hold_only_unseen_cards_and_keep_the_inferences(options: dict[str, Any]) -> None:
    """Each world deals exactly the cards the seat has not seen, in the right numbers, and agrees with every
    must-beat and lead-restriction inference (checked with the engine's functions); the real deal is always a
    world the sampler could deal (the inferences are sound)."""
    worlds = 0
    for n, (e, seat, rng) in enumerate(positions(11, games=1, **options)):
        view = e.view(seat)
        knowledge = Knowledge(view)
        real = true_world(e, knowledge)
        for j, slot in enumerate(knowledge.slots):
            assert not knowledge.forbid[j] & real[j], f"the real {slot} is ruled out"
        _past_holdings(view, knowledge, real)
        if n % 3:
            continue
        for _ in range(4):
            cards = knowledge.deal(rng)
            assert [c.bit_count() for c in cards] == [s.size for s in knowledge.slots]
            dealt = 0
            for c in cards:
                assert not dealt & c
                dealt |= c
            assert dealt == unseen(view)
            _past_holdings(view, knowledge, cards)
            worlds += 1
    assert worlds > 20


def test_a_face_down_follow_rules_out_the_higher_cards() -> None:
    """A leads 7M and both others follow face down: neither holds 8M or 9M from then on. A holds 8M, so in
    every world A imagines, 9M is the dead card or was discarded face down before (both happen)."""
    e = table({A: "9C 9S 9T 1T 7M 8M 2C 3C 4S 5S 2T 3T"}, extra="9M")
    play(e, (A, "play"))
    trick(e, "9C 9S 9T", "*", "*")
    trick(e, "1T", "*", "*")
    trick(e, "7M", "*", "*")
    knowledge = Knowledge(e.view(A))
    rng = random.Random(3)
    nine = 1 << sim.ID[parse_lukfu("9M")[0]]
    where: set[str] = set()
    for _ in range(80):
        cards = knowledge.deal(rng)
        (slot,) = [knowledge.slots[j] for j, c in enumerate(cards) if c & nine]
        assert slot.owner == -1 or slot.time < 2, slot
        where.add("dead" if slot.owner == -1 else "discarded")
    assert where == {"dead", "discarded"}


def test_a_restricted_single_lead_shows_the_suits_above_hold_only_old_cards() -> None:
    """B (not the declarer) leads 4S: a restricted single comes from the highest suit among his non-old cards,
    so C's worlds give B no Myriads and no Tens but what could have been old for him (here only 1T, always
    old: C holds the top of both suits)."""
    e = table(
        {
            A: "2S 9C 1S 3S 5S 7S 1M 2M 3M 1T 2T 3T",
            B: "9S 4S 6S 8S 1C 2C 3C 4C 5C 6C 7C 8C",
            C: "4M 5M 6M 7M 8M 9M 4T 5T 6T 7T 8T 9T",
        },
        extra="LT",
    )
    play(e, (A, "play"), (A, "lead 2S"), (B, "follow 9S"))
    act(e, C, "discard 4M")
    act(e, B, "lead 4S")
    knowledge = Knowledge(e.view(C))
    assert knowledge.led_singles == [(knowledge.idx[B], 1)]
    high_suits = sim.SUIT_MASK[2] | sim.SUIT_MASK[3]
    one_t = 1 << sim.ID[parse_lukfu("1T")[0]]
    rng = random.Random(5)
    seen_one_t = False
    for _ in range(60):
        cards = knowledge.deal(rng)
        b_cards = knowledge.holding(cards, knowledge.idx[B], 0) & ~sim.mask_of(parse_lukfu("9S 4S"))
        assert b_cards & high_suits & ~one_t == 0
        seen_one_t |= bool(b_cards & one_t)
    assert seen_one_t  # 1T stays possible: it is always old, so holding it did not force a Tens lead


# ------------------------------------------------------------------ the search in stacked deals


def test_strong_plays_on_when_the_rest_of_its_hand_is_sure() -> None:
    """At 6 tricks with an unbeatable 4-9T run left, stopping wins 1 a loser; playing on takes all 12 (7)."""
    e = table({A: "9C 9S 9M 8C 8S 8M 4T 5T 6T 7T 8T 9T"})
    play(e, (A, "play"))
    trick(e, "9C 9S 9M", "*", "*")
    trick(e, "8C 8S 8M", "*", "*")
    assert decide(normal, e, A) == "stop"
    assert decide(strong, e, A) == "continue"
    while not e.results:  # strong plays A's hand out; the others follow face down
        seat = sorted(e.to_act())[0]
        act(e, seat, decide(strong, e, seat) if seat == A else low_discard(e, seat))
    assert summary(e)["tricks"][A] == 12 and summary(e)["deltas"][A] == 14


def test_strong_takes_the_trick_the_must_beat_rule_proves_is_sure() -> None:
    """A led 7M and both others followed face down, so neither holds 8M or 9M: A's 8M cannot lose. At 5 tricks
    it takes the sixth with it (and wins the hand) rather than give up the lead; the baseline, blind to the
    inference, leads a low card."""
    e = table({A: "9C 9S 9T 1T 7M 8M 2C 3C 4S 5S 2T 3T"}, extra="9M")
    play(e, (A, "play"))
    trick(e, "9C 9S 9T", "*", "*")
    trick(e, "1T", "*", "*")
    trick(e, "7M", "*", "*")
    assert e.tricks[A] == 5
    assert decide(normal, e, A) != "lead 8M"
    assert decide(strong, e, A) == "lead 8M"


def test_strong_wins_a_trick_it_plays_last_to_with_its_cheapest_winner() -> None:
    """C plays last to A's 5S (B followed face down): 6S takes the trick as surely as 9S, and keeps 9S."""
    e = table({A: "5S 1S 3S 4S", B: "2C 1M 2M 3M 4M 5M 6M 7M 8M 9M 1T 2T", C: "6S 7S 9S"})
    play(e, (A, "play"), (A, "lead 5S"), (B, "discard 2C"))
    assert decide(strong, e, C) == "follow 6S"


def test_strong_calls_a_strong_hand_and_passes_a_hopeless_one() -> None:
    e = table({A: "2T 3T 4T 5T 6T 7T 8T 9T 1T 1C LT 2C"})
    assert decide(strong, e, A) == "play"
    e = table({A: "2C 3S 4M 5T 2S 3M 4T 5C 6C 7S 8M 2T"})
    assert decide(strong, e, A) == "pass"


def test_strong_keeps_its_sure_cards_when_it_follows_face_down() -> None:
    e = table({A: "9C 2S", B: "9S 9T 8T 2C 3C 4C", C: "5C"})
    play(e, (A, "play"), (A, "lead 9C"))
    discard = decide(strong, e, B)
    assert discard.startswith("discard") and not {"9S", "9T", "8T"} & set(discard.split())


def test_strong_reveals_five_tigers() -> None:
    e = table({A: "1C 1S 1M 1T LT 2C 3C 4C 5S 6S 7S 8M"})
    play(e, (A, "play"))
    assert decide(strong, e, A) == "tigers"


# ------------------------------------------------------------------ determinism and budget


def test_strong_is_deterministic_given_the_seed() -> None:
    """The same view, legal actions and seed give the same action (worlds and rollouts come from the rng)."""
    compared = 0
    for n, (e, seat, _rng) in enumerate(positions(21, games=1)):
        if n % 4:
            continue
        view, legal = e.view(seat), e.legal_actions(seat)
        first = fast(view, legal, random.Random(n))
        assert fast(view, legal, random.Random(n)) == first
        assert is_listed(first, legal)
        compared += 1
    assert compared > 10


def test_the_budget_is_counted_work_not_time() -> None:
    """A bigger budget searches more worlds; the same budget the same worlds (no clock is read)."""
    e = table({A: "9C 9S 9T 1T 7M 8M 2C 3C 4S 5S 2T 3T"}, extra="9M")
    play(e, (A, "play"))
    view = e.view(A)
    options = [act_.Lead((c,)) for c in view.hand]

    small = evaluate(view, options, random.Random(2), budget_ms=5)
    again = evaluate(view, options, random.Random(2), budget_ms=5)
    large = evaluate(view, options, random.Random(2), budget_ms=40)
    assert small == again
    assert sum(n for _v, n in large) > 3 * sum(n for _v, n in small)


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_strong_plays_whole_games_legally(options: dict[str, Any]) -> None:
    """Every seat strong (a small budget), whole games under each set of house rules: always a listed action,
    chips conserved."""
    e = new_engine(31, hands_total=3, **options)
    rng = random.Random(31)
    while not e.is_over:
        seat = sorted(e.to_act())[0]
        legal = e.legal_actions(seat)
        action = fast(e.view(seat), legal, rng)
        assert is_listed(action, legal)
        e.apply(seat, action)
    assert sum(e.stacks) == 100 * e.seats
