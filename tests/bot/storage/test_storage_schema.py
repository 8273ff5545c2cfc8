"""Opening, pragmas and migrations, on both backends: the same numbered migrations end in equivalent schemas."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import REASONS, Database, IntegrityError
from bot.storage.database import _statements, migrations
from tests.pg import PgDatabases


async def test_migrations_apply_once_and_reopen_is_a_no_op(target: str) -> None:
    async with await Database.open(target) as db:
        latest = len(migrations(db.dialect))
        assert await db.schema_version() == latest
        assert await db.migrate() == []  # applying again changes nothing
        await db.ensure_member(1, 2)
    async with await Database.open(target) as db:
        assert await db.schema_version() == latest
        assert await db.migrate() == []
        assert await db.balance(1, 2) == 1000  # data survived; no second starting credit


async def test_file_database_uses_wal_and_foreign_keys(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "f.db") as db:
        conn = db._conn  # type: ignore[attr-defined]
        async with conn.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
        async with conn.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone())[0] == 1
        async with conn.execute("PRAGMA synchronous") as cur:
            assert (await cur.fetchone())[0] == 1  # NORMAL
        # Outside its thread the connection never waits for a lock, and never checkpoints inside a commit: a write
        # that would wait goes to the thread, and checkpoints run on a second connection (test_storage_tx.py).
        async with conn.execute("PRAGMA busy_timeout") as cur:
            assert (await cur.fetchone())[0] == 0
        async with conn.execute("PRAGMA wal_autocheckpoint") as cur:
            assert (await cur.fetchone())[0] == 0


def test_migrations_are_numbered_from_one_and_split_into_statements() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert found[0].name == "0001_init.sql"
    statements = _statements(found[0].sql)
    assert any(s.startswith("CREATE TABLE wallets") for s in statements)
    assert _statements("-- only a comment\nCREATE TABLE t (a);\n-- trailing comment\n") == [
        "-- only a comment\nCREATE TABLE t (a);"
    ]


def test_both_dialects_have_the_same_numbered_migrations() -> None:
    """A migration is written once per dialect, under the same number and name: ``migrations/NNNN_name.sql`` and
    ``migrations/postgres/NNNN_name.sql``."""
    sqlite, postgres = migrations("sqlite"), migrations("postgresql")
    assert [(m.version, m.name) for m in postgres] == [(m.version, m.name) for m in sqlite]
    for migration in postgres:
        assert _statements(migration.sql), migration.name


async def test_both_dialects_end_in_the_same_schema(pg: PgDatabases) -> None:
    """Same tables, columns (in order, and which may be NULL), primary, unique (partial or not) and foreign keys,
    and indexes; the CHECKs are tried on both by the next test."""
    async with await Database.open(":memory:") as sqlite:
        expected = await sqlite.schema()
    name = await pg.create()
    try:
        async with await Database.open(pg.url(name)) as postgres:
            found = await postgres.schema()
    finally:
        await pg.drop(name)
    assert sorted(found) == sorted(expected)
    for table, outline in expected.items():
        assert found[table] == outline, table
    assert expected["movements"].unique == frozenset({(("idem_key",), False)})
    assert (("channel_id",), True) in expected["tables"].unique  # one active table per channel


async def test_every_reason_is_allowed_by_the_schema(db: Database) -> None:
    async with db._write() as now:
        for i, reason in enumerate(REASONS):
            await db._exec(
                "INSERT INTO movements (guild_id, reason, idem_key, created_at) VALUES (1, ?, ?, ?)",
                (reason, f"r{i}", now),
            )
        with pytest.raises(IntegrityError):
            await db._exec(
                "INSERT INTO movements (guild_id, reason, idem_key, created_at) VALUES (1, 'bribe', 'x', ?)", (now,)
            )
        # A failed statement leaves the transaction usable on both backends (a savepoint on PostgreSQL).
        await db._exec(
            "INSERT INTO movements (guild_id, reason, idem_key, created_at) VALUES (1, 'daily', 'y', ?)", (now,)
        )
    assert await db._scalar("SELECT count(*) FROM movements") == len(REASONS) + 1


BROKEN = [  # (what, statement): each breaks a constraint of the schema
    ("negative wallet", "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (1, 9, -1, 0)"),
    ("wallet twice", "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (1, 1, 0, 0)"),
    ("unknown account kind", "INSERT INTO guild_accounts (guild_id, kind, balance) VALUES (1, 'bank', 0)"),
    ("unknown status", "UPDATE tables SET status = 'paused' WHERE id = 1"),
    ("stake 0", "UPDATE tables SET stake = 0 WHERE id = 1"),
    ("unknown language", "UPDATE tables SET lang = 'fr' WHERE id = 1"),
    ("practice flag 2", "UPDATE tables SET practice = 2 WHERE id = 1"),
    ("negative pot", "UPDATE tables SET pot = -1 WHERE id = 1"),
    (
        "second active table in a channel",
        "INSERT INTO tables (guild_id, channel_id, game, host_id, stake, buy_in,"
        " created_at, updated_at) VALUES (1, 5, 'x', 1, 1, 1, 0, 0)",
    ),
    ("seat of nobody", "INSERT INTO seats (table_id, position, stack, buy_in, joined_at) VALUES (1, 3, 0, 0, 0)"),
    ("negative stack", "UPDATE seats SET stack = -1 WHERE id = 1"),
    (
        "two seats in one position",
        "INSERT INTO seats (table_id, position, bot_name, stack, buy_in, joined_at) VALUES (1, 0, 'Kappa', 0, 0, 0)",
    ),
    (
        "seat at no table",
        "INSERT INTO seats (table_id, position, bot_name, stack, buy_in, joined_at) VALUES (999, 0, 'Kappa', 0, 0, 0)",
    ),
    ("key used twice", "INSERT INTO movements (guild_id, reason, idem_key, created_at) VALUES (1, 'daily', 'k', 0)"),
    ("unknown ledger account", "INSERT INTO ledger (movement_id, guild_id, account, delta) VALUES (1, 1, 'vault', 5)"),
    ("zero leg", "INSERT INTO ledger (movement_id, guild_id, account, delta) VALUES (1, 1, 'house', 0)"),
    ("wallet leg of nobody", "INSERT INTO ledger (movement_id, guild_id, account, delta) VALUES (1, 1, 'wallet', 5)"),
    (
        "pot leg naming a member",
        "INSERT INTO ledger (movement_id, guild_id, account, user_id, delta) VALUES (1, 1, 'pot', 1, 5)",
    ),
    ("leg of no movement", "INSERT INTO ledger (movement_id, guild_id, account, delta) VALUES (999, 1, 'house', 5)"),
    (
        "deal settled twice",
        "INSERT INTO hand_history (table_id, guild_id, game, deal_no, deltas, summary, created_at)"
        " VALUES (1, 1, 'x', 1, '[]', '{}', 0)",
    ),
    ("action of no seat", "INSERT INTO table_log (table_id, seq, kind, body) VALUES (1, 2, 'action', 'bet')"),
    ("log row twice", "INSERT INTO table_log (table_id, seq, kind, seat, body) VALUES (1, 1, 'action', 0, 'bet')"),
    ("bot pace too slow", "INSERT INTO guild_config (guild_id, bot_pace_ms) VALUES (2, 20000)"),
]


async def test_the_constraints_that_matter_hold_on_both_backends(db: Database) -> None:
    for setup in (
        "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (1, 1, 0, 0)",
        "INSERT INTO tables (id, guild_id, channel_id, game, host_id, stake, buy_in, created_at, updated_at)"
        " VALUES (1, 1, 5, 'x', 1, 1, 1, 0, 0)",
        "INSERT INTO seats (id, table_id, position, user_id, stack, buy_in, joined_at) VALUES (1, 1, 0, 1, 0, 0, 0)",
        "INSERT INTO movements (id, guild_id, reason, idem_key, created_at) VALUES (1, 1, 'daily', 'k', 0)",
        "INSERT INTO hand_history (table_id, guild_id, game, deal_no, deltas, summary, created_at)"
        " VALUES (1, 1, 'x', 1, '[]', '{}', 0)",
        "INSERT INTO table_log (table_id, seq, kind, seat, body) VALUES (1, 1, 'action', 0, 'bet')",
    ):
        await db._exec(setup)
    allowed = []
    for what, statement in BROKEN:
        try:
            await db._exec(statement)
        except IntegrityError:
            continue
        allowed.append(what)
    assert allowed == []
