"""``/history`` and ``/stats`` on a server that has played a million deals, against the raw indexed lookup.

    python bench/bench_history.py [deals] [--backend sqlite|postgresql|both] [--samples N] [--url postgresql://…]

A server is built with ``deals`` settled deals (default 1,000,000) by bulk SQL, not by playing: tables of 50 deals
each, four seats (three members of a pool of 600, one bot), the four games in turn, one table in ten a practice
table; every deal's hand history row, its member seats (``deal_seats``) and, at chip tables, its facts
(``deal_facts``: ``deals``, ``won``/``lost`` and one to three game facts a member, about what real deals give), as
settling writes them. The indexes are dropped during the load and built again after it (as the migration made
them), which is only quicker. SQLite gets no ``ANALYZE`` (the bot never runs one, so its planner works without
statistics); PostgreSQL gets the ``VACUUM ANALYZE`` that autovacuum gives a table after a bulk load (its index-only
scans need the visibility map).

Then, in rounds that alternate subject and baseline for random members (each has played about 5,000 deals) at random
places in their history, so a burst of load on a shared machine hits both alike:

* **/history page** -- ``HistoryQueries.member_deals(guild, member, before=hand)``, ten deals and everything the
  page shows (the deal, where, who sat, the member's chips, whether there are more), against the raw lookup of the
  same index range: the eleven ``(hand_id, position)`` of ``deal_seats``' member key after the anchor, and nothing
  else; and the same with a game filter (``deal_seats_member_game``);
* **/stats** -- ``StatsQueries.member_stats(guild, member)``, every figure of every game, against the same range of
  ``deal_facts_member`` read with nothing else (``count(*)`` and ``sum(value)`` over it).

Both go through the same ``Database._read`` (one trip to SQLite's reader thread; one query on a pooled PostgreSQL
connection), so the ratio is what the query and its rows cost beyond the index read. Reported: median and p99 per
call, and the ratio of the medians (goal: at most 2x).

With ``--backend postgresql`` (or ``both``) a throwaway server is started as the tests do (``tests/pg.py``: a Unix
socket, data on a RAM disk when there is one, fsync off), unless ``--url`` (or ``$FUDABA_BENCH_PG_URL``) names one,
where a database ``fudaba_bench_history`` is created and dropped. The load takes a few minutes at a million deals.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from bot.storage import Database
from bot.storage.replays import HistoryQueries
from bot.storage.stats import StatsQueries
from bot.storage.tx import All

GUILD = 7
DEALS_PER_TABLE = 50
MEMBERS = 600
FIRST_MEMBER = 1000
GAMES = ("oicho", "ofc", "luk_fu", "hachi_hachi")
DROPPED = ("hand_history_guild", "hand_history_unposted", "deal_seats_hand", "deal_seats_member_game")
DROPPED_FACTS = ("deal_facts_member",)
BENCH_DB = "fudaba_bench_history"


# ---------------------------------------------------------------------------------------------------- the data


SEATED = "member, member, member, 🤖 Tanuki"
"""Who sat at each deal, as settling writes it (``deal_seats.seated``)."""


def member_of(table: str, position: str) -> str:
    """The member at a position (0-2) of a table, as SQL: three different members of the pool at each table."""
    return f"({FIRST_MEMBER} + ({table} * 7 + {position} * 131) % {MEMBERS})"


def load_statements(deals: int, series: Callable[[str], str]) -> list[str]:
    """The bulk inserts, in portable SQL over ``series(count)``: a source of rows numbered ``i`` from 1."""
    tables = (deals + DEALS_PER_TABLE - 1) // DEALS_PER_TABLE
    game = " CASE {t} % 4 WHEN 0 THEN 'oicho' WHEN 1 THEN 'ofc' WHEN 2 THEN 'luk_fu' ELSE 'hachi_hachi' END"
    # Deal i's chips by position: a, b and -(a + b) for the members, 0 for the bot.
    a, b = "((i * 3) % 11 - 5)", "((i * 7) % 9 - 4)"
    table_of, deal_of = f"(1 + (i - 1) / {DEALS_PER_TABLE})", f"(1 + (i - 1) % {DEALS_PER_TABLE})"
    delta = f"CASE p.position WHEN 0 THEN {a} WHEN 1 THEN {b} ELSE -({a} + {b}) END"
    member_seats = f"{series(str(deals))} CROSS JOIN (SELECT 0 AS position UNION ALL SELECT 1 UNION ALL SELECT 2) p"
    return [
        "INSERT INTO tables (id, guild_id, channel_id, game, host_id, status, stake, buy_in, practice, created_at,"
        f" updated_at) SELECT i, {GUILD}, 100000 + i, {game.format(t='i')}, {member_of('i', '0')}, 'ended', 1, 100,"
        f" CASE WHEN i % 10 = 9 THEN 1 ELSE 0 END, i, i FROM {series(str(tables))}",
        "INSERT INTO seats (id, table_id, position, user_id, bot_name, stack, buy_in, joined_at, display_name)"
        f" SELECT (i - 1) * 4 + p.position + 1, i, p.position, CASE WHEN p.position < 3 THEN"
        f" {member_of('i', 'p.position')} END, CASE WHEN p.position = 3 THEN 'Tanuki' END, 100, 100, i,"
        f" CASE WHEN p.position < 3 THEN 'member' ELSE 'Tanuki' END FROM {series(str(tables))} CROSS JOIN"
        " (SELECT 0 AS position UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) p",
        "INSERT INTO hand_history (id, table_id, guild_id, game, deal_no, deltas, summary, created_at, posted)"
        f" SELECT i, {table_of}, {GUILD}, {game.format(t=table_of)}, {deal_of},"
        f" '[' || {a} || ',' || {b} || ',' || (-({a} + {b})) || ',0]', '{{}}', i, 1 FROM {series(str(deals))}",
        "INSERT INTO deal_seats (guild_id, user_id, hand_id, position, game, delta, table_id, deal_no, created_at,"
        " channel_id, parent_id, seated, seat_id, practice)"
        f" SELECT {GUILD}, {member_of(table_of, 'p.position')}, i, p.position, {game.format(t=table_of)}, {delta},"
        f" {table_of}, {deal_of}, i, 100000 + {table_of}, NULL, '{SEATED}', ({table_of} - 1) * 4 + p.position + 1,"
        f" CASE WHEN {table_of} % 10 = 9 THEN 1 ELSE 0 END FROM {member_seats}",
    ]


FACT_STATEMENTS = [
    # Every chip deal's base facts, then one to three game facts a member (names as the games give them).
    "INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value)"
    " SELECT hand_id, guild_id, user_id, game, 'deals', 1 FROM deal_seats WHERE practice = 0",
    "INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value) SELECT hand_id, guild_id, user_id, game,"
    " CASE WHEN delta > 0 THEN 'won' ELSE 'lost' END, delta FROM deal_seats WHERE practice = 0 AND delta <> 0",
    "INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value) SELECT hand_id, guild_id, user_id, game,"
    " CASE game WHEN 'oicho' THEN 'piles' WHEN 'ofc' THEN 'royalties' WHEN 'luk_fu' THEN 'tricks' ELSE 'dealt' END,"
    " 1 + (hand_id + position) % 4 FROM deal_seats WHERE practice = 0",
    "INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value) SELECT hand_id, guild_id, user_id, game,"
    " CASE game WHEN 'oicho' THEN 'hand_kabu' WHEN 'ofc' THEN 'scoops' WHEN 'luk_fu' THEN 'declared'"
    " ELSE 'played' END, 1 FROM deal_seats WHERE practice = 0 AND (hand_id + position) % 3 = 0",
    "INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value) SELECT hand_id, guild_id, user_id, game,"
    " CASE game WHEN 'oicho' THEN 'bank' WHEN 'ofc' THEN 'foul' WHEN 'luk_fu' THEN 'declared_won'"
    " ELSE 'pot_won' END, 1 FROM deal_seats WHERE practice = 0 AND (hand_id + 2 * position) % 5 = 0",
]


def load_sqlite(path: str, deals: int) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -1000000")
    names = (*DROPPED, *DROPPED_FACTS)
    indexes = dict(
        conn.execute(f"SELECT name, sql FROM sqlite_master WHERE name IN ({', '.join('?' * len(names))})", names)
    )
    conn.execute("BEGIN")
    for name in indexes:
        conn.execute(f"DROP INDEX {name}")

    def series(count: str) -> str:
        return f"(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {count}) SELECT i FROM n)"

    for statement in [*load_statements(deals, series), *FACT_STATEMENTS]:
        conn.execute(statement)
    for sql in indexes.values():
        conn.execute(sql)
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


async def load_postgres(url: str, deals: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        names = [*DROPPED, *DROPPED_FACTS]
        indexes = {
            r["indexname"]: r["indexdef"]
            for r in await conn.fetch(
                "SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY($1::text[])", names
            )
        }
        async with conn.transaction():
            for name in indexes:
                await conn.execute(f"DROP INDEX {name}")

            def series(count: str) -> str:
                return f"generate_series(1, {count}) AS n(i)"

            for statement in [*load_statements(deals, series), *FACT_STATEMENTS]:
                await conn.execute(statement)
            for sql in indexes.values():
                await conn.execute(sql)
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


# ---------------------------------------------------------------------------------------------------- timing


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(db: Database, samples: int, rng: random.Random) -> dict[str, tuple[list[float], list[float]]]:
    """(subject, raw) seconds per call for each case, the two interleaved sample by sample."""
    history, stats = HistoryQueries(db), StatsQueries(db)
    members = [FIRST_MEMBER + m for m in range(MEMBERS)]
    spans: dict[int, tuple[int, int]] = {}
    for member in members:
        [row] = await db._all(
            "SELECT min(hand_id) AS lo, max(hand_id) AS hi FROM deal_seats WHERE guild_id = ? AND user_id = ?",
            (GUILD, member),
        )
        if row["lo"] is not None:
            spans[member] = (row["lo"], row["hi"])
    page_raw = (
        "SELECT hand_id, position FROM deal_seats WHERE guild_id = ? AND user_id = ? AND hand_id < ?"
        " ORDER BY hand_id DESC LIMIT 11"
    )
    game_raw = (
        "SELECT hand_id, position FROM deal_seats INDEXED BY deal_seats_member_game"
        " WHERE guild_id = ? AND user_id = ? AND game = ? AND hand_id < ?"
        " ORDER BY hand_id DESC LIMIT 11"
    )
    stats_raw = "SELECT count(*), sum(value) FROM deal_facts WHERE guild_id = ? AND user_id = ?"

    Pair = tuple[Callable[[], Awaitable[Any]], Callable[[], Awaitable[Any]]]
    cases: dict[str, Callable[[int, int, str], Pair]] = {
        "/history page": lambda m, anchor, g: (
            lambda: history.member_deals(GUILD, m, before=anchor),
            lambda: db._read(lambda: All(page_raw, (GUILD, m, anchor))),
        ),
        "/history page, one game": lambda m, anchor, g: (
            lambda: history.member_deals(GUILD, m, game=g, before=anchor),
            lambda: db._read(lambda: All(game_raw, (GUILD, m, g, anchor))),
        ),
        "/stats": lambda m, anchor, g: (
            lambda: stats.member_stats(GUILD, m),
            lambda: db._read(lambda: All(stats_raw, (GUILD, m))),
        ),
    }
    timings: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in cases}
    chosen = list(spans)
    for n in range(samples):
        member = rng.choice(chosen)
        lo, hi = spans[member]
        anchor = rng.randint(lo, hi + 1)
        game = rng.choice(GAMES)
        for name, make in cases.items():
            subject, raw = make(member, anchor, game)
            pair = [(0, subject), (1, raw)] if n % 2 == 0 else [(1, raw), (0, subject)]
            for which, call in pair:
                start = time.perf_counter()
                await call()
                timings[name][which].append(time.perf_counter() - start)
    return timings


def report(backend: str, timings: dict[str, tuple[list[float], list[float]]]) -> None:
    print(f"\n{backend}:")
    print(f"  {'case':<26} {'subject median':>15} {'p99':>9} {'raw median':>12} {'p99':>9} {'ratio':>7}")
    for name, (subject, raw) in timings.items():
        ratio = statistics.median(subject) / statistics.median(raw)
        print(
            f"  {name:<26} {statistics.median(subject) * 1e3:>12.3f} ms {pct(subject, 0.99) * 1e3:>6.3f} ms"
            f" {statistics.median(raw) * 1e3:>9.3f} ms {pct(raw, 0.99) * 1e3:>6.3f} ms {ratio:>6.2f}x"
        )


async def counts(db: Database) -> str:
    found = []
    for table in ("hand_history", "deal_seats", "deal_facts"):
        found.append(f"{table} {await db._scalar(f'SELECT count(*) FROM {table}'):,}")
    return ", ".join(found)


async def warm_up(db: Database, rng: random.Random) -> None:
    await measure(db, 30, rng)


async def bench_sqlite(deals: int, samples: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.db")
        async with await Database.open(path):
            pass
        started = time.perf_counter()
        load_sqlite(path, deals)
        loaded = time.perf_counter() - started
        async with await Database.open(path) as db:
            print(f"\nSQLite: {await counts(db)} (loaded in {loaded:.0f} s)")
            rng = random.Random(1)
            await warm_up(db, rng)
            report("SQLite", await measure(db, samples, rng))


async def bench_postgres(url: str | None, deals: int, samples: int) -> None:
    import asyncpg

    server = None
    if url is None:
        from tests.pg import PgServer

        server = PgServer.start_new()
        url = str(server.url("postgres"))
    admin = await asyncpg.connect(url)
    await admin.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
    await admin.execute(f"CREATE DATABASE {BENCH_DB}")
    await admin.close()
    head, _, query = url.partition("?")
    bench_url = head.rsplit("/", 1)[0] + f"/{BENCH_DB}" + (f"?{query}" if query else "")
    try:
        async with await Database.open(bench_url):
            pass
        started = time.perf_counter()
        await load_postgres(bench_url, deals)
        loaded = time.perf_counter() - started
        async with await Database.open(bench_url) as db:
            print(f"\nPostgreSQL: {await counts(db)} (loaded in {loaded:.0f} s)")
            rng = random.Random(1)
            await warm_up(db, rng)
            report("PostgreSQL", await measure(db, samples, rng))
    finally:
        admin = await asyncpg.connect(url)
        await admin.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
        await admin.close()
        if server is not None:
            server.destroy()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", type=int, nargs="?", default=1_000_000)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--url", default=os.environ.get("FUDABA_BENCH_PG_URL"))
    args = parser.parse_args()
    print(f"a server with {args.deals:,} settled deals; {args.samples} samples a case")
    if args.backend in ("sqlite", "both"):
        asyncio.run(bench_sqlite(args.deals, args.samples))
    if args.backend in ("postgresql", "both"):
        asyncio.run(bench_postgres(args.url, args.deals, args.samples))
    print("\nhistory and stats / raw indexed lookup: done")


if __name__ == "__main__":
    main()
