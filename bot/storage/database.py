"""The :class:`Database`: opening the connection, migrations, and the ledger's self-check."""

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
from types import TracebackType

import aiosqlite

from bot.storage.core import Clock
from bot.storage.economy import EconomyOps
from bot.storage.house_rules import HouseRuleOps
from bot.storage.tables import TableOps
from bot.storage.tx import All, Exec, Scalar

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
BUSY_TIMEOUT_MS = 5000


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The numbered migrations shipped in ``bot/storage/migrations``, in order."""
    found: list[Migration] = []
    for entry in resources.files("bot.storage").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 0001, 0002, … without gaps: {versions}")
    return found


def _statements(script: str) -> list[str]:
    """Split a script into statements (``executescript`` would commit the surrounding transaction)."""
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


class Database(EconomyOps, TableOps, HouseRuleOps):
    """All persistent state of the bot over one aiosqlite connection. See :mod:`bot.storage`."""

    @classmethod
    async def open(cls, path: str | os.PathLike[str], *, clock: Clock = time.time) -> Database:
        """Connect, set the pragmas and apply pending migrations. ``":memory:"`` works for tests."""
        conn = await aiosqlite.connect(os.fspath(path), isolation_level=None)  # transactions are explicit
        try:
            conn.row_factory = aiosqlite.Row
            for pragma in (
                "PRAGMA journal_mode = WAL",
                "PRAGMA synchronous = NORMAL",
                "PRAGMA foreign_keys = ON",
                f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
            ):
                async with conn.execute(pragma) as cur:
                    await cur.fetchall()
            db = cls(conn, clock)
            await db.migrate()
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        await self._conn.close()

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
        for migration in migrations():
            if await self._transaction(functools.partial(self._apply_migration, migration)):
                applied.append(migration.version)
        return applied

    async def _apply_migration(self, migration: Migration, now: float) -> bool:
        await Exec(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at REAL NOT NULL)"
        )
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
        p: tuple[int, ...] = () if guild_id is None else (guild_id,)
        checks = {
            "movement legs do not sum to zero": (
                f"SELECT movement_id, sum(delta) FROM ledger WHERE 1{g} GROUP BY movement_id HAVING sum(delta) <> 0"
            ),
            "wallet differs from its ledger": (
                "SELECT w.guild_id, w.user_id, w.balance, coalesce(sum(l.delta), 0) AS total FROM wallets w"
                " LEFT JOIN ledger l ON l.account = 'wallet' AND l.guild_id = w.guild_id AND l.user_id = w.user_id"
                f" WHERE 1{g.replace('guild_id', 'w.guild_id')} GROUP BY w.guild_id, w.user_id HAVING w.balance <> total"
            ),
            "seat stack differs from its ledger": (
                "SELECT s.id, s.stack, coalesce(sum(l.delta), 0) AS total FROM seats s JOIN tables t ON t.id = s.table_id"
                " LEFT JOIN ledger l ON l.account = 'seat' AND l.seat_id = s.id"
                f" WHERE t.practice = 0{g.replace('guild_id', 't.guild_id')} GROUP BY s.id HAVING s.stack <> total"
            ),
            "house or mint differs from its ledger": (
                "SELECT a.guild_id, a.kind, a.balance, coalesce(sum(l.delta), 0) AS total FROM guild_accounts a"
                " LEFT JOIN ledger l ON l.account = a.kind AND l.guild_id = a.guild_id"
                f" WHERE 1{g.replace('guild_id', 'a.guild_id')} GROUP BY a.guild_id, a.kind HAVING a.balance <> total"
            ),
            "table pot differs from its ledger": (
                "SELECT t.id, t.pot, coalesce(sum(l.delta), 0) AS total FROM tables t"
                " LEFT JOIN movements m ON m.table_id = t.id"
                " LEFT JOIN ledger l ON l.movement_id = m.id AND l.account = 'pot'"
                f" WHERE t.practice = 0{g.replace('guild_id', 't.guild_id')} GROUP BY t.id HAVING t.pot <> total"
            ),
            "ledger does not sum to zero": f"SELECT sum(delta) FROM ledger WHERE 1{g} HAVING sum(delta) <> 0",
        }

        async def read() -> list[str]:
            problems: list[str] = []
            for label, sql in checks.items():
                rows = await All(sql, p)
                problems.extend(f"{label}: {tuple(row)}" for row in rows)
            return problems

        return await self._read(read)
