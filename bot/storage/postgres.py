"""The PostgreSQL backend: a pool of asyncpg connections stepping the same bodies as SQLite, statement by statement.

Isolation. SQLite runs one writer at a time (``BEGIN IMMEDIATE`` on the one connection, behind one lock), so a body
that reads and then writes (a replayed key looked up before the movement is inserted, a table's stacks read before
a settlement checks them, a wallet created on first use) always sees the state it writes over. Here bodies run side
by side on several connections, each write transaction on one snapshot (``REPEATABLE READ``), and the races that
snapshots let through are closed so that the outcome is that of some serial order:

* two transactions that change the same row (a wallet, a seat's stack) conflict by themselves: PostgreSQL fails the
  later one with a serialization failure;
* a transaction that decides from a table it read and writes other rows (a join and a cancel of one lobby, a move
  and another process taking the table's lease over) guards that table's row (:class:`~bot.storage.tx.Guard`): the
  row is updated, unchanged, just before COMMIT, so the later of two such transactions fails the same way;
* a check-then-insert that meets a unique key inserted by a transaction committed after its snapshot (the same
  idempotency key, seat or channel) runs again once on a fresh snapshot, where its own check sees the row.

This driver answers a serialization failure (or a deadlock) by running the body again from the start on a fresh
transaction (a few times at once, then with a random back-off), where it sees what the other committed: a second
settlement of a deal replays the first, a settlement that lost the race to a close finds the table ended, and the
stacks a close pays back are those the settlement left. Running a body again is harmless since it does nothing but
await requests. ``SERIALIZABLE`` would close these races by itself, but its predicate locks on small indexes make
unrelated tables' settlements fail each other (``bench/bench_contention_pg.py``: 605 retries for 400 deals of 20
tables, against none). Reads run in a ``REPEATABLE READ READ ONLY`` transaction (one snapshot: never a transaction
half done), or as their one statement alone.

A statement's error is thrown into the body as the SQLite driver does, integrity violations as
:class:`~bot.storage.errors.IntegrityError`. PostgreSQL, unlike SQLite, throws the whole transaction away after a
failed statement; so if a body handles such an error and goes on, the driver runs it again from the start with a
savepoint around each statement, giving it SQLite's semantics (the failed statement undone, the rest kept) at no cost
to the bodies that never do.

Availability. A connection that breaks, or a server that cannot be reached, makes the operation raise
:class:`~bot.storage.errors.StorageUnavailable` at once (nothing written, unless the connection broke during the
COMMIT: then ``in_doubt``); the pool opens new connections on later operations, so the bot carries on by itself once
the server is back. A connection found dead when a transaction begins (an idle one, across a server restart) is
replaced and the operation goes on, as nothing of it was sent yet.

Like the SQLite backend, an operation whose caller is cancelled still runs whole (it runs in a task of its own):
it commits or rolls back, never stops half-way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Sequence
from contextlib import asynccontextmanager
from decimal import Decimal
from typing import Any, ClassVar, TypeVar

import asyncpg  # type: ignore[import-untyped]

from bot.storage.core import Clock
from bot.storage.database import Database, Schema, TableOutline
from bot.storage.dialect import Dialect, to_postgres, to_postgres_counted, to_postgres_insert
from bot.storage.errors import IntegrityError, StorageError, StorageUnavailable
from bot.storage.tx import (
    REQUESTS,
    WRITES,
    All,
    Exec,
    Guard,
    Insert,
    Many,
    One,
    Row,
    Scalar,
    not_a_read,
    not_a_request,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

BEGIN_WRITE = "BEGIN ISOLATION LEVEL REPEATABLE READ"
"""Snapshot isolation for writes, with the races it lets through closed by hand: two transactions that change one row
conflict by themselves (the later fails and runs again); one that reads a table to decide and writes other rows
guards that table's row (:class:`~bot.storage.tx.Guard`); a check-then-insert that meets a concurrent insert of the
same unique key runs again once on a fresh snapshot, where its check sees the row. SERIALIZABLE would close them all
by itself, but its predicate locks on small indexes make unrelated tables' settlements fail each other
(``bench/bench_contention_pg.py``)."""
GUARD = "UPDATE tables SET updated_at = updated_at WHERE id = ANY($1::bigint[])"
MIGRATION_SESSION_LOCK = "SELECT pg_advisory_lock(112117100097098098)"  # one more than the per-migration lock's key
MIGRATION_SESSION_UNLOCK = "SELECT pg_advisory_unlock(112117100097098098)"
BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
SAVEPOINT = "fudaba_statement"
CONNECT_TIMEOUT = 5.0  # seconds to open one connection: a server that does not answer is unavailable
MAX_ATTEMPTS = 60  # serialization failures in a row before giving up (contention on one row: each try waits less)
MAX_BACKOFF = 0.05  # seconds
IMMEDIATE_RETRIES = 3
"""Serialization failures retried at once, before the jittered backoff starts."""


class _Retry(Exception):
    """Run the body again on a fresh transaction: it lost a race (serialization failure, deadlock)."""


class _RetryUnique(_Retry):
    """A statement met a unique key inserted by a transaction that committed after this one's snapshot: run the body
    again, once, on a fresh snapshot, where its own check (an idempotency key, a seat, a channel's table) sees it."""


class _Reconnect(Exception):
    """The connection was found dead before any of the body was sent: take another one and run the body again."""


class _Replay(Exception):
    """The body handled a failed statement and went on: run it again with a savepoint around each statement."""


RETRYABLE: tuple[type[BaseException], ...] = (
    asyncpg.TransactionRollbackError,  # 40001 serialization failure, 40P01 deadlock: lost a race, nothing written
    # A statement prepared before another process changed the schema (a migration at a deploy): asyncpg prepares it
    # again by itself, but not inside a transaction; the next attempt does.
    asyncpg.exceptions.InvalidCachedStatementError,
    asyncpg.exceptions.OutdatedSchemaCacheError,
)
UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,  # refused, reset, no such socket, timed out (TimeoutError is an OSError)
    asyncpg.PostgresConnectionError,  # 08xxx, and the connection lost in the middle of a statement
    asyncpg.CannotConnectNowError,  # the server is starting up or shutting down
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
)


