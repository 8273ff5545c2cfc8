"""What every backend shares: the operations' way of running bodies, and the one place that moves chips
(``_move``).

An operation is a body (an ``async def`` that awaits statement requests, :mod:`bot.storage.tx`) handed to
:meth:`Core._transaction` or :meth:`Core._read`, which a backend runs: SQLite (:mod:`bot.storage.sqlite`) whole in
one go, however many statements it makes (a write on the event loop when it can start at once, else in one round
trip to the connection's thread); PostgreSQL
(:mod:`bot.storage.postgres`) statement by statement in a transaction on a pooled connection. The
shared pieces below (``_move``, ``_ensure_wallet``, …) are bodies too.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Literal, NamedTuple, TypeVar

from bot.storage.dialect import Dialect
from bot.storage.errors import IdempotencyConflict, InsufficientFunds, LeaseLost, NotFound, StorageError
from bot.storage.models import GuildConfig, Wallet
from bot.storage.tx import Exec, Guard, Insert, Many, One, Row, Scalar

Clock = Callable[[], float]
T = TypeVar("T")
Account = Literal["wallet", "seat", "house", "mint", "pot", "tournament"]

LEASE_SECONDS = 30.0
"""How long a table's lease lasts unless its owner renews it (:mod:`bot.storage.leases`)."""


class Leg(NamedTuple):
    """One side of a movement: ``delta`` chips into (or, negative, out of) an account."""

    account: Account
    delta: int
    user_id: int | None = None  # wallet legs; the seated member on a seat leg
    seat_id: int | None = None
    table_id: int | None = None  # pot legs: whose pot (the ledger row names no table: its movement does)


