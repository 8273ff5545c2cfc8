"""Tables in threads, as members meet them: a channel holds many tables at once, each in its own public thread
started by its lobby message; the journeys that work in a channel (restarts, /table show and stop, /verify, the
end of a game) work in a thread; a server without the permission to make threads is told which is missing and
offered the channel form."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.bot.conftest import make_bot
from tests.bot.tables.driver import live_table, lobby_message, place_of, play_until, press, said, whose_turn

pytestmark = pytest.mark.place("thread")


async def _open(world: Any, host: Any, *others: Any, channel: Any = None) -> Any:
    """``host`` opens an Oicho-Kabu table from the channel; ``others`` join on the lobby message."""
    opened = await host.slash(channel or world.channel, "play", game="oicho")
    assert opened.ephemeral
    lobby = lobby_message(world)
    for member in others:
        await member.click(lobby, label="Join")
    return opened, lobby


async def test_a_table_opens_in_its_own_thread_and_a_channel_holds_several(world: Any) -> None:
    opened, lobby = await _open(world, world.alice, world.bob)
    first = live_table(world)
    # The lobby message is in the channel and starts the table's thread (a thread has its starter's id).
    assert first.parent_id == world.channel.id and first.channel_id == lobby.id
    assert [t.id for t in world.channel.threads] == [lobby.id]
    assert f"<#{lobby.id}>" in said(opened)
    # A second table opens in the same channel at the same time, in a thread of its own.
    await world.carol.slash(world.channel, "play", game="ofc")
    second_lobby = lobby_message(world)
    assert second_lobby.id != lobby.id and len(world.channel.threads) == 2
    tables = world.env.bot.tables.tables
    assert {s.channel_id for s in tables.values()} == {lobby.id, second_lobby.id}
    # Starting: the table is played in the thread; the lobby message says where.
    await world.alice.click(lobby, label="Start")
    thread = place_of(world, first)
    assert first.message_id is not None and any(m.id == first.message_id for m in thread.history())
    assert not any(m.id == first.message_id for m in world.channel.history())
    starter = next(m for m in world.channel.history() if m.id == lobby.id)
    assert f"<#{thread.id}>" in (starter.embeds[0].description or "") and not starter.components
    # Members play in the thread through "My hand", as in a channel.
    seat, mover = _turn_at(world, first)
    panel = await mover.click(table_message_of(world, first), custom_id=f"fdb:{first.id}:t:hand")
    assert panel.ephemeral and panel.response.components
    assert first.engine is not None and seat in first.engine.to_act()


def _turn_at(world: Any, table: Any) -> tuple[int, Any]:
    seat = min(table.engine.to_act())
    user = table.seats[seat].user_id
    return seat, next(m for m in (world.alice, world.bob, world.carol, world.mod) if m.id == user)


def table_message_of(world: Any, table: Any) -> Any:
    return next(m for m in place_of(world, table).history() if m.id == table.message_id)


async def test_a_finished_game_leaves_its_results_in_the_thread_a_line_in_the_channel_and_archives(
    world: Any,
) -> None:
    await world.mod.slash(world.channel, "rules set", game="oicho", option="dealer_rounds", value="1")
    _, lobby = await _open(world, world.alice, world.bob)
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    thread = place_of(world, table)
    members = {world.alice.id: world.alice, world.bob.id: world.bob}
    await play_until(world, members, lambda t: False)
    assert table.id not in world.env.bot.tables.tables and table.engine is not None and table.engine.is_over
    final = next(m for m in thread.history() if m.id == table.message_id)
    assert [e.title for e in final.embeds] == ["The game is over"]
    results = [m for m in thread.history() if m.embeds and "result" in (m.embeds[0].title or "").lower()]
    assert results, "the deals' results are in the thread"
    # In the channel: the lobby message became the one-line summary, and the same line is at the bottom.
    line = world.channel.history()[-1].content
    assert line.startswith("🏁") and f"#{table.id}" in line and "alice" in line and "bob" in line
    assert f"/{thread.id}/{table.message_id}" in line  # a link to the final results
    starter = next(m for m in world.channel.history() if m.id == lobby.id)
    assert starter.embeds[0].description == line and not starter.components
    archived = world.env.backend.get_channel(thread.id).thread_metadata.archived
    assert archived, "the finished table's thread is archived"


async def test_restart_show_stop_and_verify_work_in_a_thread(world: Any, database: Any, clock: Any) -> None:
    _, lobby = await _open(world, world.alice, world.bob)
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    thread = place_of(world, table)
    _, mover = whose_turn(world)
    await press(world, mover, "bet 1 5")
    await world.env.restart_bot(make_bot(database, clock))
    restored = live_table(world)
    assert (restored.channel_id, restored.parent_id) == (thread.id, world.channel.id)
    await press(world, mover, "done")
    # /table show in the thread posts the table again at the bottom of the thread.
    old = restored.message_id
    shown = await world.bob.slash(thread, "table show")
    assert shown.ephemeral
    await world.env.settle()
    assert restored.message_id != old and thread.history()[-1].id == restored.message_id
    # /table show in the channel, with one table in its threads, means that table.
    await world.bob.slash(world.channel, "table show")
    await world.env.settle()
    assert thread.history()[-1].id == restored.message_id
    # /table stop in the thread: the deal in progress is void, every stack goes back, the thread is archived.
    stopped = await world.alice.slash(thread, "table stop")
    assert "void" in said(stopped)
    assert restored.id not in world.env.bot.tables.tables
    assert await database.balance(world.guild.id, world.alice.id) == 1000
    assert world.env.backend.get_channel(thread.id).thread_metadata.archived
    assert world.channel.history()[-1].content.startswith("🛑")
    # /verify names the table, wherever it was played: its first deal's shuffle was never finished (void).
    verified = await world.bob.slash(world.channel, "verify", table_id=restored.id, deal=1)
    assert verified.ephemeral


async def test_table_commands_in_a_channel_with_several_tables_ask_for_the_thread(world: Any) -> None:
    _, first = await _open(world, world.alice, world.bob)
    _, second = await _open(world, world.carol, world.mod)
    answered = await world.alice.slash(world.channel, "table stop")
    assert answered.ephemeral and "several tables" in said(answered)
    assert f"<#{first.id}>" in said(answered) and f"<#{second.id}>" in said(answered)
    assert len(world.env.bot.tables.tables) == 2  # nothing was stopped


async def test_without_the_permission_to_make_threads_the_member_is_told_and_offered_the_channel(
    world: Any, database: Any
) -> None:
    bot_member = world.env.bot.user
    closed = world.guild.create_text_channel(
        "no-threads", overwrites={bot_member: discord.PermissionOverwrite(create_public_threads=False)}
    )
    before = await database.balance(world.guild.id, world.alice.id)
    answered = await world.alice.slash(closed, "play", game="oicho", stake=2)
    text = said(answered)
    assert answered.ephemeral and "Create Public Threads" in text and "Send Messages in Threads" not in text
    assert world.env.bot.tables.tables == {} and await database.balance(world.guild.id, world.alice.id) == before
    assert not [m for m in closed.history() if m.components], "no lobby was posted"
    offer = answered.followups[-1] if answered.followups else answered.response
    opened = await world.alice.click(offer, label="Open it in this channel")
    assert opened.ephemeral and "is open below" in said(opened)
    table = live_table(world)
    assert (table.channel_id, table.parent_id, table.stake) == (closed.id, None, 2)  # the options carried over
    assert closed.threads == []


async def test_a_thread_that_cannot_be_made_cancels_the_table_and_returns_the_buy_in(world: Any, database: Any) -> None:
    world.env.inject_error("POST", "/channels/*/messages/*/threads", status=500, code=0, times=1)
    answered = await world.alice.slash(world.channel, "play", game="oicho")
    assert "could not be made" in said(answered)
    assert world.env.bot.tables.tables == {}
    assert await database.balance(world.guild.id, world.alice.id) == 1000
    assert await database.verify_ledger(world.guild.id) == []
    assert not [m for m in world.channel.history() if m.components], "the lobby message was taken back"
    world.env.errors.clear()


async def test_every_page_of_the_lobby_lives_in_the_channel_until_the_start(world: Any) -> None:
    """Join, leave, add bot and cancel are pressed on the lobby message in the channel; cancelling archives the
    empty thread and refunds every buy-in."""
    _, lobby = await _open(world, world.alice, world.bob, world.carol)
    await world.carol.click(lobby, label="Leave")
    await world.alice.click(lobby, label="Add bot")
    table = live_table(world)
    assert [s.name for s in table.seats] == ["alice", "bob", "Tanuki"]
    await world.alice.click(lobby, label="Cancel")
    assert world.env.bot.tables.tables == {}
    assert world.env.backend.get_channel(lobby.id).thread_metadata.archived
    starter = next(m for m in world.channel.history() if m.id == lobby.id)
    assert "cancelled" in (starter.embeds[0].description or "") and not starter.components
    assert table.id not in world.env.bot.tables.tables
