"""Results messages owed to the channel are drawn from the hand history's stored summaries (bot/tables/results.py):
a summary that no longer reads as its game's result is left owed, and never keeps the others from being posted."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.bot.conftest import make_bot
from tests.bot.tables.driver import live_table, open_oicho, play_until

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def _result_posts(world: Any, deal: int) -> list[Any]:
    return [m for m in world.channel.history() for e in m.embeds if e.title == f"Round {deal} results"]


async def test_an_unreadable_stored_summary_stays_owed_and_the_next_deals_results_are_posted(
    world: Any, database: Any, clock: Any
) -> None:
    db = world.env.bot.db
    table = await open_oicho(world, world.bob)
    members = {world.alice.id: world.alice, world.bob.id: world.bob}
    # Results become the table message (an edit) or a new message: both fail, so every deal's results stay owed.
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=503, times=1000)
    world.env.inject_error("POST", "/channels/*/messages", status=503, times=1000)
    await play_until(world, members, lambda t: t.engine is not None and t.engine.deal_no >= 3)
    assert [h.deal_no for h in await db.unposted_results()][:2] == [1, 2]
    # Deal 1's stored summary is damaged (say, by hand): it lacks most of an Oicho-Kabu round.
    with sqlite3.connect(db.test_target) as conn:
        conn.execute(
            "UPDATE hand_history SET summary = ? WHERE table_id = ? AND deal_no = 1", ('{"round": 1}', table.id)
        )
    world.env.backend.faults.clear()
    world.env.errors.clear()
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    assert _result_posts(world, 1) == []
    assert len(_result_posts(world, 2)) == 1
    assert [h.deal_no for h in await db.unposted_results()] == [1]
    assert live_table(world).engine is not None  # the table plays on
