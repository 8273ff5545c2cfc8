"""The reminder of time at a table: under the member's own panel once the chosen time has passed (and again after
each period), with how long they have played and their net there, in their language; never under anyone else's."""

from __future__ import annotations

from typing import Any

from bot.limits.reminder import SHOWN_SECONDS
from tests.bot.conftest import LOCALES
from tests.bot.limits.kit import told
from tests.bot.tables.driver import live_table, open_panel, play_one_turn, whose_turn


def below(result: Any) -> str:
    """The notes under a panel (its embeds)."""
    return " ".join(e.description or "" for e in result.response.embeds)


async def start_oicho(world: Any, *, practice: bool = False) -> Any:
    await world.env.bot.db.set_config(world.guild.id, actor_id=world.mod.id, turn_timer_seconds=3600)
    await world.alice.slash(world.channel, "play", game="oicho", practice=practice)
    table = live_table(world)
    lobby = world.channel.last_message  # by id: a Japanese host's lobby speaks Japanese
    await world.bob.click(lobby, custom_id=f"fdb:{table.id}:lobby:join")
    await world.alice.click(lobby, custom_id=f"fdb:{table.id}:lobby:start")
    return table


async def test_the_reminder_comes_after_the_chosen_time(world: Any, clock: Any) -> None:
    chosen = await world.alice.slash(world.channel, "limits reminder", every=30)
    assert chosen.ephemeral and "every 30 minutes" in told(chosen)
    await start_oicho(world)
    assert "Reminder" not in below(await open_panel(world, world.alice))
    clock.advance(29 * 60 + 59)
    assert "Reminder" not in below(await open_panel(world, world.alice))
    clock.advance(1)
    due = below(await open_panel(world, world.alice))
    assert "you have been at this table for 30 min" in due and "Your net here: +0 chips" in due
    # Bob chose no reminder: his panel never has one.
    assert "Reminder" not in below(await open_panel(world, world.bob))
    # It stays a few minutes, then goes until the next period.
    clock.advance(SHOWN_SECONDS - 1)
    assert "Reminder" in below(await open_panel(world, world.alice))
    clock.advance(1)
    assert "Reminder" not in below(await open_panel(world, world.alice))
    clock.advance(30 * 60 - SHOWN_SECONDS)
    assert "for 1 h 00 min" in below(await open_panel(world, world.alice))


async def test_an_open_panel_shows_it_when_the_table_moves(world: Any, clock: Any) -> None:
    """The member need not press anything: their open panel is redrawn with the reminder at the table's next move."""
    await world.alice.slash(world.channel, "limits reminder", every=15)
    await start_oicho(world)
    while whose_turn(world)[1] is world.alice:
        await play_one_turn(world, world.alice)
    clock.advance(14 * 60)
    opened = await open_panel(world, world.alice)  # a panel follows the table for 14 minutes
    assert "Reminder" not in below(opened)
    clock.advance(60)
    await play_one_turn(world, whose_turn(world)[1])  # Bob moves
    panel = next(m for m in world.channel.history(viewer=world.alice) if m.id == opened.response.id)
    assert panel.embeds and "for 15 min" in (panel.embeds[0].description or "")
    # Nobody else sees it.
    assert not [
        m for m in world.channel.history(viewer=world.bob) if any("Reminder" in (e.description or "") for e in m.embeds)
    ]


async def test_the_reminder_in_japanese_and_at_a_practice_table(world: Any, clock: Any) -> None:
    LOCALES[world.alice.id] = "ja"
    await world.alice.slash(world.channel, "limits reminder", every=60)
    await start_oicho(world, practice=True)
    clock.advance(61 * 60)
    due = below(await open_panel(world, world.alice))
    assert "この卓に座って 1時間1分 です" in due and "練習卓" in due


async def test_turning_it_off(world: Any, clock: Any) -> None:
    await world.alice.slash(world.channel, "limits reminder", every=15)
    off = await world.alice.slash(world.channel, "limits reminder", every=0)
    assert "Reminders are off" in told(off)
    await start_oicho(world)
    clock.advance(3 * 3600)
    assert "Reminder" not in below(await open_panel(world, world.alice))


async def test_a_correspondence_table_has_no_reminder(world: Any, clock: Any) -> None:
    await world.alice.slash(world.channel, "limits reminder", every=15)
    await world.alice.slash(world.channel, "play", game="oicho", pace="correspondence", hours=24)
    table = live_table(world)
    lobby = world.channel.last_message
    await world.bob.click(lobby, custom_id=f"fdb:{table.id}:lobby:join")
    await world.alice.click(lobby, custom_id=f"fdb:{table.id}:lobby:start")
    clock.advance(3 * 3600)
    assert "Reminder" not in below(await open_panel(world, world.alice))
