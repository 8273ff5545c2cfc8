"""``/howto``: an illustrated guide to every game, in both languages, under each server's house rules.

The entry point for other features (the coached ``/learn`` hand, the "?" on a panel):

* :func:`topic_ids` — a game's topics, stable ids in guide order (``"must_beat"``, ``"fouls"`` …);
* :func:`pages` — the pages of one topic, in a language, under a server's house rules (its rules model, as
  :func:`bot.cogs.rules.rules_in_force` reads it), each with its text, the house rules it depends on, and its
  picture's set-up (:meth:`~bot.howto.model.Page.picture`);
* :func:`bot.howto.message.open_guide` — send the guide to a member, privately, open at a topic (a Discord
  interaction in, an ephemeral paged message out).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from pydantic import BaseModel

from bot.howto.model import Guide, HouseRule, Page, Writer, scene_rules, value_at

GAMES: tuple[str, ...] = ("oicho", "ofc", "luk_fu", "hachi_hachi")
"""Every game with a guide, in the order ``/play`` lists them."""


@cache
def guide(game: str) -> Guide:
    """A game's guide as written (KeyError for a game without one); each game's pages are in
    ``bot/howto/<game>.py``, imported on first use."""
    if game not in GAMES:
        raise KeyError(game)
    found = importlib.import_module(f"bot.howto.{game}").GUIDE
    assert isinstance(found, Guide)
    return found


def topic_ids(game: str) -> tuple[str, ...]:
    """The game's topics, in guide order; these ids never change meaning."""
    return tuple(tp.id for tp in guide(game).topics)


def sequence(game: str) -> list[tuple[str, int]]:
    """Every page of a game in reading order, as ``(topic, index)``: what ◀ and ▶ walk through."""
    return [(tp.id, i) for tp in guide(game).topics for i in range(len(tp.pages))]


def pages(game: str, topic: str, lang: str, rules: BaseModel) -> list[Page]:
    """The pages of one topic in ``lang`` (``en``/``ja``) under ``rules`` (the server's house rules for the game).
    KeyError for an unknown game or topic."""
    return [page(game, topic, i, lang, rules) for i in range(page_count(game, topic))]


def page_count(game: str, topic: str) -> int:
    found = guide(game).topic(topic)
    if found is None:
        raise KeyError(topic)
    return len(found.pages)


def page(game: str, topic: str, index: int, lang: str, rules: BaseModel) -> Page:
    """One page (``index`` 0-based within the topic); KeyError/IndexError for one that does not exist."""
    g = guide(game)
    tp = g.topic(topic)
    if tp is None:
        raise KeyError(topic)
    if not 0 <= index < len(tp.pages):
        raise IndexError(index)
    d = tp.pages[index]
    w = Writer(game, lang, rules)
    return Page(
        game=game,
        topic=topic,
        index=index,
        count=len(tp.pages),
        lang=lang,
        emoji=tp.emoji,
        topic_title=topic_title(game, topic, lang),
        title=w.t(f"{d.key}_title"),
        body=d.body(w) if d.body is not None else w.t(f"{d.key}_body"),
        house_rules=tuple(house_rule(rules, path) for path in d.rules),
        scene_rules=scene_rules(rules, d.rules),
        scene=d.scene,
    )


def topic_title(game: str, topic: str, lang: str) -> str:
    return Writer(game, lang, None).t(f"topic_{topic}")


def house_rule(rules: BaseModel, path: str) -> HouseRule:
    """How this server has one rule (a whole group reads as how many of its options were changed)."""
    from bot.cogs.rules import show_value

    value, default = value_at(rules, path), value_at(type(rules)(), path)
    if isinstance(value, dict):
        changed = _changed_leaves(value, default)
        return HouseRule(path, str(changed), "0", changed > 0, group=True)
    return HouseRule(path, show_value(value), show_value(default), value != default)


def _changed_leaves(value: Any, default: Any) -> int:
    if isinstance(value, dict):
        return sum(_changed_leaves(v, default.get(k)) for k, v in value.items())
    return int(value != default)
