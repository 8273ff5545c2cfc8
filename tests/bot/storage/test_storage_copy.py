"""``python -m bot.storage copy``: a SQLite database with finished and open tables, copied into PostgreSQL, verified,
and then played on identically on both."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Database, DealToSettle, LogEntry, PanelRow
from bot.storage.copy import CopyError, copy_database, verify_copy
from bot.storage.limits import LimitsQueries
from bot.storage.presets import PresetQueries
from tests.pg import PgDatabases

GUILD = 10
MOD = 99


async def populate(db: Database, clock: Any) -> dict[str, int]:
    """A bit of everything: money moved, a finished table, a cancelled one, a lobby, a table mid-game with a pot,
    a log, a restart point, an unposted result and a panel, a practice table, house rules."""
    await db.set_config(GUILD, actor_id=MOD, give_enabled=True, bots_play_for_chips=True, allowed_channel_ids=[7, 8])
    for user in range(1, 6):
        await db.claim_daily(GUILD, user)
        clock.advance(1.25)
    await db.grant(GUILD, 1, 5000, actor_id=MOD, note="prize")
    await db.take(GUILD, 2, 100, actor_id=MOD)
    await db.give(GUILD, 1, 3, 250)
    await db.ensure_member(GUILD + 1, 1)  # another guild

    finished = await db.open_table(GUILD, 100, "oicho", 1, buy_in=300, stake=10, rules={"rounds": 6})
    for user in (1, 2):
        await db.join_table(finished.id, user, display_name=f"user{user}")
    await db.add_bot_seat(finished.id, "Tanuki")
    await db.start_table(finished.id, record='{"v":1}', entries=[LogEntry(1, "shuffle", '{"seed":"aa"}', deal=1)])
    await db.append_step(
        finished.id,
        [LogEntry(2, "action", "bet~1", seat=0)],
        settle=[DealToSettle(1, (60, -20, -40), {"seeds": ["aa"]})],
        checkpoint=("{}", 2),
    )
    await db.append_step(finished.id, [LogEntry(3, "action", "stay", seat=1)], close=True)

    cancelled = await db.open_table(GUILD, 101, "lukfu", 2, buy_in=100)
    await db.join_table(cancelled.id, 2)
    await db.cancel_table(cancelled.id)

    lobby = await db.open_table(GUILD, 102, "ofc", 3, buy_in=200, lang="ja")
    await db.join_table(lobby.id, 3)
    await db.join_table(lobby.id, 4)
    await db.leave_lobby(lobby.id, 4)

    playing = await db.open_table(GUILD, 103, "hachi", 4, buy_in=400)
    for user in (4, 5, 1):
        await db.join_table(playing.id, user)
    await db.start_table(playing.id, record='{"v":2}', entries=[LogEntry(1, "shuffle", '{"seed":"bb"}', deal=1)])
    await db.append_step(
        playing.id,
        [LogEntry(2, "action", "fold", seat=0)],
        settle=[DealToSettle(1, (-20, -30, -40), {"void": False}, pot=90)],
        checkpoint=('{"s":1}', 2),
    )
    await db.append_step(playing.id, [LogEntry(3, "shuffle", '{"seed":"cc"}', deal=2)], away={1: True})
    await db.save_panel(PanelRow(playing.id, 0, 1234, "token", "ja", clock.now))

    practice = await db.open_table(GUILD, 104, "ofc", 5, buy_in=5000, practice=True)
    await db.join_table(practice.id, 5)
    await db.add_bot_seat(practice.id, "Kappa")
    await db.start_table(practice.id, record='{"v":3}')
    await db.settle_deal(practice.id, 1, [700, -700], {})

    await db.set_house_rule(
        GUILD, "oicho", {"arashi_multiplier": 3}, actor_id=MOD, path="arashi_multiplier", old_value=2, new_value=3
    )
    await PresetQueries(db).save(
        GUILD, "oicho", "Big Bank", {"bank_cap": 80}, rules_schema="abc", actor_id=MOD, limit=25
    )
    limits = LimitsQueries(db)
    await limits.exclude(GUILD, 3, until=clock.now + 7 * 86400)
    await limits.set_loss_limit(GUILD, 1, "daily", 500)
    await limits.set_loss_limit(GUILD, 1, "daily", 900)  # a pending raise
    await limits.set_stake_limit(GUILD, 0, max_stake=20, max_buy_in=2000, actor_id=MOD)
    await limits.set_stake_limit(GUILD, 4242, max_stake=50, actor_id=MOD)
    assert await db.verify_ledger() == []
    return {"finished": finished.id, "lobby": lobby.id, "playing": playing.id, "practice": practice.id}


async def play_on(db: Database, tables: dict[str, int]) -> list[Any]:
    """What the bot does next, after the move: new rows take new ids (the sequences were reset past the copied
    ones), open tables go on from their stored state."""
    out: list[Any] = []
    out.append(await db.restart_point(tables["playing"]))
    out.append(
        await db.append_step(
            tables["playing"],
            [LogEntry(4, "action", "play", seat=1)],
            settle=[DealToSettle(2, (10, 100, -20), {}, pot=-90)],
        )
    )
    out.append(await db.close_table(tables["playing"]))
    out.append(await db.join_table(tables["lobby"], 5))
    out.append(await db.cancel_table(tables["lobby"]))
    out.append(await db.settle_deal(tables["practice"], 2, [-100, 100], {}))
    out.append(await db.close_table(tables["practice"]))
    fresh = await db.open_table(GUILD, 102, "ofc", 2, buy_in=50)
    out.append(fresh)
    out.append(await db.join_table(fresh.id, 2))
    out.append(await db.give(GUILD, 3, 2, 5, key="after"))
    out.append(await db.claim_daily(GUILD, 1))
    out.append(await db.full_record(tables["finished"]))
    out.append(await db.member_history(GUILD, 1))
    out.append(await db.unposted_results())
    out.append(await db.open_panels(tables["playing"], since=0))
    out.append(await db.get_config(GUILD))
    out.append(await db.house_rule_history(GUILD))
    out.append(await PresetQueries(db).presets(GUILD))
    out.append(await db.leaderboard(GUILD, limit=20))
    out.append(await db.net_leaderboard(GUILD, "oicho"))
    out.append(await db.house_balance(GUILD))
    out.append(await db.verify_ledger())
    return out


@pytest.fixture
async def empty_pg(pg: PgDatabases) -> AsyncIterator[str]:
    name = await pg.create(migrated=False)
    try:
        yield pg.url(name)
    finally:
        await pg.drop(name)


async def test_copy_then_both_play_on_identically(tmp_path: Path, empty_pg: str, clock: Any) -> None:
    path = tmp_path / "fudaba.db"
    async with await Database.open(path, clock=clock) as db:
        tables = await populate(db, clock)

    report = await copy_database(path, empty_pg)
    assert report.verified, report.problems
    assert report.ledger_problems == []
    assert report.rows["ledger"] > 30
    assert report.rows["tables"] == 5
    assert report.rows["table_log"] == 6
    assert set(report.rows) == {
        "guild_config",
        "wallets",
        "guild_accounts",
        "tables",
        "seats",
        "movements",
        "ledger",
        "hand_history",
        "player_stats",
        "house_rules",
        "house_rule_audit",
        "table_log",
        "table_panels",
        "deal_starts",
        "deal_seats",
        "deal_facts",
        "deal_facts_pending",
        "table_watchers",
        "rule_presets",
        "seasons",
        "rated_games",
        "rated_places",
        "ratings",
        "season_ratings",
        "season_chips",
        "member_limits",
        "stake_limits",
        "tournaments",
        "tournament_entries",
        "tournament_tables",
        "tournament_seats",
    }

    async with await Database.open(path, clock=clock) as sqlite, await Database.open(empty_pg, clock=clock) as pg:
        assert await play_on(pg, tables) == await play_on(sqlite, tables)
        assert await pg.verify_ledger() == []

    # A non-empty target is refused, and --replace copies over it; the command line says so.
    with pytest.raises(CopyError, match="not empty"):
        await copy_database(path, empty_pg)
    code, out = await command("copy", "--from", str(path), "--to", empty_pg)
    assert code == 2, out
    assert "not empty" in out
    code, out = await command("copy", "--from", str(path), "--to", empty_pg, "--replace")
    assert code == 0, out
    assert "verified" in out


async def command(*args: str) -> tuple[int, str]:
    """``python -m bot.storage ARGS``: its exit status and what it printed."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.storage", *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await process.communicate()
    return process.returncode or 0, out.decode()


