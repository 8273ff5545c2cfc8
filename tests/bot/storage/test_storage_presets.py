"""A server's rule presets in the database (``rule_presets``, migration 0011), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Database
from bot.storage.presets import PresetExists, PresetQueries, PresetsFull, name_key

GUILD = 10
MOD = 99


async def test_save_read_list_and_delete(db: Database) -> None:
    presets = PresetQueries(db)
    assert await presets.presets(GUILD) == []
    stored, replaced = await presets.save(
        GUILD, "oicho", "Big Bank", {"bank_cap": 80, "maki_fuda": True}, rules_schema="abc", actor_id=MOD, limit=25
    )
    assert not replaced
    assert (stored.name, stored.options, stored.rules_schema, stored.saved_by) == (
        "Big Bank",
        {"bank_cap": 80, "maki_fuda": True},
        "abc",
        MOD,
    )
    await presets.save(GUILD, "ofc", "turbo", {"variant": "c"}, rules_schema="def", actor_id=MOD, limit=25)
    await presets.save(GUILD + 1, "oicho", "elsewhere", {}, rules_schema="abc", actor_id=MOD, limit=25)

    assert await presets.get(GUILD, "oicho", "big bank") == stored  # names compare folded
    assert await presets.get(GUILD, "oicho", "ＢＩＧ ＢＡＮＫ") == stored  # full-width too (NFKC)
    assert await presets.get(GUILD, "ofc", "Big Bank") is None  # per game
    assert [p.name for p in await presets.presets(GUILD)] == ["turbo", "Big Bank"]  # by game, then name
    assert [p.name for p in await presets.presets(GUILD, "ofc")] == ["turbo"]
    assert await presets.count(GUILD, "oicho") == 1

    dropped = await presets.delete(GUILD, "oicho", "BIG BANK")
    assert dropped == stored
    assert await presets.delete(GUILD, "oicho", "big bank") is None
    assert await presets.get(GUILD, "oicho", "Big Bank") is None
    assert [p.name for p in await presets.presets(GUILD + 1)] == ["elsewhere"]


async def test_a_taken_name_is_refused_unless_replaced(db: Database, clock: object) -> None:
    presets = PresetQueries(db)
    await presets.save(GUILD, "oicho", "house", {"bank_cap": 80}, rules_schema="a", actor_id=MOD, limit=25)
    with pytest.raises(PresetExists) as taken:
        await presets.save(GUILD, "oicho", "HOUSE", {"bank_cap": 90}, rules_schema="a", actor_id=MOD + 1, limit=25)
    assert taken.value.code == "presets.exists"
    assert taken.value.params == {"name": "house"}
    assert (await presets.get(GUILD, "oicho", "house")).options == {"bank_cap": 80}  # type: ignore[union-attr]

    stored, replaced = await presets.save(
        GUILD, "oicho", "House", {"bank_cap": 90}, rules_schema="b", actor_id=MOD + 1, limit=25, replace=True
    )
    assert replaced
    assert await presets.get(GUILD, "oicho", "house") == stored
    assert (stored.name, stored.options, stored.rules_schema, stored.saved_by) == ("House", {"bank_cap": 90}, "b", 100)
    assert await presets.count(GUILD, "oicho") == 1


async def test_a_game_holds_at_most_the_limit(db: Database) -> None:
    presets = PresetQueries(db)
    for n in range(3):
        await presets.save(GUILD, "oicho", f"p{n}", {}, rules_schema="a", actor_id=MOD, limit=3)
    with pytest.raises(PresetsFull) as full:
        await presets.save(GUILD, "oicho", "p3", {}, rules_schema="a", actor_id=MOD, limit=3)
    assert (full.value.code, full.value.params) == ("presets.full", {"limit": 3})
    assert await presets.count(GUILD, "oicho") == 3
    # Saving over one of them is no new preset; another game and another server have their own room.
    await presets.save(GUILD, "oicho", "p1", {"bank_cap": 5}, rules_schema="a", actor_id=MOD, limit=3, replace=True)
    await presets.save(GUILD, "ofc", "p3", {}, rules_schema="a", actor_id=MOD, limit=3)
    await presets.save(GUILD + 1, "oicho", "p3", {}, rules_schema="a", actor_id=MOD, limit=3)


async def test_saves_at_once_never_pass_the_limit_together(db: Database) -> None:
    """Twenty saves of different new names at the same instant, with room for three: exactly three are kept (on
    PostgreSQL the saves run side by side on separate connections)."""
    presets = PresetQueries(db)
    saves = [
        presets.save(GUILD, "oicho", f"at once {n}", {}, rules_schema="a", actor_id=MOD, limit=3) for n in range(20)
    ]
    results = await asyncio.gather(*saves, return_exceptions=True)
    kept = [r for r in results if not isinstance(r, BaseException)]
    assert len(kept) == 3 and all(isinstance(r, PresetsFull) for r in results if isinstance(r, BaseException))
    assert await presets.count(GUILD, "oicho") == 3


def test_names_compare_folded() -> None:
    assert name_key(" Short  Game ") == name_key("short game") == name_key("ＳＨＯＲＴ ＧＡＭＥ")
    assert name_key("短い") != name_key("短く")
