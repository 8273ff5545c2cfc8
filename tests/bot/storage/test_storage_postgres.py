"""What only PostgreSQL has: operations side by side on several connections (and processes), and a server that can
go away and come back. Real concurrency on the session's server: two settlements of one deal, a settlement racing
a close, interleaved at a chosen statement and at random; a server restart in the middle."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.storage import Database, InvalidState, LeaseLost, LogEntry, StorageError, StorageUnavailable
from bot.storage.core import LEASE_SECONDS
from bot.storage.database import migrations
from bot.storage.dialect import is_postgres_url, to_postgres, to_postgres_insert
from bot.storage.postgres import PostgresDatabase
from tests.pg import PgDatabases

GUILD = 10
MOD = 99
CHANNEL = 500


def test_placeholders_are_numbered_outside_literals_quoted_names_and_comments() -> None:
    assert (
        to_postgres("SELECT a FROM t WHERE b = ? AND c IN (?, ?)") == "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"
    )
    assert to_postgres("SELECT '?', 'it''s ?', \"we?ird\" FROM t WHERE x = ? -- why?\n AND y = ? /* ? */") == (
        "SELECT '?', 'it''s ?', \"we?ird\" FROM t WHERE x = $1 -- why?\n AND y = $2 /* ? */"
    )
    assert to_postgres("UPDATE t SET v = 1") == "UPDATE t SET v = 1"
    assert to_postgres_insert("INSERT INTO t (a) VALUES (?)") == "INSERT INTO t (a) VALUES ($1) RETURNING id"
    assert to_postgres("SELECT ?") is to_postgres("SELECT ?")  # rewritten once per statement text
    assert to_postgres("SELECT a FROM t INDEXED BY t_b WHERE b = ?") == "SELECT a FROM t WHERE b = $1"
    assert to_postgres("SELECT ' INDEXED BY x' FROM t") == "SELECT ' INDEXED BY x' FROM t"
    assert is_postgres_url("postgresql://u@h/db")
    assert is_postgres_url("postgres://u@h/db")
    assert not is_postgres_url("data/fudaba.db")
    assert not is_postgres_url(":memory:")


class Pausing(PostgresDatabase):
    """A PostgreSQL storage whose next transaction stops after a chosen statement until the test lets it go on: to
    interleave two transactions exactly where a race would hurt."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.pause_after: str | None = None
        self.reached = asyncio.Event()
        self.go_on = asyncio.Event()

    def pause(self, after: str) -> None:
        self.pause_after = after
        self.reached.clear()
        self.go_on.clear()

    async def _perform(self, conn: Any, request: Any) -> Any:
        result = await super()._perform(conn, request)
        if self.pause_after is not None and getattr(request, "sql", "").startswith(self.pause_after):
            self.pause_after = None  # once: not again when the body runs again
            self.reached.set()
            await self.go_on.wait()
        return result


@pytest.fixture
async def pg_url(pg: PgDatabases) -> AsyncIterator[str]:
    name = await pg.create()
    try:
        yield pg.url(name)
    finally:
        await pg.drop(name)


@pytest.fixture
async def two(pg_url: str, clock: Any) -> AsyncIterator[tuple[Pausing, Database]]:
    """Two storages on one PostgreSQL database, racing on the same tables: the first can pause. They share one lease
    owner (``bot.storage.leases``), as two connections of one process's pool do: two processes never drive one table
    (tested in ``test_storage_leases``), but one process's operations still race on its connections."""
    first = await Pausing.open(pg_url, clock=clock)
    second = await Database.open(pg_url, clock=clock, owner=first.owner)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()
    async with await Database.open(pg_url) as check:
        assert await check.verify_ledger() == []


async def playing_table(db: Database, channel: int = CHANNEL, *, bots: bool = False) -> int:
    table = await db.open_table(GUILD, channel, "oicho", 1, buy_in=300)
    await db.join_table(table.id, 1)
    await db.join_table(table.id, 2)
    if bots:
        await db.add_bot_seat(table.id, "Tanuki")
    await db.start_table(table.id, record='{"v":1}')
    return table.id


