"""Tournaments played to their payout through SimCord, as moderators and members meet them: a moderator opens one,
members sign up with the button, the tables open in threads at the start time, members who do not act are played by
the away policy, each round's tables end after their deals, standings carry over and seat the next round, and the
prize pool is paid out in one movement, the ledger summing to zero."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import Database
from tests.bot.conftest import make_bot
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

pytestmark = pytest.mark.place("thread")


async def _check_paid(world: Any, database: Database, tournament_id: int, members: list[Any]) -> None:
    """The tournament is over and paid: each member's balance is the start, less the buy-in, plus the prize; the
    prizes are the pool; each round's nets are what its tables' seats ended with; the ledger and escrow add up."""
    found = await tournament(world, tournament_id)
    assert found.status == "finished" and found.pool == 0
    pool = found.buy_in * len(found.entries)
    assert sum(e.prize or 0 for e in found.entries) == pool
    for member in members:
        entry = found.entry(member.id)
        assert entry is not None
        balance = await database.balance(world.guild.id, member.id)
        assert balance == START_BALANCE - found.buy_in + (entry.prize or 0), member.name
    nets = await store(world).round_nets(tournament_id)
    assert sorted(nets) == list(range(1, found.rounds + 1))
    for entry in found.entries:
        assert entry.score == sum(round_nets[entry.user_id] for round_nets in nets.values())
    # Each member's chips won at a table are what its settled deals gave their seat (these games carry no pot).
    for round_no, played in nets.items():
        for table in await store(world).round_tables(tournament_id, round_no):
            seats = await database._all(
                "SELECT position, user_id FROM seats WHERE table_id = ? AND left_at IS NULL", (table.table_id,)
            )
            hands = await database.table_history(table.table_id, limit=50)
            for seat in seats:
                if seat["user_id"] is not None:
                    dealt = sum(hand.deltas[seat["position"]] for hand in hands)
                    assert played[seat["user_id"]] == dealt, (round_no, seat["user_id"])
    assert await database.verify_ledger(world.guild.id) == []
    assert await store(world).escrow_problems(world.guild.id) == []


async def test_a_heads_up_tournament_is_played_to_its_payout(world: Any, database: Database, clock: Any) -> None:
    """Oicho-Kabu at tables of two: three entrants make a table of two and one of one beside a bot; two rounds of two
    deals; 65/35."""
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, game="oicho", table_size=2, rounds=2, deals_per_round=2, payout="65-35")
    members = [world.alice, world.bob, world.carol]
    for member in members:
        joined = await press(world, member, tid, "Sign up")
        assert f"signed up for tournament #{tid}" in joined.response.content or "signed up" in text_of(
            joined.followups[0]
        )
    shown = text_of(tournament_message(world, tid))
    assert "Entrants (3)" in shown and "alice" in shown and "300 chips" in shown
    assert await database.balance(world.guild.id, world.alice.id) == START_BALANCE - 100

    await later(world, clock, 300)  # the start time
    found = await tournament(world, tid)
    assert found.status == "running" and found.round == 1
    tables = await store(world).round_tables(tid, 1)
    assert sorted((len(t.members), t.bots) for t in tables) == [(1, 1), (2, 0)]
    threads = {t.id for t in world.channel.threads}
    assert all(t.channel_id in threads for t in tables)
    assert "round 1 of 2 begins" in "\n".join(m.content or "" for m in world.channel.history())
    # Nobody acts: the turn timer marks each member away and the policy plays for them.
    await run_until(world, clock, lambda: over(world, tid))
    await _check_paid(world, database, tid, members)
    for round_no in (1, 2):
        for table in await store(world).round_tables(tid, round_no):
            assert table.status == "ended"
            hands = await database.table_history(table.table_id, limit=20)
            assert len(hands) == 2  # its deals per round, and no more
    shown = text_of(tournament_message(world, tid))
    assert "over and the prize pool has been paid out" in shown and "chips" in shown
    assert not tournament_message(world, tid).components  # no buttons once it runs
    final = "\n".join(m.content or "" for m in world.channel.history())
    assert f"Tournament #{tid} (Oicho-Kabu" in final and "Final standings and prizes" in final


async def test_a_luk_fu_tournament_survives_restarts_in_a_round_and_between_rounds(
    world: Any, database: Database, clock: Any
) -> None:
    """Luk Fu at its three seats: four entrants make two tables, each with a bot. The bot restarts in the middle of
    the first round, and between the rounds (the second round's threads could not be made, so it waits seated but
    unopened), and each time carries on from where it stood."""
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, game="luk_fu", table_size=3, rounds=2, deals_per_round=1, payout="winner")
    members = [world.alice, world.bob, world.carol, world.mod]
    for member in members:
        await press(world, member, tid, "Sign up")
    await later(world, clock, 300)
    first = await store(world).round_tables(tid, 1)
    assert [(len(t.members), t.bots, t.status) for t in first] == [(2, 1, "playing"), (2, 1, "playing")]

    await world.env.restart_bot(make_bot(database, clock))  # in the middle of round 1
    restored = world.env.bot.tables.tables
    assert {t.table_id for t in first} <= set(restored)
    # Round 2's threads cannot be made for now: round 1 ends, round 2 is seated, and its tables wait.
    world.env.inject_error("POST", "/channels/*/messages/*/threads", status=500, times=None)
    await run_until(world, clock, lambda: _round_waits(world, tid, 2))
    world.env.backend.faults.clear()

    await world.env.restart_bot(make_bot(database, clock))  # between the rounds
    await run_until(world, clock, lambda: over(world, tid))
    await _check_paid(world, database, tid, members)
    found = await tournament(world, tid)
    best = max(e.score for e in found.entries)
    winners = [e for e in found.entries if e.score == best]
    assert sum(e.prize or 0 for e in winners) == 400
    assert all(0 <= (e.prize or 0) - 400 // len(winners) < len(winners) for e in winners)
    assert all(e.prize == 0 for e in found.entries if e.score < best)  # winner takes all (a tie for first splits it)
    second = await store(world).round_tables(tid, 2)
    assert [t.status for t in second] == ["ended", "ended"]
    # The tables whose threads could not be made were cancelled as they opened; round 2 was opened afresh.
    cancelled = await database._all("SELECT id FROM tables WHERE status = 'cancelled' AND practice = 1")
    assert cancelled and not {r["id"] for r in cancelled} & {t.table_id for t in second}
    for table in [*first, *second]:
        assert len(await database.table_history(table.table_id, limit=5)) == 1  # its one deal


async def _round_waits(world: Any, tid: int, round_no: int) -> bool:
    """The round is seated, its tables could not open, and the channel was told."""
    found = await tournament(world, tid)
    said = "\n".join(m.content or "" for m in world.channel.history())
    if found.round != round_no or f"A table of round {round_no} could not open yet" not in said:
        return False
    return all(t.status != "playing" for t in await store(world).round_tables(tid, round_no))


async def test_a_round_whose_tables_ended_while_the_bot_was_down_is_scored_after_the_restart(
    world: Any, database: Database, clock: Any, monkeypatch: Any
) -> None:
    """The bot stops after the round's last table ended and before it scored the round (here: the director looks at
    nothing until the restart). The restarted bot scores it, seats the next round and plays on to the payout."""
    from bot.tournaments.director import Director

    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, game="oicho", table_size=2, rounds=2, deals_per_round=1, payout="winner")
    members = [world.alice, world.bob]
    for member in members:
        await press(world, member, tid, "Sign up")
    await later(world, clock, 300)
    assert (await tournament(world, tid)).round == 1

    async def blind(self: Director) -> None:
        return None

    monkeypatch.setattr(Director, "tick", blind)

    async def ended() -> bool:
        return all(t.status == "ended" for t in await store(world).round_tables(tid, 1))

    await run_until(world, clock, ended)
    await later(world, clock, 120)
    assert (await tournament(world, tid)).round == 1 and await store(world).round_nets(tid) == {}
    monkeypatch.undo()
    await world.env.restart_bot(make_bot(database, clock))
    assert (await tournament(world, tid)).round == 2  # scored and seated as soon as the bot was back
    await run_until(world, clock, lambda: over(world, tid))
    await _check_paid(world, database, tid, members)
