"""The table record: rules, seats, shuffles and actions. Replaying it rebuilds the exact state.

The record is the single source of truth for a table: the database stores it, a restart replays
it, the hand history and ``/verify`` read it, and tests write it by hand. Its JSON form is
documented in ``docs/replay.md``.

A record may start from a **snapshot** instead of the opening deal (version 2): the engine's whole state at
some point (see :meth:`games.core.engine.Engine.snapshot`) and how many of the record's shuffles had been
made by then. A live table keeps such a record from its last finished deal, so restarting it costs one deal's
replay however old the table is; the full record from the opening deal stays available for verification.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games.core.errors import RecordError
from games.core.rng import Shuffle

RECORD_VERSION = 1
SNAPSHOT_VERSION = 2


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
    snapshot: dict[str, Any] | None = None
    """``{"state": …, "used": n}``: replay starts from this engine state, the first ``n`` shuffles already made."""

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [f"seat{i + 1}" for i in range(len(self.stacks))]
        if len(self.seats) != len(self.stacks):
            raise RecordError("seats and stacks must have the same length")
        if self.stake < 1:
            raise RecordError("stake must be at least 1")
        if any(s < 0 for s in self.stacks):
            raise RecordError("stacks cannot be negative")
        if self.snapshot is not None:
            used = self.snapshot.get("used")
            if not isinstance(self.snapshot.get("state"), dict) or isinstance(used, bool) or not isinstance(used, int):
                raise RecordError("malformed record: a snapshot has a state object and a count of shuffles used")
            if not 0 <= used <= len(self.shuffles):
                raise RecordError(f"the snapshot used {used} shuffles; the record has {len(self.shuffles)}")
            self.version = SNAPSHOT_VERSION

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "version": self.version,
            "game": self.game,
            "rules": self.rules,
            "seats": self.seats,
            "stacks": self.stacks,
            "stake": self.stake,
        }
        if self.snapshot is not None:
            out["snapshot"] = self.snapshot
        out["shuffles"] = [s.to_json() for s in self.shuffles]
        out["actions"] = [[seat, text] for seat, text in self.actions]
        return out

    def head(self) -> TableRecord:
        """The record without its shuffles, actions and snapshot: the table as it opened."""
        return TableRecord(
            game=self.game, rules=self.rules, stacks=list(self.stacks), seats=list(self.seats), stake=self.stake
        )

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
        snapshot = data.get("snapshot")
        if snapshot is not None and not isinstance(snapshot, dict):
            raise RecordError("malformed record: snapshot must be an object")
        try:
            version = int(data.get("version", RECORD_VERSION))
            if version not in (RECORD_VERSION, SNAPSHOT_VERSION) or (version == SNAPSHOT_VERSION) != (
                snapshot is not None
            ):
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
                snapshot=snapshot,
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
