"""A rule preset as data: its JSON file, its names, and the check of its options against a game's rules model.

No Discord here: :mod:`bot.presets.commands` turns what these functions return and raise into replies.

**The file** (what ``/rules preset export`` writes and ``/rules preset import`` reads, and what the shipped presets
under ``bot/presets/shipped/`` are)::

    {
      "format": "fudaba-rules-preset",
      "version": 1,
      "game": "ofc",
      "name": "pineapple-progressive",
      "rules_schema": "5d1c0a8e2f47",
      "options": {"variant": "d", "d_pineapple_streets": true, "fl_cards.KK": 15, "oba_ranks": ["10", "J"]}
    }

``options`` maps an option's dotted path (as ``/rules set`` names it) to its value as JSON: ``true``/``false``, a whole
number, a choice's value (a string, or a number for a numeric choice such as OFC's ``middle_royal``), or a list of
members for a set (Hachi-Hachi's ``oba_ranks``). ``rules_schema`` is a fingerprint of the game's options (paths,
kinds, ranges, choices) when the preset was saved: a file from a bot whose rules differ says so by it, and the options
are checked one by one anyway. ``name`` is optional. Nothing else may be in the file.

**What a preset means.** Loading a preset sets every option of the game: each option it names to its value, every
other option to the game's default. A preset saved by ``/rules preset save`` names every option the game had then, so
the only options it leaves out are ones the game gained later; they take their defaults and the load says which. The
shipped presets name only what they change from the defaults.

**Refusals.** A file or preset that cannot be loaded as it is raises :class:`PresetInvalid` with every problem found,
each naming its option (or field) and why: an unknown option, a value of the wrong type, out of range, not one of the
choices, or options that do not work together (the model's own checks: each option is tried alone to name the one at
fault). A format version other than :data:`VERSION` is refused, older or newer.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from games.core.house_rules import RuleOption, options, to_data
from games.registry import GameSpec, all_games

FORMAT = "fudaba-rules-preset"
VERSION = 1
"""The file format's version. A change to the file's shape makes a new version; files of another version are
refused (with both versions named), never guessed at."""
FIELDS = ("format", "version", "game", "name", "rules_schema", "options")
MAX_FILE_BYTES = 32 * 1024
"""The largest file ``/rules preset import`` reads: a preset of every option of the largest game is about 2 KB."""
NAME_MAX = 32
MAX_PRESETS = 25
"""Presets a server may keep per game (a Discord menu's worth: autocomplete shows at most 25 choices)."""
MAX_SHOWN = 10
"""Problems listed in one refusal (the rest are counted)."""

_NAME = re.compile(r"^[^\W_][\w .\-]*$")
"""Letters and digits of any script first, then also spaces, ``-``, ``_`` and ``.``: a name reads the same in a
command, a list and a file name."""


@dataclass(frozen=True)
class Problem:
    """Why a preset cannot be taken: an i18n key of ``presets.json`` and its parameters (the option, the value …)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


class PresetInvalid(Exception):
    """A preset file or preset refused; ``problems`` says every reason found. Nothing was changed."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(f"{p.key} {p.params}" for p in problems))
        self.problems = tuple(problems)


@dataclass(frozen=True)
class PresetFile:
    """A preset file read and its fields checked (its options are checked by :func:`build_rules`)."""

    game: str
    name: str | None
    rules_schema: str | None
    options: dict[str, Any]


@dataclass(frozen=True)
class Built:
    """A preset's options applied: the rules, and the game's options the preset does not name (at their defaults)."""

    rules: BaseModel
    missing: tuple[str, ...]


def shown(value: Any) -> str:
    """A value as a refusal quotes it: its JSON, cut short."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


# ---------------------------------------------------------------------------------------------------- the options


def rules_schema(model: type[BaseModel]) -> str:
    """A fingerprint of a game's options: their paths, kinds, ranges and choices (not their defaults)."""
    shape = [(o.path, o.kind, o.lo, o.hi, list(o.choices)) for o in options(model)]
    return hashlib.sha256(json.dumps(shape, separators=(",", ":")).encode()).hexdigest()[:12]


def option_values(rules: BaseModel) -> dict[str, Any]:
    """Every option of the rules by path, each with its value as the file holds it (a set as a list, in the order
    the model dumps it)."""
    data = to_data(rules)
    values: dict[str, Any] = {}
    for opt in options(type(rules)):
        node: Any = data
        for key in opt.path.split("."):
            node = node[key]
        values[opt.path] = node
    return values


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _value_problem(opt: RuleOption, value: Any) -> Problem | None:
    """Why ``value`` cannot be this option's, or None when it can (the model's own checks come after)."""
    base = {"option": opt.path, "value": shown(value)}
    if opt.kind == "bool":
        return None if isinstance(value, bool) else Problem("presets.expected_bool", base)
    if opt.kind == "int":
        if not _is_int(value):
            return Problem("presets.expected_int", base)
        if (opt.lo is not None and value < opt.lo) or (opt.hi is not None and value > opt.hi):
            return Problem("presets.out_of_range", {**base, "allowed": opt.allowed()})
        return None
    if opt.kind == "set":
        allowed = ", ".join(opt.choices)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return Problem("presets.expected_set", {**base, "allowed": allowed})
        stranger = next((v for v in value if v not in opt.choices), None)
        if stranger is not None:
            return Problem("presets.not_in_set", {**base, "member": shown(stranger), "allowed": allowed})
        return None
    numeric = _is_int(opt.default)
    if (_is_int(value) if numeric else isinstance(value, str)) and str(value) in opt.choices:
        return None
    return Problem("presets.expected_choice", {**base, "allowed": " / ".join(opt.choices)})


def _with(data: dict[str, Any], values: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """A copy of a model dump with options set by path."""
    out = json.loads(json.dumps(data))
    for path, value in values:
        keys = path.split(".")
        node = out
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return dict(out)


def _detail(error: ValidationError) -> tuple[str, str]:
    """Where a model refused a dump (a dotted path, or empty for a check of several options) and why."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()))
    message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    return where, message


def build_rules(spec: GameSpec, values: Mapping[str, Any]) -> Built:
    """The game's rules with a preset's options applied over the defaults, or :class:`PresetInvalid` naming every
    option at fault and why."""
    model = spec.rules_model
    known = {o.path: o for o in options(model)}
    problems: list[Problem] = []
    for path, value in values.items():
        opt = known.get(path)
        if opt is None:
            problems.append(Problem("presets.unknown_option", {"option": path, "game": spec.id}))
            continue
        problem = _value_problem(opt, value)
        if problem is not None:
            problems.append(problem)
    if problems:
        raise PresetInvalid(problems)
    defaults = to_data(model())
    try:
        rules = model.model_validate(_with(defaults, values.items()))
    except ValidationError as whole:
        # Name the option at fault: each tried alone over the defaults. None failing alone: a combination.
        for path, value in values.items():
            try:
                model.model_validate(_with(defaults, [(path, value)]))
            except ValidationError as alone:
                problems.append(Problem("presets.invalid", {"option": path, "detail": _detail(alone)[1]}))
        if not problems:
            where, message = _detail(whole)
            problems.append(Problem("presets.conflict", {"detail": message, "option": where or "—"}))
        raise PresetInvalid(problems) from None
    return Built(rules, tuple(path for path in known if path not in values))


def canonical(rules: BaseModel, paths: Iterable[str]) -> dict[str, Any]:
    """The values of ``paths`` as the rules hold them (a set's members in the model's order), to store."""
    values = option_values(rules)
    return {path: values[path] for path in paths}


def changes(before: BaseModel, after: BaseModel) -> list[tuple[str, Any, Any]]:
    """Every option whose value differs between two rules of a game: (path, before, after), in option order."""
    old, new = option_values(before), option_values(after)
    return [(path, old[path], new[path]) for path in new if old[path] != new[path]]


# ---------------------------------------------------------------------------------------------------- names


def clean_name(raw: str) -> str:
    """A preset name as typed, tidied (NFKC, spaces collapsed), or :class:`PresetInvalid` saying what is wrong."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not 1 <= len(name) <= NAME_MAX:
        raise PresetInvalid([Problem("presets.name_length", {"name": shown(raw), "max": NAME_MAX})])
    if not _NAME.match(name):
        raise PresetInvalid([Problem("presets.name_characters", {"name": shown(name)})])
    return name


# ---------------------------------------------------------------------------------------------------- the file


def dump_file(game: str, name: str, values: Mapping[str, Any], schema: str) -> bytes:
    """A preset as the file ``/rules preset export`` gives (UTF-8 JSON, one option to a line)."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "name": name,
        "rules_schema": schema,
        "options": dict(values),
    }
    return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode()


class _Duplicate(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _Duplicate(key)
        seen[key] = value
    return seen


def read_file(raw: bytes) -> PresetFile:
    """A preset file's bytes read and its fields checked, or :class:`PresetInvalid` with every problem found."""
    if len(raw) > MAX_FILE_BYTES:
        raise PresetInvalid([Problem("presets.too_large", {"size": len(raw), "limit": MAX_FILE_BYTES})])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PresetInvalid([Problem("presets.not_utf8")]) from None
    try:
        document = json.loads(text, object_pairs_hook=_no_duplicates)
    except _Duplicate as twice:
        raise PresetInvalid([Problem("presets.duplicate_key", {"key": twice.key})]) from None
    except json.JSONDecodeError as error:
        raise PresetInvalid(
            [Problem("presets.bad_json", {"line": error.lineno, "column": error.colno, "detail": error.msg})]
        ) from None
    if not isinstance(document, dict):
        raise PresetInvalid([Problem("presets.not_object")])
    if document.get("format") != FORMAT:
        raise PresetInvalid(
            [Problem("presets.wrong_format", {"format": FORMAT, "found": shown(document.get("format"))})]
        )
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise PresetInvalid([Problem("presets.bad_version", {"value": shown(version), "current": VERSION})])
    if version != VERSION:
        key = "presets.old_version" if version < VERSION else "presets.new_version"
        raise PresetInvalid([Problem(key, {"version": version, "current": VERSION})])
    problems = [Problem("presets.unknown_field", {"field": key}) for key in document if key not in FIELDS]
    game = document.get("game")
    if not isinstance(game, str) or game not in all_games():
        problems.append(Problem("presets.unknown_game", {"game": shown(game), "games": ", ".join(all_games())}))
    for key in ("name", "rules_schema"):
        if key in document and not isinstance(document[key], str):
            problems.append(Problem("presets.expected_text", {"field": key, "value": shown(document[key])}))
    values = document.get("options")
    if not isinstance(values, dict):
        problems.append(Problem("presets.expected_options", {"value": shown(values)}))
    if problems:
        raise PresetInvalid(problems)
    assert isinstance(game, str) and isinstance(values, dict)
    return PresetFile(game, document.get("name"), document.get("rules_schema"), values)
