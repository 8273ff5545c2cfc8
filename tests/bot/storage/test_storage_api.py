"""The storage API's types: what lets ``mypy bot`` check every call the runtime makes into :class:`Database`.

Every public method is annotated in full with concrete types (no ``Any``: a caller's JSON is ``JsonValue`` going in
and ``JsonObject`` coming back), those annotations resolve, and every storage type they name is exported from
``bot.storage``, so a caller can annotate with it."""

from __future__ import annotations

import dataclasses
import inspect
import re
import typing
from collections.abc import Callable, Iterator

import bot.storage
from bot.storage import ConfigChanges, Database, GuildConfig

_ANY = re.compile(r"\bAny\b")


def _public_methods() -> Iterator[tuple[str, Callable[..., object]]]:
    for name, member in inspect.getmembers(Database):
        if not name.startswith("_") and callable(member):
            yield name, member


def _storage_classes(hint: object, seen: dict[int, object]) -> Iterator[type]:
    """Every class defined in ``bot.storage`` that ``hint`` names, through generics, unions (``Unpack`` too) and
    dataclass fields. ``seen`` keeps what it visited alive, so that an id is never reused meanwhile."""
    if id(hint) in seen or isinstance(hint, typing.ForwardRef):  # JsonValue refers to itself
        return
    seen[id(hint)] = hint
    if isinstance(hint, type) and hint.__module__.startswith("bot.storage"):
        yield hint
        if dataclasses.is_dataclass(hint):
            for field_hint in typing.get_type_hints(hint).values():
                yield from _storage_classes(field_hint, seen)
    for arg in typing.get_args(hint):
        yield from _storage_classes(arg, seen)


def test_every_public_method_is_annotated_with_concrete_types() -> None:
    methods = dict(_public_methods())
    assert {"open", "join_table", "append_step", "set_config", "schema", "lease_of"} <= methods.keys()
    for name, method in methods.items():
        signature = inspect.signature(method)
        for parameter in signature.parameters.values():
            if parameter.name in ("self", "cls"):
                continue
            annotation = parameter.annotation
            assert annotation is not inspect.Parameter.empty, f"{name}({parameter.name}) has no type"
            assert not _ANY.search(str(annotation)), f"{name}({parameter.name}: {annotation})"
        assert signature.return_annotation is not inspect.Signature.empty, f"{name} has no return type"
        assert not _ANY.search(str(signature.return_annotation)), f"{name} -> {signature.return_annotation}"
        typing.get_type_hints(method)  # every name an annotation uses can be resolved


def test_the_records_the_api_returns_name_no_any() -> None:
    seen: dict[int, object] = {}
    records = {
        cls
        for _, method in _public_methods()
        for hint in typing.get_type_hints(method).values()
        for cls in _storage_classes(hint, seen)
        if dataclasses.is_dataclass(cls)
    }
    assert {bot.storage.Table, bot.storage.Seat, bot.storage.Step, bot.storage.Settlement} <= records
    for cls in records:
        for field in dataclasses.fields(cls):
            assert not _ANY.search(str(field.type)), f"{cls.__name__}.{field.name}: {field.type}"


def test_every_storage_type_in_the_api_is_exported() -> None:
    seen: dict[int, object] = {}
    named = {
        cls
        for _, method in _public_methods()
        for hint in typing.get_type_hints(method).values()
        for cls in _storage_classes(hint, seen)
    }
    assert {bot.storage.TableOutline, bot.storage.ConfigChanges, bot.storage.LogEntry} <= named
    exported = {getattr(bot.storage, name) for name in bot.storage.__all__}
    missing = sorted(cls.__name__ for cls in named if cls is not Database and cls not in exported)
    assert missing == []


def test_config_changes_name_every_setting_set_config_accepts() -> None:
    settings = {f.name for f in dataclasses.fields(GuildConfig)} - {"guild_id", "updated_by", "updated_at"}
    assert ConfigChanges.__optional_keys__ == settings
    assert ConfigChanges.__required_keys__ == frozenset()
