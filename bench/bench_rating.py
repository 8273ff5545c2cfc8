"""Rating one finished 7-player game, against openskill's own update and the bare write of the same rows.

    python bench/bench_rating.py [games]

The subject is what rating a finished game costs through ``bot.storage``: ``RatingQueries.rate`` (the transaction a
table's closing runs the same body in, :func:`bot.storage.ratings.rate_game`): the source looked up (rated once),
the rating period and the running season read, the seven members' ratings read, openskill's Plackett-Luce update,
then the rated game, its seven places and the seven ratings written.

Two baselines, measured in the same run on the same file:

* ``openskill rate`` -- ``MODEL.rate`` for the same seven players and places, nothing else: the model's own cost;
* ``bare write`` -- the same rows written with plain aiosqlite calls on the same connection, no checks, no reads, the
  ratings already known: BEGIN IMMEDIATE; INSERT the rated game; INSERT the seven places; upsert the seven ratings;
  COMMIT (each call a trip to aiosqlite's thread, as ``bench_settle.py``'s baseline);
* ``bare, on loop`` -- the same statements on the connection's own sqlite3 handle, on the event loop, as the storage
  runs a write transaction that can start at once: the tightest floor for the writes.

The floor the subject is measured against is ``openskill rate`` + ``bare, on loop`` (goal: at most 2x): what is
left is the storage's reads (the source, the period, the season, the seven ratings) and its bookkeeping. Members are drawn from a pool of
60 with random final scores, ties included, so after the warm-up every rating read finds a row; each round runs the
three in a rotating order, so a burst of load on a shared machine hits them alike. Reported: median and p99 per game
and the ratios of the medians.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from bot.storage import Database
from bot.storage.ratings import (
    INSERT_GAME,
    INSERT_PLACE,
    MODEL,
    MODEL_NAME,
    UPSERT_RATING,
    RatingQueries,
    Standing,
    ordinal,
    places,
    rate_members,
)

GUILD = 1
SEATS = 7
POOL = 60


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def a_game(rng: random.Random) -> list[Standing]:
    members = rng.sample(range(1000, 1000 + POOL), SEATS)
    return [Standing(user, rng.choice([-40, -20, -10, 0, 0, 10, 20, 40])) for user in members]


async def bare_write(db: Database, game: int, standings: list[Standing], after: list[tuple[float, float]]) -> None:
    """The baseline: the rows of one rated game, written with plain statements and nothing checked or read."""
    conn = db._conn  # type: ignore[attr-defined]
    now = time.time()
    place = places([s.score for s in standings])
    await conn.execute("BEGIN IMMEDIATE")
    cur = await conn.execute(INSERT_GAME, (GUILD, "bare", f"bare:{game}", None, 0, None, MODEL_NAME, now))
    rated_id = cur.lastrowid
    await conn.executemany(
        INSERT_PLACE,
        [
            (rated_id, p, s.user_id, s.score, place[p], 25.0, 25 / 3, *a)
            for p, (s, a) in enumerate(zip(standings, after, strict=True))
        ],
    )
    await conn.executemany(
        UPSERT_RATING,
        [
            (GUILD, "bare", 0, s.user_id, *a, ordinal(*a), game, MODEL_NAME, now)
            for s, a in zip(standings, after, strict=True)
        ],
    )
    await conn.execute("COMMIT")


def bare_write_inline(db: Database, game: int, standings: list[Standing], after: list[tuple[float, float]]) -> None:
    """The same baseline run on the event loop itself, on the connection's own sqlite3 handle, as the storage runs a
    write transaction that can start at once (no trip to aiosqlite's thread per statement)."""
    conn = db._conn._conn  # type: ignore[attr-defined]
    now = time.time()
    place = places([s.score for s in standings])
    conn.execute("BEGIN IMMEDIATE")
    cur = conn.execute(INSERT_GAME, (GUILD, "inline", f"inline:{game}", None, 0, None, MODEL_NAME, now))
    rated_id = cur.lastrowid
    conn.executemany(
        INSERT_PLACE,
        [
            (rated_id, p, s.user_id, s.score, place[p], 25.0, 25 / 3, *a)
            for p, (s, a) in enumerate(zip(standings, after, strict=True))
        ],
    )
    conn.executemany(
        UPSERT_RATING,
        [
            (GUILD, "inline", 0, s.user_id, *a, ordinal(*a), game, MODEL_NAME, now)
            for s, a in zip(standings, after, strict=True)
        ],
    )
    conn.execute("COMMIT")


async def main(games: int) -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(str(Path(tmp) / "rating.db"))
        queries = RatingQueries(db)
        samples: dict[str, list[float]] = {
            "storage rate": [],
            "openskill rate": [],
            "bare write": [],
            "bare, on loop": [],
        }
        names = list(samples)
        warmup = 60
        for game in range(1, warmup + games + 1):
            standings = a_game(rng)
            ranks = places([s.score for s in standings])
            before = [(MODEL.mu, MODEL.sigma)] * SEATS
            after = rate_members(before, ranks)
            runs: dict[str, Any] = {
                "storage rate": lambda g=game, s=standings: queries.rate(GUILD, "ofc", s, source=f"bench:{g}"),
                "openskill rate": None,
                "bare write": lambda g=game, s=standings, a=after: bare_write(db, g, s, a),
            }
            k = game % len(names)
            for name in names[k:] + names[:k]:  # rotate, so no case always runs first
                start = time.perf_counter()
                if name == "openskill rate":
                    MODEL.rate([[MODEL.rating()] for _ in range(SEATS)], ranks=ranks)
                elif name == "bare, on loop":
                    bare_write_inline(db, game, standings, after)
                else:
                    await runs[name]()
                elapsed = time.perf_counter() - start
                if game > warmup:
                    samples[name].append(elapsed)
        rated = await db._scalar("SELECT count(*) FROM rated_games WHERE game = 'ofc'")
        assert rated == warmup + games, rated
        await db.close()

    medians = {name: statistics.median(s) for name, s in samples.items()}
    print(f"games: {games} of {SEATS} members each, from a pool of {POOL}")
    for name in names:
        print(f"{name:>14}: median {medians[name] * 1e3:.3f} ms, p99 {pct(samples[name], 0.99) * 1e3:.3f} ms")
    subject = medians["storage rate"]
    floor = medians["openskill rate"] + medians["bare, on loop"]
    print(f"storage rate / openskill rate: {subject / medians['openskill rate']:.2f}x")
    print(f"storage rate / bare write (aiosqlite): {subject / medians['bare write']:.2f}x")
    print(f"storage rate / (openskill rate + bare write on the loop): {subject / floor:.2f}x (goal <= 2x)")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))