def _closed(conn: Any) -> bool:
    try:
        return bool(conn.is_closed())
    except asyncpg.InterfaceError:  # a pooled connection that broke is handed back to the pool at once
        return True


def _unavailable(exc: BaseException, conn: Any = None) -> bool:
    if isinstance(exc, UNAVAILABLE):
        return True
    # asyncpg's own "connection is closed" / "connection was closed in the middle of operation".
    return isinstance(exc, asyncpg.InterfaceError) and (conn is None or _closed(conn))


def _integrity(exc: asyncpg.IntegrityConstraintViolationError) -> IntegrityError:
    error = IntegrityError(f"{exc.sqlstate} {type(exc).__name__}: {exc}")
    error.__cause__ = exc
    return error


def _rowcount(status: str) -> int:
    """The rows a statement changed, from its command tag (``UPDATE 3``, ``INSERT 0 1``, ``DELETE 0``)."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


def _numeric(text: str) -> int | Decimal:
    """``sum()`` of bigints is a numeric here: give an int, as SQLite does (the schema has no fractional numerics)."""
    value = Decimal(text)
    return int(value) if value == value.to_integral_value() else value


async def _init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec("numeric", schema="pg_catalog", encoder=str, decoder=_numeric, format="text")


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset between two uses: nothing beyond the rollback asyncpg does of a transaction left open (ours
    never are). Its default (``RESET ALL``, ``CLOSE ALL``, …) would cost a round trip per operation."""


