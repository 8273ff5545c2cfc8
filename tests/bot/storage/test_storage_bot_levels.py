"""A bot seat's level (migration 0015): stored with the seat and read back, refused when unknown, and the bots seated
before levels existed made normal (the policy they played became the normal level)."""

from __future__ import annotations

import pytest

from bot.storage import Database, InvalidValue

GUILD = 10


async def test_a_bot_seat_keeps_the_level_it_was_added_at(db: Database) -> None:
    table = await db.open_table(GUILD, 100, "oicho", 1, buy_in=100, practice=True)
    await db.join_table(table.id, 1)
    await db.add_bot_seat(table.id, "Tanuki", level="strong")
    await db.add_bot_seat(table.id, "Kitsune")
    await db.add_bot_seat(table.id, "Tengu", level="easy")
    row = await db.get_table(table.id)
    assert row is not None
    assert [s.bot_level for s in row.seats] == [None, "strong", "normal", "easy"]
    await db.start_table(table.id)
    (active,) = await db.list_active_tables(GUILD)
    assert [s.bot_level for s in active.seats] == [None, "strong", "normal", "easy"]


@pytest.mark.parametrize("level", ["expert", "", "Strong", None])
async def test_an_unknown_level_is_refused_and_seats_nobody(db: Database, level: object) -> None:
    table = await db.open_table(GUILD, 100, "oicho", 1, buy_in=100, practice=True)
    with pytest.raises(InvalidValue) as refused:
        await db.add_bot_seat(table.id, "Tanuki", level=level)  # type: ignore[arg-type]
    assert refused.value.code == "storage.invalid_bot_level"
    row = await db.get_table(table.id)
    assert row is not None and row.seats == ()


async def test_the_migration_makes_the_bots_seated_before_it_normal(db: Database) -> None:
    table = await db.open_table(GUILD, 100, "oicho", 1, buy_in=100, practice=True)
    await db.join_table(table.id, 1)
    await db.add_bot_seat(table.id, "Tanuki", level="easy")
    async with db._write():  # the database as it was before migration 0015
        await db._exec("ALTER TABLE seats DROP COLUMN bot_level")
        await db._exec("DELETE FROM schema_version WHERE version = 15")
    assert await db.migrate() == [15]
    row = await db.get_table(table.id)
    assert row is not None and [s.bot_level for s in row.seats] == [None, "normal"]
