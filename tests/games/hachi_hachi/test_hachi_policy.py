"""The Hachi-Hachi Trick bot policy: always legal, and sensible where the choice is clear."""

from __future__ import annotations

import random

from hachi_kit import P1, P2, P3, P4, act, calls, only, table

from games.core.actions import is_listed
from games.core.rng import Shuffler
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.policy import MIZUTEN_RATE, choose, estimate_tricks
from games.hachi_hachi.rules import HachiHachiRules


def decide(e: HachiHachiEngine, seat: int, rng: random.Random | None = None) -> str:
    legal = e.legal_actions(seat)
    action = choose(e.view(seat), legal, rng or random.Random(1))
    assert is_listed(action, legal)
    return action.text


def test_always_legal_in_random_positions() -> None:
    for index in range(30):
        rng = random.Random(index)
        seats = 3 + index % 5
        seeds = random.Random(100 + index)
        shuffler = Shuffler(seed_source=lambda seeds=seeds: seeds.randbytes(32).hex())
        e = HachiHachiEngine(HachiHachiRules(rounds=3), [50] * seats, shuffler)
        while not e.is_over:
            seat = rng.choice(sorted(e.to_act()))
            legal = e.legal_actions(seat)
            mine = choose(e.view(seat), legal, rng)
            assert is_listed(mine, legal), f"{mine.text} is not legal"
            e.apply(seat, mine if rng.random() < 0.5 else rng.choice(legal))  # type: ignore[arg-type]


STRONG = "Ac Kc Qc Jc As Ah Ad"
WEAK = "2s 3h 4d 6s 8h 9d Th"


def test_plays_a_strong_hand_and_folds_a_weak_one() -> None:
    assert estimate_tricks(list(table({P1: STRONG}, seats=4, mizuten_enabled=False).hands[P1]), "c") > 5
    assert decide(table({P1: STRONG}, seats=4, mizuten_enabled=False), P1) == "play"
    assert decide(table({P1: WEAK}, seats=4, mizuten_enabled=False), P1) == "fold"
    e = table({P3: WEAK}, seats=4, mizuten_enabled=False)
    calls(e, "play", "play")
    assert decide(e, P3) == "fold", "a weak hand does not join two declarers (and pay two forced-out players)"


def test_the_last_speaker_plays_when_nobody_has() -> None:
    e = table({P3: WEAK}, seats=3, mizuten_enabled=False)
    calls(e, "fold", "fold")
    assert decide(e, P3) == "play", "a single declarer takes the pot with no risk"


def test_a_mizuten_start_player_must_play() -> None:
    e = table({P1: WEAK}, seats=3)
    calls(e, "mizuten")
    assert decide(e, P1) == "play"


def test_mizuten_is_rare_and_never_with_a_short_stack() -> None:
    e = table({}, seats=5)
    declared = sum(decide(e, P1, random.Random(i)) == "mizuten" for i in range(2000))
    assert 0 < declared < 2000 * MIZUTEN_RATE * 2
    short = table({}, seats=5, stacks=[10, 50, 50, 50, 50])
    assert all(decide(short, P1, random.Random(i)) == "no-mizuten" for i in range(300))
    two = table({}, seats=5, max_declarers=2)
    assert two.phase == "mizuten"
    assert all(decide(two, P1, random.Random(i)) == "no-mizuten" for i in range(2000)), "it can never pay here"


def test_split_with_a_weak_hand_fight_with_a_strong_one() -> None:
    e = table({P2: "As Ks Ah 2h 3d 4d 2c", P4: "3s 4s Kh Qh Ad Kd 3c"}, seats=4)
    calls(e, "no-mizuten", "fold", "play", "fold", "play")
    assert decide(e, P2) == "split" and decide(e, P4) == "split"
    e = table({P2: STRONG, P4: WEAK}, seats=4)
    calls(e, "no-mizuten", "fold", "play", "fold", "play")
    assert decide(e, P2) == "fight"


RUFF = {P1: "As Ks Qs Js 2d 3d 4d", P2: "2c 9c Ah Kh Qh Jh 2h", P3: "3c 8c Ad Kd Qd Jd 5d"}


def test_leads_an_established_card_ruffs_and_over_ruffs_cheaply() -> None:
    e = table(RUFF, seats=3, mizuten_enabled=False)
    calls(e, "play", "play", "play")
    assert decide(e, P1) == "card As"
    act(e, P1, "card As")
    assert decide(e, P2) == "card 2c", "void in spades: ruff with the lowest trump"
    act(e, P2, "card 2c")
    assert decide(e, P3) == "card 3c", "last to play: the cheapest card that wins"


HH7 = {P1: "As Ks 2h 6h 3d 8d Ac", P2: "4s 5s Ah Kh 4d 9d 2c", P4: "8s 9s 3h 5h Ad Kd 3c"}


def test_follows_low_when_it_cannot_win_and_wins_with_a_sure_card() -> None:
    e = table(HH7, seats=4)
    calls(e, "no-mizuten", "play", "play", "fold", "play")
    act(e, P1, "card As")
    assert decide(e, P2) == "card 4s"
    act(e, P2, "card 4s")
    assert decide(e, P4) == "card 8s"
    act(e, P4, "card 8s")
    act(e, P1, "card Ks")
    act(e, P2, "card 5s")
    act(e, P4, "card 9s")
    act(e, P1, "card 2h")
    assert only(e) == P2
    assert decide(e, P2) == "card Kh", "not last: the cheapest card nobody can beat (it holds the Ace too)"
