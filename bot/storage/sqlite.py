"""The SQLite backend: one aiosqlite connection, each operation run whole on the connection's thread.

An operation is a body (:mod:`bot.storage.tx`) that :meth:`SqliteDatabase._transaction` or
:meth:`SqliteDatabase._read` runs whole on the connection's thread: one round trip ("thread hop") from the event loop
per operation, however many statements it makes. A hop is most of what a statement costs here, and on a busy bot each
one also waits for the event loop to pick its result up, which is what a click waits behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, ClassVar, TypeVar

import aiosqlite

from bot.storage.core import Clock
from bot.storage.database import Database, Schema, TableOutline
from bot.storage.dialect import Dialect
from bot.storage.tx import All, Exec, Row, Scalar, perform, run_read, run_transaction

T = TypeVar("T")
A = TypeVar("A")
BUSY_TIMEOUT_MS = 5000


class SqliteDatabase(Database):
    """All persistent state of the bot in one SQLite file (WAL, ``synchronous=NORMAL``, foreign keys, busy timeout)
    over one aiosqlite connection. See :mod:`bot.storage`."""

    dialect: ClassVar[Dialect] = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, clock: Clock) -> None:
        super().__init__(clock)
        self._conn = conn
        # Every transaction and read runs under this lock, held across its one round trip only.
        self._lock = asyncio.Lock()

    @classmethod
    async def _connect(cls, target: str | os.PathLike[str], clock: Clock) -> SqliteDatabase:
        """Connect, set the pragmas and apply pending migrations. ``":memory:"`` works for tests."""
        conn = await aiosqlite.connect(os.fspath(target), isolation_level=None)  # transactions are explicit
        try:
            conn.row_factory = aiosqlite.Row
            for pragma in (
                "PRAGMA journal_mode = WAL",
                "PRAGMA synchronous = NORMAL",
                "PRAGMA foreign_keys = ON",
                f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
            ):
                async with conn.execute(pragma) as cur:
                    await cur.fetchall()
            db = cls(conn, clock)
            await db.migrate()
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        await self._give_back_leases()
        await self._conn.close()

    async def schema(self) -> Schema:
        async def read() -> Schema:
            names = [r[0] for r in await All(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")]
            outline: Schema = {}
            for table in names:
                columns = await All("SELECT name, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid", (table,))
                unique: set[tuple[tuple[str, ...], bool]] = set()
                indexes: set[tuple[str, tuple[str, ...], bool]] = set()
                primary_key = tuple(c["name"] for c in sorted((c for c in columns if c["pk"]), key=lambda c: c["pk"]))
                for index in await All("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)", (table,)):
                    keys = tuple(r[0] for r in await All(
                        "SELECT name FROM pragma_index_info(?) ORDER BY seqno", (index["name"],)))
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
        """Run ``body(now)`` as one write transaction (BEGIN IMMEDIATE), in one round trip; see
        :meth:`Core._transaction`. ``now`` is read once the lock is held."""
        async with self._lock:
            return await self._hop(run_transaction, body(self._clock()))

    async def _read(self, body: Callable[[], Awaitable[T]]) -> T:
        """Run ``body()``, which may only query, in one round trip and give its result.

        Made once the lock is held: a body never started would be a coroutine "never awaited"."""
        async with self._lock:
            return await self._hop(run_read, body())

    async def _hop(self, fn: Callable[[sqlite3.Connection, A], T], arg: A) -> T:
        """``fn(sqlite3_connection, arg)`` on the connection's thread, in one round trip.

        Relies on aiosqlite's private ``_execute``, as its public calls run one statement each (falls back to
        asyncio's threads if a future aiosqlite drops it). A cancelled await does not stop ``fn``: the thread
        still runs it whole (a transaction commits or rolls back by itself), and what is sent to the thread next
        runs after it, so no transaction or read ever sees another half done."""
        execute = getattr(self._conn, "_execute", None)
        if execute is None:  # pragma: no cover - an aiosqlite without _execute
            return await asyncio.to_thread(fn, self._conn._conn, arg)
        result: T = await execute(fn, self._conn._conn, arg)
        return result

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


def _in_transaction(conn: sqlite3.Connection, _: None) -> bool:
    return conn.in_transaction
