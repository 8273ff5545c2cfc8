"""Servers' settings as tables read them (bot.tables.settings): one database read per server at a time, kept for a
while, dropped when a moderator changes them; a failed read is not kept. Against the real database."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.storage import Database
from bot.tables.settings import ServerSettings

GUILD, OTHER, MOD = 1, 2, 99


class CountingReads:
    """The real database, with its settings reads counted and, while ``gate`` is closed, held back."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.reads = 0
        self.gate = asyncio.Event()
        self.gate.set()

    async def get_config(self, guild_id: int) -> Any:
        self.reads += 1
        await self.gate.wait()
        return await self.db.get_config(guild_id)


async def test_a_burst_of_misses_for_one_server_makes_one_read(database: Database) -> None:
    await database.set_config(GUILD, actor_id=MOD, turn_timer_seconds=90)
    reads = CountingReads(database)
    settings = ServerSettings(reads, ttl=30.0)  # type: ignore[arg-type]
    reads.gate.clear()
    burst = [asyncio.create_task(settings.get(GUILD)) for _ in range(50)]
    other = asyncio.create_task(settings.get(OTHER))
    await asyncio.sleep(0)
    assert reads.reads == 2  # one for each server, however many asked
    reads.gate.set()
    configs = await asyncio.gather(*burst)
    assert {c.turn_timer_seconds for c in configs} == {90}
    assert (await other).guild_id == OTHER
    await settings.get(GUILD)
    assert reads.reads == 2  # kept


async def test_a_moderators_change_is_read_at_once_and_an_expired_read_again(database: Database) -> None:
    reads = CountingReads(database)
    settings = ServerSettings(reads, ttl=0.05)  # type: ignore[arg-type]
    assert (await settings.get(GUILD)).turn_timer_seconds == 60
    await database.set_config(GUILD, actor_id=MOD, turn_timer_seconds=120)
    assert (await settings.get(GUILD)).turn_timer_seconds == 60  # still kept
    settings.changed(GUILD)
    assert (await settings.get(GUILD)).turn_timer_seconds == 120
    assert reads.reads == 2
    await asyncio.sleep(0.06)
    await settings.get(GUILD)
    assert reads.reads == 3


async def test_a_failed_read_is_told_to_every_waiter_and_not_kept(database: Database) -> None:
    reads = CountingReads(database)
    settings = ServerSettings(reads)  # type: ignore[arg-type]
    failing = {"on": True}
    real = reads.get_config

    async def flaky(guild_id: int) -> Any:
        if failing["on"]:
            reads.reads += 1
            await asyncio.sleep(0)
            raise ConnectionError("the database went away")
        return await real(guild_id)

    reads.get_config = flaky  # type: ignore[method-assign]
    waiters = [asyncio.create_task(settings.get(GUILD)) for _ in range(3)]
    results = await asyncio.gather(*waiters, return_exceptions=True)
    assert all(isinstance(r, ConnectionError) for r in results) and reads.reads == 1
    failing["on"] = False
    assert (await settings.get(GUILD)).guild_id == GUILD  # the failure was not kept: read again, and it answers
