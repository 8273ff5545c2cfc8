"""Generic handling of house-rule models: list their options, set one from text, reset one.

Each game's rules are a frozen pydantic model (nested models allowed; ``dict[str, int]`` fields
become one option per key). An option is addressed by its dotted path, ``local_yaku.gogo.multiplier``.
Moderators set options from text; this module parses and validates, and raises :class:`RuleError`
with a message key the bot translates.

Option kinds: ``bool``, ``int`` (with its bounds), ``choice`` (a ``Literal`` or an enum) and ``set`` (a
``frozenset`` of string ``Literal`` values, such as the card ranks that make a field multiplier). A set is written
as text like ``10,J,Q`` (commas or spaces; any order; ``none`` for the empty set), and its ``default`` in a
:class:`RuleOption` is that text with the members in the order the ``Literal`` lists them, so it reads back as
it is shown. (A model should dump such a field in that order too, so its JSON never depends on set order.)
"""

from __future__ import annotations

import enum
import re
import typing
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import annotated_types
from pydantic import BaseModel, ValidationError

from games.core.errors import GameError
from games.core.numbers import parse_whole

M = TypeVar("M", bound=BaseModel)

_TRUE = {"true", "on", "yes", "1", "はい", "オン"}
_FALSE = {"false", "off", "no", "0", "いいえ", "オフ"}
_EMPTY_SET = {"none", "-", "なし", "empty"}
_SET_SEPARATORS = re.compile(r"[\s,，、/]+")


