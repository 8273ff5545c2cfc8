"""The Luk Fu bot policy: legal, sensible, fast."""

from __future__ import annotations

import random
import statistics
import time

from lukfu_kit import A, B, C, act, only, play, table, texts, trick

from games.core.actions import is_listed
from games.core.rng import Shuffler
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.policy import choose, estimate_tricks
from games.luk_fu.rules import LukFuRules
from games.luk_fu.spec import SPEC


def decide(e: LukFuEngine, seat: int) -> str:
    legal = e.legal_actions(seat)
    action = choose(e.view(seat), legal, random.Random(1))
    assert is_listed(action, legal)
    return action.text


def test_calls_a_strong_hand_and_passes_a_weak_one() -> None:
    strong = "2T 3T 4T 5T 6T 7T 8T 9T 1T 1C LT 2C"
    assert estimate_tricks([*table({A: strong}).hands[A]]) >= 11
    e = table({A: strong})
    assert decide(e, A) == "play"
    e = table({A: "2C 3S 4M 5T 2S 3M 4T 5C 6C 7S 8M 2T"})
    assert decide(e, A) == "pass"


def test_reveals_tigers_and_stops_at_six() -> None:
    e = table({A: "1C 1S 1M 1T LT 2C 3C 4C 5S 6S 7S 8M"})
    play(e, (A, "play"))
    assert decide(e, A) == "tigers"
    e = table({A: "9C 9S 9M 8C 8S 8M 2C 4C 2S 4S 2M 4M"})
    play(e, (A, "play"))
    trick(e, "9C 9S 9M", "*", "*")
    trick(e, "8C 8S 8M", "*", "*")
    assert decide(e, A) == "stop"


def test_leads_a_set_that_cannot_be_beaten() -> None:
    e = table({A: "9C 9S 9M 8C 8S 8M 2C 4C 2S 4S 2M 4M"})
    play(e, (A, "play"))
    assert decide(e, A) in ("lead 9C 9S 9M", "lead 8C 8S 8M")


def test_discards_junk_not_established_cards() -> None:
    e = table({A: "9C 2S", B: "9S 9T 8T 2C 3C 4C", C: "5C"})
    play(e, (A, "play"), (A, "lead 9C"))
    assert only(e) == B
    discard = decide(e, B)
    assert discard.startswith("discard") and not {"9S", "9T", "8T"} & set(discard.split())


def test_follows_low_when_last() -> None:
    e = table({A: "5S 1S 3S 4S", B: "2S 7S 8S", C: "6S 9S"})
    play(e, (A, "play"), (A, "lead 5S"))
    assert decide(e, B) == "follow 8S"  # not last: the strongest
    act(e, B, "follow 7S")
    assert decide(e, C) == "follow 9S"
    e = table({A: "5S 1S 3S 4S", B: "2C 1M 2M 3M 4M 5M 6M 7M 8M 9M 1T 2T", C: "6S 7S 9S"})
    play(e, (A, "play"), (A, "lead 5S"))
    act(e, B, texts(e, B)[0])
    assert decide(e, C) == "follow 6S"  # last to play: the cheapest winner


def test_policy_plays_whole_games_fast() -> None:
    times: list[float] = []
    won = 0
    for game in range(6):
        rng = random.Random(game)
        seeds = random.Random(100 + game)
        players = 4 if game % 2 else 3
        e = SPEC.engine(
            LukFuRules(players=players), [100] * players, Shuffler(seed_source=lambda s=seeds: s.randbytes(32).hex())
        )
        while not e.is_over:
            seat = sorted(e.to_act())[0]
            view, legal = e.view(seat), e.legal_actions(seat)
            start = time.perf_counter()
            action = choose(view, legal, rng)
            times.append(time.perf_counter() - start)
            assert is_listed(action, legal)
            e.apply(seat, action)
        assert sum(e.stacks) == 100 * players
        won += sum(1 for r in e.results if r.summary["winner"] is not None)
    assert statistics.median(times) < 0.005
    assert won > 0
