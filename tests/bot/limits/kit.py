"""Helpers for the limits tests: a member's past at tables, written as the bot writes it, and what members are told."""

from __future__ import annotations

from typing import Any

from tests.bot.tables.driver import buttons, said

CHANNEL_FOR_PAST = 9_999
"""A channel of past tables, apart from the world's."""


async def past_deal(world: Any, deltas: dict[Any, int]) -> None:
    """A finished chip table at which the members of ``deltas`` sat and settled one deal of those chips, now, as the
    runtime would have written it (buy-in, settlement, cash-out: the ledger's rows)."""
    db = world.env.bot.db
    members = list(deltas)
    for member in members:
        await db.ensure_member(world.guild.id, member.id)
    table = await db.open_table(world.guild.id, CHANNEL_FOR_PAST, "oicho", members[0].id, buy_in=500)
    for member in members:
        await db.join_table(table.id, member.id)
    await db.start_table(table.id, record='{"v":1}')
    await db.settle_deal(table.id, 1, [deltas[m] for m in members], {})
    await db.close_table(table.id)


def told(result: Any) -> str:
    """What one interaction told its member (response and follow-ups)."""
    return said(result)


def button_ids(message: Any) -> list[str]:
    return [b.get("custom_id", "") for b in buttons(message)]
