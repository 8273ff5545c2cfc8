"""The connection, the write lock, statement helpers and the one place that moves chips (``_move``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Literal, NamedTuple, TypeVar

import aiosqlite

from bot.storage.errors import IdempotencyConflict, InsufficientFunds, NotFound, StorageError
from bot.storage.models import GuildConfig, Wallet

Clock = Callable[[], float]
T = TypeVar("T")
Account = Literal["wallet", "seat", "house", "mint"]


class Leg(NamedTuple):
    """One side of a movement: ``delta`` chips into (or, negative, out of) an account."""

    account: Account
    delta: int
    user_id: int | None = None  # wallet legs; the seated member on a seat leg
    seat_id: int | None = None


class Core:
    """State and helpers shared by the operation mixins; see :class:`bot.storage.Database`."""

    def __init__(self, conn: aiosqlite.Connection, clock: Clock) -> None:
        self._conn = conn
        self._clock = clock
        # One connection serialises statements, not transactions: every transaction (and every
        # read, so it never sees another coroutine's half-done transaction) runs under this lock,
        # which is held across database I/O only.
        self._lock = asyncio.Lock()
        self._cursor: aiosqlite.Cursor | None = None  # see _writer

    # ------------------------------------------------------------------ statement helpers
    # Every aiosqlite call is a round trip to the connection's thread (a "thread hop"), which is most of what a
    # statement costs here, so each helper makes exactly one. Reads go through ``execute_fetchall``, whose
    # cursor is consumed and dropped on the connection's thread (an unconsumed one would leave a statement
    # running and break COMMIT). Statements that return no rows (writes, BEGIN/COMMIT, DDL) run on one cursor
    # kept for the connection's life: a write's statement is finished when ``execute`` returns, so its cursor
    # needs no closing round trip, and its ``rowcount``/``lastrowid`` are read before anything else can run on
    # it (every caller holds ``_lock``, as every transaction and read does).

    async def _writer(self) -> aiosqlite.Cursor:
        """The connection's cursor for statements that return no rows (made on first use)."""
        if self._cursor is None:
            self._cursor = await self._conn.cursor()
        return self._cursor

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> int:
        """A statement that returns no rows; the number of rows it changed."""
        cur = self._cursor or await self._writer()
        await cur.execute(sql, params)
        return cur.rowcount

    async def _many(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        """One statement over many parameter rows in a single round trip; the total of rows changed."""
        cur = self._cursor or await self._writer()
        await cur.executemany(sql, rows)
        return cur.rowcount

    async def _insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = self._cursor or await self._writer()
        await cur.execute(sql, params)
        rowid = cur.lastrowid
        assert rowid is not None
        return rowid

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        """The row of a query that finds at most one (a lookup by key)."""
        rows = await self._conn.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self._one(sql, params)
        return None if row is None else row[0]

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[float]:
        """One write transaction under the lock; yields the transaction's timestamp.

        A cancelled await does not stop its statement: aiosqlite still runs it on the connection's
        thread. So BEGIN sits inside the ``try`` and the ROLLBACK is sent unconditionally; it queues
        behind whatever statement was in flight and undoes it too.
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

    async def _in_one_hop(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(sqlite3_connection, now, *args)`` — a whole transaction written as plain sqlite3 calls — on the
        connection's thread in a single round trip, under the lock. For the hottest path only (a move):
        every round trip is also a wait for the event loop to pick the result up, which is what a move's
        latency is made of on a busy bot. Relies on aiosqlite's ``_execute`` (falls back to the thread hop by
        hop if a future aiosqlite drops it)."""
        execute = getattr(self._conn, "_execute", None)
        async with self._lock:
            now = self._clock()
            if execute is None:  # pragma: no cover - an aiosqlite without _execute
                return await asyncio.to_thread(fn, self._conn._conn, now, *args)
            result: T = await execute(fn, self._conn._conn, now, *args)
            return result

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[None]:
        async with self._lock:
            yield

    # ------------------------------------------------------------------ shared pieces of transactions

    async def _replayed(self, key: str, *reasons: str) -> str | None:
        """The stored outcome if ``key`` was already used for one of ``reasons`` (a no-op replay)."""
        row = await self._one("SELECT reason, outcome FROM movements WHERE idem_key = ?", (key,))
        if row is None:
            return None
        if row["reason"] not in reasons:
            raise IdempotencyConflict(key, row["reason"], reasons[0])
        return str(row["outcome"] or "null")

    async def _move(
        self,
        guild_id: int,
        reason: str,
        key: str,
        legs: Iterable[Leg],
        now: float,
        *,
        actor_id: int | None = None,
        table_id: int | None = None,
        note: str | None = None,
    ) -> int:
        """Record one movement and apply its legs; the only code that changes a balance. Returns its id.

        Wallets and seat stacks change through conditional updates that refuse to go below 0, so an
        overdraw raises :class:`InsufficientFunds` and the caller's transaction rolls back.
        """
        legs = [leg for leg in legs if leg.delta != 0]
        if sum(leg.delta for leg in legs) != 0:
            raise StorageError("storage.unbalanced", f"movement {reason} does not sum to zero: {legs}")
        movement_id = await self._insert(
            "INSERT INTO movements (guild_id, reason, idem_key, actor_id, table_id, note, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (guild_id, reason, key, actor_id, table_id, note, now),
        )
        if legs:
            await self._apply_legs(guild_id, legs)
            await self._many(
                "INSERT INTO ledger (movement_id, guild_id, account, user_id, seat_id, delta) VALUES (?, ?, ?, ?, ?, ?)",
                [(movement_id, guild_id, leg.account, leg.user_id, leg.seat_id, leg.delta) for leg in legs],
            )
        return movement_id

    async def _apply_legs(self, guild_id: int, legs: Sequence[Leg]) -> None:
        """Apply legs with one statement per kind of account (a thread hop each, not one per leg).

        Wallets and seats change through conditional updates; if fewer rows changed than there were legs,
        one would have gone below 0 and :meth:`_apply` names it (the caller's transaction rolls back)."""
        ordered = sorted(legs, key=lambda leg: leg.delta)  # debits first
        wallets = [leg for leg in ordered if leg.account == "wallet"]
        seats = [leg for leg in ordered if leg.account == "seat"]
        accounts = [leg for leg in ordered if leg.account not in ("wallet", "seat")]
        if wallets:
            changed = await self._many(
                "UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ? AND balance + ? >= 0",
                [(leg.delta, guild_id, leg.user_id, leg.delta) for leg in wallets],
            )
            if changed != len(wallets):
                await self._refuse(guild_id, wallets)
        if seats:
            changed = await self._many(
                "UPDATE seats SET stack = stack + ? WHERE id = ? AND stack + ? >= 0",
                [(leg.delta, leg.seat_id, leg.delta) for leg in seats],
            )
            if changed != len(seats):
                await self._refuse(guild_id, seats)
        if accounts:
            # The house and the mint have no floor (see the package docstring).
            await self._many(
                "INSERT INTO guild_accounts (guild_id, kind, balance) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, kind) DO UPDATE SET balance = balance + excluded.balance",
                [(guild_id, leg.account, leg.delta) for leg in accounts],
            )

    async def _refuse(self, guild_id: int, legs: Sequence[Leg]) -> None:
        """Raise the error of the first leg that cannot be applied now (some legs before it may have been)."""
        for leg in legs:
            if leg.delta < 0:
                await self._apply(guild_id, leg)  # raises for the one that overdraws
        raise StorageError("storage.unbalanced", f"a movement could not be applied: {legs}")

    async def _apply(self, guild_id: int, leg: Leg) -> None:
        if leg.account == "wallet":
            changed = await self._exec(
                "UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ? AND balance + ? >= 0",
                (leg.delta, guild_id, leg.user_id, leg.delta),
            )
            if not changed:
                available = await self._scalar(
                    "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, leg.user_id)
                )
                if available is None:
                    raise NotFound("storage.no_wallet", f"no wallet for user {leg.user_id}", user_id=leg.user_id)
                raise InsufficientFunds(
                    f"user {leg.user_id} has {available} chips, needs {-leg.delta}",
                    needed=-leg.delta,
                    available=available,
                    user_id=leg.user_id,
                )
        elif leg.account == "seat":
            changed = await self._exec(
                "UPDATE seats SET stack = stack + ? WHERE id = ? AND stack + ? >= 0",
                (leg.delta, leg.seat_id, leg.delta),
            )
            if not changed:
                available = await self._scalar("SELECT stack FROM seats WHERE id = ?", (leg.seat_id,))
                raise InsufficientFunds(
                    f"seat {leg.seat_id} has {available} chips, needs {-leg.delta}",
                    needed=-leg.delta,
                    available=available or 0,
                    seat_id=leg.seat_id,
                )
        else:
            # The house and the mint have no floor (see the package docstring).
            await self._exec(
                "INSERT INTO guild_accounts (guild_id, kind, balance) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, kind) DO UPDATE SET balance = balance + excluded.balance",
                (guild_id, leg.account, leg.delta),
            )

    async def _set_outcome(self, movement_id: int, outcome: str) -> None:
        await self._exec("UPDATE movements SET outcome = ? WHERE id = ?", (outcome, movement_id))

    async def _config(self, guild_id: int) -> GuildConfig:
        row = await self._one("SELECT * FROM guild_config WHERE guild_id = ?", (guild_id,))
        if row is None:
            return GuildConfig(guild_id=guild_id)
        return GuildConfig(
            guild_id=guild_id,
            starting_balance=row["starting_balance"],
            daily_amount=row["daily_amount"],
            daily_cooldown_seconds=row["daily_cooldown_seconds"],
            turn_timer_seconds=row["turn_timer_seconds"],
            allowed_channel_ids=tuple(json.loads(row["allowed_channel_ids"])),
            bots_play_for_chips=bool(row["bots_play_for_chips"]),
            give_enabled=bool(row["give_enabled"]),
            moderator_role_id=row["moderator_role_id"],
            bot_pace_ms=row["bot_pace_ms"],
            updated_by=row["updated_by"],
            updated_at=row["updated_at"],
        )

    async def _wallet(self, guild_id: int, user_id: int) -> Wallet | None:
        row = await self._one("SELECT * FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        if row is None:
            return None
        return Wallet(guild_id, user_id, row["balance"], row["last_daily_at"], row["created_at"])

    async def _ensure_wallet(self, guild_id: int, user_id: int, now: float) -> Wallet:
        """The member's wallet, created on first use with the guild's starting credit (inside a transaction)."""
        wallet = await self._wallet(guild_id, user_id)
        if wallet is not None:
            return wallet
        config = await self._config(guild_id)
        await self._exec(
            "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (?, ?, 0, ?)", (guild_id, user_id, now)
        )
        amount = config.starting_balance
        await self._move(
            guild_id,
            "starting_credit",
            f"starting_credit:{guild_id}:{user_id}",
            [Leg("mint", -amount), Leg("wallet", amount, user_id=user_id)],
            now,
            actor_id=user_id,
        )
        return Wallet(guild_id, user_id, amount, None, now)
