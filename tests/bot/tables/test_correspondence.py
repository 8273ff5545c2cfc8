"""Correspondence tables, as members meet them: a decision may take hours; whoever is to act gets one mention in
the table's thread per decision (nobody else is pinged); "My hand" works days later; away play starts only when
the long timer runs out, even across restarts; and /tables lists every table a member sits at."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.conftest import make_bot
from tests.bot.tables.driver import enabled_actions, live_table, lobby_message, place_of, said

pytestmark = pytest.mark.place("thread")

HOUR = 3600


async def later(world: Any, clock: Any, seconds: float) -> None:
    """Let time pass for the bot's wall clock and its timers alike, ten minutes at a time: the bot renews its leases
    every 10 s, and on PostgreSQL each renewal is a real round trip (a busy machine takes seconds an hour), while
    SimCord gives one advance 5 s of real time."""
    while seconds > 0:
        step = min(seconds, HOUR / 6)
        clock.advance(step)
        await world.env.advance_time(step)
        seconds -= step


def mentions(world: Any, thread: Any) -> list[tuple[str, list[int]]]:
    """Every message of the table's thread that pings someone: (its text, whom it pings)."""
    stored = world.env.backend.messages.get(thread.id, {})
    return [(m.content, list(m.ping_user_ids)) for m in sorted(stored.values(), key=lambda m: m.id) if m.ping_user_ids]


async def _correspondence_table(world: Any, host: Any, guest: Any, hours: int = 24) -> Any:
    opened = await host.slash(world.channel, "play", game="oicho", pace="correspondence", hours=hours)
    assert opened.ephemeral, said(opened)
    lobby = lobby_message(world)
    assert f"up to {hours} h per decision" in str(lobby.embeds[0].to_dict())
    await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    await world.env.settle()
    return next(s for s in world.env.bot.tables.tables.values() if s.host_id == host.id)


def _member(world: Any, table: Any, seat: int) -> Any:
    user = table.seats[seat].user_id
    return next(m for m in (world.alice, world.bob, world.carol, world.mod) if m.id == user)


async def _hand(world: Any, table: Any, member: Any) -> Any:
    """ "My hand" on the table's message in its thread (a fresh private panel)."""
    thread = place_of(world, table)
    message = next(m for m in thread.history() if m.id == table.message_id)
    result = await member.click(message, custom_id=f"fdb:{table.id}:t:hand")
    assert result.ephemeral and result.response.components, said(result)
    return result


async def test_a_correspondence_game_over_days_with_restarts_keeps_its_deadlines_and_mentions_once(
    world: Any, database: Any, clock: Any
) -> None:
    table = await _correspondence_table(world, world.alice, world.bob)
    thread = place_of(world, table)
    assert (table.pace, table.turn_seconds) == ("correspondence", 24 * HOUR)
    seat = min(table.engine.to_act())
    mover = _member(world, table, seat)
    other = world.bob if mover is world.alice else world.alice
    # One mention, for the member to act only, with the deadline.
    pinged = mentions(world, thread)
    assert [who for _, who in pinged] == [[mover.id]]
    assert "<t:" in pinged[0][0] and f"#{table.id}" in pinged[0][0]
    # 23 hours later, and after a restart, the member is still not away; nobody is mentioned again.
    await later(world, clock, 12 * HOUR)
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    await later(world, clock, 11 * HOUR)
    table = live_table(world)
    assert not table.seats[seat].away and seat in table.engine.to_act()
    assert len(mentions(world, thread)) == 1
    # "My hand" works a day later: a fresh private panel.
    panel = await _hand(world, table, mover)
    bet = next(a for a in enabled_actions(panel) if a.startswith("bet "))
    await mover.click(panel.response, custom_id=enabled_actions(panel)[bet])
    panel = await _hand(world, table, mover)
    await mover.click(panel.response, custom_id=enabled_actions(panel)["done"])
    await world.env.settle()
    # A next decision of the member who just moved is not mentioned (they are at the table); another member's is.
    acting = sorted(table.engine.to_act())
    assert acting and all(not table.seats[s].bot for s in acting)
    pinged = mentions(world, thread)
    if acting == [seat]:
        assert len(pinged) == 1
    else:
        assert len(pinged) == 2 and pinged[-1][1] == [table.seats[acting[0]].user_id]
    count = len(pinged)
    # Restarted between moves, then left alone past the long timer: the member to act is marked away, and
    # only then does the policy play for them.
    await later(world, clock, 20 * HOUR)
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    table = live_table(world)
    assert len(mentions(world, thread)) == count, "a restart mentions nobody twice for one decision"
    waiting = acting[0]
    assert not table.seats[waiting].away
    serial = table.engine.serial
    await later(world, clock, 4 * HOUR + 1)
    await world.env.settle()
    table = live_table(world) if world.env.bot.tables.tables else table
    assert table.seats[waiting].away, "the deadline survived the restart"
    assert table.engine.serial > serial, "away play began when the long timer ran out"
    del other


async def test_a_member_sits_at_several_correspondence_tables_and_sees_them_in_slash_tables(
    world: Any, clock: Any
) -> None:
    first = await _correspondence_table(world, world.alice, world.bob, hours=48)
    second = await _correspondence_table(world, world.carol, world.alice, hours=6)
    listed = await world.alice.slash(world.channel, "tables")
    assert listed.ephemeral
    text = listed.response.embeds[0].description or ""
    lines = text.splitlines()
    assert len(lines) == 2 and f"#{first.id}" in lines[0] and f"#{second.id}" in lines[1]
    for table, line in zip((first, second), lines, strict=True):
        assert f"<#{table.channel_id}>" in line
        acting = sorted(table.engine.to_act())
        if table.seat_of(world.alice.id) in acting:
            assert "your move" in line and "<t:" in line, line
        else:
            assert "waiting for" in line, line
    nobody = await world.mod.slash(world.channel, "tables")
    assert "not seated at any table" in said(nobody)


async def test_hours_are_refused_beyond_the_servers_longest_and_without_correspondence(world: Any) -> None:
    await world.mod.slash(world.channel, "config set", correspondence_max_hours=12)
    refused = await world.alice.slash(world.channel, "play", game="oicho", pace="correspondence", hours=24)
    assert "1 to 12 hours" in said(refused)
    refused = await world.alice.slash(world.channel, "play", game="oicho", hours=5)
    assert "only apply to a correspondence table" in said(refused)
    assert world.env.bot.tables.tables == {}
    assert await world.env.bot.db.balance(world.guild.id, world.alice.id) == 1000
