"""Storage errors: each carries a stable ``code`` the bot translates (``bot/i18n``) and its ``params``."""

from __future__ import annotations

from typing import Any


class StorageError(Exception):
    """A refused storage operation; nothing was written.

    ``code`` is a stable message key such as ``"storage.insufficient_funds"``; ``params`` fill the
    message's placeholders; the exception text is a plain English reason for logs and tests.
    """

    def __init__(self, code: str, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params: dict[str, Any] = params


class InsufficientFunds(StorageError):
    """A wallet or stack holds less than the operation needs."""

    def __init__(self, reason: str, *, needed: int, available: int, **params: Any) -> None:
        super().__init__("storage.insufficient_funds", reason, needed=needed, available=available, **params)


class NotFound(StorageError):
    """A table, seat or other row that does not exist (``code`` names which)."""


class InvalidState(StorageError):
    """An operation that the current state does not allow (a table not in the lobby, …)."""


class InvalidValue(StorageError):
    """An argument out of range: a negative amount, an unknown config field, …"""


class IdempotencyConflict(StorageError):
    """An idempotency key already used by a different kind of operation."""

    def __init__(self, key: str, used_by: str, wanted: str) -> None:
        super().__init__(
            "storage.idempotency_conflict",
            f"idempotency key {key!r} already used for {used_by}, not {wanted}",
            key=key,
            used_by=used_by,
            wanted=wanted,
        )


class IntegrityError(StorageError):
    """A statement broke a constraint of the schema (a UNIQUE key, a CHECK, a foreign key, NOT NULL).

    Both drivers raise this one error for it (the SQLite driver from ``sqlite3.IntegrityError``, the PostgreSQL
    driver from asyncpg's integrity violations, kept as ``__cause__``), so a body catches one thing wherever it
    runs: ``except IntegrityError`` around the statement it expects to collide (a deal settled twice, a log row
    written twice) and turns it into a refusal with a code of its own."""

    def __init__(self, reason: str) -> None:
        super().__init__("storage.integrity", reason)


class StorageUnavailable(StorageError):
    """The database cannot be reached (a PostgreSQL server restarting, a network cut): the operation was not run.

    The pool reconnects by itself once the server is back; meanwhile every operation raises this at once rather
    than waiting. ``in_doubt`` is True only when the connection broke while the server was committing: the
    operation may or may not have been applied, and running it again with the same idempotency key is safe (it is
    replayed if it was). Otherwise nothing was changed and the user may simply try again."""

    def __init__(self, reason: str, *, in_doubt: bool = False) -> None:
        super().__init__("storage.unavailable", reason, in_doubt=in_doubt)
        self.in_doubt = in_doubt


class LeaseLost(StorageError):
    """The table is driven by another bot process: this process does not hold its lease (it ran out while the
    process was paused and another took it, or it was never this process's). Nothing was written; the process
    should stop driving the table (see :mod:`bot.storage.leases`)."""

    def __init__(self, table_id: int, holder: str | None) -> None:
        super().__init__(
            "storage.lease_lost",
            f"table {table_id} is not leased to this process (held by {holder})",
            table_id=table_id,
        )
        self.table_id = table_id
        self.holder = holder
