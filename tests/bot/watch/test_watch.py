"""Watching a table as members meet it: the Watch button, the watcher's private panel following the table, the
seated member told to use My hand, forged and stale ids refused, Stop watching, the panel's 14 minutes, the table's
end, a restart, Japanese."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.watch import watchers
from tests.bot.conftest import LOCALES, make_bot
from tests.bot.tables.driver import (
    buttons,
    forge_click,
    live_table,
    lobby_message,
    open_oicho,
    place_of,
    play_one_turn,
    said,
    table_message,
    whose_turn,
)
from tests.bot.watch.kit import labels, log_lines, narration, panel_now, text_of, watch, watchers_of


async def one_turn(world: Any) -> None:
    _, member = whose_turn(world)
    await play_one_turn(world, member)


def to_act_line(table: Any) -> str:
    names = table.names()
    return "To act: " + ", ".join(f"**{names[s]}**" for s in sorted(table.engine.to_act()))


async def test_the_table_message_has_a_watch_button_and_a_watcher_follows_every_move(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    assert "Watch" in labels(table_message(world))
    opened = await watch(world, world.carol)
    assert opened.ephemeral and opened.response is not None
    panel_id = opened.response.id
    panel = panel_now(world, world.carol, panel_id)
    assert "Watching Oicho-Kabu, table #" in panel.content and to_act_line(table) in panel.content
    assert [a.filename for a in panel.attachments] == ["watch.png"]
    assert panel.embeds[0].image.url == "attachment://watch.png"
    assert labels(panel) == ["Refresh", "Stop watching"]
    assert set(watchers_of(world, table)) == {world.carol.id}
    longest = 0
    for _ in range(12):
        await one_turn(world)
        panel = panel_now(world, world.carol, panel_id)
        expected = narration(table, table.deal_events)
        # Every line since the deal began, in order (the table message shows only the last five).
        assert log_lines(panel) == (expected or ["No moves yet."])
        assert panel.embeds[-1].title == f"Since deal {table.engine.deal_no} began"
        assert to_act_line(table) in panel.content
        longest = max(longest, len(expected))
    assert longest > 5  # more than the table message's last five lines
    # Nobody else sees the watcher's panel.
    for other in (world.alice, world.bob, world.mod):
        assert panel_id not in {m.id for place in (world.channel,) for m in place.history(viewer=other)}


async def test_the_narration_is_of_the_current_deal_only(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    opened = await watch(world, world.carol)
    while table.engine.deal_no < 2:
        await one_turn(world)
    await one_turn(world)  # a move of deal 2
    panel = panel_now(world, world.carol, opened.response.id)
    assert panel.embeds[-1].title == "Since deal 2 began"
    assert log_lines(panel) == narration(table, table.deal_events)
    assert "Round 2" in panel.embeds[0].title or "round 2" in panel.embeds[0].title


async def test_a_seated_member_is_told_to_use_my_hand(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    refused = await watch(world, world.bob)
    assert refused.ephemeral and "My hand" in said(refused) and "seated" in said(refused)
    assert watchers_of(world, table) == {}
    LOCALES[world.alice.id] = "ja"
    refused = await watch(world, world.alice)
    assert "手札を見る" in said(refused)


async def test_forged_and_stale_watch_ids_are_refused_and_change_nothing(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    unknown = await forge_click(world, world.carol, f"fdb:{table.id}:t:watchme")
    assert "not one of this table's" in said(unknown)
    gone = await forge_click(world, world.carol, f"fdb:{table.id + 100}:t:watch")
    assert "no longer exists" in said(gone)
    # The table's watch id on a message of another channel: not that table's place.
    lounge = world.guild.create_text_channel("lounge")
    channel = world.env.bot.get_channel(lounge.id)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="forged", custom_id=f"fdb:{table.id}:t:watch"))
    forged = await channel.send("forged", view=view)
    elsewhere = await world.carol.click(forged, custom_id=f"fdb:{table.id}:t:watch")
    assert elsewhere.ephemeral and "does not belong here" in said(elsewhere)
    # …nor from another server, whatever channel id it names.
    other = world.env.create_guild("Other Club")
    other_channel = other.create_text_channel("tables")
    stranger = other.add_member(world.env.create_user("stranger"))
    sent = await world.env.bot.get_channel(other_channel.id).send("forged", view=view)
    foreign = await stranger.click(sent, custom_id=f"fdb:{table.id}:t:watch")
    assert "does not belong here" in said(foreign)
    # Stop watching is only ever on the watcher's own panel.
    unwatch = await forge_click(world, world.carol, f"fdb:{table.id}:t:unwatch")
    assert "does not belong here" in said(unwatch)
    assert watchers_of(world, table) == {}
    # A panel no longer followed keeps its "Watch again": pressed after the table ended, it is stale.
    opened = await watch(world, world.carol)
    stopped = panel_now(world, world.carol, opened.response.id)
    await world.carol.click(stopped, custom_id=f"fdb:{table.id}:t:unwatch")
    await world.alice.click(table_message(world), custom_id=f"fdb:{table.id}:t:stop")
    old = panel_now(world, world.carol, opened.response.id)
    stale = await world.carol.click(old, custom_id=f"fdb:{table.id}:t:watch")
    assert "no longer exists" in said(stale)
    assert "You stopped watching" in panel_now(world, world.carol, opened.response.id).content


async def test_stop_watching_then_watch_again(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    opened = await watch(world, world.carol)
    panel_id = opened.response.id
    stopped = await world.carol.click(panel_now(world, world.carol, panel_id), custom_id=f"fdb:{table.id}:t:unwatch")
    assert stopped.acknowledged
    panel = panel_now(world, world.carol, panel_id)
    assert "You stopped watching" in panel.content and panel.embeds == [] and panel.attachments == []
    assert labels(panel) == ["Watch again"]
    assert watchers_of(world, table) == {}
    assert await world.env.bot.db.open_watchers(table.id, since=0) == []
    before = panel.content
    await one_turn(world)
    assert panel_now(world, world.carol, panel_id).content == before  # no longer followed
    await world.carol.click(panel, custom_id=f"fdb:{table.id}:t:watch")  # Watch again, in the same message
    panel = panel_now(world, world.carol, panel_id)
    assert "Watching Oicho-Kabu" in panel.content and log_lines(panel) == narration(table, table.deal_events)
    assert set(watchers_of(world, table)) == {world.carol.id}


async def test_after_14_minutes_the_panel_says_it_stopped_and_refresh_follows_again(world: Any, clock: Any) -> None:
    table = await open_oicho(world, world.bob)
    opened = await watch(world, world.carol)
    panel_id = opened.response.id
    assert "Updates by itself until <t:" in panel_now(world, world.carol, panel_id).content
    clock.advance(14 * 60 + 1)
    await one_turn(world)
    panel = panel_now(world, world.carol, panel_id)
    assert "stopped following" in panel.content and labels(panel) == ["Watch again"]
    assert watchers_of(world, table) == {}
    await world.carol.click(panel, custom_id=f"fdb:{table.id}:t:watch")
    panel = panel_now(world, world.carol, panel_id)
    assert f"<t:{int(clock.now) + 14 * 60}:t>" in panel.content  # 14 more minutes
    await one_turn(world)
    assert log_lines(panel_now(world, world.carol, panel_id)) == narration(table, table.deal_events)


async def test_the_table_ending_tells_its_watchers(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    carol = await watch(world, world.carol)
    mod = await watch(world, world.mod)
    await one_turn(world)
    await world.alice.click(table_message(world), custom_id=f"fdb:{table.id}:t:stop")
    for member, opened in ((world.carol, carol), (world.mod, mod)):
        panel = panel_now(world, member, opened.response.id)
        assert f"Table #{table.id} has ended" in panel.content
        assert panel.embeds == [] and panel.attachments == [] and buttons(panel) == []
    assert await world.env.bot.db.open_watchers(table.id, since=0) == []


@pytest.mark.place("thread")
async def test_watching_a_table_in_its_thread(world: Any) -> None:
    await world.alice.slash(world.channel, "play", game="oicho")
    await world.bob.click(lobby_message(world), label="Join")
    await world.alice.click(lobby_message(world), label="Start")
    table = live_table(world)
    assert table.parent_id == world.channel.id
    opened = await watch(world, world.carol)
    assert opened.ephemeral
    await one_turn(world)
    panel = panel_now(world, world.carol, opened.response.id)
    assert panel.channel.id == place_of(world, table).id
    assert log_lines(panel) == narration(table, table.deal_events)


async def test_a_restart_keeps_the_watchers_panels_following(world: Any, database: Any, clock: Any) -> None:
    table = await open_oicho(world, world.bob)
    opened = await watch(world, world.carol)
    await one_turn(world)
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    restored = live_table(world)
    assert restored is not table
    await one_turn(world)
    await one_turn(world)
    panel = panel_now(world, world.carol, opened.response.id)
    assert log_lines(panel) == narration(restored, restored.deal_events)
    assert to_act_line(restored) in panel.content
    assert set(watchers_of(world, restored)) == {world.carol.id}


async def test_a_table_keeps_a_bounded_number_of_watchers(world: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(watchers, "MAX_WATCHERS", 1)
    table = await open_oicho(world, world.bob)
    await watch(world, world.carol)
    full = await watch(world, world.mod)
    assert "already has 1 watchers" in said(full)
    assert set(watchers_of(world, table)) == {world.carol.id}
    again = await watch(world, world.carol)  # a watcher already counted may open a fresh panel
    assert again.ephemeral and "Watching" in again.response.content


async def test_a_japanese_watcher_reads_japanese(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    LOCALES[world.carol.id] = "ja"
    opened = await watch(world, world.carol)
    await one_turn(world)
    panel = panel_now(world, world.carol, opened.response.id)
    assert "観戦中" in panel.content and "手番" in panel.content
    assert log_lines(panel) == narration(table, table.deal_events, "ja")
    assert labels(panel) == ["更新", "観戦をやめる"]
    assert "第1局の開始から" in text_of(panel)


@pytest.mark.simcord(settle_timeout=0.4)  # under the bot pace (0.5 s): SimCord runs timers due within it
async def test_a_watcher_follows_a_table_where_nobody_holds_a_panel(world: Any, database: Any, clock: Any) -> None:
    """Only bots and an away member move (nobody has a panel open): the watcher's panel is followed all the same."""
    await world.env.restart_bot(make_bot(database, clock, bot_pace=0.5))
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    await world.alice.slash(world.channel, "play", game="oicho", practice=True)
    for _ in range(2):
        await world.alice.click(world.channel.last_message, label="Add bot")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    opened = await watch(world, world.carol)
    checked = 0
    for _ in range(400):  # Alice never moves: her timer marks her away, and the policy plays every seat
        if checked >= 10 or not world.env.bot.tables.tables:
            break
        await world.env.advance_time(0.25)
        expected = narration(table, table.deal_events)
        if world.env.bot.tables.tables and expected:
            assert table.runtime.panels.open == {}  # no seat's panel is open
            assert log_lines(panel_now(world, world.carol, opened.response.id)) == expected
            checked += 1
    assert checked >= 10


