"""The guide's pages as other features use them (:mod:`bot.howto`'s entry point): stable topic ids, every text in
both languages, and every picture's scene built under every value of the house rules its page reads."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from bot import howto
from bot.howto.model import scene_rules
from games.core.house_rules import RuleError, RuleOption, options, with_option
from games.registry import all_games

TOPICS = {
    "oicho": ("basics", "totals", "betting", "drawing", "showdown", "local_hands", "dealer", "glossary"),
    "ofc": ("basics", "variants", "ranking", "fouls", "scoring", "royalties", "fantasyland", "dealer", "glossary"),
    "luk_fu": (
        "basics",
        "pack",
        "call",
        "leads",
        "must_beat",
        "old_cards",
        "six_tricks",
        "five_tigers",
        "scoring",
        "dealing",
        "glossary",
    ),
    "hachi_hachi": ("basics", "field", "declare", "hands", "split_or_fight", "tricks", "mizuten", "glossary"),
}
"""The topic ids other features open pages by (the panels' "?", /learn): changing one is a breaking change."""


@pytest.mark.parametrize("game", howto.GAMES)
def test_topic_ids_are_the_published_ones(game: str) -> None:
    assert howto.topic_ids(game) == TOPICS[game]
    with pytest.raises(KeyError):
        howto.pages(game, "no_such_topic", "en", all_games()[game].rules_model())


@pytest.mark.parametrize("game", howto.GAMES)
def test_every_page_is_written_in_both_languages(game: str) -> None:
    rules = all_games()[game].rules_model()
    for topic in howto.topic_ids(game):
        for en, ja in zip(howto.pages(game, topic, "en", rules), howto.pages(game, topic, "ja", rules), strict=True):
            for page in (en, ja):
                for text in (page.title, page.topic_title, page.body):
                    assert text and "howto_" not in text, (topic, page.index, text[:80])
            assert (en.title, en.body) != (ja.title, ja.body)
            assert en.house_rules == ja.house_rules


def _values(option: RuleOption) -> list[str]:
    """Texts a moderator could set the option to: both ends of a range, every choice, none and all of a set."""
    if option.kind == "bool":
        return ["true", "false"]
    if option.kind == "choice":
        return list(option.choices)
    if option.kind == "set":
        return ["none", ",".join(option.choices)]
    found = [str(option.default)]
    found += [str(v) for v in (option.lo, option.hi) if v is not None]
    return found


def _variants(rules: BaseModel, paths: tuple[str, ...]) -> list[BaseModel]:
    """The rules with one of the page's options changed at a time, to each value it can take."""
    out = []
    for option in options(rules):
        if not any(option.path == p or option.path.startswith(p + ".") for p in paths):
            continue
        for value in _values(option):
            try:
                out.append(with_option(rules, option.path, value))
            except RuleError:
                continue  # a value the other rules do not allow
    return out


@pytest.mark.parametrize("game", howto.GAMES)
def test_every_scene_is_built_under_every_value_of_the_rules_its_page_reads(game: str) -> None:
    """A moderator may set any option to any allowed value: no page may then fail to open or to draw."""
    defaults = all_games()[game].rules_model()
    built = 0
    for tp in howto.guide(game).topics:
        for index, d in enumerate(tp.pages):
            for rules in [defaults, *_variants(defaults, d.rules)]:
                page = howto.page(game, tp.id, index, "en", rules)
                assert "howto_" not in page.body
                if d.scene is not None:
                    picture = page.picture()
                    assert picture is not None and picture.view is not None
                    built += 1
    assert built > 10


def test_a_scene_uses_only_the_house_rules_its_page_teaches() -> None:
    """Rules a page does not read stay at their defaults in its picture (a stacked deal cannot be derailed)."""
    rules = with_option(with_option(all_games()["oicho"].rules_model(), "maki_fuda", "true"), "bank_cap", "80")
    kept: Any = scene_rules(rules, ("bank_cap",))
    assert kept.bank_cap == 80 and kept.maki_fuda is False
    betting = howto.page("oicho", "betting", 0, "en", rules).picture()
    basics = howto.page("oicho", "basics", 0, "en", rules).picture()
    assert betting is not None and basics is not None
    assert betting.view.cap == 80 and betting.view.maki_fuda == ()
    assert basics.view.cap == 50 and len(basics.view.maki_fuda) == 4