class PostgresDatabase(Database):
    """All persistent state of the bot in a PostgreSQL database, over a pool of asyncpg connections. See
    :mod:`bot.storage` and this module's docstring."""

    dialect: ClassVar[Dialect] = "postgresql"
    pool_size: ClassVar[int] = 10

    def __init__(self, pool: asyncpg.Pool, clock: Clock) -> None:
        super().__init__(clock)
        self._pool = pool
        self._running: set[asyncio.Task[Any]] = set()
        self._hand: asyncpg.Connection | None = None  # the connection of a transaction driven by hand
        self.units = 0
        """Transactions and reads run (an operation is one), for tests and benchmarks."""
        self.retries = 0
        """Bodies run again after losing a race (serialization failure or deadlock)."""
        self.fresh_runs = 0
        """Bodies run again on a fresh snapshot after meeting a unique key (:class:`_RetryUnique`)."""

    async def migrate(self) -> list[int]:
        """As :meth:`Database.migrate`, with every migration of this opening run under one lock held aside.

        The lock each migration's transaction takes is not enough for two processes first opening one empty
        database together: the second waits for it inside a transaction whose snapshot was taken before the first
        committed, so it would apply the same migration again (``relation … already exists``). Holding a session
        lock (on a connection of its own, for as long as the migrations run) makes the second start its transactions
        only after the first is done, and find every migration applied."""
        async with self._connection() as conn:
            await conn.execute(MIGRATION_SESSION_LOCK)
            try:
                return await super().migrate()
            finally:
                await conn.execute(MIGRATION_SESSION_UNLOCK)

    @classmethod
    async def _connect(cls, target: str | os.PathLike[str], clock: Clock) -> PostgresDatabase:
        pool = await cls._create_pool(os.fspath(target))
        db = cls(pool, clock)
        try:
            await db.migrate()
        except BaseException:
            await pool.close()
            raise
        return db

    @classmethod
    async def _create_pool(cls, url: str) -> asyncpg.Pool:
        try:
            pool: asyncpg.Pool = await asyncpg.create_pool(
                url,
                # Connections are opened when needed: after an outage, by the next operation (a floor of open
                # connections would have asyncpg retry in the background, logging each failure).
                min_size=0,
                max_size=cls.pool_size,
                init=_init_connection,
                reset=_keep_session,
                timeout=CONNECT_TIMEOUT,
                server_settings={"application_name": "fudaba"},
            )
        except Exception as exc:
            if _unavailable(exc):
                raise StorageUnavailable(f"cannot reach the PostgreSQL server: {exc}") from exc
            raise
        return pool

    async def close(self) -> None:
        await self._drain()
        await self._give_back_leases()
        try:
            await asyncio.wait_for(self._pool.close(), 10)
        except TimeoutError:  # pragma: no cover - a connection that does not answer
            self._pool.terminate()

    async def schema(self) -> Schema:
        async def read() -> Schema:
            columns = await All(
                "SELECT table_name, column_name, is_nullable FROM information_schema.columns"
                " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
            )
            indexes = await All(
                "SELECT t.relname AS tbl, i.relname AS name, x.indisunique AS uniq, x.indisprimary AS pk,"
                " x.indpred IS NOT NULL AS partial, array(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY"
                " AS k(attnum, n) JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum"
                " WHERE k.n <= x.indnkeyatts ORDER BY k.n)"  # the key's columns, not those an index INCLUDEs
                " AS keys FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid"
                " WHERE t.relnamespace = current_schema()::regnamespace"
            )
            foreign = await All(
                "SELECT t.relname AS tbl, a.attname AS col, r.relname AS ref, ra.attname AS ref_col"
                " FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid"
                " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]"
                " JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]"
                " WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace"
            )
            outline: Schema = {}
            for table in sorted({c["table_name"] for c in columns}):
                mine = [i for i in indexes if i["tbl"] == table]
                outline[table] = TableOutline(
                    columns=tuple(c["column_name"] for c in columns if c["table_name"] == table),
                    nullable=frozenset(
                        c["column_name"] for c in columns if c["table_name"] == table and c["is_nullable"] == "YES"
                    ),
                    primary_key=next((tuple(i["keys"]) for i in mine if i["pk"]), ()),
                    unique=frozenset((tuple(i["keys"]), bool(i["partial"])) for i in mine if i["uniq"] and not i["pk"]),
                    indexes=frozenset((i["name"], tuple(i["keys"]), bool(i["partial"])) for i in mine if not i["uniq"]),
                    foreign_keys=frozenset((f["col"], f["ref"], f["ref_col"]) for f in foreign if f["tbl"] == table),
                )
            return outline

        return await self._read(read)

    async def _drain(self) -> None:
        """Wait for the operations still running (those whose callers were cancelled)."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    # ------------------------------------------------------------------ running operations

    async def _transaction(self, body: Callable[[float], Awaitable[T]]) -> T:
        """Run ``body(now)`` as one write transaction (again from the start if it loses a race); see
        :meth:`Core._transaction`."""
        return await self._shielded(self._run(body, write=True))

    async def _read(self, body: Callable[[], Awaitable[T]]) -> T:
        """Run ``body()``, which may only query, on one snapshot; see :meth:`Core._read`."""
        return await self._shielded(self._run(lambda now: body(), write=False))

    async def _shielded(self, work: Awaitable[T]) -> T:
        """Run ``work`` in a task of its own, which a cancelled caller leaves running to its end (as SQLite's
        connection thread does): a transaction commits or rolls back whole, and a connection is never left in the
        middle of a statement."""
        task: asyncio.Task[T] = asyncio.ensure_future(work)
        self._running.add(task)
        task.add_done_callback(self._finished)
        return await asyncio.shield(task)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._running.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: its caller may have been cancelled and no longer awaits it

    async def _run(self, make: Callable[[float], Awaitable[T]], *, write: bool) -> T:
        self.units += 1
        savepoints = fresh = False
        attempt = reconnects = 0
        while True:
            body = make(self._clock())
            try:
                return await self._attempt(body, write, savepoints, retry_unique=not fresh)
            except _Replay:
                savepoints = True
            except _RetryUnique:
                fresh = True  # once: a unique key met again on a fresh snapshot is the body's to handle
                self.fresh_runs += 1
            except _Reconnect as dead:
                reconnects += 1
                if reconnects > self.pool_size + 1:
                    raise StorageUnavailable(
                        f"no working connection to the PostgreSQL server: {dead.__cause__}"
                    ) from dead.__cause__
            except _Retry as lost:
                attempt += 1
                self.retries += 1
                if attempt >= MAX_ATTEMPTS:
                    raise StorageError(
                        "storage.busy", f"gave up after {attempt} serialization failures: {lost.__cause__}"
                    ) from lost.__cause__
                if attempt <= IMMEDIATE_RETRIES:
                    # The transaction we lost to has finished (PostgreSQL reports the conflict once it commits):
                    # running again at once usually succeeds, and costs no timer.
                    await asyncio.sleep(0)
                else:
                    await asyncio.sleep(random.uniform(0, min(MAX_BACKOFF, 0.0005 * 2**attempt)))

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        try:
            conn = await self._pool.acquire()
        except Exception as exc:
            if _unavailable(exc):
                raise StorageUnavailable(f"the PostgreSQL server is unavailable: {exc}") from exc
            raise
        try:
            yield conn
        finally:
            # A broken connection is closed by the release (the pool opens a new one when next needed).
            with contextlib.suppress(Exception):
                await self._pool.release(conn)

    async def _attempt(self, body: Awaitable[T], write: bool, savepoints: bool, *, retry_unique: bool = False) -> T:
        steps: Generator[Any, Any, T] = body.__await__()
        try:
            async with self._connection() as conn:
                if not write and isinstance(body, REQUESTS):
                    lone: T = await self._lone(conn, body)  # one query needs no transaction to see one state
                    return lone
                try:
                    await conn.execute(BEGIN_WRITE if write else BEGIN_READ)
                except Exception as exc:
                    if _unavailable(exc, conn):
                        raise _Reconnect from exc
                    raise
                guarded: set[int] = set()
                try:
                    result = await self._drive(conn, steps, write, savepoints, guarded, retry_unique)
                    if guarded:
                        await self._guard(conn, guarded)
                except BaseException:
                    await self._rollback(conn)
                    raise
                try:
                    await conn.execute("COMMIT")
                except RETRYABLE as exc:
                    raise _Retry from exc
                except Exception as exc:
                    if _unavailable(exc, conn):
                        raise StorageUnavailable(
                            f"the connection broke while committing, which may or may not have happened: {exc}",
                            in_doubt=True,
                        ) from exc
                    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
                        raise _integrity(exc) from exc
                    raise
                return result
        finally:
            steps.close()  # a body left mid-way runs its ``finally`` blocks now

    async def _lone(self, conn: asyncpg.Connection, request: Any) -> Any:
        if isinstance(request, WRITES):
            raise not_a_read(request)
        try:
            return await self._perform(conn, request)
        except RETRYABLE as exc:
            raise _Retry from exc
        except Exception as exc:
            if _unavailable(exc, conn):
                raise _Reconnect from exc  # a query alone is safe to send again
            if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
                raise _integrity(exc) from exc
            raise

    @staticmethod
    async def _rollback(conn: asyncpg.Connection) -> None:
        if _closed(conn):
            return
        try:
            await conn.execute("ROLLBACK")
        except Exception:  # the connection broke: drop it
            with contextlib.suppress(Exception):
                conn.terminate()

    @staticmethod
    async def _guard(conn: asyncpg.Connection, table_ids: set[int]) -> None:
        """Update the guarded tables' rows, unchanged, just before COMMIT (see :class:`~bot.storage.tx.Guard`): a
        transaction that changed or guarded one of them and committed after this one's snapshot makes this fail
        (serialization failure, run again); one still open makes this wait for it, then fail or go on."""
        try:
            await conn.execute(GUARD, sorted(table_ids))
        except RETRYABLE as exc:
            raise _Retry from exc
        except Exception as exc:
            if _unavailable(exc, conn):
                raise StorageUnavailable(f"the connection to the PostgreSQL server broke: {exc}") from exc
            raise

    async def _drive(
        self,
        conn: asyncpg.Connection,
        steps: Generator[Any, Any, T],
        write: bool,
        savepoints: bool,
        guarded: set[int] | None = None,
        retry_unique: bool = False,
    ) -> T:
        """Step a body to its end, awaiting each request on ``conn`` and throwing a request's error back in."""
        value: Any = None
        error: BaseException | None = None
        aborted = False  # a statement failed and PostgreSQL has thrown the transaction away
        while True:
            try:
                request = steps.send(value) if error is None else steps.throw(error)
            except StopIteration as done:
                if aborted:
                    raise _Replay from None  # it handled the error and would commit
                result: T = done.value
                return result
            if aborted:
                raise _Replay  # it handled the error and goes on
            value, error = None, None
            if not isinstance(request, REQUESTS):
                error = not_a_request(request)
                continue
            if not write and isinstance(request, WRITES):
                error = not_a_read(request)
                continue
            if isinstance(request, Guard):
                if guarded is None:  # pragma: no cover - every transaction passes its set
                    raise TypeError("a guard outside a transaction")
                guarded.update(int(t) for t in request.table_ids)
                continue
            try:
                if savepoints:
                    await conn.execute(f"SAVEPOINT {SAVEPOINT}")
                value = await self._perform(conn, request)
            except RETRYABLE as exc:
                raise _Retry from exc
            except Exception as exc:  # the body's to handle, or to let out (which rolls back)
                if retry_unique and isinstance(exc, asyncpg.UniqueViolationError):
                    raise _RetryUnique from exc
                if _unavailable(exc, conn):
                    raise StorageUnavailable(f"the connection to the PostgreSQL server broke: {exc}") from exc
                if savepoints:
                    try:
                        await conn.execute(f"ROLLBACK TO SAVEPOINT {SAVEPOINT}")
                    except Exception as again:
                        if _unavailable(again, conn):
                            raise StorageUnavailable(
                                f"the connection to the PostgreSQL server broke: {again}"
                            ) from again
                        raise
                else:
                    # The server threw the transaction away (a client-side error, asyncpg refusing an argument, did
                    # not, but running the body again is harmless either way).
                    aborted = isinstance(exc, asyncpg.PostgresError)
                error = _integrity(exc) if isinstance(exc, asyncpg.IntegrityConstraintViolationError) else exc

    async def _perform(self, conn: asyncpg.Connection, request: Any) -> Any:
        """Run one request on ``conn`` and give what the SQLite driver would (see :mod:`bot.storage.tx`)."""
        if isinstance(request, Guard):  # by hand (a transaction's body defers it to its COMMIT)
            await conn.execute(GUARD, sorted(int(t) for t in request.table_ids))
            return None
        if isinstance(request, Many):
            rows = [tuple(row) for row in request.rows]
            if not rows:
                return 0
            # One round trip for all the rows (asyncpg pipelines them), and a row back for each row changed: the
            # guarded updates need the count, which executemany does not give.
            return len(await conn.fetchmany(to_postgres_counted(request.sql), rows))
        params: Sequence[Any] = request.params
        if isinstance(request, Exec):
            return _rowcount(await conn.execute(to_postgres(request.sql), *params))
        if isinstance(request, Insert):
            return await conn.fetchval(to_postgres_insert(request.sql), *params)
        if isinstance(request, One):
            return await conn.fetchrow(to_postgres(request.sql), *params)
        if isinstance(request, Scalar):
            return await conn.fetchval(to_postgres(request.sql), *params)
        assert isinstance(request, All)
        return await conn.fetch(to_postgres(request.sql), *params)

    # ------------------------------------------------------------------ by hand: tests and maintenance

    async def _by_hand(self, request: Any) -> Any:
        conn = self._hand
        if conn is not None:  # inside _write: a savepoint keeps the transaction usable if the statement fails
            await conn.execute(f"SAVEPOINT {SAVEPOINT}")
            try:
                result = await self._perform(conn, request)
            except Exception as exc:
                if not _unavailable(exc, conn):
                    await conn.execute(f"ROLLBACK TO SAVEPOINT {SAVEPOINT}")
                raise self._translated(exc, conn) from exc
            await conn.execute(f"RELEASE SAVEPOINT {SAVEPOINT}")
            return result
        async with self._connection() as conn:
            try:
                return await self._perform(conn, request)
            except Exception as exc:
                raise self._translated(exc, conn) from exc

    @staticmethod
    def _translated(exc: Exception, conn: Any) -> Exception:
        if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
            return _integrity(exc)
        if _unavailable(exc, conn):
            return StorageUnavailable(f"the PostgreSQL server is unavailable: {exc}")
        return exc

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> int:
        changed: int = await self._by_hand(Exec(sql, params))
        return changed

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows: list[Row] = await self._by_hand(All(sql, params))
        return rows

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._by_hand(Scalar(sql, params))

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[float]:
        async with self._connection() as conn:
            await conn.execute(BEGIN_WRITE)
            self._hand = conn
            try:
                yield self._clock()
            except BaseException:
                await self._rollback(conn)
                raise
            finally:
                self._hand = None
            await conn.execute("COMMIT")

    async def _idle(self) -> bool:
        await self._drain()
        return self._hand is None and self._pool.get_idle_size() == self._pool.get_size()
