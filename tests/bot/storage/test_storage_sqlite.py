"""Where SQLite runs an operation (bot.storage.sqlite): a write on the event loop when the connection and the file's
write lock are free, otherwise on the connection's thread, which may wait; checkpoints on a second connection.

Each test uses a real file (WAL), as the bot does."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Database
from bot.storage import sqlite as sqlite_backend
from bot.storage.sqlite import SqliteDatabase
from bot.storage.tx import Exec, Scalar
from tests.bot.storage.test_storage_tx import HopCounter

GUILD, MOD = 1, 99


@pytest.fixture
async def file_db(tmp_path: Path, clock: Any) -> AsyncIterator[SqliteDatabase]:
    database = await Database.open(tmp_path / "fudaba.db", clock=clock)
    assert isinstance(database, SqliteDatabase)
    try:
        await database.set_config(GUILD, actor_id=MOD, give_enabled=True, starting_balance=1000)
        for user in (1, 2):
            await database.ensure_member(GUILD, user)
        yield database
    finally:
        await database.close()


async def test_a_write_runs_on_the_loop_when_nothing_is_in_its_way(file_db: SqliteDatabase) -> None:
    hops = HopCounter(file_db)
    inline = file_db.inline
    await file_db.give(GUILD, 1, 2, 10)
    assert (hops.count, file_db.inline - inline) == (0, 1)
    await file_db.leaderboard(GUILD)  # a read goes to the readers' connection, not the writer's thread
    assert hops.count == 0
    assert (await file_db.balance(GUILD, 1), await file_db.balance(GUILD, 2)) == (990, 1010)


async def test_a_read_does_not_wait_for_a_write_and_sees_the_last_commit(
    file_db: SqliteDatabase, tmp_path: Path
) -> None:
    """A write waiting on the connection's thread (another process holds the file's write lock) holds the bot's
    write lock all that time: reads go on beside it, and see what was committed, not what the write will do."""
    other = sqlite3.connect(tmp_path / "fudaba.db", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        give = asyncio.create_task(file_db.give(GUILD, 1, 2, 10))
        await asyncio.sleep(0.02)
        assert not give.done() and file_db._lock.locked()
        board = await asyncio.wait_for(file_db.leaderboard(GUILD), 2)
        assert [(e.user_id, e.value) for e in board.entries] == [(1, 1000), (2, 1000)]
        assert not give.done()
        other.execute("COMMIT")
        await asyncio.wait_for(give, 5)
    finally:
        other.close()
    assert (await file_db.balance(GUILD, 1), await file_db.balance(GUILD, 2)) == (990, 1010)


async def test_a_read_sees_one_state_while_another_connection_commits(file_db: SqliteDatabase, tmp_path: Path) -> None:
    """A read of several statements is one read transaction: a commit made between two of them is not seen."""
    other = sqlite3.connect(tmp_path / "fudaba.db", isolation_level=None, check_same_thread=False)
    balance = "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = 1"

    async def read() -> tuple[int, int]:
        before = await Scalar(balance, (GUILD,))
        other.execute("UPDATE wallets SET balance = balance + 5 WHERE guild_id = ? AND user_id = 1", (GUILD,))
        after = await Scalar(balance, (GUILD,))
        return before, after

    try:
        assert await file_db._read(read) == (1000, 1000)
    finally:
        other.close()
    assert await file_db.balance(GUILD, 1) == 1005  # the next read sees the commit


async def test_a_write_waits_on_the_thread_while_another_connection_holds_the_lock(
    file_db: SqliteDatabase, tmp_path: Path
) -> None:
    """Another process (a maintenance tool) holds the write lock: the bot's write must neither fail at once nor stop
    the event loop; it waits on the connection's thread and sees what the other one committed."""
    other = sqlite3.connect(tmp_path / "fudaba.db", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE wallets SET balance = balance + 500 WHERE guild_id = ? AND user_id = 1", (GUILD,))
        hops = HopCounter(file_db)
        give = asyncio.create_task(file_db.give(GUILD, 1, 2, 1200))  # possible only with the other's 500
        ticks = 0
        for _ in range(20):  # the loop keeps turning while the write waits
            await asyncio.sleep(0.005)
            ticks += 1
        assert ticks == 20 and not give.done()
        assert hops.count == 1
        other.execute("COMMIT")
        transfer = await asyncio.wait_for(give, 5)
        assert not transfer.replayed
        assert (await file_db.balance(GUILD, 1), await file_db.balance(GUILD, 2)) == (300, 2200)
    finally:
        other.close()
    # The thread set its lock timeout back: the next write, uncontended, runs on the loop again.
    inline = file_db.inline
    await file_db.give(GUILD, 2, 1, 1)
    assert file_db.inline == inline + 1


async def test_a_write_queues_behind_work_the_thread_has_not_finished(file_db: SqliteDatabase) -> None:
    """A caller cancelled while its operation runs on the thread lets go of the lock before the thread is done:
    the next write must not use the connection from the loop meanwhile (it would land inside that operation)."""
    release, started = threading.Event(), threading.Event()

    def held(conn: sqlite3.Connection, _: None) -> None:
        conn.execute("BEGIN IMMEDIATE")
        started.set()
        release.wait(5)  # a test only: an operation never blocks
        conn.execute("UPDATE wallets SET balance = 0 WHERE guild_id = ? AND user_id = 2", (GUILD,))
        conn.execute("COMMIT")

    async def holder() -> None:
        async with file_db._lock:
            await file_db._hop(held, None)

    first = asyncio.create_task(holder())
    assert await asyncio.to_thread(started.wait, 5)
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    assert not file_db._lock.locked()
    inline = file_db.inline
    give = asyncio.create_task(file_db.give(GUILD, 1, 2, 10))
    await asyncio.sleep(0.05)
    assert not give.done()  # queued behind the thread's transaction, not run inside it
    release.set()
    await asyncio.wait_for(give, 5)
    assert file_db.inline == inline
    assert await file_db.balance(GUILD, 2) == 10  # it ran after the held transaction, in order


async def test_a_body_that_fails_to_start_leaves_no_transaction_open(file_db: SqliteDatabase) -> None:
    def broken(now: float) -> Exec:
        raise ValueError("no body")

    with pytest.raises(ValueError, match="no body"):
        await file_db._transaction(broken)
    assert await file_db._idle()
    await file_db.give(GUILD, 1, 2, 5)
    assert await file_db.balance(GUILD, 2) == 1005


async def test_the_wal_is_checkpointed_off_the_loop(
    file_db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sqlite_backend, "CHECKPOINT_EVERY", 5)
    file_db._writes_since_checkpoint = 0
    checkpoints = file_db.checkpoints
    for n in range(12):
        await file_db.give(GUILD, 1, 2, 1, key=f"k{n}")
        if file_db._checkpointing is not None:
            await file_db._checkpointing
    assert file_db.checkpoints - checkpoints == 2
    assert file_db.last_checkpoint is not None
    busy, frames, copied = file_db.last_checkpoint
    assert busy == 0 and frames > 0 and copied == frames  # everything written so far reached the database file
    # The database file itself holds the state of the tenth write; the two after it are in the WAL only.
    assert await file_db.balance(GUILD, 2) == 1012
    file_only = sqlite3.connect(f"file:{tmp_path / 'fudaba.db'}?immutable=1", uri=True)
    try:
        (balance,) = file_only.execute(
            "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = 2", (GUILD,)
        ).fetchone()
    finally:
        file_only.close()
    assert balance == 1010


async def test_a_database_in_memory_has_no_checkpoints(clock: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_backend, "CHECKPOINT_EVERY", 1)
    database = await Database.open(":memory:", clock=clock)
    assert isinstance(database, SqliteDatabase)
    try:
        await database.ensure_member(GUILD, 1)
        assert database._checkpointing is None and database.checkpoints == 0
        assert database.inline > 0
    finally:
        await database.close()


async def test_a_deals_shuffles_are_read_by_the_shuffles_index_not_the_whole_log(
    file_db: SqliteDatabase, tmp_path: Path
) -> None:
    """A results message and /verify read one deal's shuffles; at a table's thousandth deal that must not mean
    walking its whole log (SQLite's planner, without statistics, prefers the primary key for its order)."""
    from bot.storage.tables.log import DEAL_SHUFFLES

    plain = DEAL_SHUFFLES.replace(" INDEXED BY table_log_shuffles", "")
    other = sqlite3.connect(tmp_path / "fudaba.db")
    try:
        hinted = " / ".join(row[-1] for row in other.execute(f"EXPLAIN QUERY PLAN {DEAL_SHUFFLES}", (1, 3)))
        unhinted = " / ".join(row[-1] for row in other.execute(f"EXPLAIN QUERY PLAN {plain}", (1, 3)))
    finally:
        other.close()
    assert "USING INDEX table_log_shuffles (table_id=? AND deal=?)" in hinted
    assert "PRIMARY KEY" in unhinted, "the hint is needed (else drop it)"