class RuleError(GameError, ValueError):
    """A rule option that does not exist or a value it cannot take."""

    def __init__(self, code: str, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params: dict[str, Any] = params


@dataclass(frozen=True)
class RuleOption:
    """One settable option: its path, kind (``bool``/``int``/``choice``/``set``), limits and default.

    For a ``set``, ``choices`` are the members it may hold and ``default`` is its text form (``"10,J,Q"``)."""

    path: str
    kind: str
    default: Any
    lo: int | None = None
    hi: int | None = None
    choices: tuple[str, ...] = ()
    description: str = ""

    def allowed(self) -> str:
        if self.kind == "bool":
            return "true / false"
        if self.kind == "choice":
            return " / ".join(self.choices)
        if self.kind == "set":
            return f"any of {', '.join(self.choices)} (comma-separated), or none"
        if self.lo is not None and self.hi is not None:
            return f"{self.lo}–{self.hi}"
        if self.lo is not None:
            return f"≥ {self.lo}"
        if self.hi is not None:
            return f"≤ {self.hi}"
        return "any whole number"


def options(model: type[BaseModel] | BaseModel) -> list[RuleOption]:
    """Every leaf option of a rules model, in declaration order."""
    instance = model if isinstance(model, BaseModel) else model()
    return list(_walk(instance, ""))


def _walk(instance: BaseModel, prefix: str) -> typing.Iterator[RuleOption]:
    cls = type(instance)
    for name, info in cls.model_fields.items():
        path = f"{prefix}{name}"
        value = getattr(instance, name)
        ann = info.annotation
        if isinstance(value, BaseModel):
            yield from _walk(value, path + ".")
            continue
        if isinstance(value, dict):
            args = typing.get_args(ann)
            inner = args[1] if len(args) == 2 else int
            for key in value:
                yield _leaf(f"{path}.{key}", inner, [], value[key], info.description or "")
            continue
        yield _leaf(path, ann, list(info.metadata), value, info.description or "")


def _leaf(path: str, ann: Any, metadata: list[Any], default: Any, description: str) -> RuleOption:
    origin = typing.get_origin(ann)
    if typing.get_origin(ann) is typing.Annotated:
        args = typing.get_args(ann)
        ann, metadata = args[0], metadata + list(args[1:])
        origin = typing.get_origin(ann)
    if ann is bool:
        return RuleOption(path, "bool", default, description=description)
    if origin is Literal:
        values = typing.get_args(ann)
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return RuleOption(path, "choice", default, choices=tuple(str(v) for v in values), description=description)
        return RuleOption(path, "choice", default, choices=tuple(str(v) for v in values), description=description)
    if origin in (frozenset, set):
        (member,) = typing.get_args(ann)
        if typing.get_origin(member) is Literal and all(isinstance(v, str) for v in typing.get_args(member)):
            choices = tuple(typing.get_args(member))
            return RuleOption(path, "set", set_text(default, choices), choices=choices, description=description)
        raise TypeError(f"unsupported rule option type at {path}: {ann!r} (a set holds string Literal values)")
    if isinstance(ann, type) and issubclass(ann, enum.Enum):
        return RuleOption(
            path, "choice", default.value, choices=tuple(str(m.value) for m in ann), description=description
        )
    if ann is int:
        lo = hi = None
        for meta in metadata:
            if isinstance(meta, annotated_types.Ge):
                lo = int(meta.ge)  # type: ignore[call-overload]
            elif isinstance(meta, annotated_types.Gt):
                lo = int(meta.gt) + 1  # type: ignore[call-overload]
            elif isinstance(meta, annotated_types.Le):
                hi = int(meta.le)  # type: ignore[call-overload]
            elif isinstance(meta, annotated_types.Lt):
                hi = int(meta.lt) - 1  # type: ignore[call-overload]
            elif isinstance(meta, annotated_types.Interval):
                if meta.ge is not None:
                    lo = int(meta.ge)  # type: ignore[call-overload]
                if meta.le is not None:
                    hi = int(meta.le)  # type: ignore[call-overload]
        return RuleOption(path, "int", default, lo=lo, hi=hi, description=description)
    raise TypeError(f"unsupported rule option type at {path}: {ann!r}")


def set_text(values: typing.Iterable[str], choices: tuple[str, ...]) -> str:
    """A set option's value as text: its members in the order of ``choices``, or ``none``."""
    held = set(values)
    return ",".join(c for c in choices if c in held) or "none"


def find_option(model: type[BaseModel] | BaseModel, path: str) -> RuleOption:
    for opt in options(model):
        if opt.path == path:
            return opt
    raise RuleError("rules.unknown_option", f"there is no rule option {path!r}", option=path)


def parse_value(opt: RuleOption, raw: str) -> Any:
    """Text → the option's value, or :class:`RuleError`."""
    text = raw.strip()
    if opt.kind == "bool":
        low = text.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise RuleError("rules.expected_bool", f"{opt.path} takes true or false", option=opt.path, value=raw)
    if opt.kind == "int":
        # "1,000" and full-width "１０００" are whole numbers; "1,5", "²", "1_000", "1e3" and other scripts' digits
        # are not (see games.core.numbers).
        parsed = parse_whole(text)
        if parsed is None:
            raise RuleError("rules.expected_int", f"{opt.path} takes a whole number", option=opt.path, value=raw)
        number = parsed
        if (opt.lo is not None and number < opt.lo) or (opt.hi is not None and number > opt.hi):
            raise RuleError(
                "rules.out_of_range",
                f"{opt.path} must be {opt.allowed()}",
                option=opt.path,
                value=raw,
                allowed=opt.allowed(),
            )
        return number
    if opt.kind == "set":
        return _parse_set(opt, text, raw)
    for choice in opt.choices:
        if text.lower() == choice.lower():
            return int(choice) if isinstance(opt.default, int) and not isinstance(opt.default, bool) else choice
    raise RuleError(
        "rules.expected_choice",
        f"{opt.path} must be one of {opt.allowed()}",
        option=opt.path,
        value=raw,
        allowed=opt.allowed(),
    )


def _parse_set(opt: RuleOption, text: str, raw: str) -> frozenset[str]:
    tokens = [t for t in _SET_SEPARATORS.split(text) if t]
    if len(tokens) == 1 and tokens[0].lower() in _EMPTY_SET:
        return frozenset()
    members: list[str] = []
    for token in tokens:
        found = next((c for c in opt.choices if c.lower() == token.lower()), None)
        if found is None:
            raise RuleError(
                "rules.expected_set",
                f"{opt.path} takes {opt.allowed()}; {token!r} is not one of them",
                option=opt.path,
                value=token,
                text=raw,
                allowed=opt.allowed(),
            )
        members.append(found)
    return frozenset(members)


def to_data(rules: BaseModel) -> dict[str, Any]:
    """The rules as JSON-ready data (for records and storage)."""
    return rules.model_dump(mode="json")


def with_option(rules: M, path: str, raw: str) -> M:
    """A copy of ``rules`` with one option set from text; the whole model is validated again."""
    opt = find_option(rules, path)
    value = parse_value(opt, raw)
    return _replace(rules, path, value)


def without_option(rules: M, path: str) -> M:
    """A copy of ``rules`` with one option back at its default."""
    opt = find_option(type(rules), path)
    find_option(rules, path)
    default = parse_value(opt, opt.default) if opt.kind == "set" else opt.default
    return _replace(rules, path, default)


def _replace(rules: M, path: str, value: Any) -> M:
    data = to_data(rules)
    node: Any = data
    keys = path.split(".")
    for key in keys[:-1]:
        node = node[key]
    node[keys[-1]] = value
    try:
        return type(rules).model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise RuleError(
            "rules.invalid", f"{path}: {first.get('msg', 'invalid value')}", option=path, detail=first.get("msg", "")
        ) from None


def changed_options(rules: BaseModel) -> list[tuple[RuleOption, Any]]:
    """Options whose value differs from the default, with the value in force."""
    current = {o.path: o.default for o in options(rules)}
    return [(o, current[o.path]) for o in options(type(rules)) if current[o.path] != o.default]
