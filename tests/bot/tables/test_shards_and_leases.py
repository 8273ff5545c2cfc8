"""Several bot processes over one database, at the runtime's level: a process restores only the tables of its
shards' guilds, waits for a table whose lease another process holds (and takes it up once it is free), and stops
driving a table whose lease another process took, telling the member who pressed a button."""

from __future__ import annotations

from typing import Any

from bot.shards import Shards, shard_of
from bot.storage import Database
from bot.storage.core import LEASE_SECONDS
from tests.bot.conftest import make_bot


async def test_a_process_drives_only_its_shards_tables_and_never_one_another_process_holds(
    world: Any,
    database: Database,
    clock: Any,
) -> None:
    guild_id = world.guild.id
    mine = shard_of(guild_id, 2)
    elsewhere = next(g for g in range(1 << 22, 1 << 40, 1 << 22) if shard_of(g, 2) != mine)
    await world.alice.slash(world.channel, "play", game="oicho")
    lobby = world.channel.last_message
    ours = world.env.bot.tables.in_channel(world.channel.id)
    assert ours is not None
    # A table of a guild on the other shard, and one of this guild that another process opened (and holds).
    other_shard = await database.open_table(elsewhere, 777, "oicho", 5, buy_in=100)
    second_channel = world.guild.create_text_channel("more-tables")
    async with await Database.open(database.test_target, clock=clock) as other:  # type: ignore[attr-defined]
        held = await other.open_table(guild_id, second_channel.id, "oicho", world.bob.id, buy_in=100)

        bot = make_bot(database, clock)
        bot.shard_set = Shards(2, (mine,))  # what SHARD_COUNT=2 SHARD_IDS=<mine> gives (SimCord runs it unsharded)
        await world.env.restart_bot(bot)
        assert set(bot.tables.tables) == {ours.id}
        assert bot.tables.restorer.waiting == {held.id}

        # While the other process renews its lease, the table stays its own; once it runs out, it is taken up.
        await bot.tables.restorer.keep_leases()
        assert set(bot.tables.tables) == {ours.id}
        clock.advance(LEASE_SECONDS + 1)
        await bot.tables.restorer.keep_leases()  # renews ours, takes the other's run-out lease
        assert set(bot.tables.tables) == {ours.id, held.id}
        assert bot.tables.restorer.waiting == set()
        assert other_shard.id not in bot.tables.tables

        # The other process takes "ours" over once its lease ran out (this process was paused): a press is refused,
        # the member told, and this process stops driving the table.
        clock.advance(LEASE_SECONDS + 1)
        assert await other.acquire_leases([ours.id]) == {ours.id}
        result = await world.bob.click(lobby, label="Join")
        assert result.ephemeral
        assert "another Fudaba bot process" in result.response.content, result
        assert ours.id not in bot.tables.tables
        assert (await database.get_table(ours.id)).seats[-1].user_id != world.bob.id  # type: ignore[union-attr]
        assert bot.tables.restorer.waiting == {ours.id}
        again = await world.carol.click(lobby, label="Join")  # while the other process holds it
        assert again.ephemeral and "still held by another Fudaba bot process" in again.response.content, again

        # The renewal notices a lost lease by itself too (no press needed).
        clock.advance(LEASE_SECONDS + 1)
        assert await other.acquire_leases([held.id]) == {held.id}
        await bot.tables.restorer.keep_leases()
        assert held.id not in bot.tables.tables
    assert await database.verify_ledger() == []
