"""Transactions written once for any driver ("sans-IO"): a body awaits statement requests, and a driver does the
I/O.

    async def body(now: float) -> int:
        row = await One("SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        changed = await Exec("UPDATE wallets SET last_daily_at = ? WHERE ...", (now, ...))
        movement_id = await move(...)  # a helper is a body too
        return movement_id

A request does nothing by itself: awaiting it yields it, up through every ``await`` of the body, to whoever steps
the body (``send``/``throw``, as for a generator), and that driver sends the result back. What an ``await`` gives:
:class:`Exec` the number of rows changed, :class:`Insert` the new row's id, :class:`Many` the rows changed over all
its parameter rows, :class:`One` the row or None, :class:`All` the rows, :class:`Scalar` the first column of the
first row or None. An error raised by a statement is thrown into the body where it awaited it, so ``try``/``except``
around a statement works as around a call. Bodies are ``async def`` so that helpers compose with ``await``, a lone
request is a body too, and a forgotten ``await`` is caught (mypy's ``unused-coroutine``, and ``unused-awaitable``
which the storage modules turn on); but a body awaits requests only (a driver refuses anything else) and does no
I/O of its own, so a driver may step it on another thread.

A statement that breaks a constraint raises :class:`~bot.storage.errors.IntegrityError` with either driver (the
driver's own error is its ``__cause__``), so a body catches one thing. The SQL is the common subset of SQLite and
PostgreSQL, with ``?`` placeholders (:mod:`bot.storage.dialect` says what differs).

Two drivers step the same bodies:

* SQLite (:func:`run_transaction`, :func:`run_read`, here) runs a whole body synchronously on a sqlite3 connection;
  :mod:`bot.storage.sqlite` calls it on the connection's own thread, so that a transaction costs the event loop one
  round trip however many statements it makes.
* PostgreSQL (:mod:`bot.storage.postgres`) steps a body inside an asyncpg transaction, awaiting each request in turn
  and throwing its errors back the same way; it may run a body again from the start (after a serialization failure,
  or to give a body that handled a statement's error the SQLite semantics of a failed statement that leaves the
  transaction usable), which is harmless because a body does nothing but await requests.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, TypeVar

from bot.storage.errors import IntegrityError

T = TypeVar("T")


class Row(Protocol):
    """A result row, indexed by position or by column name (a ``sqlite3.Row``; asyncpg's ``Record`` alike)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


@dataclass(frozen=True, slots=True)
class _Statement:
    sql: str
    params: Sequence[Any] = ()


class Exec(_Statement):
    """A statement that returns no rows; gives the number of rows it changed."""

    __slots__ = ()

    def __await__(self) -> Generator[Request, Any, int]:
        result: int = yield self
        return result


class Insert(_Statement):
    """An INSERT; gives the new row's id."""

    __slots__ = ()

    def __await__(self) -> Generator[Request, Any, int]:
        result: int = yield self
        return result


class One(_Statement):
    """A query finding at most one row (a lookup by key); gives the row or None."""

    __slots__ = ()

    def __await__(self) -> Generator[Request, Any, Row | None]:
        result: Row | None = yield self
        return result


class All(_Statement):
    """A query; gives the list of its rows."""

    __slots__ = ()

    def __await__(self) -> Generator[Request, Any, list[Row]]:
        result: list[Row] = yield self
        return result


class Scalar(_Statement):
    """A query for one value; gives the first column of its first row, or None when it finds no row."""

    __slots__ = ()

    def __await__(self) -> Generator[Request, Any, Any]:
        return (yield self)


@dataclass(frozen=True, slots=True)
class Many:
    """One statement over many parameter rows; gives the total of rows changed."""

    sql: str
    rows: Iterable[Sequence[Any]]

    def __await__(self) -> Generator[Request, Any, int]:
        result: int = yield self
        return result


@dataclass(frozen=True, slots=True)
class Guard:
    """What the transaction writes rests on what it read of these tables' rows (``tables.id``): it must not commit
    if another transaction that guarded or changed one of them committed meanwhile. Gives None.

    SQLite runs one write transaction at a time: nothing to do. PostgreSQL runs write transactions under REPEATABLE
    READ, where two transactions that read the same table and write different rows (a join and a cancel, a move and
    a lease takeover) would both commit; so each guarded row is updated, unchanged, just before COMMIT, and the later
    of two such transactions fails with a serialization error and runs again on fresh data (:mod:`bot.storage.postgres`).
    """

    table_ids: tuple[int, ...]

    def __await__(self) -> Generator[Request, Any, None]:
        yield self
        return None


Request: TypeAlias = Exec | Insert | One | All | Scalar | Many | Guard
REQUESTS = (Exec, Insert, One, All, Scalar, Many, Guard)
WRITES = (Exec, Insert, Many, Guard)


def not_a_request(request: object) -> TypeError:
    return TypeError(f"a body awaited {request!r}: it may await statement requests only")


def not_a_read(request: object) -> TypeError:
    return TypeError(f"a read may only query, not {type(request).__name__}: writes belong in a transaction")


def perform(conn: sqlite3.Connection, request: object) -> Any:
    """Run one request on ``conn`` (on the thread that owns it) and give its result."""
    if isinstance(request, Guard):
        return None  # one write transaction at a time: nothing can change what it read
    try:
        if isinstance(request, Many):
            cursor = conn.executemany(request.sql, request.rows)
        elif isinstance(request, _Statement):
            cursor = conn.execute(request.sql, request.params)
        else:
            raise not_a_request(request)
    except sqlite3.IntegrityError as exc:
        raise IntegrityError(str(exc)) from exc
    # Every cursor is closed: one left unconsumed keeps its statement running, and a later COMMIT fails.
    try:
        match request:
            case Exec() | Many():
                return cursor.rowcount
            case Insert():
                return cursor.lastrowid
            case One():
                return cursor.fetchone()
            case Scalar():
                row = cursor.fetchone()
                return None if row is None else row[0]
            case _:
                return cursor.fetchall()
    finally:
        cursor.close()


def _perform_read(conn: sqlite3.Connection, request: object) -> Any:
    # A read runs outside any transaction, where each write would commit on its own.
    if isinstance(request, WRITES):
        raise not_a_read(request)
    return perform(conn, request)


def _drive(conn: sqlite3.Connection, steps: Generator[Any, Any, T], run: Callable[[sqlite3.Connection, Any], Any]) -> T:
    """Step a body to its end, answering each request with ``run`` and throwing a request's error back in."""
    value: Any = None
    error: Exception | None = None
    while True:
        try:
            request = steps.send(value) if error is None else steps.throw(error)
        except StopIteration as done:
            result: T = done.value
            return result
        try:
            value, error = run(conn, request), None
        except Exception as exc:  # the body's to handle, or to let out (which rolls back)
            value, error = None, exc


def run_transaction(conn: sqlite3.Connection, body: Awaitable[T], *, begun: bool = False) -> T:
    """Run ``body`` as one write transaction on ``conn`` and give its result.

    BEGIN IMMEDIATE takes the write lock first (``begun``: the caller already did), so the body's reads and writes
    see one state; any exception leaving the body (a statement's error it did not handle, or a refusal it raised)
    rolls back everything it wrote and is re-raised.
    """
    steps = body.__await__()
    try:
        if not begun:
            conn.execute("BEGIN IMMEDIATE")
        try:
            result = _drive(conn, steps, perform)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # a failed COMMIT may already have ended it
                conn.execute("ROLLBACK")
            raise
        return result
    finally:
        steps.close()  # a body left mid-way (by a BaseException) runs its ``finally`` blocks now


def run_snapshot_read(conn: sqlite3.Connection, body: Awaitable[T]) -> T:
    """Run ``body``, which may only query, in one read transaction on ``conn``: every statement sees the same
    committed state, whatever other connections commit meanwhile (a reader beside the writer, in WAL mode)."""
    steps = body.__await__()
    try:
        conn.execute("BEGIN DEFERRED")
        try:
            return _drive(conn, steps, _perform_read)
        finally:
            if conn.in_transaction:
                conn.execute("COMMIT")  # a read transaction: nothing to keep or undo
    finally:
        steps.close()


def run_read(conn: sqlite3.Connection, body: Awaitable[T]) -> T:
    """Run ``body``, which may only query, on ``conn`` without a transaction of its own; give its result."""
    steps = body.__await__()
    try:
        return _drive(conn, steps, _perform_read)
    finally:
        steps.close()
