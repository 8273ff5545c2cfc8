"""A table limited to a number of deals (``tables.deal_limit``, :meth:`bot.tables.lobby.Lobby.open_seated`): it ends by
itself once that deal is settled, in the same write, as a table whose game ended; the next deal never starts; a pot
carried between deals goes back to whoever paid into it; and the table a bot opens by itself seats its members in
order beside its bots, in a thread or in the channel."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import Database
from games.registry import get_game
from tests.bot.conftest import make_bot
from tests.bot.tables.driver import live_table, place_of, press


async def _open(world: Any, game: str, members: list[Any], *, bots: int, limit: int, **rules: Any) -> Any:
    seen: list[int] = []
    # In the bot's scope, as its own work (SimCord waits for what the bot starts, not for what a test starts).
    with world.env._bot_scope():
        session = await _open_seated(world, game, members, bots=bots, limit=limit, seen=seen, rules=rules)
    await world.env.settle()
    return session


async def _open_seated(
    world: Any, game: str, members: list[Any], *, bots: int, limit: int, seen: list[int], rules: dict[str, Any]
) -> Any:
    spec = get_game(game)

    async def opened(table_id: int) -> None:
        seen.append(table_id)

    session = await world.env.bot.tables.lobby.open_seated(
        world.guild.id,
        world.channel.id,
        game,
        world.mod.id,
        [(m.id, m.name) for m in members],
        where=world.place,
        rules=spec.rules_model(**rules),
        buy_in=spec.starting_chips(spec.rules_model(**rules)),
        practice=True,
        lang="en",
        bots=bots,
        deal_limit=limit,
        opened=opened,
    )
    assert seen == [session.id]  # told before anyone sat
    return session


async def test_a_table_of_bots_ends_once_its_last_deal_is_settled(world: Any, database: Database) -> None:
    session = await _open(world, "luk_fu", [], bots=3, limit=2)
    assert [s.bot for s in session.seats] == [True, True, True]
    row = await database.get_table(session.id)
    assert row is not None and row.status == "ended" and row.deal_limit == 2
    hands = await database.table_history(session.id, limit=10)
    assert sorted(h.deal_no for h in hands) == [1, 2]  # exactly its deals; the third never began
    assert not world.env.bot.tables.tables
    # The next deal's shuffle was made by the move that settled deal 2, but its start was never kept for replays.
    starts = await database._all("SELECT deal_no FROM deal_starts WHERE table_id = ?", (session.id,))
    assert 3 not in {r["deal_no"] for r in starts}
    titles = [e.title for m in place_of(world, session).history() for e in m.embeds]
    assert titles.count("The game is over") == 1 and "Luk Fu 六虎 · hand 2: result" in titles
    assert not any("hand 3" in (title or "") for title in titles)
    assert await database.verify_ledger(world.guild.id) == []


@pytest.mark.place("thread")
async def test_members_sit_in_the_given_order_in_a_thread_beside_the_bots(world: Any, database: Database) -> None:
    session = await _open(world, "oicho", [world.bob, world.alice], bots=1, limit=1)
    assert [s.user_id for s in session.seats] == [world.bob.id, world.alice.id, None]
    assert session.parent_id == world.channel.id and session.channel_id in {t.id for t in world.channel.threads}
    assert session.host_id == world.mod.id and session.seat_of(world.mod.id) is None
    # No lobby buttons: the table started with its seats.
    lobby = next(m for m in world.channel.history() if m.id == session.channel_id)
    assert not lobby.components


async def test_a_carried_pot_goes_back_to_its_payers_when_the_limit_ends_the_table(
    world: Any, database: Database
) -> None:
    """Hachi-Hachi: everyone folds, the round is void and its fees carry over; the limit ends the table there, and
    the pot goes back to the three folders as a stop would give it back."""
    members = [world.alice, world.bob, world.carol]
    session = await _open(world, "hachi_hachi", members, bots=0, limit=1, rounds=6)
    engine = session.engine
    assert engine is not None
    for _ in range(10):
        if session.status != "playing":
            break
        seat = min(engine.to_act())
        member = next(m for m in members if m.id == session.seats[seat].user_id)
        legal = {getattr(la, "text", str(la)) for la in engine.legal_actions(seat)}
        await press(world, member, "no-mizuten" if "no-mizuten" in legal else "fold")
    row = await database.get_table(session.id)
    assert row is not None and row.status == "ended" and row.pot == 0
    hands = await database.table_history(session.id, limit=10)
    # The fees went into the pot, and the table closed with it empty: a close that left chips in the pot would have
    # been refused (storage.pot_not_empty), so the pot was paid back to its payers.
    assert len(hands) == 1 and sum(hands[0].deltas) < 0
    assert await database.verify_ledger(world.guild.id) == []
    # The final message tells each member what went back to them, the pot's share included (a void round: each
    # gets back the fees they paid, so everyone leaves with the stack they sat down with), and says so.
    final = next(e for m in place_of(world, session).history() for e in m.embeds if e.title == "The game is over")
    stacks = final.fields[0].value
    start = session.points_per_seat
    for seat, member in enumerate(members):
        assert f"**{member.name}** — {start:,} (+0)" in stacks, stacks
        assert f"{member.name} +{-hands[0].deltas[seat]}" in stacks, stacks
    assert "the pot carried between deals, paid back to those who paid into it" in stacks


async def test_the_limit_survives_a_restart(world: Any, database: Database, clock: Any) -> None:
    """The limit is the table's, in its row: a table rebuilt after a restart still ends after its deal."""
    session = await _open(world, "hachi_hachi", [world.alice, world.bob, world.carol], bots=0, limit=1, rounds=6)
    await world.env.restart_bot(make_bot(database, clock))
    table = live_table(world)
    assert table.id == session.id and table.deal_limit == 1
    with world.env._bot_scope():  # if the rebuild is still to do, it is the bot's work (its clock, its tasks)
        engine = (await world.env.bot.tables.ready(table)).engine
    members = [world.alice, world.bob, world.carol]
    for _ in range(10):
        if table.status != "playing":
            break
        seat = min(engine.to_act())
        member = next(m for m in members if m.id == table.seats[seat].user_id)
        legal = {getattr(la, "text", str(la)) for la in engine.legal_actions(seat)}
        await press(world, member, "no-mizuten" if "no-mizuten" in legal else "fold")
    row = await database.get_table(session.id)
    assert row is not None and row.status == "ended"
    assert [h.deal_no for h in await database.table_history(session.id, limit=10)] == [1]
