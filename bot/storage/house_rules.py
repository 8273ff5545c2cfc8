"""House rules per (guild, game), stored as the JSON dump of the game's pydantic model, with an audit trail.

Storage does not know the models: the bot validates a change with ``games.core.house_rules`` and
hands over the whole new dump together with the option path and its old and new values.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json
from collections.abc import Mapping

from bot.storage.core import Core
from bot.storage.models import JsonObject, JsonValue, RuleChange
from bot.storage.tx import All, Exec, Scalar

ALL_OPTIONS = "*"


def _json(value: JsonValue) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class HouseRuleOps(Core):
    async def _rules(self, guild_id: int, game: str) -> str | None:
        data: str | None = await Scalar(
            "SELECT data FROM house_rules WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        return data

    async def get_house_rules(self, guild_id: int, game: str) -> JsonObject | None:
        """The stored model dump, or None when the guild uses the game's defaults."""
        data = await self._read(lambda: self._rules(guild_id, game))
        return None if data is None else dict(json.loads(data))

    async def set_house_rule(
        self,
        guild_id: int,
        game: str,
        data: Mapping[str, JsonValue],
        *,
        actor_id: int,
        path: str,
        old_value: JsonValue,
        new_value: JsonValue,
        reset: bool = False,
    ) -> None:
        """Store the new model dump ``data`` and audit one option change (``reset`` when set back to default)."""
        dump = _json(dict(data))

        async def tx(now: float) -> None:
            await Exec(
                "INSERT INTO house_rules (guild_id, game, data, updated_by, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, game) DO UPDATE SET data = excluded.data, updated_by = excluded.updated_by,"
                " updated_at = excluded.updated_at",
                (guild_id, game, dump, actor_id, now),
            )
            await self._audit(guild_id, game, actor_id, now, path, old_value, new_value, reset)

        await self._transaction(tx)

    async def reset_house_rules(self, guild_id: int, game: str, *, actor_id: int) -> None:
        """Back to the game's defaults for every option; audited as path ``*`` with the old dump."""

        async def tx(now: float) -> None:
            old = await self._rules(guild_id, game)
            await Exec("DELETE FROM house_rules WHERE guild_id = ? AND game = ?", (guild_id, game))
            await self._audit(
                guild_id, game, actor_id, now, ALL_OPTIONS, None if old is None else json.loads(old), None, True
            )

        await self._transaction(tx)

    async def _audit(
        self,
        guild_id: int,
        game: str,
        actor_id: int,
        now: float,
        path: str,
        old: JsonValue,
        new: JsonValue,
        reset: bool,
    ) -> None:
        await Exec(
            "INSERT INTO house_rule_audit (guild_id, game, actor_id, at, path, old_value, new_value, reset)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, game, actor_id, now, path, _json(old), _json(new), int(reset)),
        )

    async def house_rule_history(self, guild_id: int, game: str | None = None, *, limit: int = 20) -> list[RuleChange]:
        """The most recent house-rule changes of a guild (optionally one game), newest first."""

        rows = await self._read(
            lambda: All(
                # coalesce, not "? IS NULL OR …": PostgreSQL must tell the parameter's type from the statement.
                "SELECT * FROM house_rule_audit WHERE guild_id = ? AND game = coalesce(?, game)"
                " ORDER BY at DESC, id DESC LIMIT ?",
                (guild_id, game, limit),
            )
        )
        return [
            RuleChange(
                id=r["id"],
                guild_id=r["guild_id"],
                game=r["game"],
                actor_id=r["actor_id"],
                at=r["at"],
                path=r["path"],
                old_value=None if r["old_value"] is None else json.loads(r["old_value"]),
                new_value=None if r["new_value"] is None else json.loads(r["new_value"]),
                reset=bool(r["reset"]),
            )
            for r in rows
        ]
