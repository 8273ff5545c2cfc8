"""Copy a SQLite database into PostgreSQL, then prove the copy: ``python -m bot.storage copy --from F --to URL``.

Stop the bot first (the copy reads one snapshot of the file; what the bot writes after it would not be copied).

1. Both are opened as the bot opens them, so both are migrated to the latest schema (the file too, as the bot
   would at its next start), and their schemas must match (:meth:`Database.schema`).
2. The target must hold no rows, unless ``replace`` (``--replace``) is given, which wipes it first.
3. Every table is copied in one PostgreSQL transaction (binary ``COPY``, foreign keys' order), ids included, from
   one read transaction of the file; then each identity sequence is set past the largest id copied, so new rows
   never collide. Nothing is left half copied: a failure rolls the whole copy back.
4. Verification, on both sides, with the storage's own reads: :meth:`Database.verify_ledger` (which must agree),
   every wallet, house and mint balance, every seat's stack and table's status and pot, the ledger's sum per guild
   and account, the row count of every table, and a digest of every row of every table.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.database import Database, Schema
from bot.storage.dialect import is_postgres_url
from bot.storage.postgres import PostgresDatabase
from bot.storage.sqlite import SqliteDatabase
from bot.storage.tx import All

BATCH = 5000

# What both sides must agree on, beyond the row digests (portable SQL, run by each backend's reads).
CHECKS: dict[str, str] = {
    "wallet balances": "SELECT guild_id, user_id, balance FROM wallets ORDER BY guild_id, user_id",
    "house and mint balances": "SELECT guild_id, kind, balance FROM guild_accounts ORDER BY guild_id, kind",
    "seat stacks": "SELECT id, table_id, stack FROM seats ORDER BY id",
    "table statuses and pots": "SELECT id, status, pot FROM tables ORDER BY id",
    "ledger sums by guild and account": (
        "SELECT guild_id, account, sum(delta), count(*) FROM ledger GROUP BY guild_id, account ORDER BY guild_id, account"
    ),
    "ledger total": "SELECT count(*), coalesce(sum(delta), 0) FROM ledger",
}


class CopyError(Exception):
    """The copy was refused or did not verify; the message says why."""


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)
    """Rows copied per table."""
    problems: list[str] = field(default_factory=list)
    """Differences found by the verification (empty: the copy is exact)."""
    ledger_problems: list[str] = field(default_factory=list)
    """What ``verify_ledger`` says of the source (the target must say the same)."""
    seconds: float = 0.0

    @property
    def verified(self) -> bool:
        return not self.problems


def data_tables(schema: Schema) -> list[str]:
    """Every table but ``schema_version`` and ``table_leases`` (which process drives a table: the running bots'
    state, not data; the target's bots take the leases afresh), each after the tables its foreign keys point to."""
    pending = {
        name: {ref for _, ref, _ in outline.foreign_keys if ref != name}
        for name, outline in schema.items()
        if name not in ("schema_version", "table_leases")
    }
    ordered: list[str] = []
    while pending:
        ready = sorted(name for name, refs in pending.items() if not refs - set(ordered))
        if not ready:
            raise CopyError(f"foreign keys in a cycle among {sorted(pending)}")
        ordered.extend(ready)
        for name in ready:
            del pending[name]
    return ordered


async def _source_rows(
    db: SqliteDatabase,
    table: str,
    columns: Sequence[str],
    key: Sequence[str],
) -> AsyncIterator[list[tuple[Any, ...]]]:
    """The table's rows in primary-key order, a batch at a time (inside the caller's read transaction)."""
    names = ", ".join(f'"{c}"' for c in columns)
    order = ", ".join(f'"{c}"' for c in key) or "rowid"
    async with db._conn.execute(f'SELECT {names} FROM "{table}" ORDER BY {order}') as cursor:
        while rows := await cursor.fetchmany(BATCH):
            yield [tuple(r) for r in rows]


async def _target_rows(
    db: PostgresDatabase,
    table: str,
    columns: Sequence[str],
    key: Sequence[str],
) -> AsyncIterator[list[tuple[Any, ...]]]:
    names = ", ".join(f'"{c}"' for c in columns)
    order = ", ".join(f'"{c}"' for c in key)
    async with db._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
        batch: list[tuple[Any, ...]] = []
        async for row in conn.cursor(f'SELECT {names} FROM "{table}" ORDER BY {order}', prefetch=BATCH):
            batch.append(tuple(row))
            if len(batch) >= BATCH:
                yield batch
                batch = []
        if batch:
            yield batch


def _digest_update(digest: Any, rows: list[tuple[Any, ...]]) -> None:
    for row in rows:
        digest.update(repr(row).encode())
        digest.update(b"\n")


async def _read_checks(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    async def read() -> dict[str, list[tuple[Any, ...]]]:
        return {label: [tuple(r) for r in await All(sql)] for label, sql in CHECKS.items()}

    return await db._read(read)


async def _counts(db: Database, tables: Sequence[str]) -> dict[str, int]:
    async def read() -> dict[str, int]:
        return {t: int((await All(f'SELECT count(*) FROM "{t}"'))[0][0]) for t in tables}

    return await db._read(read)


def _check_arguments(source: str | os.PathLike[str], target: str) -> None:
    if is_postgres_url(os.fspath(source)) or not os.path.isfile(source):  # opening it would create an empty one
        raise CopyError(f"the source must be an existing SQLite file: {source}")
    if not is_postgres_url(target):
        raise CopyError(f"the target must be a postgresql:// URL: {target}")


async def copy_database(source: str | os.PathLike[str], target: str, *, replace: bool = False) -> CopyReport:
    """Copy the SQLite file ``source`` into the PostgreSQL database ``target`` and verify it (see the module)."""
    started = time.perf_counter()
    _check_arguments(source, target)
    src = await Database.open(source)
    try:
        dst = await Database.open(target)
        try:
            assert isinstance(src, SqliteDatabase) and isinstance(dst, PostgresDatabase)
            report = await _copy(src, dst, replace=replace)
        finally:
            await dst.close()
    finally:
        await src.close()
    report.seconds = time.perf_counter() - started
    return report


async def _copy(src: SqliteDatabase, dst: PostgresDatabase, *, replace: bool) -> CopyReport:
    if await src.schema_version() != await dst.schema_version():
        raise CopyError("the source and the target are at different schema versions")
    schema, target_schema = await src.schema(), await dst.schema()
    if schema != target_schema:
        differing = sorted(t for t in set(schema) | set(target_schema) if schema.get(t) != target_schema.get(t))
        raise CopyError(f"the schemas differ in {differing}")
    tables = data_tables(schema)
    held = {t: n for t, n in (await _counts(dst, tables)).items() if n}
    if held and not replace:
        raise CopyError(
            f"the target is not empty ({', '.join(f'{t}: {n} rows' for t, n in held.items())});"
            " pass --replace to wipe it first"
        )
    report = CopyReport()
    async with dst._pool.acquire() as conn:
        types = {
            (r["table_name"], r["column_name"]): r["data_type"]
            for r in await conn.fetch(
                "SELECT table_name, column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = current_schema()"
            )
        }
        await src._conn.execute("BEGIN")  # one snapshot of the file for every table
        try:
            async with conn.transaction():
                if replace:
                    # (the target's leases go too: they point at the tables wiped)
                    await conn.execute(f"TRUNCATE {', '.join([*tables, 'table_leases'])} RESTART IDENTITY")
                for table in tables:
                    outline = schema[table]
                    convert = [_converter(types[(table, c)]) for c in outline.columns]
                    copied = 0
                    async for rows in _source_rows(src, table, outline.columns, outline.primary_key):
                        records = [tuple(f(v) for f, v in zip(convert, row, strict=True)) for row in rows]
                        await conn.copy_records_to_table(table, records=records, columns=list(outline.columns))
                        copied += len(records)
                    report.rows[table] = copied
                    if outline.primary_key == ("id",):
                        await conn.execute(
                            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false)"
                            f" FROM {table}"
                        )
        finally:
            await src._conn.execute("COMMIT")
    report.problems, report.ledger_problems = await verify_copy(src, dst, schema)
    return report


def _converter(data_type: str) -> Any:
    if data_type == "double precision":
        return lambda v: None if v is None else float(v)
    if data_type in ("bigint", "integer", "smallint"):
        return lambda v: None if v is None else int(v)
    return lambda v: v


async def verify_copy(src: Database, dst: Database, schema: Schema) -> tuple[list[str], list[str]]:
    """The differences between the two databases (empty: identical), and what ``verify_ledger`` says of the
    source."""
    assert isinstance(src, SqliteDatabase) and isinstance(dst, PostgresDatabase)
    problems: list[str] = []
    source_ledger, target_ledger = await src.verify_ledger(), await dst.verify_ledger()
    if source_ledger != target_ledger:
        problems.append(f"verify_ledger differs: source {source_ledger}, target {target_ledger}")
    mine, theirs = await _read_checks(src), await _read_checks(dst)
    for label in CHECKS:
        if mine[label] != theirs[label]:
            missing = [r for r in mine[label] if r not in theirs[label]][:5]
            extra = [r for r in theirs[label] if r not in mine[label]][:5]
            problems.append(f"{label} differ: only in the source {missing}, only in the target {extra}")
    tables = data_tables(schema)
    counts, target_counts = await _counts(src, tables), await _counts(dst, tables)
    for table in tables:
        if counts[table] != target_counts[table]:
            problems.append(f"{table}: {counts[table]} rows in the source, {target_counts[table]} in the target")
            continue
        outline = schema[table]
        digests = []
        for rows_of in (
            _source_rows(src, table, outline.columns, outline.primary_key),
            _target_rows(dst, table, outline.columns, outline.primary_key),
        ):
            digest = hashlib.sha256()
            async for rows in rows_of:
                _digest_update(digest, rows)
            digests.append(digest.hexdigest())
        if digests[0] != digests[1]:
            problems.append(f"{table}: the rows differ")
    return problems, source_ledger


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bot.storage", description="Fudaba's storage tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    copy = commands.add_parser(
        "copy",
        help="copy a SQLite database into PostgreSQL and verify every balance and the ledger",
        description="Copy every table of a SQLite database (ids included) into a PostgreSQL database, then verify "
        "the copy: the ledger check on both, every balance, stack and pot, row counts and a digest of every row. "
        "Stop the bot first. Exit status 0 when the copy is verified, 1 when it is not, 2 when it was refused.",
    )
    copy.add_argument("--from", dest="source", required=True, metavar="FILE", help="the SQLite database file")
    copy.add_argument("--to", dest="target", required=True, metavar="URL", help="postgresql://user:pass@host/db")
    copy.add_argument(
        "--replace", action="store_true", help="wipe the target's rows first (refused otherwise when it holds any)"
    )
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(copy_database(args.source, args.target, replace=args.replace))
    except CopyError as exc:
        print(f"refused: {exc}")
        return 2
    for table, rows in report.rows.items():
        print(f"{table:>18}: {rows} rows")
    print(f"copied in {report.seconds:.2f}s")
    if report.ledger_problems:
        print("the source's own ledger check reports (and the copy says the same):")
        for problem in report.ledger_problems:
            print(f"  {problem}")
    if not report.verified:
        print("NOT VERIFIED:")
        for problem in report.problems:
            print(f"  {problem}")
        return 1
    print("verified: every balance, stack, pot and ledger sum, every row count and every row match")
    return 0
