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
