"""Serialization retries on PostgreSQL when many tables settle at once: the storage's REPEATABLE READ writes (with
their guards, ``bot.storage.tx.Guard``) against the same work under SERIALIZABLE, in one run.

    python bench/bench_contention_pg.py [tables] [deals]      (default 20 tables, 20 deals each)

Starts a throwaway server as the tests do (``tests/pg.py``), opens ``tables`` chip tables (members of their own, so
no row is really shared between two tables; then, as a second case, the same two members at every table, which
does share rows: their player statistics), and has every table settle ``deals`` deals at once through
``Database.append_step``. Printed per case: deals per second, how many times a transaction ran again after a
serialization failure or deadlock, and how many ran again on a fresh snapshot after meeting a unique key. The
SERIALIZABLE line (``bot.storage.postgres.BEGIN_WRITE`` patched) shows the retries SSI adds by itself: its predicate
locks on small indexes (idempotency keys, a table's seats) make unrelated tables' settlements fail each other.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.storage.postgres as pg_backend
from bot.storage import Database, DealToSettle, LogEntry
from bot.storage.postgres import PostgresDatabase
from tests.pg import PgServer

GUILD = 1


async def open_table(db: Database, channel: int, members: tuple[int, int]) -> int:
    table = await db.open_table(GUILD, channel, "oicho", members[0], buy_in=1000)
    for user in members:
        await db.join_table(table.id, user, display_name=f"m{user}")
    await db.add_bot_seat(table.id, "bot")
    await db.start_table(table.id, record='{"v":1}')
    return table.id


async def case(url: str, tables: int, deals: int, shared: bool) -> tuple[float, int]:
    db = await Database.open(url)
    assert isinstance(db, PostgresDatabase)
    try:
        await db.set_config(GUILD, actor_id=0, starting_balance=10**6, bots_play_for_chips=True)
        first = 1_000 if not shared else 10
        ids = [
            await open_table(db, 100 + i, (11, 12) if shared else (first + 2 * i, first + 1 + 2 * i))
            for i in range(tables)
        ]

        async def play(table_id: int) -> None:
            for deal in range(1, deals + 1):
                sign = 1 if deal % 2 else -1
                await db.append_step(
                    table_id,
                    [LogEntry(deal, "action", "bet~1~1", seat=0)],
                    settle=[DealToSettle(deal, (10 * sign, 20 * sign, -30 * sign), {"deal": deal})],
                )

        before, fresh_before = db.retries, db.fresh_runs
        started = time.perf_counter()
        await asyncio.gather(*(play(t) for t in ids))
        elapsed = time.perf_counter() - started
        assert await db.verify_ledger() == []
        return tables * deals / elapsed, db.retries - before, db.fresh_runs - fresh_before
    finally:
        await db.close()


async def main(tables: int, deals: int) -> None:
    server = PgServer.start_new()
    try:
        for shared in (False, True):
            for begin in ("BEGIN ISOLATION LEVEL REPEATABLE READ", "BEGIN ISOLATION LEVEL SERIALIZABLE"):
                name = f"db_{int(shared)}_{len(begin)}"
                admin = await Database.open(server.url("postgres"))
                await admin._exec(f"CREATE DATABASE {name}")  # type: ignore[attr-defined]
                await admin.close()
                pg_backend.BEGIN_WRITE = begin
                rate, retries, fresh = await case(server.url(name), tables, deals, shared)
                rows = "the same two members at every table" if shared else "members of their own"
                print(
                    f"{tables} tables x {deals} deals, {rows}, {begin.split('LEVEL ')[1]}: "
                    f"{rate:,.0f} deals/s, {retries} serialization retries, {fresh} runs on a fresh snapshot"
                )
    finally:
        server.destroy()


if __name__ == "__main__":
    numbers = [int(a) for a in sys.argv[1:]]
    asyncio.run(main(numbers[0] if numbers else 20, numbers[1] if len(numbers) > 1 else 20))
