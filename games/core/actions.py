"""Actions: small frozen dataclasses with a one-line text form used in records and custom ids.

An action's text is its ``verb`` followed by its arguments, separated by spaces: ``bet 2 15``,
``draw``, ``place As:front Kd:back``. Integer and string fields convert by themselves; an action
with richer arguments overrides :meth:`Action.args` and :meth:`Action.from_args`.
"""

from __future__ import annotations

import dataclasses
import random
import re
import typing
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.core.errors import NotationError


@dataclass(frozen=True)
class Action:
    """Base class of every game action."""

    verb: ClassVar[str] = ""

    def args(self) -> list[str]:
        return [_to_text(getattr(self, f.name)) for f in dataclasses.fields(self)]

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Action:
        fields = _argument_types(cls)
        if len(args) != len(fields):
            raise NotationError(f"{cls.verb} takes {len(fields)} argument(s), got {len(args)}")
        values: dict[str, Any] = {}
        for (name, kind), raw in zip(fields, args, strict=True):
            values[name] = _from_text(kind, raw, cls.verb)
        return cls(**values)

    @property
    def text(self) -> str:
        return " ".join([self.verb, *self.args()])

    def __str__(self) -> str:
        return self.text


_ARGUMENT_TYPES: dict[type[Action], tuple[tuple[str, object], ...]] = {}


def _argument_types(cls: type[Action]) -> tuple[tuple[str, object], ...]:
    """Each field's name and resolved type, worked out once per class (``get_type_hints`` is slow: it
    evaluates the annotations' strings on every call)."""
    found = _ARGUMENT_TYPES.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = _ARGUMENT_TYPES[cls] = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))
    return found


def _to_text(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


_WHOLE = re.compile(r"-?[0-9]+")


def _from_text(kind: object, raw: str, verb: str) -> object:
    if kind is bool:
        if raw not in ("0", "1"):
            raise NotationError(f"{verb}: expected 0 or 1, got {raw!r}")
        return raw == "1"
    if kind is int:
        # ASCII digits only: int() would also take "1_000", " 7" and other scripts' digits, giving one action
        # several texts (and custom ids).
        if not _WHOLE.fullmatch(raw):
            raise NotationError(f"{verb}: expected a whole number, got {raw!r}")
        return int(raw)
    if kind is str:
        return raw
    raise NotationError(f"{verb}: cannot read an argument of type {kind!r}")


@dataclass(frozen=True)
class AmountRange:
    """A family of legal actions that differ only in their ``amount`` field: every value lo..hi."""

    action: Action
    lo: int
    hi: int

    def make(self, amount: int) -> Action:
        return dataclasses.replace(self.action, amount=amount)  # type: ignore[call-arg]

    def allows(self, action: Action) -> bool:
        if type(action) is not type(self.action):
            return False
        amount = getattr(action, "amount", None)
        if not isinstance(amount, int) or not self.lo <= amount <= self.hi:
            return False
        return dataclasses.replace(action, amount=self.lo) == self.make(self.lo)  # type: ignore[call-arg]


class ActionFamily(ABC):
    """Legal actions too many to list one by one (every arrangement of a Fantasyland hand), listed as one item.

    It says whether an action belongs to it and can draw members at random; ``example`` is one member (the one
    a bot would play). A game that lists a family accepts exactly its members, as with any listed action."""

    example: Action

    @abstractmethod
    def allows(self, action: Action) -> bool:
        """Whether ``action`` is a member."""

    @abstractmethod
    def sample(self, rng: random.Random) -> Action:
        """A member drawn at random (for tests and random play)."""


LegalAction = Action | AmountRange | ActionFamily


def exact_actions(legal: Iterable[LegalAction]) -> list[Action]:
    """One action for each of ``legal``: an exact action as it is, an amount range at its lowest, a family by its
    example (what a bot reads its choices from when the amounts and members do not matter to it)."""
    out: list[Action] = []
    for item in legal:
        if isinstance(item, AmountRange):
            out.append(item.make(item.lo))
        elif isinstance(item, ActionFamily):
            out.append(item.example)
        else:
            out.append(item)
    return out


def is_listed(action: Action, legal: Iterable[LegalAction]) -> bool:
    """Whether ``action`` is one of ``legal`` (an exact action, or inside an amount range or a family)."""
    for item in legal:
        if isinstance(item, (AmountRange, ActionFamily)):
            if item.allows(action):
                return True
        elif item == action:
            return True
    return False


class ActionCodec:
    """Reads action text for one game: finds the class by its verb, then its arguments."""

    def __init__(self, classes: Iterable[type[Action]]) -> None:
        self._by_verb: dict[str, type[Action]] = {}
        for cls in classes:
            if not cls.verb or cls.verb in self._by_verb:
                raise ValueError(f"action verb missing or repeated: {cls.verb!r}")
            self._by_verb[cls.verb] = cls

    @property
    def verbs(self) -> list[str]:
        return sorted(self._by_verb)

    def parse(self, text: str) -> Action:
        parts = text.split()
        if not parts:
            raise NotationError("empty action")
        cls = self._by_verb.get(parts[0].lower())
        if cls is None:
            raise NotationError(f"unknown action {parts[0]!r}; known: {', '.join(self.verbs)}")
        return cls.from_args(parts[1:])
