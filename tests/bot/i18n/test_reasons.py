"""Every reason a member can be given for a refused move or a greyed-out option reads as plain words, in English and in
Japanese.

The reasons are found in the code, not listed by hand, so a new one is checked as soon as it is written: every
``IllegalAction`` an engine raises (``games/``), every ``UserError`` the panels and the table runtime raise
(``bot/ui/``, ``bot/tables/``), and every reason a panel shows beside a greyed-out option (an ``Option``'s
``reason``, a ``ChooseAmount``'s ``none_label``). Each is rendered as the member reads it (through
:func:`bot.errors.message_for`, which names cards and words as the panels do) with representative parameters, every
value a worded parameter can take (each phase, suit, row …), in both languages, and must:

* exist in both languages, with nothing left unfilled (``{card}``) and no raw key or identifier (``at_lead``);
* have no brackets inside brackets;
* name no card by its code (``5s``, ``Td``; a Luk Fu card only as its face, ``七貫``, followed in English by its
  code, as the panels write it: ``七貫 7M``);
* in Japanese, hold no English word (the few names that stay in Latin letters are listed).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

import pytest

from bot.errors import CARD_PARAMS, UserError, message_for
from bot.i18n import LANGUAGES, catalog, t
from games.core.errors import IllegalAction
from games.hachi_hachi.views import Phase as HachiPhase
from games.luk_fu.rules import TigersTiming
from games.luk_fu.views import Phase as LukFuPhase
from games.ofc.board import ROWS
from games.oicho.views import Phase as OichoPhase

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ("games", "bot/ui", "bot/tables")
"""Where refusals and greyed-out reasons are made: the engines, the panels (generic and per game), the runtime."""


# ---------------------------------------------------------------- finding every reason in the code


@dataclass(frozen=True)
class Reason:
    key: str
    params: tuple[str, ...]
    kind: str
    """``illegal`` (an engine's refusal), ``user`` (a panel's or the runtime's) or ``note`` (beside a greyed option)."""
    where: str


def _constants(node: ast.expr | None) -> list[str]:
    """The string keys an argument can be: a literal, or either side of ``a if … else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _constants(node.body) + _constants(node.orelse)
    return []


def _keys_of_t_calls(node: ast.AST) -> list[str]:
    """Catalog keys of the ``t(...)`` calls inside ``node``; an f-string key (``f"luk_fu_ui.forbidden_{reason}"``)
    stands for every catalog key it can make (the catalog's keys with that start)."""
    keys = []
    for call in ast.walk(node):
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "t" and call.args):
            continue
        first = call.args[0]
        if isinstance(first, ast.JoinedStr):
            start = ""
            for value in first.values:
                if not isinstance(value, ast.Constant):
                    break
                start += str(value.value)
            made = [k for k in catalog() if k.startswith(start)]
            assert made, f"no catalog key starts with {start!r}"
            keys += made
        else:
            keys += _constants(first)
    return keys


def reasons() -> list[Reason]:
    found: dict[tuple[str, str], Reason] = {}
    for source in SOURCES:
        for path in sorted(ROOT.joinpath(source).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                params = tuple(sorted(k.arg for k in node.keywords if k.arg))
                if name in ("IllegalAction", "UserError") and node.args:
                    kind = "illegal" if name == "IllegalAction" else "user"
                    for key in _constants(node.args[0]):
                        old = found.get((kind, key))
                        merged = tuple(sorted(set(params) | set(old.params if old else ())))
                        found[(kind, key)] = Reason(key, merged, kind, where)
                elif name == "Option":
                    for keyword in (k for k in node.keywords if k.arg == "reason"):
                        for key in _keys_of_t_calls(keyword.value):
                            found[("note", key)] = Reason(key, (), "note", where)
                elif name == "ChooseAmount":
                    labels = [k.value for k in node.keywords if k.arg == "none_label"] + node.args[5:6]
                    for label in labels:
                        for key in _keys_of_t_calls(label):
                            found[("note", key)] = Reason(key, (), "note", where)
    return sorted(found.values(), key=lambda r: (r.kind, r.key))


REASONS = reasons()


def test_the_scan_finds_the_reasons() -> None:
    """The scan is real: it finds the engines' refusals, the panels' and the greyed-out options' reasons."""
    keys = {(r.kind, r.key) for r in REASONS}
    assert ("illegal", "luk_fu.old_card") in keys and ("illegal", "oicho.bet_over_cap") in keys
    assert ("user", "panel.group_full") in keys and ("user", "table.stale_decision") in keys
    assert ("note", "luk_fu_ui.forbidden_old") in keys and ("note", "luk_fu_ui.forbidden_wrong_suit") in keys
    assert ("note", "hachi_hachi_ui.fold_mizuten") in keys and ("note", "oicho_ui.no_room") in keys
    assert len(REASONS) > 60


def test_every_reason_luk_fu_gives_for_a_forbidden_single_has_its_words() -> None:
    """The lead panel words a forbidden single by the engine's reason (``luk_fu_ui.forbidden_<reason>``): every
    reason the engine can give (``forbidden.append((card, "<reason>"))`` in ``games/luk_fu``) has its text."""
    given = set()
    for path in ROOT.joinpath("games", "luk_fu").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "append"
                and getattr(node.func.value, "id", None) == "forbidden"
                and node.args
                and isinstance(node.args[0], ast.Tuple)
            ):
                given |= set(_constants(node.args[0].elts[-1]))
    assert given == {"old", "wrong_suit"}
    notes = {r.key for r in REASONS if r.kind == "note"}
    assert {f"luk_fu_ui.forbidden_{reason}" for reason in given} <= notes


# ---------------------------------------------------------------- representative parameters

PLAIN: dict[str, list[Any]] = {
    "seat": [1],
    "amount": [0],
    "max": [12],
    "cap": [100],
    "cap_left": [12],
    "stack": [40],
    "pile": [5],
    "count": [2],
    "expected": [3],
    "got": [2],
    "free": [1],
    "n": [3, "1–2"],
    "chosen": [0],
    "value": ["1.5"],
    "needed": [2],
    "stake": [10],
    "hours": [200],
    "longest": [168],
    "threads": ["<#111> <#222>"],
    "action": ["lead 9T"],
}
"""Parameters that are numbers or the member's own input: one value each."""

BY_GAME: dict[str, dict[str, list[Any]]] = {
    "luk_fu": {
        "card": ["9T", "LT", "7M"],
        "cards": ["3C 4C 5C", "1C 1S 1M 1T LT"],
        "winning": ["6C 7C 8C"],
        "options": ["9S / 1T LT", "7M"],
        "suit": list("CSMT"),
        "phase": list(get_args(LukFuPhase)),
        "verb": ["lead", "follow", "discard"],
        "timing": list(get_args(TigersTiming)),
    },
    "hachi_hachi": {
        "card": ["5s", "Th", "Ad"],
        "suit": list("cdhs"),
        "phase": list(get_args(HachiPhase)),
        "verb": ["fold", "card"],
    },
    "ofc": {"card": ["Td", "As", "2c"], "row": list(ROWS)},
    "oicho": {"phase": list(get_args(OichoPhase))},
}
"""Parameters an engine gives in its own terms (cards as codes, identifiers), by the namespace of the message: every
value they can take, so each reads as the member's words (``message_for`` names them)."""

IN_WORDS: dict[str, Any] = {"group": lambda lang: [t(f"ofc.row_{row}", lang) for row in ROWS]}
"""Parameters the panel gives already in the reader's words (an arrangement's group is its label)."""


def renderings(reason: Reason, lang: str) -> Iterator[tuple[dict[str, Any], str]]:
    """The reason as a member reading ``lang`` sees it, once per value of each parameter (the others at their first)."""
    namespace = reason.key.split(".")[0]
    choices: dict[str, list[Any]] = {}
    for name in reason.params:
        if name in IN_WORDS:
            choices[name] = IN_WORDS[name](lang)
        elif name in BY_GAME.get(namespace, {}):
            choices[name] = BY_GAME[namespace][name]
        elif name in PLAIN:
            choices[name] = PLAIN[name]
        else:
            raise AssertionError(f"{reason.key} ({reason.where}): no representative value for {name!r}: add one")
    first = {name: values[0] for name, values in choices.items()}
    variants = [first] + [{**first, name: v} for name, values in choices.items() for v in values[1:]]
    locale = "ja" if lang == "ja" else "en-US"
    for params in variants:
        if reason.kind == "illegal":
            text = message_for(IllegalAction(reason.key, "a reason for the logs", **params), locale)
        elif reason.kind == "user":
            text = message_for(UserError(reason.key, **params), locale)
        else:
            text = t(reason.key, locale)
        assert text is not None
        yield params, text


# ---------------------------------------------------------------- what plain words are

PLACEHOLDER = re.compile(r"\{[^{}]*\}")
IDENTIFIER = re.compile(r"\b[a-z]+(?:[._][a-z0-9]+)+\b")
"""A catalog key (``luk_fu.old_card``) or an engine's identifier (``at_lead``, ``round_over``) left in the text."""
FRENCH_CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[cdhs](?![A-Za-z0-9])")
LUK_FU_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[1-9][CSMT]|LT)(?![A-Za-z0-9])")
LUK_FU_NAMED = re.compile(r"(?:[一二三四五六七八九][銭索貫十]|老千) (?:[1-9][CSMT]|LT)(?![A-Za-z0-9])")
"""A Luk Fu card as English text names it: its face, then its code (``七貫 7M``)."""
ENGLISH = re.compile(r"[A-Za-z][A-Za-z_]{2,}")
TYPED = frozenset({"table", "stop", "config", "set", "table_place", "pace"})
"""Commands and their options, written as they are typed (``/table stop``, ``/config set table_place:channel``)."""
LATIN_IN_JAPANESE = TYPED | {"Fudaba"}
"""Latin words a Japanese text may hold: the bot's name, and what is typed as it is."""
OPEN, CLOSE = "(（[【", ")）]】"
"""Brackets (Japanese quotation marks, 「」, may stand inside them)."""