async def stacks(db: Database, table_id: int) -> list[int]:
    table = await db.get_table(table_id)
    assert table is not None
    return [s.stack for s in table.seats]


async def test_a_read_never_sees_a_transaction_half_done_on_postgresql(two: tuple[Pausing, Database]) -> None:
    db, other = two
    await db.set_config(GUILD, actor_id=MOD, give_enabled=True)
    for user in (1, 2):
        await db.ensure_member(GUILD, user)
    db.pause("UPDATE wallets")  # both balances changed, the ledger legs not written yet
    writer = asyncio.create_task(db.give(GUILD, 1, 2, 100))
    await asyncio.wait_for(db.reached.wait(), 5)
    # Half done, from another connection and from another storage: the reader sees the state before it, and does
    # not wait for it.
    for reader in (db, other):
        page = await asyncio.wait_for(reader.leaderboard(GUILD), 5)
        assert sorted((e.user_id, e.value) for e in page.entries) == [(1, 1000), (2, 1000)]
    db.go_on.set()
    await writer
    page = await other.leaderboard(GUILD)
    assert sorted((e.user_id, e.value) for e in page.entries) == [(1, 900), (2, 1100)]


async def test_two_settlements_of_one_deal_move_chips_once(two: tuple[Pausing, Database]) -> None:
    db, other = two
    table_id = await playing_table(db)
    db.pause("SELECT * FROM seats")  # the first has read the table and its stacks, and checked them
    first = asyncio.create_task(db.settle_deal(table_id, 1, [50, -50], {"by": "first"}))
    await asyncio.wait_for(db.reached.wait(), 5)
    second = await other.settle_deal(table_id, 1, [50, -50], {"by": "second"})
    assert not second.replayed
    db.go_on.set()
    replay = await first  # it lost the race: run again, it finds the deal settled under its key and replays it
    assert replay.replayed
    assert replay.hand_id == second.hand_id
    assert db.retries + db.fresh_runs >= 1  # it ran again (a lost race, or the settlement's key met on insert)
    assert await stacks(db, table_id) == [350, 250]
    assert [h.summary for h in await db.table_history(table_id)] == [{"by": "second"}]


async def test_a_settlement_that_loses_to_a_close_is_refused(two: tuple[Pausing, Database]) -> None:
    db, other = two
    await db.set_config(GUILD, actor_id=MOD, bots_play_for_chips=True)
    table_id = await playing_table(db, bots=True)
    db.pause("SELECT * FROM seats")
    settle = asyncio.create_task(db.settle_deal(table_id, 1, [100, -50, -50], {}))
    await asyncio.wait_for(db.reached.wait(), 5)
    closure = await other.close_table(table_id)
    assert closure.returned == ((0, 300), (1, 300), (2, 300))
    db.go_on.set()
    with pytest.raises(InvalidState) as err:
        await settle
    assert err.value.code == "storage.table_not_active"
    assert [await db.balance(GUILD, u) for u in (1, 2)] == [1000, 1000]
    assert await db.house_balance(GUILD) == 0
    assert await db.table_history(table_id) == []


async def test_a_close_that_loses_to_a_settlement_pays_back_the_settled_stacks(two: tuple[Pausing, Database]) -> None:
    db, other = two
    table_id = await playing_table(db)
    db.pause("SELECT * FROM seats")  # the close has read the stacks it would pay back
    close = asyncio.create_task(db.close_table(table_id))
    await asyncio.wait_for(db.reached.wait(), 5)
    await other.settle_deal(table_id, 1, [120, -120], {})
    db.go_on.set()
    closure = await close
    assert closure.returned == ((0, 420), (1, 180))
    assert [await db.balance(GUILD, u) for u in (1, 2)] == [1120, 880]
    assert await stacks(db, table_id) == [0, 0]


