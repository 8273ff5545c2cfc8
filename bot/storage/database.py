"""The :class:`Database`: choosing the backend, migrations, and the ledger's self-check."""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import functools
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from types import TracebackType

from bot.storage.core import Clock
from bot.storage.dialect import MIGRATION_LOCK, SCHEMA_VERSION, Dialect, is_postgres_url
from bot.storage.economy import EconomyOps
from bot.storage.house_rules import HouseRuleOps
from bot.storage.leases import LeaseOps
from bot.storage.tables import TableOps
from bot.storage.tx import All, Exec, Scalar

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
# Where each dialect's migrations live: the same numbers and names in both (a test checks it).
MIGRATION_DIRS: dict[Dialect, tuple[str, ...]] = {"sqlite": ("migrations",), "postgresql": ("migrations", "postgres")}


@dataclass(frozen=True)
class TableOutline:
    """What of a table's shape must be the same on both backends: its columns in order, which may be NULL, its
    primary key, its unique keys (columns, and whether partial), its other indexes, and its foreign keys. Types and
    CHECK constraints are each dialect's own spelling (a test tries the CHECKs on both)."""

    columns: tuple[str, ...]
    nullable: frozenset[str]
    primary_key: tuple[str, ...]
    unique: frozenset[tuple[tuple[str, ...], bool]]
    indexes: frozenset[tuple[str, tuple[str, ...], bool]]  # named, not unique: (name, columns, partial)
    foreign_keys: frozenset[tuple[str, str, str]]  # (column, table, column)


Schema = dict[str, TableOutline]


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations(dialect: Dialect = "sqlite") -> list[Migration]:
    """The numbered migrations of ``dialect``, in order: ``bot/storage/migrations/NNNN_name.sql`` for SQLite,
    ``bot/storage/migrations/postgres/NNNN_name.sql`` for PostgreSQL."""
    folder: Traversable = resources.files("bot.storage")
    for part in MIGRATION_DIRS[dialect]:
        folder = folder.joinpath(part)
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{dialect} migrations must be numbered 0001, 0002, … without gaps: {versions}")
    return found


