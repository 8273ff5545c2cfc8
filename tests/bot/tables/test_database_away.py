"""The database going away (a PostgreSQL restart, a network cut) while members play.

The storage raises ``StorageUnavailable`` when it cannot be reached; here it is raised by the real storage
object's methods (the rest of the database stays the real SQLite file). What is checked is what members are
told and that the table shows the stored truth once the database answers again.
"""

from __future__ import annotations

from typing import Any

from bot.storage import StorageUnavailable
from tests.bot.tables.driver import (
    buttons,
    enabled_actions,
    live_table,
    open_oicho,
    open_panel,
    press,
    said,
    whose_turn,
)


async def test_a_move_while_the_database_is_away_is_refused_and_not_made(world: Any, monkeypatch: Any) -> None:
    table = await open_oicho(world, world.bob)
    db = world.env.bot.db
    seat, mover = whose_turn(world)
    serial = table.engine.serial

    async def away(*args: Any, **kwargs: Any) -> Any:
        raise StorageUnavailable("connection refused")

    monkeypatch.setattr(db, "append_step", away)
    monkeypatch.setattr(db, "restart_point", away)
    told = await press(world, mover, "bet 1 5")
    assert told.ephemeral and "cannot be reached" in said(told) and "not done" in said(told)
    assert table.engine is None and table.status == "playing"  # memory never runs ahead of the database
    # While the database is still away, the table is not rebuilt and says so; it is not marked broken.
    again = await world.bob.click(world.channel.last_message, custom_id=f"fdb:{table.id}:t:hand")
    assert again.ephemeral and "cannot be reached" in said(again)
    assert table.status == "playing" and table.engine is None
    # The database is back: the next click rebuilds the table from what was stored, without the bet.
    monkeypatch.undo()
    panel = await open_panel(world, mover)
    assert table.engine is not None and table.engine.serial == serial
    assert table.engine.view(seat).my_bets == ()
    assert "bet 1 5" in " ".join(b.get("custom_id", "").replace("~", " ") for b in buttons(panel.response))
    await press(world, mover, "bet 1 5")
    assert table.engine.view(seat).my_bets == ((1, 5),)


async def test_a_move_in_doubt_is_reported_as_such_and_the_table_shows_the_stored_truth(
    world: Any, monkeypatch: Any
) -> None:
    table = await open_oicho(world, world.bob)
    db = world.env.bot.db
    seat, mover = whose_turn(world)
    real = db.append_step

    async def broke_while_committing(*args: Any, **kwargs: Any) -> Any:
        await real(*args, **kwargs)  # the server committed; the answer never came back
        raise StorageUnavailable("connection lost during COMMIT", in_doubt=True)

    monkeypatch.setattr(db, "append_step", broke_while_committing)
    told = await press(world, mover, "bet 1 5")
    text = said(told)
    assert told.ephemeral and "may or may not" in text and "Nothing was changed" not in text
    monkeypatch.undo()
    # Nobody clicks: the restorer's sweep rebuilds the table, which has the bet (it was stored), once only.
    await world.env.advance_time(6)
    await world.env.settle()
    assert table.engine is not None and table.engine.view(seat).my_bets == ((1, 5),)


async def test_a_table_comes_back_by_itself_once_the_database_answers_and_its_bots_carry_on(
    world: Any, monkeypatch: Any
) -> None:
    await world.alice.slash(world.channel, "play", game="oicho", practice=True)
    lobby = world.channel.last_message
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    db = world.env.bot.db

    async def away(*args: Any, **kwargs: Any) -> Any:
        raise StorageUnavailable("connection refused")

    monkeypatch.setattr(db, "append_step", away)
    monkeypatch.setattr(db, "restart_point", away)
    seat, member = whose_turn(world)
    move = sorted(enabled_actions(await open_panel(world, member)))[0]
    serial = table.engine.serial
    told = await press(world, member, move)
    assert "cannot be reached" in said(told) and table.engine is None
    await world.env.advance_time(12)  # two tries while the database is still away: the table waits
    assert table.engine is None and table.status == "playing"
    monkeypatch.undo()
    await world.env.advance_time(6)  # nobody clicks; the table rebuilds itself, without the move
    await world.env.settle()
    assert table.engine is not None and table.engine.serial == serial
    deal = table.engine.deal_no
    for _ in range(6):  # the member plays on until a new deal is under way
        acts = sorted(enabled_actions(await open_panel(world, member)))
        await press(world, member, next((a for a in ("done", "stand") if a in acts), acts[0]))
        await world.env.advance_time(30)
        await world.env.settle()
        if table.engine.deal_no > deal:
            break
    # A deal ended, which takes the bots' moves too, and in the new one only the member is still to act:
    # the table really goes on, not just loaded.
    assert table.engine.deal_no > deal
    assert table.engine.to_act() == {seat}
