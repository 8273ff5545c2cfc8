"""Helpers for watching tables as members would: pressing Watch, reading the watcher's private panel as it is now."""

from __future__ import annotations

from typing import Any

from bot.ui import ui_for
from games.core.snapshot import decode
from tests.bot.tables.driver import buttons, live_table, table_message


async def watch(world: Any, member: Any) -> Any:
    """Press **Watch** on the live table's message; returns the interaction result (the new private panel)."""
    table = live_table(world)
    return await member.click(table_message(world), custom_id=f"fdb:{table.id}:t:watch")


def places(world: Any) -> list[Any]:
    return [world.channel, *world.channel.threads]


def panel_now(world: Any, member: Any, message_id: int) -> Any:
    """The member's private message ``message_id`` as it is now (the follower edits it in place)."""
    for place in places(world):
        for message in place.history(viewer=member):
            if message.id == message_id:
                assert message.flags.ephemeral
                return message
    raise AssertionError(f"no message {message_id} for {member}")


def text_of(message: Any) -> str:
    """Everything a reader sees in a message's content and embeds, as one string."""
    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", "")]
        parts += [f"{f['name']}: {f['value']}" for f in data.get("fields", [])]
        parts.append(data.get("footer", {}).get("text", ""))
    return "\n".join(p for p in parts if p)


def log_lines(message: Any) -> list[str]:
    """The narration on a watcher's panel (its last embed), line by line."""
    assert message.embeds, message.content
    return (message.embeds[-1].description or "").split("\n")


def labels(message: Any) -> list[str]:
    return [b.get("label", "") for b in buttons(message)]


def narration(table: Any, events: Any, lang: str = "en") -> list[str]:
    """What the table's own narration says of ``events`` (its public ones)."""
    ui, ctx = ui_for(table.game), table.ctx(lang)
    return [line for e in events if e.public and (line := ui.describe(e, ctx))]


async def stored_story(world: Any, table: Any, deal: int) -> list[str]:
    """The narration of a settled deal from its hand history (the public events stored when it was settled): a
    source of its own, against which the delayed panel's replayed narration is checked."""
    hands = await world.env.bot.db.table_history(table.id, limit=1000)
    hand = next(h for h in hands if h.deal_no == deal)
    return narration(table, [decode(e) for e in hand.summary["events"]])


def watchers_of(world: Any, table: Any) -> dict[int, Any]:
    """The open watcher panels the bot follows at the table, by user id."""
    return dict(world.env.bot.tables.presses.watch.open_panels(table))
