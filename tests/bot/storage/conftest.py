"""Storage fixtures: every test that takes ``db`` runs twice, on SQLite (in memory) and on a real PostgreSQL server
(a database of its own on the session's server, ``tests/conftest.py``), on the hand-driven ``clock`` of
``tests/bot/conftest.py``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.storage import Database
from tests.pg import PgDatabases

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend a test runs on (the session's PostgreSQL server is started on first use)."""
    if request.param == "postgresql":
        request.getfixturevalue("pg")
    return str(request.param)


@pytest.fixture
def pg_or_none(backend: str, request: pytest.FixtureRequest) -> PgDatabases | None:
    return request.getfixturevalue("pg") if backend == "postgresql" else None


@pytest.fixture
async def target(backend: str, pg_or_none: PgDatabases | None, tmp_path: Any) -> AsyncIterator[str]:
    """An empty database to open: a file path on SQLite, a new database's URL on PostgreSQL."""
    if pg_or_none is None:
        yield str(tmp_path / "fudaba.db")
        return
    name = await pg_or_none.create(migrated=False)
    try:
        yield pg_or_none.url(name)
    finally:
        await pg_or_none.drop(name)


@pytest.fixture
async def db(pg_or_none: PgDatabases | None, clock: Any) -> AsyncIterator[Database]:
    if pg_or_none is None:
        database = await Database.open(":memory:", clock=clock)
        try:
            yield database
        finally:
            # An open aiosqlite connection keeps its thread alive and hangs pytest at exit.
            await database.close()
        return
    name = await pg_or_none.create()
    try:
        database = await Database.open(pg_or_none.url(name), clock=clock)
        try:
            yield database
        finally:
            await database.close()
    finally:
        await pg_or_none.drop(name)


@pytest.fixture
async def ledger_checked(db: Database) -> AsyncIterator[Database]:
    """The database, with the whole ledger reconciled against every balance after the test."""
    yield db
    assert await db.verify_ledger() == []
