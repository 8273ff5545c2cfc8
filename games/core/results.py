"""The result of a finished deal as a typed record, and the JSON the hand history stores of it.

Each game declares what it says about a finished deal next to its events, in ``games/<game>/results.py``: one
:class:`DealSummary` subclass for the deal, a frozen dataclass, with nested frozen dataclasses where the summary
nests (piles, boards, tricks, declarations…). The engine builds it and hands it out as
:attr:`DealResult.detail <games.core.engine.DealResult.detail>`; :meth:`DealSummary.to_json` is the summary the
hand history stores and ``python -m games replay`` prints, and :meth:`DealSummary.from_json` reads such a summary
back, so the results message and the table text read typed fields, never keys.

How a record maps to JSON follows from its declaration alone:

* a dataclass is a JSON object with one key per field, named like the field (:func:`named` names a key that is
  no Python name, such as ``from``), in field order; a :class:`Row` is a JSON array of its fields in order
  (``[seat, points]``);
* ``tuple[X, ...]`` and fixed-size tuples are arrays; ``X | None`` is ``null`` when None;
* a field with :data:`OMIT_NONE` metadata is left out of the JSON when None: a key only some deals have (a void
  round has no piles), or one that older summaries lack;
* ``int``, ``str``, ``bool`` and ``Literal`` strings are themselves; ``Any`` is raw JSON, kept as it is.

Reading checks each value's JSON type and raises :class:`~games.core.errors.RecordError` for a summary that does
not fit (a missing key, a string where a number belongs). ``Literal`` values are not checked: an outcome a newer
or older engine wrote still reads.

A summary the bot stored holds more than the engine wrote. When the runtime settles a deal it adds the deal's
revealed seeds, their commitments and the deal's public events (:class:`Recorded`, read into
``DealSummary.recorded``), and a summary an older engine wrote may hold a key no longer written (kept in
``DealSummary.extra``). Both are written back after the game's own keys, so a stored summary reads back to the
same JSON.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar, Union, get_args, get_origin, get_type_hints

from games.core.errors import RecordError

if TYPE_CHECKING:
    from games.core.engine import DealResult

_KEY = "json_key"
_OMIT = "json_omit_none"
_PART = "json_part"


OMIT_NONE: Mapping[str, Any] = MappingProxyType({_OMIT: True})
"""Field metadata for a key left out of the JSON when None: ``x: int | None = field(default=None,
metadata=OMIT_NONE)``."""


def named(name: str) -> dict[str, Any]:
    """Field metadata for a key that is not a Python name: ``payer: int = field(metadata=named("from"))``."""
    return {_KEY: name}


class Row:
    """Base of a dataclass written as a JSON array of its fields in order (``[seat, points]``), not an object."""


@dataclass(frozen=True)
class Recorded:
    """What the bot adds to a deal's summary when it stores it (``bot/tables/session.py``); None when absent.

    ``events`` are the deal's public events as :func:`games.core.snapshot.encode` wrote them (``decode`` gives
    the events back); they are kept as that JSON, so a summary stays readable even if an event class changes."""

    seeds: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    """The deal's shuffle seeds, revealed once it ended (``/verify`` checks them against the commitments)."""
    commitments: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    """The SHA-256 commitments to those seeds, shown before and during the deal."""
    events: tuple[Any, ...] | None = field(default=None, metadata=OMIT_NONE)
    """The deal's public events, encoded."""


@dataclass(frozen=True)
class Payment:
    """One payment a summary lists: ``payer`` owes ``payee`` ``amount`` points, for ``kind`` (the game's reason:
    Luk Fu's ``share``, Hachi-Hachi's ``trick``…), as the rules owe it (a stack pays only what it holds)."""

    payer: int = field(metadata=named("from"))
    payee: int = field(metadata=named("to"))
    amount: int
    kind: str


S = TypeVar("S", bound="DealSummary")


@dataclass(frozen=True, kw_only=True)
class DealSummary:
    """Base of each game's finished-deal result. Subclasses are frozen dataclasses declaring the game's fields.

    ``recorded`` and ``extra`` are not the engine's: they hold what a stored summary carries besides the game's
    own keys (see the module docstring), and are empty for a result the engine just made."""

    recorded: Recorded = field(default_factory=Recorded, repr=False, metadata={_PART: "recorded"})
    extra: Mapping[str, Any] = field(default_factory=dict, repr=False, metadata={_PART: "extra"})

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON: the game's keys in field order, then any ``extra`` and ``recorded`` keys.

        Written once (a result never changes; views ask for it on every update): each call gives a new dict
        holding the same values, which must be read, not changed."""
        written: dict[str, Any] | None = self.__dict__.get("_json")
        if written is None:
            written = _dump_object(self)
            object.__setattr__(self, "_json", written)
        return dict(written)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Read a summary: one just written, or one the hand history stored (runtime and older keys included)."""
        loaded: Self = _load_object(cls, data, cls.__name__)
        return loaded


T = TypeVar("T")


def read(kind: type[T], data: Any) -> T:
    """JSON as ``kind``, any type a summary is made of (raises :class:`RecordError` if it does not fit)."""
    loaded: T = _load(data, kind, kind.__name__)
    return loaded


def write(value: Any) -> Any:
    """Any part of a summary as JSON (what :func:`read` reads back)."""
    return _dump(value)


