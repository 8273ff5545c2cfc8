"""Two bot processes on one database (issue 10): tables of guilds on different shards play side by side, and a
table's lease is refused to the process that does not drive it.

SimCord runs one bot per event loop (``Env.start`` refuses a second live Env on a loop), but keeps everything it
patches for the whole process (clocks, executors) per loop and per task context. So each "process" here is a
thread with its own event loop, its own :class:`~bot.storage.Database` (its own lease owner) over one PostgreSQL
database, its own sharded bot (shard 0 of 2, shard 1 of 2) and its own SimCord world: both bots run at once, their
background work included, while the test drives them move by move. What real processes would not share and these
threads do: the module-level render cache, which is only used one move at a time here (each move settles before
the next one starts).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import discord
import pytest
import simcord

from bot.app import ShardedFudabaBot
from bot.shards import Shards, shard_of
from bot.storage import Database, LeaseLost, LogEntry
from bot.storage.core import LEASE_SECONDS
from bot.tables.session import TableSession
from tests.bot.conftest import FakeClock, World, make_bot
from tests.bot.storage.test_storage_leases import state
from tests.bot.tables.driver import live_table, play_one_turn
from tests.pg import PgDatabases

T = TypeVar("T")
CALL_TIMEOUT = 90.0
"""Seconds one step in a process may take (a move settles in well under one; the machine may be busy)."""


class BotProcess:
    """One Fudaba process: a thread running an event loop, with its database, its bot and its SimCord world."""

    def __init__(self, shard: int) -> None:
        self.shard = shard
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._serve, name=f"fudaba-shard-{shard}", daemon=True)
        self.thread.start()
        self.db: Database | None = None
        self.env: simcord.Env | None = None
        self.world: World | None = None

    @property
    def database(self) -> Database:
        assert self.db is not None
        return self.db

    @property
    def bot(self) -> Any:
        assert self.env is not None
        return self.env.bot

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def call(self, step: Awaitable[T]) -> T:
        """Run ``step`` on this process's loop (with its virtual clock selected) and wait for its result."""

        async def scoped() -> T:
            if self.env is None:
                return await step
            with self.env.time_context():
                return await step

        return asyncio.run_coroutine_threadsafe(scoped(), self.loop).result(CALL_TIMEOUT)

    async def start(self, url: str, clock: FakeClock) -> None:
        self.db = await Database.open(url, clock=clock)
        bot = make_bot(self.db, clock, shards=Shards(2, (self.shard,)))
        self.env = simcord.Env(bot, settle_timeout=30.0)  # each query is a real round trip to the server
        await self.env.start()

    async def bot_clock_ahead(self) -> None:
        """A second of this world's virtual time, so that its snowflakes differ from the other world's (each
        SimCord world numbers its guilds, channels and members from the same instant)."""
        assert self.env is not None
        await self.env.advance_time(1)

    async def make_world(self) -> World:
        env = self.env
        assert env is not None
        guild = env.create_guild(f"Club {self.shard}", shard_id=self.shard)
        channel = guild.create_text_channel("tables")
        mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
        alice, bob, carol = (guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol"))
        mod = guild.add_member(env.create_user("mod"), roles=[mods])
        # Tables open in the channel itself here (not in threads, the default), so the channel shows the lobby.
        await self.database.set_config(guild.id, actor_id=mod.id, table_place="channel")
        self.world = World(env, guild, channel, alice, bob, carol, mod, "channel")
        return self.world

    async def open_table(self) -> TableSession:
        """Alice opens an Oicho-Kabu table, Bob joins, Alice starts it (through the lobby's buttons)."""
        world = self.world
        assert world is not None
        await world.alice.slash(world.channel, "play", game="oicho")
        lobby = world.channel.last_message
        await world.bob.click(lobby, label="Join")
        await world.alice.click(lobby, label="Start")
        return live_table(world)

    def dealt(self) -> bool:
        """Whether this process's table finished its first deal."""
        table = live_table(self.world)
        return table.engine is not None and table.engine.deal_no > 1

    async def move(self) -> None:
        """The member whose turn it is plays one sensible move through their panel."""
        world = self.world
        assert world is not None
        table = live_table(world)
        assert table.engine is not None
        user_id = table.seats[min(table.engine.to_act())].user_id
        await play_one_turn(world, world.alice if user_id == world.alice.id else world.bob)

    async def stop(self) -> None:
        try:
            if self.env is not None and self.env._started:
                await self.env.shutdown()
                self.env.raise_errors()
        finally:
            if self.db is not None:
                await self.db.close()  # gives its leases back

    def end(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(CALL_TIMEOUT)
        self.loop.close()


def _run(coro: Coroutine[Any, Any, T]) -> T:
    loop = asyncio.new_event_loop()  # not asyncio.run: it would unset the thread's event loop when done
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()


def test_two_processes_play_their_shards_tables_side_by_side_and_never_each_others(
    pg: PgDatabases,
    clock: FakeClock,
) -> None:
    name = _run(pg.create())
    url = pg.url(name)
    first, second = BotProcess(0), BotProcess(1)
    try:
        # The first process starts, and a table opens in a guild of its shard.
        first.call(first.start(url, clock))
        one = first.call(first.make_world())
        assert shard_of(one.guild.id, 2) == 0
        table_one = first.call(first.open_table())

        # The second starts over the same database: the first's table is not of its shards, so it neither drives
        # it nor waits for it. Then a table opens in a guild of its own shard.
        second.call(second.start(url, clock))
        db, other = first.database, second.database
        assert other.owner != db.owner
        for process in (first, second):
            assert isinstance(process.bot, ShardedFudabaBot) and set(process.bot.shards) == {process.shard}
        assert second.bot.tables.tables == {} and second.bot.tables.restorer.waiting == set()
        second.call(second.bot_clock_ahead())
        two = second.call(second.make_world())
        assert shard_of(two.guild.id, 2) == 1 and two.channel.id != one.channel.id
        table_two = second.call(second.open_table())

        # Both tables play side by side, one move here, one move there, each to the end of its first deal.
        for _ in range(200):
            if first.dealt() and second.dealt():
                break
            for process in (first, second):
                if not process.dealt():
                    process.call(process.move())
        else:
            raise AssertionError("the first deals did not end")
        assert set(first.bot.tables.tables) == {table_one.id}
        assert set(second.bot.tables.tables) == {table_two.id}

        # Each table's chips stayed whole, each deal's results sum to nothing, and the ledger of the shared database
        # balances; each table's lease is its own process's.
        for table, world in ((table_one, one), (table_two, two)):
            stored = first.call(db.get_table(table.id))
            assert stored is not None and stored.status == "playing"
            assert stored.guild_id == world.guild.id
            hands = first.call(db.table_history(table.id))
            assert hands and all(sum(h.deltas) == 0 for h in hands)
            assert sum(s.stack for s in stored.seats) == sum(s.buy_in for s in stored.seats)
            for member in (world.alice, world.bob):
                assert first.call(db.balance(world.guild.id, member.id)) == 1000 - stored.buy_in
        assert first.call(db.verify_ledger()) == []
        assert first.call(db.lease_of(table_one.id)) == (db.owner, clock() + LEASE_SECONDS)
        assert second.call(other.lease_of(table_two.id)) == (other.owner, clock() + LEASE_SECONDS)

        # The second process is refused the first's table: no lease, and a write to it fails and changes nothing.
        before = second.call(state(other, table_one.id))
        assert second.call(other.acquire_leases([table_one.id, table_two.id])) == {table_two.id}
        next_seq = len(second.call(other.table_log(table_one.id))) + 1
        writes: list[Callable[[], Awaitable[Any]]] = [
            lambda: other.append_step(table_one.id, [LogEntry(next_seq, "action", "done", seat=0)]),
            lambda: other.set_away(table_one.id, one.alice.id, True),
        ]
        for write in writes:
            with pytest.raises(LeaseLost) as refused:
                second.call(write())
            assert refused.value.params["table_id"] == table_one.id
        assert second.call(state(other, table_one.id)) == before
        assert first.call(db.lease_of(table_one.id)) == (db.owner, clock() + LEASE_SECONDS)

        # The first process drives its table on, undisturbed.
        assert table_one.engine is not None
        serial = table_one.engine.serial
        first.call(first.move())
        assert table_one.engine.serial > serial
    finally:
        for process in (second, first):
            try:
                process.call(process.stop())
            finally:
                process.end()
        try:

            async def check() -> list[Any]:
                async with await Database.open(url) as after:
                    leases = await after._all("SELECT * FROM table_leases")
                    return [await after.verify_ledger(), [tuple(r) for r in leases]]

            assert _run(check()) == [[], []]  # both gave their leases back as they stopped
        finally:
            _run(pg.drop(name))
