"""Fixtures for the storage tests: an in-memory database with a hand-driven clock, always closed."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Database

GUILD = 10


class FakeClock:
    """A clock the test moves by hand, so cooldowns need no sleeping."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def db(clock: FakeClock) -> AsyncIterator[Database]:
    database = await Database.open(":memory:", clock=clock)
    try:
        yield database
    finally:
        # An open aiosqlite connection keeps its thread alive and hangs pytest at exit.
        await database.close()


@pytest.fixture
async def ledger_checked(db: Database) -> AsyncIterator[Database]:
    """The database, with the whole ledger reconciled after the test."""
    yield db
    assert await db.verify_ledger() == []