def for_snapshot(result: DealResult[Any] | None) -> DealResult[Any] | None:
    """``result`` as an engine's snapshot keeps it: with its detail as JSON, as before results were typed.

    A snapshot rebuilds a dataclass only with exactly the fields it was saved with, while a result type may grow
    (a key older summaries lack): kept as JSON, a result never makes a saved restart point unreadable.
    :func:`upgraded` reads it typed again on restore."""
    if result is None:
        return None
    saved: DealResult[Any] = dataclasses.replace(result, detail=result.summary)
    return saved


def upgraded(result: DealResult[Any] | None, kind: type[S]) -> DealResult[S] | None:
    """``result`` with its detail read as ``kind``: a result restored from a snapshot holds its detail as JSON
    (:func:`for_snapshot`; so did every snapshot saved before results were typed)."""
    if result is None or isinstance(result.detail, kind):
        return result
    if not isinstance(result.detail, Mapping):
        raise RecordError(f"a snapshot's last result is a {type(result.detail).__name__}, not a {kind.__name__}")
    return dataclasses.replace(result, detail=kind.from_json(result.detail))


# ---------------------------------------------------------------- the mapping


@dataclass(frozen=True)
class _Field:
    name: str
    key: str
    hint: Any
    required: bool
    omit_none: bool
    part: str | None


_plans: dict[type[Any], tuple[_Field, ...]] = {}


def _fields(cls: type[Any]) -> tuple[_Field, ...]:
    plan = _plans.get(cls)
    if plan is None:
        hints = get_type_hints(cls)
        plan = _plans[cls] = tuple(
            _Field(
                name=f.name,
                key=f.metadata.get(_KEY, f.name),
                hint=hints[f.name],
                required=f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
                omit_none=bool(f.metadata.get(_OMIT)),
                part=f.metadata.get(_PART),
            )
            for f in dataclasses.fields(cls)
        )
    return plan


def _dump(value: Any) -> Any:
    if isinstance(value, Row):
        return [_dump(getattr(value, f.name)) for f in _fields(type(value))]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _dump_object(value)
    if isinstance(value, (tuple, list)):
        return [_dump(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _dump(v) for k, v in value.items()}
    return value


def _dump_object(value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    recorded: dict[str, Any] = {}
    for f in _fields(type(value)):
        item = getattr(value, f.name)
        if f.part == "extra":
            extra = _dump(item)
        elif f.part == "recorded":
            recorded = _dump_object(item)
        elif not (f.omit_none and item is None):
            out[f.key] = _dump(item)
    return {**out, **extra, **recorded}


def _load_object(cls: type[Any], data: Any, path: str) -> Any:
    if not isinstance(data, Mapping):
        raise RecordError(f"{path}: expected a JSON object, got {_kind(data)}")
    fields = _fields(cls)
    values: dict[str, Any] = {}
    known: set[str] = set()
    for f in fields:
        if f.part is not None:
            continue
        known.add(f.key)
        if f.key in data:
            values[f.name] = _load(data[f.key], f.hint, f"{path}.{f.key}")
        elif f.required:
            raise RecordError(f"{path}: the key {f.key!r} is missing")
    for f in fields:
        if f.part == "recorded":
            values[f.name] = _load_object(f.hint, data, path)
            known.update(g.key for g in _fields(f.hint))
    if any(f.part == "extra" for f in fields):
        values["extra"] = {k: v for k, v in data.items() if k not in known}
    return cls(**values)


def _load(data: Any, hint: Any, path: str) -> Any:
    if hint is Any:
        return data
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        options = [a for a in get_args(hint) if a is not type(None)]
        if len(options) != 1 or len(options) == len(get_args(hint)):
            raise TypeError(f"{path}: of unions only X | None is supported, not {hint}")
        return None if data is None else _load(data, options[0], path)
    if origin is Literal:
        return _load(data, type(get_args(hint)[0]), path)
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(data, list):
            raise RecordError(f"{path}: expected a JSON array, got {_kind(data)}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_load(v, args[0], f"{path}[{i}]") for i, v in enumerate(data))
        if len(data) != len(args):
            raise RecordError(f"{path}: expected {len(args)} entries, got {len(data)}")
        return tuple(_load(v, a, f"{path}[{i}]") for i, (v, a) in enumerate(zip(data, args, strict=True)))
    if isinstance(hint, type) and issubclass(hint, Row):
        fields = _fields(hint)
        if not isinstance(data, list) or len(data) != len(fields):
            raise RecordError(f"{path}: expected a JSON array of {len(fields)} entries, got {_kind(data)}")
        return hint(*(_load(v, f.hint, f"{path}[{i}]") for i, (v, f) in enumerate(zip(data, fields, strict=True))))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _load_object(hint, data, path)
    if hint is bool:
        if isinstance(data, bool):
            return data
    elif hint is int:
        if isinstance(data, int) and not isinstance(data, bool):
            return data
    elif hint is str:
        if isinstance(data, str):
            return data
    else:
        raise TypeError(f"{path}: a summary field cannot be a {hint}")
    raise RecordError(f"{path}: expected {hint.__name__}, got {_kind(data)}")


def _kind(data: Any) -> str:
    if data is None:
        return "null"
    if isinstance(data, bool):
        return "a boolean"
    if isinstance(data, (int, float)):
        return f"the number {data}"
    if isinstance(data, str):
        return f"the string {data[:40]!r}"
    return "an array" if isinstance(data, list) else "an object"
