"""Engine state as JSON: what lets a table restart from its last deal instead of its first.

Every engine keeps its state in plain attributes: numbers, strings, lists, tuples, sets, dicts, cards and
small dataclasses of the ``games`` package. :func:`encode` turns such a value into JSON-ready data with a
tag for each type JSON lacks, and :func:`decode` turns it back into an equal value of the same types, so a
restored engine is indistinguishable from the one saved (the conformance suite checks it for every game:
same views, same legal actions, and the same game when both play on).

Tags: ``{"$t": [...]}`` tuple, ``{"$s": [...]}`` set, ``{"$fs": [...]}`` frozenset, ``{"$d": [[k, v], ...]}``
dict (keys of any type, order kept), ``{"$o": "module:Class", "v": [...]}`` a dataclass by its fields in
order, ``{"$e": "module:Class", "v": value}`` an enum member. Only classes defined in the ``games`` package
are rebuilt, so stored data can never name arbitrary code.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
from typing import Any

from games.core.errors import RecordError

_ALLOWED_PREFIX = "games."
_classes: dict[str, type[Any]] = {}
_fields: dict[type[Any], tuple[str, ...]] = {}


def _name(cls: type[Any]) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _field_names(cls: type[Any]) -> tuple[str, ...]:
    names = _fields.get(cls)
    if names is None:
        names = _fields[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def encode(value: Any) -> Any:
    """``value`` as JSON-ready data (raises ``TypeError`` for a type it cannot round-trip)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    kind = type(value)
    if kind is list:
        return [encode(v) for v in value]
    if kind is tuple:
        return {"$t": [encode(v) for v in value]}
    if kind is dict:
        return {"$d": [[encode(k), encode(v)] for k, v in value.items()]}
    if kind is set or kind is frozenset:
        # Sorted by their text so equal sets always give the same JSON (set order follows string hashing).
        items = sorted((encode(v) for v in value), key=repr)
        return {"$s" if kind is set else "$fs": items}
    if isinstance(value, enum.Enum):
        return {"$e": _name(kind), "v": encode(value.value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not kind.__module__.startswith(_ALLOWED_PREFIX):
            raise TypeError(f"cannot snapshot a {kind.__module__}.{kind.__qualname__}")
        return {"$o": _name(kind), "v": [encode(getattr(value, n)) for n in _field_names(kind)]}
    if isinstance(value, float):
        return value
    raise TypeError(f"cannot snapshot a value of type {kind.__module__}.{kind.__qualname__}")


def _class(name: str) -> type[Any]:
    cls = _classes.get(name)
    if cls is not None:
        return cls
    module, _, qualname = name.partition(":")
    if not module.startswith(_ALLOWED_PREFIX) or not qualname:
        raise RecordError(f"a snapshot names {name!r}, which is not a class of the games package")
    try:
        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise RecordError(f"a snapshot names {name!r}, which does not exist") from exc
    if not isinstance(found, type):
        raise RecordError(f"a snapshot names {name!r}, which is not a class")
    _classes[name] = found
    return found


def decode(data: Any) -> Any:
    """The value :func:`encode` was given."""
    if data is None or isinstance(data, (bool, int, str, float)):
        return data
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict) or len(data) not in (1, 2):
        raise RecordError(f"malformed snapshot value: {data!r:.80}")
    if "$t" in data:
        return tuple(decode(v) for v in data["$t"])
    if "$d" in data:
        return {decode(k): decode(v) for k, v in data["$d"]}
    if "$s" in data:
        return {decode(v) for v in data["$s"]}
    if "$fs" in data:
        return frozenset(decode(v) for v in data["$fs"])
    if "$e" in data:
        cls = _class(data["$e"])
        if not issubclass(cls, enum.Enum):
            raise RecordError(f"{data['$e']} is not an enum")
        return cls(decode(data["v"]))
    if "$o" in data:
        cls = _class(data["$o"])
        if not dataclasses.is_dataclass(cls):
            raise RecordError(f"{data['$o']} is not a dataclass")
        names = _field_names(cls)
        values = data["v"]
        if not isinstance(values, list) or len(values) != len(names):
            raise RecordError(f"a snapshot of {data['$o']} has {len(values)} fields, the class {len(names)}")
        obj = cls.__new__(cls)
        for name, value in zip(names, values, strict=True):
            object.__setattr__(obj, name, decode(value))  # frozen dataclasses too
        return obj
    raise RecordError(f"malformed snapshot value: {data!r:.80}")
