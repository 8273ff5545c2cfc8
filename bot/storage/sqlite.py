"""The SQLite backend: one aiosqlite connection writes (on the event loop when it can start at once), another reads.

An operation is a body (:mod:`bot.storage.tx`) that :meth:`SqliteDatabase._transaction` or
:meth:`SqliteDatabase._read` runs whole, in one go, however many statements it makes. Where it runs:

* **A write transaction runs on the event loop**, synchronously, when the connection is free (nothing sent to its
  thread is still queued or running) and the file's write lock can be taken without waiting. Such a transaction is
  a few row reads and writes of one table or wallet and takes about 0.15 ms, whereas a round trip ("thread hop") to
  the connection's thread and back costs more than that on an idle bot and, on a busy one, waits for the thread to be
  scheduled, for the interpreter lock and for the loop to pick the result up: on two cores with a render worker
  drawing, that wait was most of a click's slowest percentile. On the loop nothing else can run in between, and a
  transaction cannot be cancelled half-way.
* **Anything that could wait goes to the connection's thread**: reads (some are large: history, leaderboards,
  restore), a write whose write lock is held by another connection (the bot then waits up to
  ``BUSY_TIMEOUT_MS`` there, not on the loop), and a write that finds work still queued on the thread (it queues
  behind it, so operations keep their order).
* **Reads never wait for writes, nor writes for reads.** In WAL mode they run on a connection of their own (its
  own thread), each in a read transaction that sees one committed state, without the lock writes take: a large read
  (a leaderboard, a restore) or a burst of them (servers' settings after a restart) holds back no commit, and a
  commit holds back no read. A database without WAL (``":memory:"``, in tests) reads through its one connection,
  under the lock.
* **Checkpoints never run on the loop.** The connection's automatic WAL checkpoint would copy pages into the
  database file and sync it inside whichever commit crossed the limit. It is off; every ``CHECKPOINT_EVERY`` write
  transactions, a second connection to the same file runs a passive checkpoint on its own thread, alongside the
  writes (a passive checkpoint takes no lock a writer needs).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, ClassVar, TypeVar

import aiosqlite

from bot.storage.core import Clock
from bot.storage.database import Database, Schema, TableOutline
from bot.storage.dialect import Dialect
from bot.storage.tx import All, Exec, Row, Scalar, perform, run_read, run_snapshot_read, run_transaction

T = TypeVar("T")
A = TypeVar("A")
log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
"""How long an operation on the connection's thread waits for a lock another connection holds. On the loop: never."""
CHECKPOINT_EVERY = 200
"""Write transactions between two checkpoints: about SQLite's own default of 1,000 pages, at a few pages each."""


