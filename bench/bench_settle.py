"""Settlement throughput: the storage path settling one finished deal, against a raw aiosqlite transaction.

    python bench/bench_settle.py [deals] [seats]

The subject is what a chip table (two members and ``seats - 2`` bots, not a practice table, so stacks,
ledger legs, hand history and player stats all move) pays to settle one deal through ``bot.storage``:

* ``settle_deal`` -- ``Database.settle_deal(table, deal, deltas, summary)``;
* ``append_step`` -- ``Database.append_step(table, [one log row], settle=[DealToSettle(...)])``, which is
  what a live table writes when an action finishes a deal (less the restart point, which is the record's
  cost, not the settlement's).

The baseline writes the same rows on the same schema, the same file and the same connection, with plain
``await conn.execute/executemany`` calls and no checks at all: BEGIN IMMEDIATE; UPDATE the seats' stacks;
INSERT the movement; INSERT the ledger legs; INSERT the hand history row; upsert player_stats; UPDATE
tables.updated_at; COMMIT. (It leaves the movement's replay outcome empty: storing it needs the ids the
inserts make, i.e. one more statement, which the subject pays.) ``raw + log`` adds the one log row, as the
baseline of ``append_step``. Nothing in it can be made cheaper without dropping a statement, so it is the
floor the storage layer's checks (idempotency, table status, seat count, balance, no overdraw) are
measured against.

Every subject and baseline settles on its own table with deals of alternating sign, so stacks never
run out and every table's rows grow alike; one round runs one deal of each, in a rotating order, so a
burst of load on a shared machine hits them all alike. Reported: median and p99 latency per deal, deals
per second (from the median) and the ratio subject / raw (goal: at least 0.5x), and the thread hops per
deal (each aiosqlite call is a round trip through the connection's worker thread, counted by wrapping
``Connection._execute``), which is what the ratio mostly comes down to. The baseline pays one per statement;
the subject, a write transaction that can start at once, runs whole on the event loop and pays none
(``bot.storage.sqlite``).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from bot.storage import Database, DealToSettle, LogEntry

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


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class HopCounter:
    """Counts calls through ``aiosqlite.Connection._execute``: one per trip to the connection's thread."""

    def __init__(self, conn: Any) -> None:
        self.count = 0
        inner = conn._execute

        async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await inner(fn, *args, **kwargs)

        conn._execute = counted


async def chip_table(db: Database, channel: int, seats: int) -> tuple[int, list[tuple[int, int | None]]]:
    """A playing chip table with two members and bots; returns its id and (seat id, user id) by position."""
    table = await db.open_table(GUILD, channel, "oicho", MEMBERS[0], buy_in=BUY_IN)
    for user in MEMBERS:
        await db.join_table(table.id, user, display_name=f"member{user}")
    for i in range(seats - len(MEMBERS)):
        await db.add_bot_seat(table.id, f"bot{i}")
    started = await db.start_table(table.id, record='{"v":1}')
    return table.id, [(s.id, s.user_id) for s in started.seats]


def deltas_of(deal: int, seats: int) -> list[int]:
    """Chips by position summing to zero; the sign alternates by deal so stacks stay near the buy-in."""
    base = [10 * (i + 1) for i in range(seats - 1)]
    base.append(-sum(base))
    sign = 1 if deal % 2 else -1
    return [sign * d for d in base]


