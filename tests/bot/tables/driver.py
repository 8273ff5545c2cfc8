"""Helpers that play a table through the real Discord UI, as members would."""

from __future__ import annotations

from typing import Any

import discord

from bot.tables.session import TableSession


def live_table(world: Any) -> TableSession:
    tables = list(world.env.bot.tables.tables.values())
    assert len(tables) == 1, tables
    return tables[0]


def whose_turn(world: Any) -> tuple[int, Any]:
    """The first seat that must act now, and the member sitting there."""
    table = live_table(world)
    assert table.engine is not None
    seat = min(table.engine.to_act())
    user_id = table.seats[seat].user_id
    member = next(m for m in (world.alice, world.bob, world.carol, world.mod) if m.id == user_id)
    return seat, member


def message_by_id(world: Any, message_id: int) -> Any:
    """A message of the tables channel or of one of its threads (a table in a thread posts there)."""
    for place in (world.channel, *world.channel.threads):
        found = next((m for m in place.history() if m.id == message_id), None)
        if found is not None:
            return found
    raise AssertionError(f"no message {message_id} in the channel or its threads")


def lobby_message(world: Any) -> Any:
    """The newest lobby message of the tables channel (the one with a Join button); in thread mode it is the
    thread's starter, with Discord's "thread created" notice after it."""
    for message in reversed(world.channel.history()):
        if any(b.get("label") == "Join" for b in buttons(message)):
            return message
    raise AssertionError("no lobby message in the channel")


def place_of(world: Any, table: TableSession) -> Any:
    """Where a table is played, as a SimCord channel: its thread, or the channel itself."""
    if table.parent_id is None:
        return world.channel
    return next(t for t in world.channel.threads if t.id == table.channel_id)


def table_message(world: Any) -> Any:
    return message_by_id(world, live_table(world).message_id)


def buttons(message: Any) -> list[dict[str, Any]]:
    """Every button of a message (raw component dicts), in order."""
    found: list[dict[str, Any]] = []

    def walk(items: Any) -> None:
        for item in items or []:
            if isinstance(item, dict):
                if item.get("type") == 2:
                    found.append(item)
                walk(item.get("components"))

    walk([c if isinstance(c, dict) else c.to_dict() for c in getattr(message, "components", None) or []])
    return found


async def open_panel(world: Any, member: Any) -> Any:
    """Press "My hand" on the public table; returns the interaction result with the ephemeral panel."""
    tid = live_table(world).id
    result = await member.click(table_message(world), custom_id=f"fdb:{tid}:t:hand")
    assert result.ephemeral, result
    return result


def enabled_actions(panel: Any) -> dict[str, str]:
    """Action text → custom id for every enabled engine-action button of a panel."""
    out: dict[str, str] = {}
    for b in buttons(panel.response):
        cid = b.get("custom_id", "")
        if ":a:" in cid and not b.get("disabled"):
            out[cid.split(":a:", 1)[1].replace("~", " ")] = cid
    return out


async def press(world: Any, member: Any, action_text: str) -> Any:
    """Open the member's panel and press the button of one engine action."""
    panel = await open_panel(world, member)
    actions = enabled_actions(panel)
    assert action_text in actions, (action_text, actions, panel.response.content)
    return await member.click(panel.response, custom_id=actions[action_text])


async def forge_click(world: Any, member: Any, custom_id: str) -> Any:
    """A click carrying any custom id, as a tampered or outdated client could send one.

    Discord only delivers ids that are on a message, so the test first puts a button with that id
    on a message, then clicks it: the bot must judge the id on its own merits.
    """
    channel = world.env.bot.get_channel(world.channel.id)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="forged", custom_id=custom_id))
    message = await channel.send("forged", view=view)
    return await member.click(message, custom_id=custom_id)


async def play_one_turn(world: Any, member: Any) -> None:
    """A sensible move through the panel: bet a little then finish, stand or draw, keep the bank."""
    panel = await open_panel(world, member)
    actions = enabled_actions(panel)
    bets = [a for a in actions if a.startswith("bet ")]
    table = live_table(world)
    seat = table.seat_of(member.id)
    assert table.engine is not None and seat is not None
    if bets and not table.engine.view(seat).my_bets:
        await member.click(panel.response, custom_id=actions[bets[0]])
        return
    for choice in ("done", "stand", "draw", "continue"):
        if choice in actions:
            await member.click(panel.response, custom_id=actions[choice])
            return
    raise AssertionError(f"no move offered: {actions} {panel.response.content}")


async def play_until(world: Any, members: dict[int, Any], stop: Any, limit: int = 2000) -> None:
    """Let the seated members play turns until ``stop(table)`` or the table closes."""
    for _ in range(limit):
        tables = world.env.bot.tables.tables
        if not tables:
            return
        table = live_table(world)
        if stop(table):
            return
        assert table.engine is not None
        seat = min(table.engine.to_act())
        user_id = table.seats[seat].user_id
        await play_one_turn(world, members[user_id])
    raise AssertionError("the game did not end")


async def open_oicho(world: Any, *members: Any, bot: bool = False) -> TableSession:
    """Alice opens an Oicho-Kabu table; ``members`` join, a bot is added if asked, and Alice starts it."""
    await world.alice.slash(world.channel, "play", game="oicho")
    lobby = world.channel.last_message
    for member in members:
        await member.click(lobby, label="Join")
    if bot:
        await world.alice.click(lobby, label="Add bot")
    await world.alice.click(lobby, label="Start")
    return live_table(world)


def said(result: Any) -> str:
    """Everything a member was told by one interaction: the response and its follow-ups."""
    return " ".join(m.content or "" for m in [result.response, *result.followups] if m is not None)
