"""The three Luk Fu bot levels: what each is, the mistakes easy makes on purpose, the baseline's fixes, that no
level peeks at hidden cards, and a seeded head-to-head that puts them in order."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from bots_kit import RULE_SETS, head_to_head, positions, redealt
from lukfu_kit import A, B, C, act, play, table

from games.core.actions import is_listed
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.policy import POLICIES, choose, easy, normal
from games.luk_fu.search import strong
from games.luk_fu.spec import SPEC

fast_strong = functools.partial(strong, budget_ms=3)


def decide(policy: Any, e: LukFuEngine, seat: int) -> str:
    legal = e.legal_actions(seat)
    action = policy(e.view(seat), legal, random.Random(1))
    assert is_listed(action, legal)
    return str(action.text)


def test_the_levels() -> None:
    assert list(POLICIES) == ["easy", "normal", "strong"]
    assert POLICIES["easy"] is easy and POLICIES["normal"] is normal and POLICIES["strong"] is strong
    assert choose is normal and SPEC.policy is strong  # the registry plays away members at the strong level


# ------------------------------------------------------------------ normal: the baseline, one fault fixed


def test_normal_ranks_sets_of_ones_high_when_the_rules_do() -> None:
    """Under ``ones_set_rank = high`` 1s beat 7s: B, not last, beats with its strongest set, the 1s."""
    hands = {A: "5C 5S 5T", B: "1C 1S 1M 7S 7M 7T", C: "2C 3S 4M"}
    e = table(hands, ones_set_rank="high")
    play(e, (A, "play"), (A, "lead 5C 5S 5T"))
    assert decide(normal, e, B) == "follow 1C 1S 1M"
    e = table(hands)
    play(e, (A, "play"), (A, "lead 5C 5S 5T"))
    assert decide(normal, e, B) == "follow 7S 7M 7T"


# ------------------------------------------------------------------ easy: a newcomer's mistakes


def test_easy_declares_by_counting_high_cards() -> None:
    sevens = {A: "7C 7S 8M 7T 8S 2C 3S 4M 5T 2S 3M 4T"}
    assert decide(easy, table(sevens), A) == "play"
    assert decide(normal, table(sevens), A) == "pass"  # a lone triple of 7s takes little
    run = {A: "2T 3T 4T 5T 6T 1T 1C LT 2C 3C 4C 5C"}
    assert decide(easy, table(run), A) == "pass"
    assert decide(normal, table(run), A) == "play"  # a long run of Tens and three unbeatable leads


def test_easy_leads_its_lowest_card() -> None:
    e = table({A: "9C 9S 9M 9T 8T 7T 6T 2C 3S 4M 5T 1S"})
    play(e, (A, "play"))
    assert decide(easy, e, A) == "lead 1S"
    assert decide(normal, e, A) != "lead 1S"


def test_easy_beats_with_its_highest_card_even_when_it_plays_last() -> None:
    e = table({A: "5S 1S 3S 4S", B: "2C 1M 2M 3M 4M 5M 6M 7M 8M 9M 1T 2T", C: "6S 7S 9S"})
    play(e, (A, "play"), (A, "lead 5S"), (B, "discard 2C"))
    assert decide(easy, e, C) == "follow 9S"
    assert decide(normal, e, C) == "follow 6S"


def test_easy_discards_its_lowest_cards_and_stops_at_six() -> None:
    e = table({A: "9C 2S", B: "1C 2C 3C 9S 9T 8T"})
    play(e, (A, "play"), (A, "lead 9C"))
    assert decide(easy, e, B) == "discard 1C"
    e = table({A: "9C 9S 9M 8C 8S 8M 4T 5T 6T 7T 8T 9T"})
    play(e, (A, "play"))
    for lead in ("9C 9S 9M", "8C 8S 8M"):
        act(e, A, f"lead {lead}")
        for seat in (B, C):
            act(e, seat, decide(easy, e, seat))
    assert decide(easy, e, A) == "stop"


# ------------------------------------------------------------------ no level peeks


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_no_level_peeks_at_hidden_cards(options: dict[str, Any]) -> None:
    """The same seat view with the cards that seat cannot see dealt again (others' hands and face-down
    follows, the dead card, the sitter's card) gives every level the same decision with the same seed."""
    levels = {"easy": easy, "normal": normal, "strong": fast_strong}
    compared = moved = 0
    for n, (e, seat, _rng) in enumerate(positions(41, **options)):
        if n % 3:
            continue
        other = redealt(e, seat, random.Random(n))
        moved += other.hands != e.hands
        assert other.view(seat) == e.view(seat)
        legal = e.legal_actions(seat)
        assert other.legal_actions(seat) == legal
        for policy in levels.values():
            mine = policy(e.view(seat), legal, random.Random(n))
            assert policy(other.view(seat), legal, random.Random(n)) == mine
        compared += 1
    assert compared > 15 and moved > compared // 2


# ------------------------------------------------------------------ head to head


def test_normal_beats_easy() -> None:
    """Seeded and mirrored (each deal also played by easy alone; normal takes each seat in turn)."""
    mean, half, hands = head_to_head(normal, easy, 100)
    assert hands == 300
    assert mean - half > 0, (mean, half)


def test_strong_beats_normal() -> None:
    """Even searching a few worlds per decision (3 ms of budget), strong wins chips from normal."""
    mean, half, hands = head_to_head(fast_strong, normal, 60)
    assert hands == 180
    assert mean - half > 0, (mean, half)