async def test_a_join_that_loses_to_a_cancel_is_refused_and_takes_no_buy_in(two: tuple[Pausing, Database]) -> None:
    """Writes run under REPEATABLE READ: the join read the lobby (open, its seats) and writes a seat and a wallet
    the cancel never touches. Without the table's guard both would commit, and the new seat's buy-in would sit at a
    cancelled table that never pays it back."""
    db, other = two
    lobby = await db.open_table(GUILD, CHANNEL, "oicho", 1, buy_in=300)
    await db.join_table(lobby.id, 2)
    db.pause("SELECT * FROM seats")  # the join has checked the lobby and its seats
    join = asyncio.create_task(db.join_table(lobby.id, 3))
    await asyncio.wait_for(db.reached.wait(), 5)
    try:
        closure = await asyncio.wait_for(other.cancel_table(lobby.id), 5)
    finally:
        db.go_on.set()
    assert closure.returned == ((0, 300),)  # the one seat it saw
    with pytest.raises(InvalidState):
        await join
    assert db.retries >= 1  # it ran again on fresh data, and found the lobby gone
    assert [await db.balance(GUILD, u) for u in (2, 3)] == [1000, 1000]


async def test_a_move_from_a_process_whose_lease_was_taken_over_meanwhile_is_refused(pg_url: str, clock: Any) -> None:
    """The move read the lease as its own (the fencing check), then paused past the lease's end while another
    process took the table over. Under REPEATABLE READ both would commit; the takeover guards the table's row, so
    the move runs again, sees the new owner and writes nothing."""
    async with await Pausing.open(pg_url, clock=clock) as slow, await Database.open(pg_url, clock=clock) as other:
        table_id = await playing_table(slow)
        assert await slow.acquire_leases([table_id]) == {table_id}
        slow.pause("SELECT t.status")  # the fencing check has read the lease: this process's
        move = asyncio.create_task(slow.append_step(table_id, [LogEntry(1, "action", "bet", seat=0)]))
        await asyncio.wait_for(slow.reached.wait(), 5)
        clock.advance(LEASE_SECONDS + 1)
        try:
            taken = await asyncio.wait_for(other.acquire_leases([table_id]), 5)
        finally:
            slow.go_on.set()
        assert taken == {table_id}
        with pytest.raises(LeaseLost):
            await move
        assert await other.table_log(table_id) == []
        await other.append_step(table_id, [LogEntry(1, "action", "bet", seat=1)])  # the new owner's move is the one
        assert [e.seat for e in await other.table_log(table_id)] == [1]


async def test_random_races_between_two_processes_never_lose_or_double_a_chip(
    two: tuple[Pausing, Database],
) -> None:
    """Settlements (each twice, from both sides), log steps and a close of several tables, all at once from two
    storages: whatever order PostgreSQL lets through, every deal moves chips at most once, a deal settled after the
    close is refused, every stack is paid back, and the ledger reconciles."""
    db, other = two
    await db.set_config(GUILD, actor_id=MOD, starting_balance=10_000)
    rng = random.Random(7)
    tables = [await playing_table(db, CHANNEL + i) for i in range(6)]
    calls: list[Any] = []
    for table_id in tables:
        for deal in (1, 2, 3):
            delta = rng.choice([-60, -20, 20, 60])
            for side in (db, other):
                calls.append(side.settle_deal(table_id, deal, [delta, -delta], {"deal": deal}))
        calls.append(rng.choice([db, other]).close_table(table_id))
    rng.shuffle(calls)
    results = await asyncio.gather(*calls, return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(e, InvalidState) and e.code == "storage.table_not_active" for e in errors), errors
    settled = 0
    for table_id in tables:
        history = await db.table_history(table_id, limit=10)
        assert len({h.deal_no for h in history}) == len(history)  # no deal settled twice
        won = sum(h.deltas[0] for h in history)
        settled += won
        table = await db.get_table(table_id)
        assert table is not None
        assert table.status == "ended"
        assert [s.stack for s in table.seats] == [0, 0]
        assert sum(h.deltas[1] for h in history) == -won
    assert [await db.balance(GUILD, u) for u in (1, 2)] == [10_000 + settled, 10_000 - settled]
    assert await db.verify_ledger() == []


