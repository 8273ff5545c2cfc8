"""A server's rule presets (``rule_presets``, migration 0011): named sets of house-rule options per game.

:class:`PresetQueries` wraps a :class:`~bot.storage.Database` (its reads and transactions), as
:class:`~bot.storage.replays.HistoryQueries` does, so this feature's SQL lives here without growing the database class.
Storage does not know the rules models: the bot checks a preset's options (``bot.presets.format``) and hands over the
option map as JSON. Loading a preset is a house-rule change, stored by
:meth:`~bot.storage.house_rules.HouseRuleOps.set_house_rule` with one audit row; nothing here touches the rules in
force.

A name is unique per server and game as people read names: compared by :func:`name_key` (NFKC, spaces collapsed,
case-folded), so ``Short game``, ``short  game`` and ``ｓｈｏｒｔ ｇａｍｅ`` are one preset; the name is kept as it was
typed.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.storage.errors import InvalidState
from bot.storage.models import JsonObject, JsonValue
from bot.storage.tx import All, Exec, One, Row, Scalar

if TYPE_CHECKING:
    from bot.storage.core import Core


def name_key(name: str) -> str:
    """How two preset names are compared: ``Short Game`` and ``short game`` are the same preset."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


@dataclass(frozen=True)
class StoredPreset:
    """One preset of a server: its options (option path → value, as saved or imported) and the fingerprint of the
    game's options when it was saved (``rules_schema``)."""

    guild_id: int
    game: str
    name: str
    options: JsonObject
    rules_schema: str
    saved_by: int | None
    saved_at: float


class PresetExists(InvalidState):
    """A preset of that name exists already for the game (saving over it needs ``replace``)."""

    def __init__(self, name: str) -> None:
        super().__init__("presets.exists", f"a preset called {name!r} exists already", name=name)


class PresetsFull(InvalidState):
    """The server already holds the most presets a game may have."""

    def __init__(self, limit: int) -> None:
        super().__init__("presets.full", f"a game holds at most {limit} presets", limit=limit)


def _preset(row: Row) -> StoredPreset:
    return StoredPreset(
        guild_id=row["guild_id"],
        game=row["game"],
        name=row["name"],
        options=dict(json.loads(row["options"])),
        rules_schema=row["rules_schema"],
        saved_by=row["saved_by"],
        saved_at=row["saved_at"],
    )


class PresetQueries:
    def __init__(self, db: Core) -> None:
        self.db = db

    async def presets(self, guild_id: int, game: str | None = None) -> list[StoredPreset]:
        """The server's presets (of one game, or all), by game then name."""
        rows = await self.db._read(
            lambda: All(
                # coalesce, not "? IS NULL OR …": PostgreSQL must tell the parameter's type from the statement.
                "SELECT * FROM rule_presets WHERE guild_id = ? AND game = coalesce(?, game) ORDER BY game, name_key",
                (guild_id, game),
            )
        )
        return [_preset(r) for r in rows]

    async def get(self, guild_id: int, game: str, name: str) -> StoredPreset | None:
        row = await self.db._read(
            lambda: One(
                "SELECT * FROM rule_presets WHERE guild_id = ? AND game = ? AND name_key = ?",
                (guild_id, game, name_key(name)),
            )
        )
        return None if row is None else _preset(row)

    async def save(
        self,
        guild_id: int,
        game: str,
        name: str,
        options: Mapping[str, JsonValue],
        *,
        rules_schema: str,
        actor_id: int,
        limit: int,
        replace: bool = False,
    ) -> tuple[StoredPreset, bool]:
        """Store a preset; returns it and whether it replaced one of the same name. Refuses a name taken (unless
        ``replace``: then the preset takes the new options and the name as now typed) with :class:`PresetExists`,
        and a new preset beyond ``limit`` of the game with :class:`PresetsFull`. One transaction: the check and the
        write agree."""
        key = name_key(name)
        data = json.dumps(dict(options), ensure_ascii=False, separators=(",", ":"))

        async def tx(now: float) -> tuple[StoredPreset, bool]:
            where = (guild_id, game, key)
            found = await Scalar(
                "SELECT name FROM rule_presets WHERE guild_id = ? AND game = ? AND name_key = ?", where
            )
            if found is not None and not replace:
                raise PresetExists(str(found))
            if found is None:
                # Two saves of different new names at once must not both pass the count: each writes the server's
                # config row (unchanged) first, so on PostgreSQL the later of two conflicts and runs again, where
                # its count sees the other's preset (SQLite runs one write at a time anyway).
                await Exec(
                    "INSERT INTO guild_config (guild_id) VALUES (?)"
                    " ON CONFLICT (guild_id) DO UPDATE SET updated_at = guild_config.updated_at",
                    (guild_id,),
                )
                held = await Scalar(
                    "SELECT count(*) FROM rule_presets WHERE guild_id = ? AND game = ?", (guild_id, game)
                )
                if int(held or 0) >= limit:
                    raise PresetsFull(limit)
                await Exec(
                    "INSERT INTO rule_presets (guild_id, game, name_key, name, options, rules_schema, saved_by,"
                    " saved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, game, key, name, data, rules_schema, actor_id, now),
                )
            else:
                await Exec(
                    "UPDATE rule_presets SET name = ?, options = ?, rules_schema = ?, saved_by = ?, saved_at = ?"
                    " WHERE guild_id = ? AND game = ? AND name_key = ?",
                    (name, data, rules_schema, actor_id, now, *where),
                )
            stored = StoredPreset(guild_id, game, name, json.loads(data), rules_schema, actor_id, now)
            return stored, found is not None

        return await self.db._transaction(tx)

    async def delete(self, guild_id: int, game: str, name: str) -> StoredPreset | None:
        """Drop a preset; returns what was dropped, or None when there was no such preset."""
        key = name_key(name)

        async def tx(now: float) -> StoredPreset | None:
            row = await One(
                "SELECT * FROM rule_presets WHERE guild_id = ? AND game = ? AND name_key = ?", (guild_id, game, key)
            )
            if row is None:
                return None
            await Exec(
                "DELETE FROM rule_presets WHERE guild_id = ? AND game = ? AND name_key = ?", (guild_id, game, key)
            )
            return _preset(row)

        return await self.db._transaction(tx)

    async def count(self, guild_id: int, game: str) -> int:
        held: Any = await self.db._read(
            lambda: Scalar("SELECT count(*) FROM rule_presets WHERE guild_id = ? AND game = ?", (guild_id, game))
        )
        return int(held or 0)
