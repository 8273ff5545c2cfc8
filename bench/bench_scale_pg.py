"""Many open tables across two bot processes on PostgreSQL: the p99 of one action against one table, memory per
table, and the restart of a process with its half of the tables (issue 10's measure).

    python bench/bench_scale_pg.py [--tables 10000] [--rate 25] [--seconds 20] [--url postgresql://…]

Without ``--url`` (or ``$FUDABA_BENCH_PG_URL``) it starts a throwaway server as the tests do (``tests/pg.py``: a
Unix socket, the data directory on a RAM disk when there is one, ``fsync`` and ``synchronous_commit`` off); with
``--url`` it runs on that server, in two databases it creates and drops (``fudaba_scale``, ``fudaba_scale_base``).

What is measured, and what is not. Storage + engine + runtime session only: ``bot.storage`` on PostgreSQL, the
game engines, and ``TableSession`` (``load`` to rebuild a table, ``commit`` for a move: engine step plus the
``append_step`` transaction under the table's lock). No Discord, no gateway, no interaction router, no table
pictures, no message edits, no timers or bots' pacing: the bot's real click path also renders the table and
edits its message (see ``bench_action.py`` and ``bench_capacity.py`` for those), so these figures are a floor of
a click, not a click.

The world. ``--tables`` Oicho-Kabu chip tables (default 10,000), each with two members of its own and a
house-funded bot, in guilds of ``TABLES_PER_GUILD`` tables (each table its own channel); the guild ids are chosen
with ``bot.shards.shard_of`` so that half the tables are on shard 0 and half on shard 1 of 2. Each table is made
as ``kill_player.py`` (and ``Lobby.open``/``Lobby._start``) make one: ``open_table``, ``join_table`` twice,
``add_bot_seat``, ``start_table`` with the opening record and log rows, then ``SETUP_MOVES`` random legal moves
through ``TableSession.commit``. To make 10,000 affordable the set-up runs in two processes (one per shard) with
``--setup-concurrency`` tables under way at once in each (default 2; each worker makes one guild's tables at a
time, since concurrent joins in one guild conflict): the same calls, hence the same rows, only overlapped. While
it runs the database is ANALYZEd every few seconds, and once more at the end (what autovacuum does on its own; see
``keep_analyzing``). Its wall time is printed (about 2-3.5 minutes for 10,000 here). The rules are Oicho's
defaults except a long game (``dealer_cycles`` 10 x ``dealer_rounds`` 50, as ``bench_age.py``), so that a
baseline's single table, taking every action of its process, does not reach the end of its game during the run.

Two baselines, each with one table per process, each run before and after the big world (samples pooled: a
shared machine drifts):

* "one table (same database)": the same two processes on the big database, each restoring and driving only the
  first table of its shard (the other 9,998 sit idle, unleased). Only the number of tables a process holds
  differs: this is the baseline of the action p99.
* "one table (own database)": a database of two tables (one per shard), made the same way: the baseline of the
  restart, and a second baseline of the action p99. On so small a database PostgreSQL's planner reads the small
  tables whole, the serializable transactions' predicate locks cover whole relations, and the two processes'
  moves of unrelated tables conflict and retry (hundreds of retries a run, printed): a slower baseline, so its
  ratio flatters the big world.

A bot process (this file with ``--child``, started with ``subprocess``, one per shard; the set-up processes have
closed the database, so the leases are free, as after a clean stop):

* restart: from before ``Database.open`` (the interpreter and imports excluded; the process's launch to ready,
  imports included, is printed too) to "every table of mine answers": ``list_active_tables`` filtered by
  ``shard_of``, ``acquire_leases`` (every table must be taken), a ``TableSession`` per table as
  ``Restorer._adopt`` builds it, then every engine rebuilt with ``TableSession.load`` under the table's lock, one
  after the other as ``Restorer._load_all`` does, but eagerly (the bot does it in the background, answering
  clicks meanwhile). "first action possible" is when the registered tables' first one (rebuilt first) could take
  a move. Both processes restore at the same time, on the same two cores. Then ``tune_process()``, as the bot does
  once ready.
* memory per table: ``VmRSS`` after the restore (after ``tune_process``'s collection) minus ``VmRSS`` after
  ``Database.open`` and before ``list_active_tables``, divided by the process's tables.
* actions: once both processes are restored (a barrier through the parent), each makes ``--rate`` actions a
  second for ``--seconds`` seconds, each on a table chosen at random among its own: at its arrival time a task
  waits for any earlier action of that table, picks a random legal move for the seat to act (a member's as a
  click, with its decision id; the bot's ``by_policy``), and commits it. Its latency runs from the arrival time
  (so a late event loop counts) to the end of ``commit``. The baselines do the same with their single table per
  process.

Printed: set-up time; per world the restart (per process: database open, tables listed, leases taken, sessions
registered, first action possible, every table rebuilt), memory per table, and the actions' median and p99 over
both processes; then the ratios to the baselines: p99 (goal <= 1.5x), median, restart time (and per table)
against the one-table restart. At 10,000 tables most of the wait before the first action is ``acquire_leases``
(3.5 s of 4.3 s in one run): it rebuilds the set of open table ids once per wanted id, O(wanted x open). At the end each process checks ``verify_ledger`` for each of its guilds and
reports a problem if there is one (the parent aborts on it), and counts serialization retries.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

import asyncpg

from bot.shards import shard_of
from bot.storage import Database
from bot.tables.session import SeatInfo, TableSession
from games.core.rng import Shuffler
from games.registry import get_game
from tests.bot.tables.kill_player import random_move

ROOT = Path(__file__).resolve().parent.parent
SHARDS = 2
BUY_IN = 100_000
TABLES_PER_GUILD = 50
SETUP_MOVES = 3
ANALYZE_SECONDS = 5.0
BENCH_DB = "fudaba_scale"
BASE_DB = "fudaba_scale_base"


def rules() -> Any:
    return get_game("oicho").rules_model(
        dealer_cycles=10, dealer_rounds=50, dealer_bust_ends_tenure=False, dealer_may_resign=False
    )


def guild_of(shard: int, index: int) -> int:
    """The ``index``-th guild of ``shard`` (a snowflake-like id whose shard is ``shard``)."""
    guild = ((index * SHARDS + shard) << 22) | 12345
    assert shard_of(guild, SHARDS) == shard
    return guild


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def emit(kind: str, body: dict[str, Any]) -> None:
    print(f"{kind} {json.dumps(body)}", flush=True)


# ---------------------------------------------------------------------------------------------- set-up child


async def make_table(db: Database, guild: int, channel: int, users: tuple[int, int], rng: random.Random) -> None:
    spec = get_game("oicho")
    rule = rules()
    row = await db.open_table(
        guild,
        channel,
        spec.id,
        users[0],
        buy_in=BUY_IN,
        stake=1,
        rules=rule.model_dump(mode="json"),
        practice=False,
        lang="en",
    )
    for user in users:
        await db.join_table(row.id, user, display_name=f"member{user}")
    await db.add_bot_seat(row.id, "Bot0")
    session = TableSession(
        id=row.id,
        guild_id=guild,
        channel_id=channel,
        game=spec.id,
        host_id=users[0],
        rules=rule,
        stake=1,
        buy_in=BUY_IN,
        practice=False,
        lang="en",
        status="lobby",
        seats=[],
    )
    lobby = await db.get_table(row.id)
    assert lobby is not None
    await session.begin(db, [SeatInfo(s.user_id, s.name, bot=s.is_bot) for s in lobby.seats], Shuffler())
    for _ in range(SETUP_MOVES):
        await move(db, session, rng)


async def move(db: Database, session: TableSession, rng: random.Random) -> None:
    engine = session.playing_engine()
    seat = min(engine.to_act())
    action = random_move(session, seat, rng)
    await session.commit(db, seat, action, decision=engine.decision_id(seat), by_policy=session.seats[seat].bot)


async def keep_analyzing(url: str) -> None:
    """ANALYZE every few seconds while the tables are made, as autovacuum would over a slower growth: with the
    statistics of a near-empty database the planner reads the growing tables whole, the serializable
    transactions' predicate locks then cover whole tables, and concurrent joins in different guilds conflict
    until one gives up after its 60 retries (seen at 10,000 tables, 2 x 8 at once)."""
    conn = await asyncpg.connect(url)
    try:
        while True:
            await asyncio.sleep(ANALYZE_SECONDS)
            await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def setup_child(url: str, shard: int, tables: int, concurrency: int) -> None:
    rng = random.Random(shard)
    db = await Database.open(url)
    try:
        guilds = [guild_of(shard, i) for i in range((tables + TABLES_PER_GUILD - 1) // TABLES_PER_GUILD)]
        for guild in guilds:
            await db.set_config(guild, actor_id=0, starting_balance=10 * BUY_IN, bots_play_for_chips=True)
        todo = iter(range(len(guilds)))

        async def worker() -> None:
            # A guild at a time per worker: concurrent joins in one guild (its wallets, the house) are
            # serializable transactions that conflict with one another.
            for g in todo:
                for i in range(g * TABLES_PER_GUILD, min(tables, (g + 1) * TABLES_PER_GUILD)):
                    users = (1_000_000 + 2 * i, 1_000_001 + 2 * i)
                    await make_table(db, guilds[g], 10_000_000 * (shard + 1) + i, users, rng)
                    if (i + 1) % 1000 == 0:
                        print(f"shard {shard}: {i + 1} tables made", flush=True)

        analyzer = asyncio.create_task(keep_analyzing(url)) if shard == 0 else None
        try:
            await asyncio.gather(*(worker() for _ in range(concurrency)))
        finally:
            if analyzer is not None:
                analyzer.cancel()
        emit("setup", {"tables": tables, "retries": getattr(db, "retries", 0)})
    finally:
        await db.close()


# ---------------------------------------------------------------------------------------------- bot child


async def bot_child(url: str, shard: int, rate: float, seconds: float, seed: int, limit: int) -> None:
    from bot.tuning import tune_process

    rules()  # the game's modules imported and warm, as a bot's are before it restores
    t0 = time.perf_counter()
    db = await Database.open(url)
    rss_before = rss_kib()
    t_open = time.perf_counter()
    rows = [row for row in await db.list_active_tables() if shard_of(row.guild_id, SHARDS) == shard]
    if limit:
        rows = rows[:limit]  # a baseline on the big database: drive only this many of the shard's tables
    t_listed = time.perf_counter()
    held = await db.acquire_leases(row.id for row in rows)
    t_leased = time.perf_counter()
    assert held == {row.id for row in rows}, f"shard {shard}: {len(rows) - len(held)} leases not taken"
    sessions: list[TableSession] = []
    for row in rows:  # Restorer._adopt
        spec = get_game(row.game)
        sessions.append(
            TableSession(
                id=row.id,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                game=row.game,
                host_id=row.host_id,
                rules=spec.rules_model.model_validate(row.rules),
                stake=row.stake,
                buy_in=row.buy_in,
                practice=row.practice,
                lang=row.lang,
                status=row.status,
                seats=[SeatInfo(s.user_id, s.name, bot=s.is_bot, away=s.away) for s in row.seats],
                message_id=row.message_id,
                message_created_at=row.message_created_at or 0.0,
            )
        )
    guilds = sorted({row.guild_id for row in rows})
    del rows
    t_registered = time.perf_counter()
    t_first = 0.0
    for index, session in enumerate(sessions):  # Restorer._load_all, eagerly
        async with session.lock:
            settled = await session.load(db)
        assert not settled
        session.playing_engine()
        if index == 0:
            t_first = time.perf_counter()
        if index % 8 == 7:
            await asyncio.sleep(0)
    t_all = time.perf_counter()
    tune_process()
    rss_after = rss_kib()
    emit(
        "restored",
        {
            "tables": len(sessions),
            "open": t_open - t0,
            "listed": t_listed - t0,
            "leased": t_leased - t0,
            "registered": t_registered - t0,
            "first": t_first - t0,
            "all": t_all - t0,
            "rss_before": rss_before,
            "rss_after": rss_after,
        },
    )

    if sys.stdin.readline().strip() != "go":
        return
    rng = random.Random(seed)
    latencies: list[float] = []
    last: dict[int, asyncio.Task[None]] = {}
    ended = 0

    async def action(session: TableSession, arrival: float, before: asyncio.Task[None] | None) -> None:
        nonlocal ended
        if before is not None:
            await asyncio.wait([before])
        if session.status != "playing":
            ended += 1
            return
        await move(db, session, rng)
        latencies.append(time.perf_counter() - arrival)

    start = time.perf_counter() + 0.05
    count = int(rate * seconds)
    tasks: list[asyncio.Task[None]] = []
    for i in range(count):
        arrival = start + i / rate
        delay = arrival - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        session = rng.choice(sessions)
        task = asyncio.create_task(action(session, arrival, last.get(session.id)))
        last[session.id] = task
        tasks.append(task)
    await asyncio.gather(*tasks)
    problems = [p for guild in guilds for p in await db.verify_ledger(guild)]
    retries = getattr(db, "retries", 0)
    await db.close()
    emit("done", {"latencies": latencies, "ended": ended, "problems": problems[:5], "retries": retries})


# ---------------------------------------------------------------------------------------------- parent


def child(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, __file__, "--child", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )


def read(proc: subprocess.Popen[str], kind: str) -> dict[str, Any]:
    assert proc.stdout is not None
    for line in proc.stdout:
        head, _, body = line.partition(" ")
        if head == kind:
            return dict(json.loads(body))
        print(f"  (child) {line.rstrip()}")
    raise RuntimeError(f"a child process ended without its {kind!r} line (exit {proc.wait()})")


async def migrate(url: str) -> None:
    """Migrate the new database once, before the set-up processes open it together (two processes migrating an
    empty database at the same time collide on its CREATE TABLEs)."""
    db = await Database.open(url)
    await db.close()


def setup(url: str, tables: int, concurrency: int) -> float:
    asyncio.run(migrate(url))
    start = time.perf_counter()
    halves = [tables // SHARDS + (1 if s < tables % SHARDS else 0) for s in range(SHARDS)]
    procs = [child("setup", url, str(s), str(n), str(concurrency)) for s, n in enumerate(halves)]
    for proc in procs:
        read(proc, "setup")
        proc.wait()
    return time.perf_counter() - start


def run_world(url: str, rate: float, seconds: float, seed: int, limit: int = 0) -> dict[str, Any]:
    launched = time.perf_counter()
    procs = [child("bot", url, str(s), str(rate), str(seconds), str(seed + s), str(limit)) for s in range(SHARDS)]
    restored = []
    for proc in procs:
        r = read(proc, "restored")
        r["launch_to_all"] = time.perf_counter() - launched  # this process's, upper bound (read in order)
        restored.append(r)
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    done = [read(proc, "done") for proc in procs]
    for proc in procs:
        proc.wait()
    for d in done:
        if d["problems"]:
            raise RuntimeError(f"the ledger does not reconcile: {d['problems']}")
    return {
        "restored": restored,
        "done": done,
        "latencies": [x for d in done for x in d["latencies"]],
        "ended": sum(d["ended"] for d in done),
        "retries": sum(d["retries"] for d in done),
    }


def ms(x: float) -> str:
    return f"{x * 1e3:.2f} ms"


def report_world(name: str, world: dict[str, Any], restart: bool = True) -> None:
    print(f"{name}:")
    for shard, r in enumerate(world["restored"] if restart else []):
        n = r["tables"]
        mem = (r["rss_after"] - r["rss_before"]) / n
        print(
            f"  process {shard}: {n} tables; restart: open {ms(r['open'])}, listed {ms(r['listed'])},"
            f" leases taken {ms(r['leased'])}, registered {ms(r['registered'])},"
            f" first action possible {ms(r['first'])}, every table rebuilt {r['all']:.2f} s"
            f" ({ms(r['all'] / n)} per table); launch (imports included) to ready <= {r['launch_to_all']:.2f} s;"
            f" RSS {r['rss_before'] / 1024:.1f} -> {r['rss_after'] / 1024:.1f} MiB ({mem:.1f} KiB per table)"
        )
    lat = world["latencies"]
    print(
        f"  actions: {len(lat)} (both processes), median {ms(statistics.median(lat))}, p99 {ms(pct(lat, 0.99))},"
        f" max {ms(max(lat))}; serialization retries {world['retries']}; skipped (table ended) {world['ended']}"
    )


async def make_databases(url: str, names: list[str], drop_only: bool = False) -> None:
    admin = await asyncpg.connect(url)
    try:
        for name in names:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            if not drop_only:
                await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()


async def analyze(urls: list[str]) -> None:
    """What autovacuum does by itself a while after a bulk insert, so the planner works from the tables' real
    sizes (the bot's database is in that steady state, not just after a bulk load). On a small database the
    planner reads small tables whole, the serializable transactions' predicate locks then cover whole tables,
    and moves of unrelated tables in the two processes conflict and retry: the retries are printed per run."""
    for url in urls:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("ANALYZE")
        finally:
            await conn.close()


def with_database(url: str, name: str) -> str:
    head, _, query = url.partition("?")
    scheme, _, rest = head.partition("://")
    authority = rest.split("/", 1)[0]
    return f"{scheme}://{authority}/{name}" + (f"?{query}" if query else "")


def run(url: str, args: argparse.Namespace) -> None:
    asyncio.run(make_databases(url, [BENCH_DB, BASE_DB]))
    try:
        big, base = with_database(url, BENCH_DB), with_database(url, BASE_DB)
        print(
            f"tables: {args.tables} (half per shard, {TABLES_PER_GUILD} per guild), 2 bot processes,"
            f" {args.rate:g} actions/s per process for {args.seconds:g} s"
        )
        setup(base, SHARDS, 1)
        took = setup(big, args.tables, args.setup_concurrency)
        asyncio.run(analyze([big, base]))
        print(
            f"set-up of {args.tables} tables: {took:.1f} s ({ms(took / args.tables)} per table, 2 processes x"
            f" {args.setup_concurrency} at once)",
            flush=True,
        )
        worlds: dict[str, dict[str, Any]] = {}
        order = [
            ("one table (own database), before", base, 0),
            ("one table (same database), before", big, 1),
            (f"{args.tables} tables", big, 0),
            ("one table (same database), after", big, 1),
            ("one table (own database), after", base, 0),
        ]
        for seed, (name, db_url, limit) in enumerate(order):
            worlds[name] = run_world(db_url, args.rate, args.seconds, 10 * seed + 1, limit)
    finally:
        asyncio.run(make_databases(url, [BENCH_DB, BASE_DB], drop_only=True))

    for name, world in worlds.items():
        report_world(name, world, restart=not name.startswith("one table (same"))
    world = worlds[f"{args.tables} tables"]
    lat = world["latencies"]

    def pooled(kind: str) -> list[float]:
        return [x for name, w in worlds.items() if name.startswith(f"one table ({kind}") for x in w["latencies"]]

    print("ratios to the baselines (each pooled from its runs before and after):")
    n99, n50 = pct(lat, 0.99), statistics.median(lat)
    for kind, note in (
        ("same database", "1 table per process on the same database, the other tables idle"),
        ("own database", "1 table per process on a database of 2 tables"),
    ):
        base_lat = pooled(kind)
        b99 = pct(base_lat, 0.99)
        print(
            f"  action p99 against {note}: {ms(n99)} / {ms(b99)} = {n99 / b99:.2f}x (goal <= 1.5x);"
            f" median {n50 / statistics.median(base_lat):.2f}x"
        )
    restarts = [w["restored"] for name, w in worlds.items() if name.startswith("one table (own")]
    base_all = statistics.median(r["all"] for rs in restarts for r in rs)
    base_first = statistics.median(r["first"] for rs in restarts for r in rs)
    for shard, r in enumerate(world["restored"]):
        n = r["tables"]
        print(
            f"  process {shard} restart with {n} tables: every table rebuilt in {r['all']:.2f} s ="
            f" {r['all'] / base_all:.0f}x the one-table restart ({ms(base_all)}), {r['all'] / n / base_all:.3f}x"
            f" per table; first action possible {r['first'] / base_first:.2f}x"
        )
    mem = [(r["rss_after"] - r["rss_before"]) / r["tables"] for r in world["restored"]]
    rss0 = statistics.mean(r["rss_before"] for r in world["restored"])
    print(
        f"  memory per table: {statistics.mean(mem):.1f} KiB ({statistics.mean(mem) / rss0 * 100:.3f}% of a"
        f" process's {rss0 / 1024:.1f} MiB before its restore)"
    )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        mode, rest = sys.argv[2], sys.argv[3:]
        if mode == "setup":
            asyncio.run(setup_child(rest[0], int(rest[1]), int(rest[2]), int(rest[3])))
        else:
            asyncio.run(bot_child(rest[0], int(rest[1]), float(rest[2]), float(rest[3]), int(rest[4]), int(rest[5])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=25.0, help="actions per second per process")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--setup-concurrency", type=int, default=2)
    parser.add_argument("--url", default=os.environ.get("FUDABA_BENCH_PG_URL"))
    args = parser.parse_args()
    if args.url is not None:
        run(args.url, args)
        return
    from tests.pg import PgServer

    server = PgServer.start_new()
    try:
        print(f"server: {server.version()}, data in {server.base}")
        run(server.url("postgres"), args)
    finally:
        server.destroy()


if __name__ == "__main__":
    main()