async def test_the_verification_finds_a_difference(tmp_path: Path, empty_pg: str, clock: Any) -> None:
    path = tmp_path / "fudaba.db"
    async with await Database.open(path, clock=clock) as db:
        await populate(db, clock)
    assert (await copy_database(path, empty_pg)).verified
    async with await Database.open(path, clock=clock) as sqlite, await Database.open(empty_pg, clock=clock) as pg:
        schema = await sqlite.schema()
        assert await verify_copy(sqlite, pg, schema) == ([], [])
        await pg._exec("UPDATE table_log SET body = 'raise' WHERE seq = 2 AND table_id = 1")
        await pg._exec("UPDATE wallets SET balance = balance + 1 WHERE user_id = 3 AND guild_id = ?", (GUILD,))
        problems, _ = await verify_copy(sqlite, pg, schema)
    assert any(p.startswith("verify_ledger differs") for p in problems), problems
    assert any(p.startswith("wallet balances differ") for p in problems), problems
    assert "table_log: the rows differ" in problems


async def test_the_copy_refuses_what_is_not_a_copy(tmp_path: Path, empty_pg: str) -> None:
    with pytest.raises(CopyError, match="existing SQLite file"):
        await copy_database(tmp_path / "missing.db", empty_pg)
    async with await Database.open(tmp_path / "here.db"):
        pass
    with pytest.raises(CopyError, match="postgresql://"):
        await copy_database(tmp_path / "here.db", str(tmp_path / "other.db"))
