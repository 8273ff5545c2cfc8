"""The guide's building blocks: a game's topics, their pages, and how a page's picture is set up.

A page is written once, as a :class:`PageDef`: its text (catalog keys in ``howto_<game>.json``, filled from the
server's house rules), the house rules it reads, and the **scene** of its picture, a function that builds a real
engine from a stacked deck and plays the moves up to the moment the picture shows. The picture is then drawn by
the game's own table renderer from that engine's public view, exactly as a table in play is drawn, so a page
always looks like the table.

What callers receive is a :class:`Page`: the text in one language under one server's rules, the house-rule lines
it depends on, and (built only when asked, since it plays moves) its :class:`Picture`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.i18n import t
from bot.ui.base import TableContext
from games.core.engine import Engine
from games.core.house_rules import to_data
from games.core.rng import Shuffle, Shuffler

Scene = Callable[[Any], Engine[Any]]
"""A picture's set-up: the page's rules → an engine standing at the moment the picture shows."""


@dataclass(frozen=True)
class Writer:
    """What a page's text is written with: the language, the server's rules, and the players' names in the
    pictures (``{p0}`` … ``{p6}`` in every text, so the words name the seats the picture shows)."""

    game: str
    lang: str
    rules: Any

    def t(self, key: str, **params: Any) -> str:
        """A text of this game's guide catalog (``howto_<game>.<key>``)."""
        return t(f"howto_{self.game}.{key}", self.lang, **{**names_params(self.lang), **params})

    def join(self, items: Sequence[str]) -> str:
        """Items of a list in the reader's language (``Aki, Ben`` / ``あき、べん``)."""
        return t("howto.list_sep", self.lang).join(items)

    def common(self, key: str, **params: Any) -> str:
        """A text of the guide's shared catalog (``howto.<key>``)."""
        return t(f"howto.{key}", self.lang, **{**names_params(self.lang), **params})


@dataclass(frozen=True)
class PageDef:
    """One page as written: ``key`` names its texts (``<key>_title``, ``<key>_body``)."""

    key: str
    rules: tuple[str, ...] = ()
    """House-rule option paths (or whole groups, ``local_yaku``, ``yaku_table``) this page's answer depends on:
    shown with their values on this server, and the only rules its picture is set up with (the others stay at
    their defaults, so a stacked scene cannot be derailed by a rule the page does not teach)."""
    scene: Scene | None = None
    body: Callable[[Writer], str] | None = None
    """The text, when it depends on the rules; otherwise the catalog's ``<key>_body``."""


@dataclass(frozen=True)
class TopicDef:
    id: str
    """Stable: the topic menu, ``/howto game topic`` and the panels' "?" name topics by it."""
    emoji: str
    pages: tuple[PageDef, ...]


@dataclass(frozen=True)
class Guide:
    game: str
    topics: tuple[TopicDef, ...]

    def topic(self, topic_id: str) -> TopicDef | None:
        return next((tp for tp in self.topics if tp.id == topic_id), None)


@dataclass(frozen=True)
class HouseRule:
    """One house rule a page depends on, as this server has it."""

    path: str
    value: str
    """The value in force, as ``/rules show`` writes it; for a group, how many of its options were changed."""
    default: str
    changed: bool
    group: bool = False
    """A whole group of options (a rule table such as ``yaku_table``), not one option."""


@dataclass(frozen=True)
class Picture:
    """A page's picture: the public view of the engine the page set up, and the table context it is drawn in."""

    game: str
    view: Any
    ctx: TableContext

    def render(self) -> bytes:
        """PNG bytes, drawn by the game's table renderer (blocking: call it off the event loop)."""
        from bot.ui import ui_for

        return ui_for(self.game).render(self.view, self.ctx)


@dataclass(frozen=True)
class Page:
    """One page of the guide in one language under one server's house rules."""

    game: str
    topic: str
    index: int
    """0-based, within its topic."""
    count: int
    """Pages in its topic."""
    lang: str
    emoji: str
    topic_title: str
    title: str
    body: str
    house_rules: tuple[HouseRule, ...]
    scene_rules: Any = field(repr=False, compare=False)
    """The rules the picture is set up with (defaults, with the page's own house rules from this server)."""
    scene: Scene | None = field(default=None, repr=False, compare=False)

    def engine(self) -> Engine[Any] | None:
        """The page's scene, built afresh (a real engine, stacked deck and moves played)."""
        return None if self.scene is None else self.scene(self.scene_rules)

    def picture(self) -> Picture | None:
        engine = self.engine()
        if engine is None:
            return None
        names = seat_names(self.lang)[: engine.seats]
        ctx = TableContext(0, tuple(names), 1, True, self.lang, engine.rules)
        return Picture(self.game, engine.public_view(), ctx)


# ---------------------------------------------------------------------------- helpers for pages and scenes

SEATS_MAX = 10


def seat_names(lang: str) -> list[str]:
    """The names the guide's pictures give their seats (the texts name them the same way)."""
    names = t("howto.names", lang).split("|")
    return (names + [f"P{i + 1}" for i in range(len(names), SEATS_MAX)])[:SEATS_MAX]


def names_params(lang: str) -> dict[str, str]:
    return {f"p{i}": name for i, name in enumerate(seat_names(lang))}


def scene_rules(rules: BaseModel, paths: Sequence[str]) -> BaseModel:
    """The game's default rules with only ``paths`` (options or whole groups) taken from ``rules``."""
    data = to_data(type(rules)())
    source = to_data(rules)
    for path in paths:
        keys = path.split(".")
        src: Any = source
        dst: Any = data
        for key in keys[:-1]:
            src, dst = src[key], dst[key]
        dst[keys[-1]] = src[keys[-1]]
    try:
        return type(rules).model_validate(data)
    except ValidationError:  # a combination only valid together with rules the page leaves out: take them all
        return rules


def value_at(rules: BaseModel, path: str) -> Any:
    node: Any = to_data(rules)
    for key in path.split("."):
        node = node[key]
    return node


def stacked(*orders: str) -> Shuffler:
    """A shuffler dealing ``orders`` first (explicit decks, top card first; the rest of the pack follows in its
    canonical order), then decks from a fixed seed: a scene is the same every time it is built."""
    source = random.Random(88)
    return Shuffler(planned=[Shuffle(order=o) for o in orders], seed_source=lambda: source.randbytes(32).hex())


def play(engine: Engine[Any], codec: Any, *moves: tuple[int, str]) -> Engine[Any]:
    """Apply ``(seat, "action text")`` moves in order (an illegal one raises: a scene that no longer shows
    what its page says is a bug, found by the tests)."""
    for seat, text in moves:
        engine.apply(seat, codec.parse(text))
    return engine