def _statements(script: str) -> list[str]:
    """Split a script into statements (``executescript`` would commit the surrounding transaction). Both dialects'
    migrations are plain statements ended by ``;`` (no PostgreSQL dollar quoting), which SQLite's splitter reads."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip():
                statements.append(pending.strip())
            pending = ""
    if any(line.strip() and not line.strip().startswith("--") for line in pending.splitlines()):
        raise RuntimeError(f"incomplete SQL statement at the end of a migration: {pending[:80]!r}")
    return statements


class Database(EconomyOps, TableOps, HouseRuleOps, LeaseOps):
    """All persistent state of the bot. See :mod:`bot.storage`.

    :meth:`open` gives the backend ``target`` names: :class:`~bot.storage.sqlite.SqliteDatabase` for a file path
    (or ``":memory:"``), :class:`~bot.storage.postgres.PostgresDatabase` for a ``postgresql://`` URL. Both have this
    API and return the same types."""

    @classmethod
    async def open(
        cls, target: str | os.PathLike[str], *, clock: Clock = time.time, owner: str | None = None
    ) -> Database:
        """Connect to ``target`` and apply pending migrations.

        ``target`` is a ``DATABASE_URL``: a SQLite file path (``":memory:"`` works for tests), or
        ``postgresql://user:password@host:port/dbname`` (libpq's forms, ``?host=/socket/dir`` included) for a
        PostgreSQL server, reached through a pool of asyncpg connections.

        ``owner``: this process's id as the owner of table leases (:mod:`bot.storage.leases`); by default a new
        random one, so each opened :class:`Database` is a process of its own."""
        db = await cls._open(target, clock)
        if owner is not None:
            db.owner = owner
        return db

    @classmethod
    async def _open(cls, target: str | os.PathLike[str], clock: Clock) -> Database:
        if cls is not Database:  # a backend class (or a test's subclass of one) opens its own kind
            return await cls._connect(target, clock)
        if is_postgres_url(target):
            from bot.storage.postgres import PostgresDatabase

            return await PostgresDatabase._connect(target, clock)
        from bot.storage.sqlite import SqliteDatabase

        return await SqliteDatabase._connect(target, clock)

    @classmethod
    async def _connect(cls, target: str | os.PathLike[str], clock: Clock) -> Database:
        raise NotImplementedError(f"{cls.__name__} is not a backend: use Database.open")

    async def close(self) -> None:
        raise NotImplementedError

    async def schema(self) -> Schema:
        """The outline of every table (``schema_version`` included), to compare the two backends' schemas."""
        raise NotImplementedError

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def schema_version(self) -> int:
        return int(await self._read(lambda: Scalar("SELECT coalesce(max(version), 0) FROM schema_version")) or 0)

    async def migrate(self) -> list[int]:
        """Apply every migration not yet recorded in ``schema_version``, each in its own transaction.

        Returns the versions applied (empty when already up to date, so running it again is a no-op).
        """
        applied: list[int] = []
        for migration in migrations(self.dialect):
            if await self._transaction(functools.partial(self._apply_migration, migration)):
                applied.append(migration.version)
        return applied

    async def _apply_migration(self, migration: Migration, now: float) -> bool:
        lock = MIGRATION_LOCK[self.dialect]
        if lock is not None:
            await Scalar(lock)
        await Exec(SCHEMA_VERSION[self.dialect])
        # Checked inside the transaction, so two processes opening one file apply it once.
        if await Scalar("SELECT 1 FROM schema_version WHERE version = ?", (migration.version,)):
            return False
        for statement in _statements(migration.sql):
            await Exec(statement)
        await Exec(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.name, now),
        )
        return True

    async def verify_ledger(self, guild_id: int | None = None) -> list[str]:
        """Problems found by reconciling the ledger with every balance; empty when all is consistent.

        Checks that each movement's legs sum to zero, and that every wallet, funded seat stack, house
        and mint, and every table's pot, holds exactly the sum of its ledger legs (so the guild's chips sum to zero).
        """
        g = "" if guild_id is None else " AND guild_id = ?"
        # Portable SQL: WHERE TRUE (not SQLite's WHERE 1), and no SELECT alias in a HAVING (PostgreSQL has none).
        p: tuple[int, ...] = () if guild_id is None else (guild_id,)
        checks = {
            "movement legs do not sum to zero": (
                f"SELECT movement_id, sum(delta) FROM ledger WHERE TRUE{g} GROUP BY movement_id HAVING sum(delta) <> 0"
            ),
            "wallet differs from its ledger": (
                "SELECT w.guild_id, w.user_id, w.balance, coalesce(sum(l.delta), 0) AS total FROM wallets w"
                " LEFT JOIN ledger l ON l.account = 'wallet' AND l.guild_id = w.guild_id AND l.user_id = w.user_id"
                f" WHERE TRUE{g.replace('guild_id', 'w.guild_id')} GROUP BY w.guild_id, w.user_id"
                " HAVING w.balance <> coalesce(sum(l.delta), 0)"
            ),
            "seat stack differs from its ledger": (
                "SELECT s.id, s.stack, coalesce(sum(l.delta), 0) AS total FROM seats s JOIN tables t ON t.id = s.table_id"
                " LEFT JOIN ledger l ON l.account = 'seat' AND l.seat_id = s.id"
                f" WHERE t.practice = 0{g.replace('guild_id', 't.guild_id')} GROUP BY s.id"
                " HAVING s.stack <> coalesce(sum(l.delta), 0)"
            ),
            "house or mint differs from its ledger": (
                "SELECT a.guild_id, a.kind, a.balance, coalesce(sum(l.delta), 0) AS total FROM guild_accounts a"
                " LEFT JOIN ledger l ON l.account = a.kind AND l.guild_id = a.guild_id"
                f" WHERE TRUE{g.replace('guild_id', 'a.guild_id')} GROUP BY a.guild_id, a.kind"
                " HAVING a.balance <> coalesce(sum(l.delta), 0)"
            ),
            "table pot differs from its ledger": (
                "SELECT t.id, t.pot, coalesce(sum(l.delta), 0) AS total FROM tables t"
                " LEFT JOIN movements m ON m.table_id = t.id"
                " LEFT JOIN ledger l ON l.movement_id = m.id AND l.account = 'pot'"
                f" WHERE t.practice = 0{g.replace('guild_id', 't.guild_id')} GROUP BY t.id"
                " HAVING t.pot <> coalesce(sum(l.delta), 0)"
            ),
            "ledger does not sum to zero": f"SELECT sum(delta) FROM ledger WHERE TRUE{g} HAVING sum(delta) <> 0",
        }

        async def read() -> list[str]:
            problems: list[str] = []
            for label, sql in checks.items():
                rows = await All(sql, p)
                problems.extend(f"{label}: {tuple(row)}" for row in rows)
            return problems

        return await self._read(read)