class Core:
    """State and helpers shared by the operation mixins; see :class:`bot.storage.Database`.

    A backend implements the runners below; the operations use nothing else of it."""

    dialect: ClassVar[Dialect]

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self.owner = uuid.uuid4().hex
        """This process's id as a table lease's owner (:mod:`bot.storage.leases`): made at open, so another
        :class:`Database` object, even over the same file, is another owner."""
        self.lease_seconds = LEASE_SECONDS

    # ------------------------------------------------------------------ running operations (per backend)

    async def _transaction(self, body: Callable[[float], Awaitable[T]]) -> T:
        """Run ``body(now)`` as one write transaction and give its result.

        ``now`` is the transaction's timestamp. Any exception leaving the body rolls back everything it wrote and is
        re-raised here: a refused operation writes nothing. Cancelling the caller does not stop the transaction
        half-way: it still commits or rolls back whole. The body may run on another thread (SQLite), or more than
        once (PostgreSQL), so it must not read what the event loop may change meanwhile (take copies of mutable
        arguments first) and must do nothing but await requests."""
        raise NotImplementedError

    async def _read(self, body: Callable[[], Awaitable[T]]) -> T:
        """Run ``body()``, which may only query, and give its result; its queries see one state of the database,
        never a transaction half done."""
        raise NotImplementedError

    # ------------------------------------------------------------------ by hand: tests and maintenance
    # A statement at a time from the event loop: inside ``_write`` (its transaction), or alone. Operations never use
    # these (a body awaiting one would fail: it may await statement requests only).

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> int:
        """A statement that returns no rows; the number of rows it changed."""
        raise NotImplementedError

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def _write(self) -> AbstractAsyncContextManager[float]:
        """A transaction driven statement by statement with ``_exec``/``_all``/``_scalar``; yields its timestamp.
        A statement that fails in it leaves it usable (as SQLite does), so a test can go on after one."""
        raise NotImplementedError

    async def _idle(self) -> bool:
        """Whether no transaction is open and none is still running (a cancelled one finishing): for tests."""
        raise NotImplementedError

    # ------------------------------------------------------------------ shared pieces of transactions

    async def _fence(self, table_id: int, now: float) -> None:
        """Refuse (:class:`LeaseLost`) unless this process holds the table's lease: one primary-key lookup, inside
        the writing transaction, so a lease taken over meanwhile is seen (SQLite: one writer at a time; PostgreSQL:
        the takeover guards the table's row, so one of the two runs again and sees the other). A table whose lease nobody holds
        (given back, or from before leases) becomes this process's."""
        holder = await Scalar("SELECT owner FROM table_leases WHERE table_id = ?", (table_id,))
        await self._hold(table_id, holder, now)

    async def _hold(self, table_id: int, holder: str | None, now: float) -> None:
        """The fencing decision, from the lease's owner as the writing transaction read it. The transaction then
        guards the table's row (:class:`~bot.storage.tx.Guard`): what it writes rests on the table as it read it
        (status, seats, lease), so a change committed meanwhile (a cancel, a takeover) makes it run again."""
        await Guard((table_id,))
        if holder is None:
            await Exec(
                "INSERT INTO table_leases (table_id, owner, expires_at) VALUES (?, ?, ?)",
                (table_id, self.owner, now + self.lease_seconds),
            )
        elif holder != self.owner:
            raise LeaseLost(table_id, holder)

    async def _replayed(self, key: str, *reasons: str) -> str | None:
        """The stored outcome if ``key`` was already used for one of ``reasons`` (a no-op replay)."""
        row = await One("SELECT reason, outcome FROM movements WHERE idem_key = ?", (key,))
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
        movement_id = await Insert(
            "INSERT INTO movements (guild_id, reason, idem_key, actor_id, table_id, note, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (guild_id, reason, key, actor_id, table_id, note, now),
        )
        if legs:
            await self._apply_legs(guild_id, legs)
            await Many(
                "INSERT INTO ledger (movement_id, guild_id, account, user_id, seat_id, delta) VALUES (?, ?, ?, ?, ?, ?)",
                [(movement_id, guild_id, leg.account, leg.user_id, leg.seat_id, leg.delta) for leg in legs],
            )
        return movement_id

    async def _apply_legs(self, guild_id: int, legs: Sequence[Leg]) -> None:
        """Apply legs with one statement per kind of account, not one per leg.

        Wallets and seats change through conditional updates; if fewer rows changed than there were legs,
        one would have gone below 0 and :meth:`_apply` names it (the caller's transaction rolls back)."""
        ordered = sorted(legs, key=lambda leg: leg.delta)  # debits first
        wallets = [leg for leg in ordered if leg.account == "wallet"]
        seats = [leg for leg in ordered if leg.account == "seat"]
        pots = [leg for leg in ordered if leg.account == "pot"]
        accounts = [leg for leg in ordered if leg.account not in ("wallet", "seat", "pot")]
        if wallets:
            changed = await Many(
                "UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ? AND balance + ? >= 0",
                [(leg.delta, guild_id, leg.user_id, leg.delta) for leg in wallets],
            )
            if changed != len(wallets):
                await self._refuse(guild_id, wallets)
        if seats:
            changed = await Many(
                "UPDATE seats SET stack = stack + ? WHERE id = ? AND stack + ? >= 0",
                [(leg.delta, leg.seat_id, leg.delta) for leg in seats],
            )
            if changed != len(seats):
                await self._refuse(guild_id, seats)
        if pots:
            changed = await Many(
                "UPDATE tables SET pot = pot + ? WHERE id = ? AND pot + ? >= 0",
                [(leg.delta, leg.table_id, leg.delta) for leg in pots],
            )
            if changed != len(pots):
                raise StorageError("storage.pot_overdrawn", f"a table's pot cannot pay {pots}")
        if accounts:
            # The house and the mint have no floor (see the package docstring).
            await Many(
                "INSERT INTO guild_accounts (guild_id, kind, balance) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, kind) DO UPDATE SET balance = guild_accounts.balance + excluded.balance",
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
            changed = await Exec(
                "UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ? AND balance + ? >= 0",
                (leg.delta, guild_id, leg.user_id, leg.delta),
            )
            if not changed:
                available = await Scalar(
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
            changed = await Exec(
                "UPDATE seats SET stack = stack + ? WHERE id = ? AND stack + ? >= 0",
                (leg.delta, leg.seat_id, leg.delta),
            )
            if not changed:
                available = await Scalar("SELECT stack FROM seats WHERE id = ?", (leg.seat_id,))
                raise InsufficientFunds(
                    f"seat {leg.seat_id} has {available} chips, needs {-leg.delta}",
                    needed=-leg.delta,
                    available=available or 0,
                    seat_id=leg.seat_id,
                )
        else:
            # The house and the mint have no floor (see the package docstring).
            await Exec(
                "INSERT INTO guild_accounts (guild_id, kind, balance) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, kind) DO UPDATE SET balance = guild_accounts.balance + excluded.balance",
                (guild_id, leg.account, leg.delta),
            )

    async def _set_outcome(self, movement_id: int, outcome: str) -> None:
        await Exec("UPDATE movements SET outcome = ? WHERE id = ?", (outcome, movement_id))

    async def _config(self, guild_id: int) -> GuildConfig:
        row = await One("SELECT * FROM guild_config WHERE guild_id = ?", (guild_id,))
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
            table_place=row["table_place"],
            correspondence_max_hours=row["correspondence_max_hours"],
            watch_delay=bool(row["watch_delay"]),
            updated_by=row["updated_by"],
            updated_at=row["updated_at"],
        )

    async def _wallet(self, guild_id: int, user_id: int) -> Wallet | None:
        row = await One("SELECT * FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        if row is None:
            return None
        return Wallet(guild_id, user_id, row["balance"], row["last_daily_at"], row["created_at"])

    async def _ensure_wallet(self, guild_id: int, user_id: int, now: float) -> Wallet:
        """The member's wallet, created on first use with the guild's starting credit (inside a transaction)."""
        wallet = await self._wallet(guild_id, user_id)
        if wallet is not None:
            return wallet
        config = await self._config(guild_id)
        await Exec(
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
