"""Transaction bodies and their drivers: errors thrown into bodies, rollback, isolation, one round trip (SQLite) or
one transaction (PostgreSQL) each, and the same results whichever driver steps them."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest

from bot.storage import (
    Database,
    DealToSettle,
    InsufficientFunds,
    IntegrityError,
    InvalidState,
    LogEntry,
    PanelRow,
    StorageError,
    Transfer,
    WatcherRow,
)
from bot.storage.database import migrations
from bot.storage.sqlite import SqliteDatabase
from bot.storage.tx import All, Exec, Insert, Many, One, Scalar, perform, run_read, run_transaction

T = TypeVar("T")
GUILD = 10
MOD = 99


# ------------------------------------------------------------------ the SQLite driver on a bare connection


@pytest.fixture
def conn() -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    connection.row_factory = sqlite3.Row
    connection.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
    yield connection
    connection.close()


def rows_of(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    return [tuple(r) for r in conn.execute("SELECT k, v FROM t ORDER BY k")]


def test_each_request_gives_its_result(conn: sqlite3.Connection) -> None:
    async def body() -> list[Any]:
        rowid = await Insert("INSERT INTO t (k, v) VALUES (?, ?)", ("a", 1))
        added = await Many("INSERT INTO t (k, v) VALUES (?, ?)", [("b", 2), ("c", 3)])
        changed = await Exec("UPDATE t SET v = v + 10 WHERE v >= ?", (2,))
        one = await One("SELECT k, v FROM t WHERE k = ?", ("b",))
        none = await One("SELECT k, v FROM t WHERE k = ?", ("z",))
        value = await Scalar("SELECT sum(v) FROM t")
        missing = await Scalar("SELECT v FROM t WHERE k = ?", ("z",))
        every = await All("SELECT k FROM t ORDER BY k")
        assert one is not None
        return [rowid, added, changed, (one["k"], one[1]), none, value, missing, [r["k"] for r in every]]

    assert run_transaction(conn, body()) == [1, 2, 2, ("b", 12), None, 26, None, ["a", "b", "c"]]
    assert not conn.in_transaction


def test_a_statement_error_is_thrown_into_the_body_which_may_handle_it(conn: sqlite3.Connection) -> None:
    causes = []

    async def body() -> str:
        await Exec("INSERT INTO t (k, v) VALUES ('a', 1)")
        try:
            await Exec("INSERT INTO t (k, v) VALUES ('a', 2)")  # the key is taken
        except IntegrityError as exc:  # the storage's, whichever the driver
            causes.append(exc.__cause__)
            existing = await Scalar("SELECT v FROM t WHERE k = 'a'")
            await Exec("INSERT INTO t (k, v) VALUES ('b', ?)", (existing + 1,))
            return "handled"
        return "not raised"

    assert run_transaction(conn, body()) == "handled"
    assert [type(c) for c in causes] == [sqlite3.IntegrityError]
    assert rows_of(conn) == [("a", 1), ("b", 2)]  # committed, the failed statement left nothing
    assert not conn.in_transaction


def test_an_exception_leaving_the_body_rolls_back_everything(conn: sqlite3.Connection) -> None:
    refusal = StorageError("storage.test", "refused after two writes")

    async def refused() -> None:
        await Exec("INSERT INTO t (k, v) VALUES ('a', 1)")
        await Many("INSERT INTO t (k, v) VALUES (?, ?)", [("b", 2), ("c", 3)])
        raise refusal

    with pytest.raises(StorageError) as err:
        run_transaction(conn, refused())
    assert err.value is refusal
    assert rows_of(conn) == []
    assert not conn.in_transaction

    async def unhandled() -> None:
        await Exec("INSERT INTO t (k, v) VALUES ('a', 1)")
        await Exec("INSERT INTO t (k, v) VALUES ('b', NULL)")  # NOT NULL: not caught by the body

    with pytest.raises(IntegrityError):
        run_transaction(conn, unhandled())
    assert rows_of(conn) == []
    assert not conn.in_transaction


def test_a_body_may_await_statement_requests_only(conn: sqlite3.Connection) -> None:
    async def body() -> None:
        await Exec("INSERT INTO t (k, v) VALUES ('a', 1)")
        await asyncio.sleep(0)  # real I/O has no place in a body: the driver refuses it

    with pytest.raises(TypeError, match="statement requests only"):
        run_transaction(conn, body())
    assert rows_of(conn) == []


def test_a_read_may_only_query(conn: sqlite3.Connection) -> None:
    async def body() -> int:
        n = await Scalar("SELECT count(*) FROM t")
        await Exec("INSERT INTO t (k, v) VALUES ('a', 1)")  # outside a transaction it would commit alone
        return int(n)

    with pytest.raises(TypeError, match="may only query"):
        run_read(conn, body())
    assert rows_of(conn) == []
    assert run_read(conn, Scalar("SELECT count(*) FROM t")) == 0  # a request alone is a body too


def test_a_body_that_never_ran_is_closed(conn: sqlite3.Connection) -> None:
    async def body() -> None:
        await Exec("INSERT INTO t (k, v) VALUES ('a', 1)")

    conn.execute("BEGIN")  # BEGIN IMMEDIATE will fail: a transaction is already open
    never = body()
    with pytest.raises(sqlite3.OperationalError):
        run_transaction(conn, never)
    assert inspect.getcoroutinestate(never) == inspect.CORO_CLOSED  # no "never awaited" warning
    conn.execute("ROLLBACK")


def test_a_query_not_read_to_the_end_does_not_stay_running(conn: sqlite3.Connection) -> None:
    conn.executemany("INSERT INTO t (k, v) VALUES (?, ?)", [("a", 1), ("b", 2)])
    conn.execute("BEGIN IMMEDIATE")
    assert perform(conn, One("SELECT k FROM t ORDER BY k"))["k"] == "a"  # one of two rows read
    perform(conn, Exec("DROP TABLE t"))  # fails with "database table is locked" if that query still ran
    conn.execute("COMMIT")


# ------------------------------------------------------------------ the same semantics from both drivers, under Database


def scratch_table(db: Database) -> str:
    key = "bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" if db.dialect == "postgresql" else "INTEGER PRIMARY KEY"
    return f"CREATE TABLE t (id {key}, k TEXT NOT NULL UNIQUE, v INTEGER NOT NULL)"


async def t_rows(db: Database) -> list[tuple[str, int]]:
    return [(r[0], r[1]) for r in await db._all("SELECT k, v FROM t ORDER BY k")]


async def test_each_request_gives_its_result_on_either_driver(db: Database) -> None:
    await db._exec(scratch_table(db))

    async def body(now: float) -> list[Any]:
        rowid = await Insert("INSERT INTO t (k, v) VALUES (?, ?)", ("a", 1))
        added = await Many("INSERT INTO t (k, v) VALUES (?, ?)", [("b", 2), ("c", 3)])
        changed = await Exec("UPDATE t SET v = v + 10 WHERE v >= ?", (2,))
        many_changed = await Many("UPDATE t SET v = v + 1 WHERE k = ?", [("b",), ("c",), ("z",)])
        one = await One("SELECT k, v FROM t WHERE k = ?", ("b",))
        none = await One("SELECT k, v FROM t WHERE k = ?", ("z",))
        value = await Scalar("SELECT sum(v) FROM t")  # an int on both (PostgreSQL's sum of integers is numeric)
        missing = await Scalar("SELECT v FROM t WHERE k = ?", ("z",))
        every = await All("SELECT k FROM t WHERE k <> '?' ORDER BY k")  # a ? in a literal is no placeholder
        assert one is not None
        return [
            rowid,
            added,
            changed,
            many_changed,
            (one["k"], one[1]),
            none,
            value,
            type(value),
            missing,
            [r["k"] for r in every],
        ]

    assert await db._transaction(body) == [1, 2, 2, 2, ("b", 13), None, 28, int, None, ["a", "b", "c"]]
    assert await db._read(lambda: Scalar("SELECT count(*) FROM t")) == 3  # a request alone is a body too
    assert await db._idle()


async def test_a_handled_statement_error_leaves_the_transaction_usable_on_either_driver(db: Database) -> None:
    """PostgreSQL throws a transaction away after a failed statement; the driver gives the body SQLite's semantics
    (the failed statement undone, the rest kept) by running it again with a savepoint around each statement."""
    await db._exec(scratch_table(db))
    runs = []

    async def body(now: float) -> str:
        runs.append(now)
        await Exec("INSERT INTO t (k, v) VALUES ('a', 1)")
        try:
            await Exec("INSERT INTO t (k, v) VALUES ('a', 2)")  # the key is taken
        except IntegrityError:
            existing = await Scalar("SELECT v FROM t WHERE k = 'a'")
            await Exec("INSERT INTO t (k, v) VALUES ('b', ?)", (existing + 1,))
        try:
            await Exec("INSERT INTO t (k, v) VALUES ('c', NULL)")  # NOT NULL, and caught: the body returns
        except IntegrityError:
            return "handled"
        return "not raised"

    assert await db._transaction(body) == "handled"
    assert await t_rows(db) == [("a", 1), ("b", 2)]
    # PostgreSQL: once more on a fresh snapshot (the key might have been inserted by a transaction that committed
    # after this one began, which the body's own check could not see), then with savepoints.
    assert len(runs) == (3 if db.dialect == "postgresql" else 1)

    async def unhandled(now: float) -> None:
        await Exec("INSERT INTO t (k, v) VALUES ('d', 1)")
        await Exec("INSERT INTO t (k, v) VALUES ('e', NULL)")

    with pytest.raises(IntegrityError):
        await db._transaction(unhandled)
    assert await t_rows(db) == [("a", 1), ("b", 2)]
    assert await db._idle()


async def test_requests_only_and_reads_only_query_on_either_driver(db: Database) -> None:
    await db._exec(scratch_table(db))

    async def sleeps(now: float) -> None:
        await Exec("INSERT INTO t (k, v) VALUES ('a', 1)")
        await asyncio.sleep(0)  # real I/O has no place in a body: the driver refuses it

    with pytest.raises(TypeError, match="statement requests only"):
        await db._transaction(sleeps)

    async def writes() -> int:
        n = await Scalar("SELECT count(*) FROM t")
        await Exec("INSERT INTO t (k, v) VALUES ('a', 1)")
        return int(n)

    with pytest.raises(TypeError, match="may only query"):
        await db._read(writes)
    with pytest.raises(TypeError, match="may only query"):
        await db._read(lambda: Exec("INSERT INTO t (k, v) VALUES ('a', 1)"))
    assert await t_rows(db) == []
    assert await db._idle()


class HopCounter:
    """Counts round trips to the connection's thread (calls through aiosqlite's ``Connection._execute``)."""

    def __init__(self, db: Database) -> None:
        self.count = 0
        conn: Any = db._conn
        inner = conn._execute

        async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await inner(fn, *args, **kwargs)

        conn._execute = counted


async def test_a_refusal_in_a_transaction_writes_nothing_and_keeps_its_error(db: Database) -> None:
    refusal = StorageError("storage.test", "refused")

    async def body(now: float) -> None:
        await Exec("INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (?, 1, 5, ?)", (GUILD, now))
        await db._move(GUILD, "grant", "k", [], now)
        raise refusal

    with pytest.raises(StorageError) as err:
        await db._transaction(body)
    assert err.value is refusal
    assert (await db.leaderboard(GUILD)).total == 0
    assert await db._scalar("SELECT count(*) FROM movements") == 0
    assert await db._idle()


async def test_a_statement_error_caught_in_a_transaction_lets_it_commit(db: Database) -> None:
    async def body(now: float) -> str:
        await db._move(GUILD, "grant", "k", [], now)
        try:
            await db._move(GUILD, "grant", "k", [], now)  # the key is UNIQUE
        except IntegrityError:
            return "caught"
        return "not raised"

    assert await db._transaction(body) == "caught"
    assert await db._scalar("SELECT count(*) FROM movements WHERE idem_key = 'k'") == 1


async def test_a_read_never_sees_a_transaction_half_done(db: Database) -> None:
    if db.dialect != "sqlite":
        pytest.skip("SQLite's thread; see test_a_read_never_sees_a_transaction_half_done_on_postgresql")
    db.inline_writes = False  # type: ignore[attr-defined]  # the transfer holds the connection's thread, not the loop
    await db.set_config(GUILD, actor_id=MOD, starting_balance=1000)
    for user in (1, 2):
        await db.ensure_member(GUILD, user)
    halfway, finish = threading.Event(), threading.Event()

    async def transfer(now: float) -> None:
        await Exec("UPDATE wallets SET balance = balance - 100 WHERE guild_id = ? AND user_id = 1", (GUILD,))
        halfway.set()
        finish.wait(5)  # holds the connection's thread mid-transaction (a test only: bodies never block)
        await Exec("UPDATE wallets SET balance = balance + 100 WHERE guild_id = ? AND user_id = 2", (GUILD,))

    writer = asyncio.create_task(db._transaction(transfer))
    assert await asyncio.to_thread(halfway.wait, 5)
    reader = asyncio.create_task(db.leaderboard(GUILD))
    await asyncio.sleep(0.05)
    assert not reader.done()
    finish.set()
    await writer
    page = await reader
    assert sorted((e.user_id, e.value) for e in page.entries) == [(1, 900), (2, 1100)]


async def test_a_cancelled_operation_still_runs_whole(db: Database) -> None:
    if db.dialect == "sqlite":
        db.inline_writes = False  # type: ignore[attr-defined]  # on the loop, nothing can cancel it half-way
    await db.set_config(GUILD, actor_id=MOD, give_enabled=True)
    await db.ensure_member(GUILD, 1)
    task = asyncio.create_task(db.give(GUILD, 1, 2, 10, key="cancelled"))
    for _ in range(3):  # until it is waiting on the connection's thread
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The thread finished the transaction (committed) and what came next queued behind it.
    replay = await db.give(GUILD, 1, 2, 10, key="cancelled")
    assert replay.replayed
    assert (await db.balance(GUILD, 1), await db.balance(GUILD, 2)) == (990, 1010)
    assert await db._idle()


class UnitCounter:
    """Counts transactions and reads run (an operation is one of them), on either backend."""

    def __init__(self, db: Any) -> None:
        self.db = db

    @property
    def count(self) -> int:
        return int(self.db.units)


async def test_every_operation_is_one_round_trip(db: Database) -> None:
    """One transaction (or read) each. On SQLite a read is one round trip to the connection's thread and a write none
    (it runs on the loop, the connection being free); on PostgreSQL a transaction or read is one unit, statement by
    statement."""
    units = UnitCounter(db)
    hops = HopCounter(db) if db.dialect == "sqlite" else None
    called: set[str] = set()

    def check(name: str, units_before: int, hops_before: int, inline_before: int) -> None:
        assert units.count - units_before == 1, name
        if hops is not None:
            on_loop = db.inline - inline_before  # type: ignore[attr-defined]
            assert (on_loop, hops.count - hops_before) in ((1, 0), (0, 1)), name

    def counts() -> tuple[int, int, int]:
        return units.count, (hops.count if hops else 0), getattr(db, "inline", 0)

    async def one(name: str, *args: Any, **kwargs: Any) -> Any:
        called.add(name)
        before = counts()
        result = await getattr(db, name)(*args, **kwargs)
        check(name, *before)
        return result

    async def refused(error: type[Exception], name: str, *args: Any, **kwargs: Any) -> None:
        before = counts()
        with pytest.raises(error):
            await getattr(db, name)(*args, **kwargs)
        check(name, *before)

    before = units.count
    assert await db.migrate() == []
    called.add("migrate")
    assert units.count - before == len(migrations(db.dialect))  # one transaction per migration

    await one("set_config", GUILD, actor_id=MOD, give_enabled=True, bots_play_for_chips=True)
    await one("get_config", GUILD)
    await one("ensure_member", GUILD, 1)
    await one("balance", GUILD, 2)
    await one("claim_daily", GUILD, 1)
    await one("grant", GUILD, 1, 500, actor_id=MOD)
    await one("take", GUILD, 1, 100, actor_id=MOD)
    await one("give", GUILD, 1, 2, 50)
    await refused(InsufficientFunds, "give", GUILD, 2, 1, 10_000)
    await one("house_balance", GUILD)
    await one("leaderboard", GUILD)
    await one("rank", GUILD, 1)

    table = await one("open_table", GUILD, 500, "oicho", 1, buy_in=300)
    await one("join_table", table.id, 1)
    await one("join_table", table.id, 3)
    await refused(InvalidState, "join_table", table.id, 3)
    await one("add_bot_seat", table.id, "Tanuki")
    await one("leave_lobby", table.id, 3)
    await one("set_place", table.id, 501)
    await one("get_table", table.id)
    await one("active_table_in", 501)
    await one("list_active_tables", GUILD)
    assert await one("acquire_leases", [table.id]) == {table.id}
    assert await one("renew_leases") == {table.id}
    await one("lease_of", table.id)
    shuffle = LogEntry(1, "shuffle", '{"seed":"00"}', deal=1)
    await one("start_table", table.id, record='{"v":1}', entries=[shuffle])
    await one("set_away", table.id, 1, True)
    await one("save_record", table.id, '{"v":1}', message_id=7, message_created_at=1.0)
    await one("set_message", table.id, 8, 2.0)
    await one("set_pinged", table.id, {0: 3})
    await one("append_step", table.id, [LogEntry(2, "action", "bet", seat=0)], away={0: False})
    await refused(InvalidState, "append_step", table.id, [LogEntry(2, "action", "bet", seat=0)])
    deal = DealToSettle(1, (30, -30), {"void": False})
    await one("append_step", table.id, [LogEntry(3, "action", "win", seat=1)], settle=[deal], checkpoint=("{}", 3))
    await one("settle_deal", table.id, 2, [-10, 10], {})
    await one("net_leaderboard", GUILD, "oicho")
    await one("restart_point", table.id)
    await one("table_log", table.id)
    await one("full_record", table.id)
    await one("deal_shuffles", table.id, 1)
    await one("deal_settled", table.id, 1)
    await one("mark_posted", table.id, 1)
    await one("unposted_results", table.id)
    await one("table_history", table.id)
    await one("member_history", GUILD, 1)
    await one("save_panel", PanelRow(table.id, 0, 1, "token", "en-US", 5.0))
    await one("open_panels", table.id, since=0.0)
    await one("forget_panels", table.id, 0)
    await one("save_watcher", WatcherRow(table.id, 7, 1, "token", "ja", 5.0), drop_before=1.0)
    await one("open_watchers", table.id, since=0.0)
    await one("forget_watchers", table.id, 7)
    await one("append_step", table.id, [], close=True)
    await one("close_table", table.id)  # a replay

    lobby = await one("open_table", GUILD, 501, "oicho", 1, buy_in=100)
    await one("join_table", lobby.id, 2)
    await one("make_practice", lobby.id)
    await one("cancel_table", lobby.id)
    old = await one("open_table", GUILD, 502, "oicho", 1, buy_in=100)
    await db.start_table(old.id)
    await one("adopt_record", old.id, '{"v":0}', [LogEntry(1, "action", "bet", seat=0)])

    await one("set_house_rule", GUILD, "oicho", {"rounds": 3}, actor_id=MOD, path="rounds", old_value=6, new_value=3)
    await one("get_house_rules", GUILD, "oicho")
    await one("reset_house_rules", GUILD, "oicho", actor_id=MOD)
    await one("house_rule_history", GUILD)
    await one("release_leases", [old.id])
    await one("release_leases")
    await one("schema_version")
    await one("schema")
    assert await one("verify_ledger") == []
    if db.dialect == "postgresql":
        assert db.retries == 0  # nothing ran concurrently: no transaction lost a race  # type: ignore[attr-defined]
    else:
        assert db.inline > 30  # type: ignore[attr-defined]  # the writes above ran on the loop

    public = {name for name, _ in inspect.getmembers(Database, inspect.iscoroutinefunction) if not name.startswith("_")}
    assert public - {"open", "close"} == called


# ------------------------------------------------------------------ the same bodies, driven statement by statement


async def step_by_step(body: Awaitable[T], perform_async: Callable[[object], Awaitable[Any]]) -> T:
    """How a natively async driver (asyncpg) runs a body: it awaits each request in turn."""
    steps = body.__await__()
    value: Any = None
    error: Exception | None = None
    while True:
        try:
            request = steps.send(value) if error is None else steps.throw(error)
        except StopIteration as done:
            result: T = done.value
            return result
        try:
            value, error = await perform_async(request), None
        except Exception as exc:
            value, error = None, exc


class AwaitingDatabase(SqliteDatabase):
    """The SQLite storage with every body run as asyncpg runs it: a round trip per statement."""

    async def _statement(self, request: object) -> Any:
        return await self._hop(perform, request)

    async def _transaction(self, body: Callable[[float], Awaitable[T]]) -> T:
        async with self._write() as now:
            return await step_by_step(body(now), self._statement)

    async def _read(self, body: Callable[[], Awaitable[T]]) -> T:
        async with self._lock:
            return await step_by_step(body(), self._statement)


async def scenario(db: Database) -> list[Any]:
    """A little of everything, refusals included, with explicit keys so that two runs compare equal."""
    out: list[Any] = []

    async def note(aw: Awaitable[Any]) -> None:
        try:
            out.append(await aw)
        except StorageError as exc:
            out.append((exc.code, exc.params))

    await note(db.set_config(GUILD, actor_id=MOD, give_enabled=True, bots_play_for_chips=True))
    await note(db.claim_daily(GUILD, 1, key="d1"))
    await note(db.claim_daily(GUILD, 1, key="d2"))  # the cooldown runs
    await note(db.give(GUILD, 1, 2, 5000, key="g1"))  # overdraws
    await note(db.give(GUILD, 1, 2, 50, key="g2"))
    await note(db.give(GUILD, 1, 2, 50, key="g2"))  # replayed
    await note(db.grant(GUILD, 2, 10, actor_id=MOD, key="g2"))  # a key of another kind
    table = await db.open_table(GUILD, 500, "oicho", 1, buy_in=300)
    out.append(table)
    await note(db.join_table(table.id, 1, key="j1"))
    await note(db.join_table(table.id, 2, key="j2"))
    await note(db.add_bot_seat(table.id, "Kappa", key="b1"))
    await note(db.start_table(table.id, record='{"v":1}'))
    await note(db.append_step(table.id, [LogEntry(1, "action", "bet", seat=0)]))
    await note(db.append_step(table.id, [LogEntry(1, "action", "bet", seat=0)]))  # log_conflict
    await note(
        db.append_step(
            table.id,
            [LogEntry(2, "action", "win", seat=1)],
            settle=[DealToSettle(1, (100, 50, -150), {})],
            checkpoint=("{}", 2),
        )
    )
    await note(db.settle_deal(table.id, 2, [-400, 200, 200], {}))  # overdraws a stack
    await note(db.settle_deal(table.id, 1, [1, -1, 0], {}))  # replayed
    await note(db.append_step(table.id, [], close=True))
    await note(db.restart_point(table.id))
    out.append([await db.balance(GUILD, u) for u in (1, 2)])
    out.append(await db.house_balance(GUILD))
    out.append(await db.leaderboard(GUILD))
    out.append(await db.net_leaderboard(GUILD, "oicho"))
    out.append(await db.verify_ledger())
    return out


@pytest.fixture
async def awaiting_db(clock: Any) -> AsyncIterator[Database]:
    database = await AwaitingDatabase.open(":memory:", clock=clock)
    try:
        yield database
    finally:
        await database.close()


def _without_sequence_ids(value: Any) -> Any:
    """``value`` with the ids a sequence hands out blanked: PostgreSQL never gives back an id a rolled-back insert
    took (SQLite reuses it), so after a refusal the next movement's id differs. Ids are opaque; nothing else may."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: None for f in dataclasses.fields(value) if f.name in ("movement_id", "hand_id")}
        inner = {
            f.name: _without_sequence_ids(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in changes
        }
        return dataclasses.replace(value, **inner, **changes)
    if isinstance(value, list | tuple):
        return type(value)(_without_sequence_ids(v) for v in value)
    return value


async def test_the_bodies_do_not_depend_on_the_driver(db: Database, awaiting_db: Database) -> None:
    """The same scenario stepped three ways gives the same results: SQLite whole on its thread, SQLite statement by
    statement, and PostgreSQL."""
    awaiting_hops = HopCounter(awaiting_db)
    expected = await scenario(awaiting_db)
    assert [r for r in expected if isinstance(r, Transfer)][-1].replayed
    assert expected[-1] == []  # the ledger reconciles
    if db.dialect == "sqlite":
        hops = HopCounter(db)
        assert await scenario(db) == expected
        assert awaiting_hops.count > 5 * hops.count  # it really went statement by statement
    else:
        assert _without_sequence_ids(await scenario(db)) == _without_sequence_ids(expected)