def problems_in(text: str, lang: str) -> list[str]:
    found = []
    if PLACEHOLDER.search(text):
        found.append(f"unfilled {PLACEHOLDER.findall(text)}")
    identifiers = [word for word in IDENTIFIER.findall(text) if word not in TYPED]
    if identifiers:
        found.append(f"an identifier {identifiers}")
    depth = 0
    for char in text:
        if char in OPEN:
            depth += 1
            if depth > 1:
                found.append("brackets inside brackets")
                break
        elif char in CLOSE:
            depth -= 1
    if FRENCH_CODE.search(text):
        found.append(f"a card code {FRENCH_CODE.findall(text)}")
    bare = LUK_FU_CODE.findall(LUK_FU_NAMED.sub("", text) if lang == "en" else text)
    if bare:
        found.append(f"a Luk Fu card code {bare}")
    if lang == "ja":
        english = [w for w in ENGLISH.findall(text) if w not in LATIN_IN_JAPANESE]
        if english:
            found.append(f"English words {english}")
    return found


def test_the_checks_catch_what_is_not_plain_words() -> None:
    assert problems_in("Play 5s or Td now.", "en") == ["a card code ['5s', 'Td']"]
    assert problems_in("七貫 7M and 8M", "en") == ["a Luk Fu card code ['8M']"]
    assert problems_in("七貫 7M は出せません。", "ja") == ["a Luk Fu card code ['7M']"]
    assert problems_in("You cannot (now (at: the call)).", "en") == ["brackets inside brackets"]
    assert problems_in("{card} is at_lead", "en") == ["unfilled ['{card}']", "an identifier ['at_lead']"]
    assert problems_in("今は出せません（only when you lead）。", "ja") == [
        "English words ['only', 'when', 'you', 'lead']"
    ]
    assert problems_in("🔴九十 9T may not be led on its own: 10♦ 5♠️.", "en") == []


@pytest.mark.parametrize("reason", REASONS, ids=lambda r: f"{r.kind}:{r.key}")
def test_every_reason_reads_as_plain_words_in_both_languages(reason: Reason) -> None:
    entry = catalog().get(reason.key)
    assert entry is not None, f"{reason.key} ({reason.where}) is not in the catalog"
    assert all(entry.get(lang, "").strip() for lang in LANGUAGES), f"{reason.key}: {sorted(entry)}"
    problems = []
    for lang in LANGUAGES:
        for params, text in renderings(reason, lang):
            problems += [f"{lang} {params}: {problem} in {text!r}" for problem in problems_in(text, lang)]
    assert problems == []


def test_a_card_in_a_reason_is_named_as_the_panels_name_it() -> None:
    """The card parameters are the ones ``message_for`` names (``CARD_PARAMS``), so the checks above saw them named."""
    card_params = {name for r in REASONS if r.kind == "illegal" for name in r.params if name in CARD_PARAMS}
    assert card_params == {"card", "cards", "winning", "options"}
    text = message_for(IllegalAction("hachi_hachi.must_follow", "x", suit="h", card="5s"), "en-US")
    assert text is not None and "5♠️" in text and "♥ hearts" in text
