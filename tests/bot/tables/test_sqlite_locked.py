"""Another program holds the SQLite file's write lock (a backup, the sqlite3 shell) while members play.

The bot's writes normally run on the event loop; one that finds the lock taken goes to the connection's thread and
waits there (bot.storage.sqlite; that the event loop keeps turning meanwhile is checked in
tests/bot/storage/test_storage_sqlite.py, as SimCord runs one member's operation at a time). Checked here, as members
see it: a short hold only delays the move, and a hold longer than the busy timeout refuses the move truthfully,
after which the table carries on.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from bot.storage import sqlite as sqlite_backend
from tests.bot.tables.driver import enabled_actions, open_oicho, open_panel, said, whose_turn

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


@pytest.fixture
def other_program(world: Any) -> Iterator[sqlite3.Connection]:
    """A second connection to the bot's file, as another program would open it."""
    conn = sqlite3.connect(world.env.bot.db.test_target, isolation_level=None, check_same_thread=False)
    try:
        yield conn
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()


async def test_a_move_waits_for_a_short_lock_and_is_made(world: Any, other_program: sqlite3.Connection) -> None:
    table = await open_oicho(world, world.bob)
    seat, mover = whose_turn(world)
    panel = await open_panel(world, mover)
    bet = enabled_actions(panel)["bet 1 5"]
    other_program.execute("BEGIN IMMEDIATE")
    threading.Timer(0.3, other_program.execute, ("COMMIT",)).start()  # the other program finishes by itself
    told = await mover.click(panel.response, custom_id=bet)
    assert not other_program.in_transaction  # the click was answered only once the lock was free
    assert "Nothing was changed" not in said(told)
    assert table.engine is not None and table.engine.view(seat).my_bets == ((1, 5),)
    logged = await world.env.bot.db.table_log(table.id)
    assert logged[-1].body == "bet 1 5"


async def test_a_lock_held_past_the_busy_timeout_refuses_the_move_truthfully(
    world: Any, other_program: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_backend, "BUSY_TIMEOUT_MS", 100)
    table = await open_oicho(world, world.bob)
    seat, mover = whose_turn(world)
    panel = await open_panel(world, mover)
    bet = enabled_actions(panel)["bet 1 5"]
    other_program.execute("BEGIN IMMEDIATE")
    told = await mover.click(panel.response, custom_id=bet)
    assert told.ephemeral and "Nothing was changed" in said(told)
    other_program.execute("ROLLBACK")
    logged = await world.env.bot.db.table_log(table.id)
    assert all(entry.body != "bet 1 5" for entry in logged)
    # The table carries on from what was stored: the same move can be made now.
    panel = await open_panel(world, mover)
    told = await mover.click(panel.response, custom_id=enabled_actions(panel)["bet 1 5"])
    assert "Nothing was changed" not in said(told)
    assert table.engine is not None and table.engine.view(seat).my_bets == ((1, 5),)
