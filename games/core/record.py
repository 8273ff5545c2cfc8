"""The table record: rules, seats, shuffles and actions. Replaying it rebuilds the exact state.

The record is the single source of truth for a table: the database stores it, a restart replays
it, the hand history and ``/verify`` read it, and tests write it by hand. Its JSON form is
documented in ``docs/replay.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games.core.errors import RecordError
from games.core.rng import Shuffle

RECORD_VERSION = 1


@dataclass
class TableRecord:
    """Everything needed to replay a table. ``stacks`` are the opening stacks in points."""

    game: str
    rules: dict[str, Any]
    stacks: list[int]
    seats: list[str] = field(default_factory=list)
    stake: int = 1
    shuffles: list[Shuffle] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)
    version: int = RECORD_VERSION

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [f"seat{i + 1}" for i in range(len(self.stacks))]
        if len(self.seats) != len(self.stacks):
            raise RecordError("seats and stacks must have the same length")
        if self.stake < 1:
            raise RecordError("stake must be at least 1")
        if any(s < 0 for s in self.stacks):
            raise RecordError("stacks cannot be negative")

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "game": self.game,
            "rules": self.rules,
            "seats": self.seats,
            "stacks": self.stacks,
            "stake": self.stake,
            "shuffles": [s.to_json() for s in self.shuffles],
            "actions": [[seat, text] for seat, text in self.actions],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> TableRecord:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        for key in ("stacks", "seats", "shuffles", "actions"):
            # A string or an object iterates too, so "stacks": "12" would silently become [1, 2].
            if key in data and not isinstance(data[key], list):
                raise RecordError(f"malformed record: {key} must be a list")
        if any(isinstance(s, bool) or not isinstance(s, int) for s in data.get("stacks", [])):
            raise RecordError("malformed record: stacks must be whole numbers")  # int() would truncate 5.7
        try:
            version = int(data.get("version", RECORD_VERSION))
            if version != RECORD_VERSION:
                raise RecordError(f"unsupported record version {version}")
            actions: list[tuple[int, str]] = []
            for item in data.get("actions", []):
                seat, text = item
                if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(text, str):
                    raise RecordError(f"bad action entry {item!r}")
                actions.append((seat, text))
            return cls(
                game=str(data["game"]),
                rules=dict(data.get("rules", {})),
                stacks=[int(s) for s in data["stacks"]],
                seats=[str(s) for s in data.get("seats", [])],
                stake=int(data.get("stake", 1)),
                shuffles=[Shuffle.from_json(s) for s in data.get("shuffles", [])],
                actions=actions,
                version=version,
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"malformed record: {exc}") from exc

    @classmethod
    def loads(cls, text: str) -> TableRecord:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from exc