async def raw_settle(
    db: Database,
    table_id: int,
    seats: list[tuple[int, int | None]],
    deal: int,
    deltas: list[int],
    log_seq: int | None = None,
) -> None:
    """The baseline: the same rows, plain statements, no checks, no reads."""
    conn = db._conn
    now = time.time()
    await conn.execute("BEGIN IMMEDIATE")
    if log_seq is not None:
        await conn.execute(
            "INSERT INTO table_log (table_id, seq, kind, seat, deal, body) VALUES (?, ?, 'action', 0, NULL, ?)",
            (table_id, log_seq, "bet~1~1"),
        )
    await conn.executemany(
        "UPDATE seats SET stack = stack + ? WHERE id = ?", [(d, sid) for (sid, _), d in zip(seats, deltas, strict=True)]
    )
    cur = await conn.execute(
        "INSERT INTO movements (guild_id, reason, idem_key, actor_id, table_id, note, created_at)"
        " VALUES (?, 'settlement', ?, NULL, ?, NULL, ?)",
        (GUILD, f"raw:{table_id}:{deal}", table_id, now),
    )
    movement_id = cur.lastrowid
    await conn.executemany(
        "INSERT INTO ledger (movement_id, guild_id, account, user_id, seat_id, delta) VALUES (?, ?, 'seat', ?, ?, ?)",
        [(movement_id, GUILD, uid, sid, d) for (sid, uid), d in zip(seats, deltas, strict=True) if d],
    )
    await conn.execute(
        "INSERT INTO hand_history (table_id, guild_id, game, deal_no, deltas, summary, created_at, posted)"
        " VALUES (?, ?, 'oicho', ?, ?, ?, ?, 0)",
        (table_id, GUILD, deal, json.dumps(deltas), json.dumps(SUMMARY, separators=(",", ":")), now),
    )
    await conn.executemany(
        "INSERT INTO player_stats (guild_id, user_id, game, net, deals_played, updated_at)"
        " VALUES (?, ?, 'oicho', ?, 1, ?) ON CONFLICT (guild_id, user_id, game) DO UPDATE SET"
        " net = net + excluded.net, deals_played = deals_played + 1, updated_at = excluded.updated_at",
        [(GUILD, uid, d, now) for (_, uid), d in zip(seats, deltas, strict=True) if uid is not None],
    )
    await conn.execute("UPDATE tables SET updated_at = ? WHERE id = ?", (now, table_id))
    await conn.execute("COMMIT")


async def main(deals: int, seats: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(str(Path(tmp) / "settle.db"))
        await db.set_config(GUILD, actor_id=0, starting_balance=100 * BUY_IN, bots_play_for_chips=True)
        hops = HopCounter(db._conn)
        tables = {
            name: await chip_table(db, 1000 + i, seats)
            for i, name in enumerate(("raw", "raw + log", "settle_deal", "append_step"))
        }

        def runner(name: str) -> Callable[[int], Awaitable[Any]]:
            table_id, seat_rows = tables[name]
            if name == "raw":
                return lambda deal: raw_settle(db, table_id, seat_rows, deal, deltas_of(deal, seats))
            if name == "raw + log":
                return lambda deal: raw_settle(db, table_id, seat_rows, deal, deltas_of(deal, seats), log_seq=deal)
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
        hop_counts: dict[str, int] = {}
        warmup = 20
        for deal in range(1, warmup + deals + 1):
            k = deal % len(names)
            for name in names[k:] + names[:k]:  # rotate, so no case always runs first
                before = hops.count
                start = time.perf_counter()
                await runners[name](deal)
                elapsed = time.perf_counter() - start
                hop_counts[name] = hops.count - before
                if deal > warmup:
                    samples[name].append(elapsed)
        assert await db.verify_ledger() == [], "the ledger does not reconcile"
        await db.close()

    medians = {name: statistics.median(s) for name, s in samples.items()}
    print(f"deals: {deals} per case, seats: {seats} (2 members, {seats - 2} bots, chip table)")
    for name in names:
        m, p99 = medians[name], pct(samples[name], 0.99)
        print(
            f"{name:>12}: median {m * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms, {1 / m:,.0f} deals/s,"
            f" {hop_counts[name]} thread hops per deal"
        )
    print(f"settle_deal hops: {hop_counts['settle_deal']} (raw: {hop_counts['raw']})")
    print(f"append_step hops: {hop_counts['append_step']} (raw + log: {hop_counts['raw + log']})")
    print(f"settle_deal / raw: {medians['raw'] / medians['settle_deal']:.2f}x (goal >= 0.5x)")
    print(f"append_step / raw + log: {medians['raw + log'] / medians['append_step']:.2f}x (goal >= 0.5x)")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, int(sys.argv[2]) if len(sys.argv) > 2 else 4))
