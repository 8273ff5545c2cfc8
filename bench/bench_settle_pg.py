"""Settlement throughput on PostgreSQL: the storage path settling one finished deal, against a raw asyncpg
transaction writing the same rows.

    python bench/bench_settle_pg.py [deals] [seats] [--url postgresql://…]

Without ``--url`` (or ``$FUDABA_BENCH_PG_URL``) it starts a throwaway server as the tests do (``tests/pg.py``: a
Unix socket, the data directory on a RAM disk when there is one, ``fsync`` and ``synchronous_commit`` off), so the
figures are the storage layer's cost and the round trips, not the disk's; with ``--url`` it runs on that server, in
a database it creates and drops (``fudaba_bench``).

The subject is what a chip table (two members and ``seats - 2`` bots, not a practice table, so stacks, ledger legs,
hand history and player stats all move) pays to settle one deal through ``bot.storage`` on PostgreSQL
(:mod:`bot.storage.postgres`: a serializable transaction on a pooled connection, the bodies stepped statement by
statement):

* ``settle_deal`` -- ``Database.settle_deal(table, deal, deltas, summary)``;
* ``append_step`` -- ``Database.append_step(table, [one log row], settle=[DealToSettle(...)])``, what a live table
  writes when an action finishes a deal (less the restart point).

The baseline writes the same rows on the same schema and server, on one asyncpg connection of its own, with plain
statements and no checks (the floor): BEGIN (read committed, PostgreSQL's default); UPDATE the seats' stacks
(``executemany``); INSERT the movement (``RETURNING id``); INSERT the ledger legs (``executemany``); INSERT the
hand history row; upsert player_stats (``executemany``); UPDATE tables.updated_at; COMMIT. ``raw + log`` adds the
log row, as the baseline of ``append_step``.

Every case settles on its own table with deals of alternating sign; one round runs one deal of each, in a rotating
order. Reported: median and p99 latency per deal, deals per second (from the median), the ratio subject / raw
(goal: at least 0.5x), and the queries sent to the server per deal (asyncpg's count: an ``executemany`` or
``fetchmany`` is one), which is what the ratio mostly comes down to: the subject's 11 are the raw 8 less the
``tables.updated_at`` update, plus what makes it safe (the idempotency key looked up, the table and its seats read
and checked, the replay outcome stored).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

import asyncpg

from bot.storage import Database, DealToSettle, LogEntry
from bot.storage.postgres import PostgresDatabase

GUILD = 1
MEMBERS = (101, 102)
BUY_IN = 1_000_000
SUMMARY: dict[str, Any] = {  # about what an Oicho deal's summary holds
    "void": False,
    "dealer": 0,
    "owed": [0, 12, 0, 7],
    "seeds": ["9f2c" * 16],
    "commitments": ["4be1" * 16],
    "events": [["RoundDealt", 1, ["3", "7", "10", "1"], [], 50]] * 6,
}
BENCH_DB = "fudaba_bench"


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def queries(pool: Any) -> int:
    """Queries sent so far on the pool's connections (asyncpg's per-connection count)."""
    return sum(h._con._protocol.queries_count for h in pool._holders if h._con is not None)


async def chip_table(db: Database, channel: int, seats: int) -> tuple[int, list[tuple[int, int | None]]]:
    table = await db.open_table(GUILD, channel, "oicho", MEMBERS[0], buy_in=BUY_IN)
    for user in MEMBERS:
        await db.join_table(table.id, user, display_name=f"member{user}")
    for i in range(seats - len(MEMBERS)):
        await db.add_bot_seat(table.id, f"bot{i}")
    started = await db.start_table(table.id, record='{"v":1}')
    return table.id, [(s.id, s.user_id) for s in started.seats]


def deltas_of(deal: int, seats: int) -> list[int]:
    base = [10 * (i + 1) for i in range(seats - 1)]
    base.append(-sum(base))
    sign = 1 if deal % 2 else -1
    return [sign * d for d in base]


async def raw_settle(
    conn: asyncpg.Connection,
    table_id: int,
    seats: list[tuple[int, int | None]],
    deal: int,
    deltas: list[int],
    log_seq: int | None = None,
) -> None:
    """The baseline: the same rows, plain statements, no checks, no reads."""
    now = time.time()
    async with conn.transaction():
        if log_seq is not None:
            await conn.execute(
                "INSERT INTO table_log (table_id, seq, kind, seat, deal, body) VALUES ($1, $2, 'action', 0, NULL, $3)",
                table_id,
                log_seq,
                "bet~1~1",
            )
        await conn.executemany(
            "UPDATE seats SET stack = stack + $1 WHERE id = $2",
            [(d, sid) for (sid, _), d in zip(seats, deltas, strict=True)],
        )
        movement_id = await conn.fetchval(
            "INSERT INTO movements (guild_id, reason, idem_key, actor_id, table_id, note, created_at)"
            " VALUES ($1, 'settlement', $2, NULL, $3, NULL, $4) RETURNING id",
            GUILD,
            f"raw:{table_id}:{deal}",
            table_id,
            now,
        )
        await conn.executemany(
            "INSERT INTO ledger (movement_id, guild_id, account, user_id, seat_id, delta)"
            " VALUES ($1, $2, 'seat', $3, $4, $5)",
            [(movement_id, GUILD, uid, sid, d) for (sid, uid), d in zip(seats, deltas, strict=True) if d],
        )
        await conn.execute(
            "INSERT INTO hand_history (table_id, guild_id, game, deal_no, deltas, summary, created_at, posted)"
            " VALUES ($1, $2, 'oicho', $3, $4, $5, $6, 0)",
            table_id,
            GUILD,
            deal,
            json.dumps(deltas),
            json.dumps(SUMMARY, separators=(",", ":")),
            now,
        )
        await conn.executemany(
            "INSERT INTO player_stats (guild_id, user_id, game, net, deals_played, updated_at)"
            " VALUES ($1, $2, 'oicho', $3, 1, $4) ON CONFLICT (guild_id, user_id, game) DO UPDATE SET"
            " net = player_stats.net + excluded.net, deals_played = player_stats.deals_played + 1,"
            " updated_at = excluded.updated_at",
            [(GUILD, uid, d, now) for (_, uid), d in zip(seats, deltas, strict=True) if uid is not None],
        )
        await conn.execute("UPDATE tables SET updated_at = $1 WHERE id = $2", now, table_id)


async def run(url: str, deals: int, seats: int) -> None:
    db = await Database.open(url)
    assert isinstance(db, PostgresDatabase)
    raw = await asyncpg.connect(url)
    try:
        await db.set_config(GUILD, actor_id=0, starting_balance=100 * BUY_IN, bots_play_for_chips=True)
        tables = {
            name: await chip_table(db, 1000 + i, seats)
            for i, name in enumerate(("raw", "raw + log", "settle_deal", "append_step"))
        }

        def runner(name: str) -> Callable[[int], Awaitable[Any]]:
            table_id, seat_rows = tables[name]
            if name == "raw":
                return lambda deal: raw_settle(raw, table_id, seat_rows, deal, deltas_of(deal, seats))
            if name == "raw + log":
                return lambda deal: raw_settle(raw, table_id, seat_rows, deal, deltas_of(deal, seats), log_seq=deal)
            if name == "settle_deal":
                return lambda deal: db.settle_deal(table_id, deal, deltas_of(deal, seats), SUMMARY)
            return lambda deal: db.append_step(
                table_id,
                [LogEntry(deal, "action", "bet~1~1", seat=0)],
                settle=[DealToSettle(deal, tuple(deltas_of(deal, seats)), SUMMARY)],
            )

        runners = {name: runner(name) for name in tables}
        names = list(runners)
        samples: dict[str, list[float]] = {name: [] for name in names}
        sent: dict[str, int] = {}
        warmup = 50
        for deal in range(1, warmup + deals + 1):
            k = deal % len(names)
            for name in names[k:] + names[:k]:  # rotate, so no case always runs first
                before = queries(db._pool) + raw._protocol.queries_count
                start = time.perf_counter()
                await runners[name](deal)
                elapsed = time.perf_counter() - start
                sent[name] = queries(db._pool) + raw._protocol.queries_count - before
                if deal > warmup:
                    samples[name].append(elapsed)
        assert await db.verify_ledger() == [], "the ledger does not reconcile"
        retries = db.retries
    finally:
        await raw.close()
        await db.close()

    medians = {name: statistics.median(s) for name, s in samples.items()}
    print(f"deals: {deals} per case, seats: {seats} (2 members, {seats - 2} bots, chip table), PostgreSQL")
    for name in names:
        m, p99 = medians[name], pct(samples[name], 0.99)
        print(
            f"{name:>12}: median {m * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms, {1 / m:,.0f} deals/s,"
            f" {sent[name]} queries per deal"
        )
    print(f"serialization retries: {retries}")
    print(f"settle_deal / raw: {medians['raw'] / medians['settle_deal']:.2f}x (goal >= 0.5x)")
    print(f"append_step / raw + log: {medians['raw + log'] / medians['append_step']:.2f}x (goal >= 0.5x)")


async def with_database(url: str | None, deals: int, seats: int) -> None:
    if url is not None:
        admin = await asyncpg.connect(url)
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
            await admin.execute(f"CREATE DATABASE {BENCH_DB}")
        finally:
            await admin.close()
        bench_url = _with_database(url, BENCH_DB)
        try:
            await run(bench_url, deals, seats)
        finally:
            admin = await asyncpg.connect(url)
            try:
                await admin.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
            finally:
                await admin.close()
        return
    await run(server_url(), deals, seats)


def _with_database(url: str, name: str) -> str:
    """``url`` naming the database ``name`` instead (keeping its query string)."""
    head, _, query = url.partition("?")
    scheme, _, rest = head.partition("://")
    authority = rest.split("/", 1)[0]
    return f"{scheme}://{authority}/{name}" + (f"?{query}" if query else "")


_server: Any = None


def server_url() -> str:
    global _server
    from tests.pg import PgServer

    _server = PgServer.start_new()
    print(f"server: {_server.version()} ({_server.bindir}), data in {_server.base}")
    return str(_server.url("postgres"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="?", type=int, default=2000)
    parser.add_argument("seats", nargs="?", type=int, default=4)
    parser.add_argument("--url", default=os.environ.get("FUDABA_BENCH_PG_URL"))
    args = parser.parse_args()
    try:
        asyncio.run(with_database(args.url, args.deals, args.seats))
    finally:
        if _server is not None:
            _server.destroy()


if __name__ == "__main__":
    main()
