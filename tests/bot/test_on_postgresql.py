"""The bot on PostgreSQL: SimCord tests that run on SQLite elsewhere, run again with the database on the session's
real PostgreSQL server, and a server restart in the middle of a game."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.tables.driver import open_oicho, open_panel, press, said, whose_turn
from tests.bot.tables.test_every_game import test_every_game_plays_to_the_end_through_the_panels
from tests.bot.tables.test_faults import (
    test_a_stop_racing_the_last_move_says_what_happened_to_the_chips,
    test_chips_go_to_the_member_who_played_the_seat_after_leaving_and_rejoining,
    test_names_survive_a_restart,
    test_results_owed_before_a_restart_are_posted_after_it,
)

pytestmark = [
    pytest.mark.parametrize("database", ["postgresql"], indirect=True),
    # Each query is a real round trip to the server: give a busy machine more time to settle.
    pytest.mark.simcord(settle_timeout=30.0),
]

__all__ = [
    "test_a_stop_racing_the_last_move_says_what_happened_to_the_chips",
    "test_chips_go_to_the_member_who_played_the_seat_after_leaving_and_rejoining",
    "test_every_game_plays_to_the_end_through_the_panels",
    "test_names_survive_a_restart",
    "test_results_owed_before_a_restart_are_posted_after_it",
]


async def test_the_database_is_really_postgresql(world: Any) -> None:
    from bot.storage.postgres import PostgresDatabase

    assert isinstance(world.env.bot.db, PostgresDatabase)


async def test_a_postgresql_restart_mid_game_refuses_moves_then_carries_on(world: Any, pg: Any) -> None:
    table = await open_oicho(world, world.bob)
    seat, mover = whose_turn(world)
    serial = table.engine.serial
    pg.server.stop()
    try:
        told = await press(world, mover, "bet 1 5")
        assert told.ephemeral and "cannot be reached" in said(told)
        assert table.status == "playing" and table.engine is None
    finally:
        pg.server.start()
    # The server is back: the next click rebuilds the table from what was stored (no bet), and play goes on.
    await open_panel(world, mover)
    assert table.engine is not None and table.engine.serial == serial and table.engine.view(seat).my_bets == ()
    await press(world, mover, "bet 1 5")
    assert table.engine.view(seat).my_bets == ((1, 5),)
    assert await world.env.bot.db.verify_ledger() == []