async def test_a_panel_let_go_while_it_was_drawn_is_not_edited(world: Any, monkeypatch: Any) -> None:
    """The race of "Stop watching" (or a fresh panel) with a redraw under way: what the member did last stays."""
    table = await open_oicho(world, world.bob)
    opened = await watch(world, world.carol)
    watching = world.env.bot.tables.presses.watch
    plain_draw = type(watching).draw

    async def draw_then_stop(self: Any, session: Any, key: Any, panel: Any) -> Any:
        redrawn = await plain_draw(self, session, key, panel)
        self.open_panels(session).pop(key, None)  # Carol's "Stop watching" lands while her panel is drawn
        return redrawn

    monkeypatch.setattr(type(watching), "draw", draw_then_stop)
    before = panel_now(world, world.carol, opened.response.id)
    await one_turn(world)
    assert narration(table, table.deal_events), "the move was narrated"
    after = panel_now(world, world.carol, opened.response.id)
    assert (after.content, [e.to_dict() for e in after.embeds]) == (
        before.content,
        [e.to_dict() for e in before.embeds],
    )


async def test_a_lobby_cannot_be_watched_yet(world: Any) -> None:
    await world.alice.slash(world.channel, "play", game="oicho")
    table = live_table(world)
    refused = await forge_click(world, world.carol, f"fdb:{table.id}:t:watch")
    assert refused.ephemeral and "has not started" in said(refused)
    assert watchers_of(world, table) == {}
