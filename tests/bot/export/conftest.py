"""The storage fixtures (``db`` on SQLite and on PostgreSQL) for this feature's storage tests."""

from tests.bot.storage.conftest import backend, db, pg_or_none

__all__ = ["backend", "db", "pg_or_none"]
