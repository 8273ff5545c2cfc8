"""Helpers that run tournaments through SimCord as moderators and members meet them."""

from __future__ import annotations

import re
from typing import Any

from bot.storage.tournaments import Tournament, TournamentStore
from tests.bot.tables.driver import buttons, said

START_BALANCE = 1000


def store(world: Any) -> TournamentStore:
    return world.env.bot.get_cog("TournamentsCog").director.store


async def tournament(world: Any, tournament_id: int) -> Tournament:
    found = await store(world).get(tournament_id)
    assert found is not None
    return found


async def open_tournament(world: Any, *, by: Any = None, **options: Any) -> int:
    """A moderator's ``/tournament open``; returns the tournament's number from the private answer."""
    settings: dict[str, Any] = {
        "game": "oicho",
        "buy_in": 100,
        "table_size": 2,
        "rounds": 2,
        "deals_per_round": 2,
        "start_time": "5m",
        **options,
    }
    opened = await (by or world.mod).slash(world.channel, "tournament open", **settings)
    text = said(opened)
    assert opened.ephemeral, text
    found = re.search(r"#(\d+)", text)
    assert found, text
    return int(found.group(1))


def tournament_message(world: Any, tournament_id: int) -> Any:
    """The tournament message in the channel (its footer names the tournament)."""
    for message in world.channel.history():
        for embed in message.embeds:
            footer = (embed.footer.text or "") if embed.footer else ""
            if footer.endswith(f"#{tournament_id}"):
                return message
    raise AssertionError(f"no message of tournament {tournament_id}")


def text_of(message: Any) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    return "\n".join(parts)


async def press(world: Any, member: Any, tournament_id: int, label: str) -> Any:
    """A member presses a button of the tournament message (Sign up, Withdraw)."""
    message = tournament_message(world, tournament_id)
    custom = next((b["custom_id"] for b in buttons(message) if b.get("label") == label), None)
    assert custom is not None, (label, [b.get("label") for b in buttons(message)])
    result = await member.click(message, custom_id=custom)
    assert result.ephemeral
    return result


async def later(world: Any, clock: Any, seconds: float, step: float = 10.0) -> None:
    """Let time pass for the bot's wall clock and its timers alike."""
    while seconds > 0:
        moved = min(step, seconds)
        clock.advance(moved)
        await world.env.advance_time(moved)
        seconds -= moved


async def run_until(world: Any, clock: Any, done: Any, *, step: float = 10.0, most: int = 400) -> None:
    """Let time pass a step at a time until ``await done()`` (members who do not act are marked away by the turn
    timer and played by the policy, so every table moves on)."""
    for _ in range(most):
        if await done():
            return
        await later(world, clock, step, step)
    raise AssertionError("the tournament did not get there")


async def over(world: Any, tournament_id: int) -> bool:
    return (await tournament(world, tournament_id)).status in ("finished", "cancelled")
