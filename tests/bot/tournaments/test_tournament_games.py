"""The other games' table sizes played to the payout: Hachi-Hachi Trick at tables of four or more (five entrants: a
table of three and one of two beside a bot), in Japanese; Open-Face Chinese Poker at one table of four on
PostgreSQL, restarted in the middle of a round; and a tournament whose tables open in the channel itself."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import Database
from tests.bot.conftest import LOCALES, make_bot
from tests.bot.tournaments.helpers import (
    START_BALANCE,
    later,
    open_tournament,
    over,
    press,
    run_until,
    store,
    text_of,
    tournament,
    tournament_message,
)


async def check_paid(world: Any, database: Database, tournament_id: int, members: list[Any]) -> None:
    """Over and paid: balances are the start, less the buy-in, plus the prize; the prizes are the pool; each round's
    chips won add up to the scores; the ledger and the escrow reconcile."""
    found = await tournament(world, tournament_id)
    assert found.status == "finished" and found.pool == 0
    assert sum(e.prize or 0 for e in found.entries) == found.buy_in * len(found.entries)
    for member in members:
        entry = found.entry(member.id)
        assert entry is not None
        assert await database.balance(world.guild.id, member.id) == START_BALANCE - found.buy_in + (entry.prize or 0)
    nets = await store(world).round_nets(tournament_id)
    for entry in found.entries:
        assert entry.score == sum(played[entry.user_id] for played in nets.values())
    assert await database.verify_ledger(world.guild.id) == []
    assert await store(world).escrow_problems(world.guild.id) == []


@pytest.mark.place("thread")
async def test_a_hachi_hachi_tournament_at_tables_of_four_in_japanese(
    world: Any, database: Database, clock: Any
) -> None:
    dave = world.guild.add_member(world.env.create_user("dave"))
    members = [world.alice, world.bob, world.carol, world.mod, dave]
    for member in members:
        LOCALES[member.id] = "ja"  # their Discord, and the server's language (the public messages follow it)
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, game="hachi_hachi", table_size=4, rounds=2, deals_per_round=1)
    joined = await press(world, world.alice, tid, "参加登録")
    assert "トーナメント #" in " ".join(m.content or "" for m in [joined.response, *joined.followups] if m)
    for member in members[1:]:
        await press(world, member, tid, "参加登録")
    shown = text_of(tournament_message(world, tid))
    assert "参加者（5 人）" in shown and "賞金プール" in shown and "50 % / 30 % / 20 %" in shown
    await later(world, clock, 300)
    tables = await store(world).round_tables(tid, 1)
    assert [(len(t.members), t.bots) for t in tables] == [(3, 0), (2, 1)]
    await run_until(world, clock, lambda: over(world, tid))
    await check_paid(world, database, tid, members)
    shown = text_of(tournament_message(world, tid))
    assert "トーナメントは終了し" in shown and "チップ" in shown
    said = "\n".join(m.content or "" for m in world.channel.history())
    assert "ラウンド 1/2 を開始します" in said and "最終順位と賞金" in said


@pytest.mark.place("thread")
@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_an_ofc_tournament_at_one_table_of_four_on_postgresql(world: Any, database: Database, clock: Any) -> None:
    members = [world.alice, world.bob, world.carol, world.mod]
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, game="ofc", table_size=4, rounds=2, deals_per_round=1, payout="40-30-20-10")
    for member in members:
        await press(world, member, tid, "Sign up")
    await later(world, clock, 300)
    tables = await store(world).round_tables(tid, 1)
    assert [(len(t.members), t.bots, t.status) for t in tables] == [(4, 0, "playing")]
    await world.env.restart_bot(make_bot(database, clock))  # in the middle of the round
    await run_until(world, clock, lambda: over(world, tid))
    await check_paid(world, database, tid, members)
    found = await tournament(world, tid)
    # Four paid places for four entrants: everyone is paid something unless tied below the top.
    assert sum(1 for e in found.entries if e.prize) >= 2


async def test_a_tournament_in_the_channel_itself_takes_one_table(world: Any, database: Database, clock: Any) -> None:
    """A server whose tables open in the channel: one table fits, so the tournament takes one table's entrants."""
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, game="oicho", table_size=2, rounds=1, deals_per_round=1, payout="winner")
    await press(world, world.alice, tid, "Sign up")
    await press(world, world.bob, tid, "Sign up")
    refused = await press(world, world.carol, tid, "Sign up")
    assert "full (2 entrants)" in " ".join(m.content or "" for m in [refused.response, *refused.followups] if m)
    assert await database.balance(world.guild.id, world.carol.id) in (None, START_BALANCE)
    await later(world, clock, 300)
    tables = await store(world).round_tables(tid, 1)
    assert len(tables) == 1 and tables[0].channel_id == world.channel.id and not world.channel.threads
    await run_until(world, clock, lambda: over(world, tid))
    await check_paid(world, database, tid, [world.alice, world.bob])