class SqliteDatabase(Database):
    """All persistent state of the bot in one SQLite file (WAL, ``synchronous=NORMAL``, foreign keys, busy timeout)
    over one aiosqlite connection. See :mod:`bot.storage`."""

    dialect: ClassVar[Dialect] = "sqlite"
    inline_writes: bool = True
    """Run a write transaction on the loop when it can start at once (see the module). Tests that hold a transaction
    open on the connection's thread turn it off."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        clock: Clock,
        checkpointer: aiosqlite.Connection | None = None,
        reader: aiosqlite.Connection | None = None,
    ) -> None:
        super().__init__(clock)
        self._conn = conn
        self._reader = reader  # reads' own connection (None: no WAL; reads go through ``conn``, under the lock)
        # Every transaction (and a read without its own connection) runs under this lock: whole on the loop, or
        # across its one round trip.
        self._lock = asyncio.Lock()
        # Operations sent to the connection's thread (counted on the loop) and finished there (counted on that
        # thread): while they differ, the thread may be inside a transaction, and the loop must not use the
        # connection (a cancelled caller lets go of the lock before the thread is done).
        self._sent = 0
        self._done = 0
        self._checkpointer = checkpointer  # a second connection to the file (None: no WAL, e.g. ":memory:")
        self._writes_since_checkpoint = 0
        self._checkpointing: asyncio.Task[None] | None = None
        self.units = 0
        """Transactions and reads run (an operation is one), for tests and benchmarks."""
        self.inline = 0
        """Of those, write transactions run on the loop."""
        self.checkpoints = 0
        """Checkpoints made."""
        self.last_checkpoint: tuple[int, int, int] | None = None
        """What the last one said: (1 if it could not finish, frames in the WAL, frames copied)."""

    @classmethod
    async def _connect(cls, target: str | os.PathLike[str], clock: Clock) -> SqliteDatabase:
        """Connect, set the pragmas and apply pending migrations. ``":memory:"`` works for tests."""
        # Transactions are explicit; the connection is used from its own thread and from the loop, never both at
        # once (see the module).
        conn = await aiosqlite.connect(os.fspath(target), isolation_level=None, check_same_thread=False)
        checkpointer = None
        try:
            conn.row_factory = aiosqlite.Row
            for pragma in (
                "PRAGMA journal_mode = WAL",
                "PRAGMA synchronous = NORMAL",
                "PRAGMA foreign_keys = ON",
                "PRAGMA busy_timeout = 0",  # on the loop, never wait; the thread sets its own timeout
            ):
                async with conn.execute(pragma) as cur:
                    said = await cur.fetchone()
                if pragma.startswith("PRAGMA journal_mode") and said is not None and said[0] == "wal":
                    async with conn.execute("PRAGMA wal_autocheckpoint = 0") as cur:
                        await cur.fetchall()
                    checkpointer = await aiosqlite.connect(os.fspath(target), isolation_level=None)
            db = cls(conn, clock, checkpointer)
            await db.migrate()
            if checkpointer is not None:  # WAL: readers see committed states beside the writer
                db._reader = await _open_reader(target)
        except BaseException:
            await conn.close()
            if checkpointer is not None:
                await checkpointer.close()
            raise
        return db

    async def close(self) -> None:
        await self._give_back_leases()
        if self._checkpointing is not None:
            await self._checkpointing
        if self._checkpointer is not None:
            await self._checkpointer.close()
        if self._reader is not None:
            await self._reader.close()
        await self._conn.close()

    async def schema(self) -> Schema:
        async def read() -> Schema:
            names = [
                r[0]
                for r in await All(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name"
                )
            ]
            outline: Schema = {}
            for table in names:
                columns = await All('SELECT name, "notnull", pk FROM pragma_table_info(?) ORDER BY cid', (table,))
                unique: set[tuple[tuple[str, ...], bool]] = set()
                indexes: set[tuple[str, tuple[str, ...], bool]] = set()
                primary_key = tuple(c["name"] for c in sorted((c for c in columns if c["pk"]), key=lambda c: c["pk"]))
                for index in await All('SELECT name, "unique", origin, partial FROM pragma_index_list(?)', (table,)):
                    keys = tuple(
                        r[0]
                        for r in await All("SELECT name FROM pragma_index_info(?) ORDER BY seqno", (index["name"],))
                    )
                    if index["origin"] == "pk":
                        continue
                    if index["unique"]:
                        unique.add((keys, bool(index["partial"])))
                    else:
                        indexes.add((index["name"], keys, bool(index["partial"])))
                foreign = await All('SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)', (table,))
                outline[table] = TableOutline(
                    columns=tuple(c["name"] for c in columns),
                    nullable=frozenset(c["name"] for c in columns if not c["notnull"] and not c["pk"]),
                    primary_key=primary_key,
                    unique=frozenset(unique),
                    indexes=frozenset(indexes),
                    foreign_keys=frozenset((k[0], k[1], k[2]) for k in foreign),
                )
            return outline

        return await self._read(read)

    # ------------------------------------------------------------------ running operations

    async def _transaction(self, body: Callable[[float], Awaitable[T]]) -> T:
        """Run ``body(now)`` as one write transaction (BEGIN IMMEDIATE): on the loop when it can start at once, else
        in one round trip to the connection's thread; see :meth:`Core._transaction`. ``now`` is read once the lock
        is held."""
        async with self._lock:
            self.units += 1
            now = self._clock()
            work = body(now)  # made before BEGIN: a body that fails to start leaves no transaction open
            try:
                if self.inline_writes and self._sent == self._done:
                    try:
                        begun = _begin_at_once(self._conn._conn)
                    except BaseException:
                        _discard(work)
                        raise
                    if begun:
                        self.inline += 1
                        return run_transaction(self._conn._conn, work, begun=True)
                return await self._hop(run_transaction, work)
            finally:
                self._wrote()

    def _wrote(self) -> None:
        """Count a write transaction; every ``CHECKPOINT_EVERY`` of them, checkpoint the WAL off the loop."""
        self._writes_since_checkpoint += 1
        if (
            self._checkpointer is None
            or self._writes_since_checkpoint < CHECKPOINT_EVERY
            or self._checkpointing is not None
        ):
            return
        self._writes_since_checkpoint = 0
        self._checkpointing = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        """A passive checkpoint on the second connection's thread: it copies what it can into the database file and
        waits for nobody; writes go on meanwhile."""
        assert self._checkpointer is not None
        try:
            async with self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)") as cur:
                row = await cur.fetchone()
            self.checkpoints += 1
            self.last_checkpoint = None if row is None else (row[0], row[1], row[2])
        except Exception as exc:  # the next one will try again; a WAL only grows meanwhile
            log.warning("checkpointing the database failed (%s)", exc)
        finally:
            self._checkpointing = None

    async def _read(self, body: Callable[[], Awaitable[T]]) -> T:
        """Run ``body()``, which may only query, in one round trip and give its result: on the readers' connection
        in one read transaction, beside any write (see the module); without one, under the lock.

        Made once it is sent (or the lock is held): a body never started would be a coroutine "never awaited"."""
        reader = self._reader
        if reader is not None:
            self.units += 1
            return await _on_thread_of(reader, run_snapshot_read, reader._conn, body())
        async with self._lock:
            self.units += 1
            return await self._hop(run_read, body())

    async def _hop(self, fn: Callable[[sqlite3.Connection, A], T], arg: A) -> T:
        """``fn(sqlite3_connection, arg)`` on the connection's thread, in one round trip.

        Relies on aiosqlite's private ``_execute``, as its public calls run one statement each (falls back to
        asyncio's threads if a future aiosqlite drops it). A cancelled await does not stop ``fn``: the thread
        still runs it whole (a transaction commits or rolls back by itself), and what is sent to the thread next
        runs after it, so no transaction or read ever sees another half done."""
        self._sent += 1
        return await _on_thread_of(self._conn, self._on_thread, fn, self._conn._conn, arg)

    def _on_thread(self, fn: Callable[[sqlite3.Connection, A], T], conn: sqlite3.Connection, arg: A) -> T:
        """``fn(conn, arg)`` on the connection's thread, where waiting for another connection's lock is allowed."""
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            try:
                return fn(conn, arg)
            finally:
                conn.execute("PRAGMA busy_timeout = 0")
        finally:
            self._done += 1  # only this thread writes it

    # ------------------------------------------------------------------ by hand: tests and maintenance
    # A statement per round trip, without the lock: inside ``_write`` (which holds it) or when nothing else runs.

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> int:
        changed: int = await self._hop(perform, Exec(sql, params))
        return changed

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows: list[Row] = await self._hop(perform, All(sql, params))
        return rows

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._hop(perform, Scalar(sql, params))

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[float]:
        """A transaction driven statement by statement from the event loop (a round trip each), under the lock;
        yields its timestamp. For tests and maintenance: an operation is a body run by :meth:`_transaction`.

        A cancelled await does not stop its statement: aiosqlite still runs it on the connection's thread. So
        BEGIN sits inside the ``try`` and the ROLLBACK is sent unconditionally; it queues behind whatever
        statement was in flight and undoes it too.
        """
        async with self._lock:
            try:
                await self._exec("BEGIN IMMEDIATE")
                yield self._clock()
                await self._exec("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.OperationalError):  # "no transaction is active"
                    await self._exec("ROLLBACK")
                raise

    async def _idle(self) -> bool:
        async with self._lock:  # asked on the thread: behind whatever was sent to it before
            return not await self._hop(_in_transaction, None)


async def _on_thread_of(conn: aiosqlite.Connection, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on ``conn``'s own thread, in one round trip (aiosqlite's private ``_execute``, as its public
    calls run one statement each; asyncio's threads if a future aiosqlite drops it)."""
    execute = getattr(conn, "_execute", None)
    if execute is None:  # pragma: no cover - an aiosqlite without _execute
        return await asyncio.to_thread(fn, *args)
    result: T = await execute(fn, *args)
    return result


async def _open_reader(target: str | os.PathLike[str]) -> aiosqlite.Connection:
    """The readers' connection: queries only, waiting (on its own thread) through a WAL recovery if it meets one."""
    reader = await aiosqlite.connect(os.fspath(target), isolation_level=None, check_same_thread=False)
    try:
        reader.row_factory = aiosqlite.Row
        for pragma in ("PRAGMA query_only = 1", f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}"):
            async with reader.execute(pragma) as cur:
                await cur.fetchall()
    except BaseException:
        await reader.close()
        raise
    return reader


def _in_transaction(conn: sqlite3.Connection, _: None) -> bool:
    return conn.in_transaction


def _discard(work: Awaitable[Any]) -> None:
    """Close a body that will never run (a coroutine "never awaited" otherwise)."""
    close = getattr(work, "close", None)
    if close is not None:
        close()


def _begin_at_once(conn: sqlite3.Connection) -> bool:
    """BEGIN IMMEDIATE if the write lock is free now (the connection's busy timeout is 0 outside its thread);
    False if another connection holds it."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if exc.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return False
        raise
    return True
