"""A bot process killed (SIGKILL) at a random moment of play leaves a database from which the table comes back
whole: the ledger reconciles, every chip minted is still somewhere, and the restored engine is the one the log
replays to and takes the next move."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage import Database
from bot.storage.core import LEASE_SECONDS
from bot.tables.session import SeatInfo, TableSession
from games.core.record import TableRecord
from games.registry import get_game
from games.replay import replay
from tests.bot.conftest import FakeClock
from tests.bot.tables.kill_player import GUILD, random_move

SCRIPT = Path(__file__).with_name("kill_player.py")


async def chips_accounted(db: Database) -> tuple[int, int]:
    """(chips held: wallets + funded stacks + pots + house, chips minted)."""
    wallets = await db._scalar("SELECT coalesce(sum(balance), 0) FROM wallets WHERE guild_id = ?", (GUILD,))
    stacks = await db._scalar(
        "SELECT coalesce(sum(s.stack), 0) FROM seats s JOIN tables t ON t.id = s.table_id"
        " WHERE t.guild_id = ? AND t.practice = 0",
        (GUILD,),
    )
    pots = await db._scalar("SELECT coalesce(sum(pot), 0) FROM tables WHERE guild_id = ? AND practice = 0", (GUILD,))
    house = await db._scalar(
        "SELECT coalesce(sum(balance), 0) FROM guild_accounts WHERE guild_id = ? AND kind = 'house'", (GUILD,)
    )
    mint = await db._scalar(
        "SELECT coalesce(sum(balance), 0) FROM guild_accounts WHERE guild_id = ? AND kind = 'mint'", (GUILD,)
    )
    return int(wallets) + int(stacks) + int(pots) + int(house), -int(mint)


def play_and_kill(path: str, seed: int, rng: random.Random, identity_dir: str | None = None) -> int:
    """Run the player on ``path`` and SIGKILL it at a random moment of play; returns its table's id."""
    player = subprocess.Popen(
        [sys.executable, str(SCRIPT), str(path), str(seed), *([identity_dir] if identity_dir else [])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = player.stdout.readline() if player.stdout else ""
        assert line.startswith("ready "), (line, player.stderr.read() if player.stderr else "")
        time.sleep(rng.uniform(0.0, 1.0))  # a random moment of play (a commit in flight, most likely)
    finally:
        player.send_signal(signal.SIGKILL)
        player.wait(10)
    assert player.returncode == -signal.SIGKILL, f"seed {seed}: the player ended before the kill"
    return int(line.split()[1])


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where the killed process keeps its data: an SQLite file, or a new database on the session's PostgreSQL."""
    if request.param == "sqlite":
        yield str(tmp_path / "killed.db")
        return
    pg = request.getfixturevalue("pg")
    name = asyncio.run(pg.create())
    try:
        yield pg.url(name)
    finally:
        asyncio.run(pg.drop(name))


async def test_a_process_killed_mid_play_leaves_a_table_that_restores_whole(target: str) -> None:
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    path = target
    table_id = play_and_kill(path, seed, rng)

    # Restored by a new process, once the killed one's lease ran out.
    clock = FakeClock(time.time() + 2 * LEASE_SECONDS)
    async with await Database.open(path, clock=clock) as db:
        assert await db.verify_ledger() == [], seed
        held, minted = await chips_accounted(db)
        assert held == minted, seed
        [row] = await db.list_active_tables()
        assert row.id == table_id and row.status == "playing"
        assert await db.acquire_leases([row.id]) == {row.id}
        spec = get_game(row.game)
        session = TableSession(
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
        )
        await session.load(db)  # as Restorer._load does
        engine = session.playing_engine()

        # The restored engine is the one the whole log replays to.
        full = await db.full_record(row.id)
        assert full is not None
        replayed = replay(TableRecord.loads(full), open_end=True)
        assert (replayed.deal_no, list(replayed.stacks), sorted(replayed.to_act())) == (
            engine.deal_no,
            list(engine.stacks),
            sorted(engine.to_act()),
        ), seed
        assert session.seq == (await db.table_log(row.id))[-1].seq
        seat = min(engine.to_act())
        assert [a.text for a in replayed.legal_actions(seat) if hasattr(a, "text")] == [
            a.text for a in engine.legal_actions(seat) if hasattr(a, "text")
        ], seed

        # And it takes the next moves, through the one way in.
        for _ in range(5):
            seat = min(engine.to_act())
            await session.commit(db, seat, random_move(session, seat, rng), by_policy=session.seats[seat].bot)
        assert await db.verify_ledger() == [], seed
        held, minted = await chips_accounted(db)
        assert held == minted, seed


async def test_a_bot_restarted_after_a_kill_takes_its_tables_back_at_once(tmp_path: Path) -> None:
    """The killed process gave no lease back; its successor, started from the same data directory, is the same
    owner (bot.instance) and drives the table at once, while any other process still waits for the lease to run
    out."""
    from bot.instance import claim, release_all

    seed = random.randrange(1 << 30)
    path, identity = str(tmp_path / "killed.db"), str(tmp_path / "data")
    table_id = play_and_kill(path, seed, random.Random(seed), identity_dir=identity)
    try:
        owner = claim(identity)  # the lock died with the killed process: its identity is free to take up
        other = claim(identity)  # while this process holds it, a second one gets an identity of its own
        assert other != owner
        async with await Database.open(path, owner=other) as stranger:
            assert await stranger.acquire_leases([table_id]) == set(), seed
        async with await Database.open(path, owner=owner) as db:
            assert await db.acquire_leases([table_id]) == {table_id}, seed
            assert await db.verify_ledger() == [], seed
    finally:
        release_all()
