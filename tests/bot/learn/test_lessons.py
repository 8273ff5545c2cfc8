"""Each lesson's deal shows the rule it teaches, and its seeds are what the lesson says they are."""

from __future__ import annotations

import re

import pytest

from bot.learn.lessons import LESSONS, Lesson, by_seed, find, lesson, lessons, simulate
from bot.ui import adapters
from games.registry import get_game


@pytest.mark.parametrize("item", LESSONS, ids=lambda item: item.key)
def test_the_deal_shows_its_rule_whatever_the_bots_choose(item: Lesson) -> None:
    """Played out with the bots' random choices drawn afresh (not those the search used), the rule still shows."""
    for run in range(8):
        assert item.check(*simulate(item, bot_seed=f"again{run}")), (item.key, run)


@pytest.mark.parametrize("item", LESSONS, ids=lambda item: item.key)
def test_the_pinned_number_is_the_first_the_search_finds(item: Lesson) -> None:
    assert find(item, start=0, tries=item.number + 1) == item.number


def test_a_check_can_fail() -> None:
    """The checks are real: most numbers do not show the rule (else any deal would do and the search proves nothing)."""
    item = lesson("oicho", "draw")
    assert item is not None and item.number > 0
    assert not all(item.check(*simulate(item, 0, bot_seed=f"find{run}")) for run in range(6))


def test_every_game_has_lessons_and_each_is_found_by_its_seed() -> None:
    assert {item.game for item in LESSONS} == set(adapters())
    for item in LESSONS:
        seeds = item.seeds()
        assert len(seeds) == 1 + item.deals and all(re.fullmatch(r"[0-9a-f]{64}", s) for s in seeds)
        assert by_seed(seeds[0]) is item and lesson(item.game, item.id) is item
        spec = get_game(item.game)
        low, high = spec.seat_range(spec.rules_model())
        assert low <= 1 + item.bots <= high
    assert len({s for item in LESSONS for s in item.seeds()}) == sum(1 + item.deals for item in LESSONS)
    assert lesson("luk_fu", None) is lessons("luk_fu")[0] and lesson("luk_fu", "nope") is None


def test_every_lesson_and_foul_state_has_its_words_in_both_languages() -> None:
    """Keys the code builds from a name (the literal-key scan of the catalog test cannot see them)."""
    from bot.i18n import catalog

    keys = [f"learn.{kind}_{item.game}_{item.id}" for item in LESSONS for kind in ("lesson", "intro")]
    keys += [f"learn_ofc.so_far_{state}" for state in ("ok", "unavoidable", "fouled")]
    for key in keys:
        assert set(catalog()[key]) == {"en", "ja"}, key


@pytest.mark.parametrize("item", lessons("oicho"), ids=lambda item: item.key)
def test_following_the_coach_bets_as_a_bot_does(item: Lesson) -> None:
    """The coach's advice keeps the policy's own variety from one decision to the next: a learner following it makes
    the one or two modest bets the bot makes, then says Done (advice from one fixed random source would repeat the
    same bet on the same pile until the bank was full)."""
    steps, _engine = simulate(item, bot_seed="bets")
    bets = [s.action for s in steps if s.seat == 0 and s.action.verb == "bet"]
    assert len(bets) <= 2 and len({b.pile for b in bets}) == len(bets)
