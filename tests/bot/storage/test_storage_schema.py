"""Opening, pragmas and migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import REASONS, Database
from bot.storage.database import _statements, migrations


async def test_migrations_apply_once_and_reopen_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "fudaba.db"
    latest = len(migrations())
    async with await Database.open(path) as db:
        assert await db.schema_version() == latest
        assert await db.migrate() == []  # applying again changes nothing
        await db.ensure_member(1, 2)
    async with await Database.open(path) as db:
        assert await db.schema_version() == latest
        assert await db.migrate() == []
        assert await db.balance(1, 2) == 1000  # data survived; no second starting credit


async def test_file_database_uses_wal_and_foreign_keys(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "f.db") as db:
        conn = db._conn
        async with conn.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
        async with conn.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone())[0] == 1
        async with conn.execute("PRAGMA synchronous") as cur:
            assert (await cur.fetchone())[0] == 1  # NORMAL
        async with conn.execute("PRAGMA busy_timeout") as cur:
            assert (await cur.fetchone())[0] > 0


def test_migrations_are_numbered_from_one_and_split_into_statements() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert found[0].name == "0001_init.sql"
    statements = _statements(found[0].sql)
    assert any(s.startswith("CREATE TABLE wallets") for s in statements)
    assert _statements("-- only a comment\nCREATE TABLE t (a);\n-- trailing comment\n") == [
        "-- only a comment\nCREATE TABLE t (a);"
    ]


async def test_every_reason_is_allowed_by_the_schema(db: Database) -> None:
    async with db._write() as now:
        for i, reason in enumerate(REASONS):
            await db._exec(
                "INSERT INTO movements (guild_id, reason, idem_key, created_at) VALUES (1, ?, ?, ?)",
                (reason, f"r{i}", now),
            )
        with pytest.raises(sqlite3.IntegrityError):
            await db._exec(
                "INSERT INTO movements (guild_id, reason, idem_key, created_at) VALUES (1, 'bribe', 'x', ?)", (now,)
            )
