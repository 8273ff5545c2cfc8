"""Storage fixtures: an in-memory database on the hand-driven ``clock`` of ``tests/bot/conftest.py``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.storage import Database


@pytest.fixture
async def db(clock: Any) -> AsyncIterator[Database]:
    database = await Database.open(":memory:", clock=clock)
    try:
        yield database
    finally:
        # An open aiosqlite connection keeps its thread alive and hangs pytest at exit.
        await database.close()


@pytest.fixture
async def ledger_checked(db: Database) -> AsyncIterator[Database]:
    """The database, with the whole ledger reconciled against every balance after the test."""
    yield db
    assert await db.verify_ledger() == []