async def test_contention_on_one_wallet_is_retried_until_each_give_is_decided(pg_url: str, clock: Any) -> None:
    async with await Database.open(pg_url, clock=clock) as db, await Database.open(pg_url, clock=clock) as other:
        await db.set_config(GUILD, actor_id=MOD, give_enabled=True)
        await db.ensure_member(GUILD, 1)
        sides = [db, other]
        results = await asyncio.gather(
            *(sides[i % 2].give(GUILD, 1, 100 + i, 70) for i in range(30)), return_exceptions=True
        )
        done = [r for r in results if not isinstance(r, BaseException)]
        assert len(done) == 1000 // 70
        assert await db.balance(GUILD, 1) == 1000 - 70 * len(done)
        assert db.retries + other.retries > 0  # type: ignore[attr-defined]
        assert await db.verify_ledger() == []


# ------------------------------------------------------------------ the server goes away and comes back


async def test_a_server_restart_refuses_operations_clearly_then_reconnects(
    pg: PgDatabases, pg_url: str, clock: Any
) -> None:
    db = await Pausing.open(pg_url, clock=clock)
    try:
        await db.set_config(GUILD, actor_id=MOD, give_enabled=True)
        await db.ensure_member(GUILD, 1)
        # A transaction half done when the server goes: refused, and nothing of it stays.
        db.pause("UPDATE wallets")
        give = asyncio.create_task(db.give(GUILD, 1, 2, 10, key="during"))
        await asyncio.wait_for(db.reached.wait(), 5)
        await asyncio.to_thread(pg.server.stop)
        db.go_on.set()
        with pytest.raises(StorageUnavailable) as during:
            await give
        assert (during.value.code, during.value.in_doubt) == ("storage.unavailable", False)
        # While it is down: every call is refused at once with the same error, reads and writes alike.
        for call in (
            lambda: db.balance(GUILD, 1),
            lambda: db.get_config(GUILD),
            lambda: db.give(GUILD, 1, 2, 10, key="down"),
        ):
            start = time.perf_counter()
            with pytest.raises(StorageUnavailable) as down:
                await call()
            assert isinstance(down.value, StorageError)
            assert not down.value.in_doubt
            assert time.perf_counter() - start < 3
        await asyncio.to_thread(pg.server.start)
        # Back: the pool reconnects by itself (its old connections are dead; the first call does not see them).
        assert await db.balance(GUILD, 1) == 1000
        assert (await db.give(GUILD, 1, 2, 10, key="during")).replayed is False  # the one refused had not happened
        assert (await db.give(GUILD, 1, 2, 10, key="during")).replayed
        assert await db.balance(GUILD, 2) == 1010
        assert await db.verify_ledger() == []
    finally:
        if not pg.server.running:
            await asyncio.to_thread(pg.server.start)
        await db.close()


async def test_processes_first_opening_an_empty_database_together_migrate_it_once(pg: PgDatabases, clock: Any) -> None:
    """Two bot processes of a fresh deployment (compose starts them together) open the new database at once."""
    name = await pg.create(migrated=False)
    try:
        opened = await asyncio.gather(*(Database.open(pg.url(name), clock=clock) for _ in range(3)))
        try:
            assert [await db.schema_version() for db in opened] == [migrations("postgresql")[-1].version] * 3
            assert [await db.migrate() for db in opened] == [[], [], []]  # nothing left to apply
        finally:
            for db in opened:
                await db.close()
    finally:
        await pg.drop(name)
