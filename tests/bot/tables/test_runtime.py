"""The table runtime as members meet it: stale buttons by decision, bots at a pace people can follow, tables
of only bots that never stall nor hold up other tables, events narrated on the table."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from games.core.rng import Shuffle, Shuffler
from tests.bot.conftest import make_bot
from tests.bot.tables.driver import enabled_actions, forge_click, live_table, open_panel, press, table_message


def stack(world: Any, orders: list[str]) -> None:
    world.env.bot.tables.new_shuffler = lambda: Shuffler(
        planned=[Shuffle(order=o) for o in orders], seed_source=lambda: "ab" * 32
    )


async def _oicho_alice_against_bob(world: Any) -> Any:
    # Bob draws the lowest month and deals. Piles: 2 2 9 9, Bob's card 8; first extras 3 3 1 1, so piles 1 and
    # 2 stand on 5 and may draw; then 4 and 4 for them if they do.
    stack(world, ["5 1", "2 2 9 9 8 3 3 1 1 4 4 6 6 6"])
    await world.alice.slash(world.channel, "play", game="oicho")
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    assert table.engine is not None and table.engine.public_view().dealer == 1
    return table


async def test_a_button_of_an_earlier_pile_is_stale_in_the_same_deal(world: Any) -> None:
    table = await _oicho_alice_against_bob(world)
    engine = table.engine
    await press(world, world.alice, "bet 1 5")
    panel = await open_panel(world, world.alice)
    pile_select = next(
        c["custom_id"]
        for row in panel.response.components
        for c in row["components"]
        if ":s:rng:bet" in c.get("custom_id", "")
    )
    panel = await world.alice.select(panel.response, ["2"], custom_id=pile_select)
    await world.alice.click(panel.response, custom_id=enabled_actions(panel)["bet 2 5"])
    await press(world, world.alice, "done")
    assert engine.public_view().current_pile == 1
    panel = await open_panel(world, world.alice)
    draw_for_pile_1 = enabled_actions(panel)["draw"]
    await world.alice.click(panel.response, custom_id=draw_for_pile_1)
    assert engine.public_view().current_pile == 2 and len(engine.public_view().piles[1].cards) == 2
    # The same "draw", pressed again from the earlier decision (a double click, an old panel), does nothing.
    stale = await forge_click(world, world.alice, draw_for_pile_1)
    assert stale.ephemeral and "earlier decision" in stale.response.content
    assert "Pile 2: draw or stand?" in stale.response.content  # and shows the decision it faces now
    assert len(engine.public_view().piles[1].cards) == 2
    await press(world, world.alice, "stand")
    assert engine.public_view().phase == "dealer"


async def test_a_button_of_an_earlier_street_is_stale(world: Any) -> None:
    await world.alice.slash(world.channel, "play", game="ofc")
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    engine = table.engine
    first = await open_panel(world, world.alice)
    old_hint = next(
        b["custom_id"]
        for row in first.response.components
        for b in row["components"]
        if ":u:x:hint" in b.get("custom_id", "")
    )
    for member in (world.alice, world.bob):
        panel = await open_panel(world, member)
        hint = next(
            b["custom_id"]
            for row in panel.response.components
            for b in row["components"]
            if ":u:x:hint" in b.get("custom_id", "")
        )
        panel = await member.click(panel.response, custom_id=hint)
        ok = next(
            b["custom_id"]
            for row in panel.response.components
            for b in row["components"]
            if ":u:ok:place" in b.get("custom_id", "")
        )
        await member.click(panel.response, custom_id=ok)
    assert engine.public_view().street == 2
    before = dict(table.panel_state.get(0, {}))
    stale = await forge_click(world, world.alice, old_hint)
    assert stale.ephemeral and "earlier decision" in stale.response.content
    assert table.panel_state.get(0, {}) == before  # the old hint filled in nothing
    assert "street 2/3" in stale.response.content and "→ ?" in stale.response.content


async def _practice_with_bots(world: Any, game: str, bots: int) -> Any:
    await world.alice.slash(world.channel, "play", game=game, practice=True)
    for _ in range(bots):
        await world.alice.click(world.channel.last_message, label="Add bot")
    await world.alice.click(world.channel.last_message, label="Start")
    return live_table(world)


@pytest.mark.simcord(settle_timeout=1.0)  # SimCord runs timers due within its settle window: keep it under the pace
async def test_bots_move_one_at_a_time_at_the_house_pace(
    world: Any, database: Any, clock: Any, monkeypatch: Any
) -> None:
    await world.env.restart_bot(make_bot(database, clock, bot_pace=None))  # the server's own pace setting
    asked: list[float] = []  # when each decision went to the bots' pool (virtual seconds)
    _note_decisions(monkeypatch, lambda _args: asked.append(world.env._virtual_time))
    done = await world.mod.slash(world.channel, "config set", bot_pace=2.0)
    assert "Bot pace" in str(done.response.embeds[0].to_dict())
    table = await _practice_with_bots(world, "ofc", bots=2)
    engine = table.engine
    assert engine is not None and engine.rules.variant == "c"
    # Turbo: everyone places at once. Alice's street waits for her; each bot's placement waits out the pace.
    assert engine.to_act() == {0, 1, 2}
    started = world.env._virtual_time
    await world.env.advance_time(1.9)
    assert engine.to_act() == {0, 1, 2}
    # The bot's search is worked out while its pace runs, not after it: people never wait the pace plus the search.
    assert asked and asked[0] - started < 1.0
    tanuki = "🤖 Tanuki (normal) placed 5 card(s) face down"
    # One bot placed, and the table says so; the other still waits its own pace (both at once: never {0, 2}).
    await _until(world, lambda: tanuki in str(table_message(world).embeds[0].to_dict()), by=started + 3.5)
    assert engine.to_act() == {0, 2} and tanuki in str(table_message(world).embeds[0].to_dict())
    placed = world.env._virtual_time
    await world.env.advance_time(1.0)
    assert engine.to_act() == {0, 2}, "the second bot did not wait its pace after the first"
    kitsune = "🤖 Kitsune (normal) placed 5 card(s) face down"
    await _until(world, lambda: kitsune in str(table_message(world).embeds[0].to_dict()), by=placed + 4.0)
    assert engine.to_act() == {0} and kitsune in str(table_message(world).embeds[0].to_dict())


def _note_decisions(monkeypatch: Any, note: Callable[[tuple[Any, ...]], object]) -> None:
    """``note(args)`` with each decision's arguments as the mover hands it to the bots' pool:
    ``decide(game, level, view, legal, rng, effort)``'s, from ``game`` on. The decision is then worked out at once,
    on the loop, rather than in the pool's real time."""
    import bot.tables.autoplay

    async def noted(fn: Any, *args: Any) -> Any:
        note(args)
        return fn(*args)

    monkeypatch.setattr(bot.tables.autoplay, "think", noted)


async def _until(world: Any, done: Callable[[], bool], *, by: float, step: float = 0.1) -> None:
    """Let the virtual clock run in small steps until ``done()``, or until it would pass ``by``: work in real time
    (the database's thread, the picture's drawing) may land a step or two later on a busy machine. Checks give it
    that slack, and no more than the behaviour they rule out would take."""
    while not done() and world.env._virtual_time + step <= by:
        await world.env.advance_time(step)


async def _placed_as_her_panel_would(world: Any, table: Any, seat: int) -> None:
    """The seat's normal placement, made through the same path as a panel's button, as the bot's own work: SimCord
    keeps the bot's clock and tracks its tasks only in the bot's scope. Made from the test's task instead, the move
    started the table's picture updater outside it, which noted its last edit on the real clock, and the next
    picture then waited as many virtual seconds as the machine had been up: on a busy machine, the bot's pace
    (counted from that picture) never ran out (CI failed so)."""
    with world.env._bot_scope():
        await world.env.bot.tables.play.move(table, seat, _normal_move(table, seat))
    await world.env.settle()


def _normal_move(table: Any, seat: int) -> Any:
    import random

    from games.registry import get_game

    engine = table.engine
    return get_game(table.game).policies["normal"](engine.view(seat), engine.legal_actions(seat), random.Random(0))


@pytest.mark.simcord(settle_timeout=1.0)
async def test_a_bots_move_stands_when_another_seat_moves_during_its_pace(
    world: Any, database: Any, clock: Any, monkeypatch: Any
) -> None:
    """OFC Turbo: everyone places at once. A member placing while a bot waits its pace does not throw the bot's
    search away (to be run again, after another pace): its placement was made for its own decision, which still
    stands, as a member's button would."""
    await world.env.restart_bot(make_bot(database, clock, bot_pace=2.0))
    asked: list[int] = []  # the street of each decision sent to the bots' pool
    _note_decisions(monkeypatch, lambda args: asked.append(args[2].public.street))  # args[2]: the view
    table = await _practice_with_bots(world, "ofc", bots=2)
    engine = table.engine
    assert engine is not None and engine.to_act() == {0, 1, 2}
    await world.env.advance_time(1.0)
    await _placed_as_her_panel_would(world, table, 0)
    assert engine.to_act() == {1, 2} and len(asked) == 1
    moved = world.env._virtual_time
    await _until(world, lambda: engine.to_act() == {2}, by=moved + 1.8)  # its own pace, not one after Alice's
    assert engine.to_act() == {2}, "the bot's placement waited another pace after Alice's"
    await _until(world, lambda: engine.public_view().street == 2, by=world.env._virtual_time + 4.0)
    assert engine.public_view().street == 2  # both bots placed; the next street is dealt
    assert asked.count(1) == 2, "a bot's search was run again for nothing"


@pytest.mark.simcord(settle_timeout=1.0)
async def test_a_member_back_during_the_pace_is_not_moved_for(
    world: Any, database: Any, clock: Any, monkeypatch: Any
) -> None:
    import bot.tables.autoplay

    async def at_once(fn: Any, game: str, _level: str, *args: Any) -> Any:
        return fn(game, "normal", *args)  # done before the virtual clock moves on (a strong bot's first search is not)

    monkeypatch.setattr(bot.tables.autoplay, "think", at_once)
    await world.env.restart_bot(make_bot(database, clock, bot_pace=2.0))
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    table = await _practice_with_bots(world, "ofc", bots=1)
    engine = table.engine
    assert engine is not None and engine.to_act() == {0, 1}
    await _until(world, lambda: engine.to_act() == {0}, by=world.env._virtual_time + 3.5)
    assert engine.to_act() == {0}  # the bot placed
    for _ in range(40):
        if table.seats[0].away:
            break
        await world.env.advance_time(0.5)
    assert table.seats[0].away and engine.to_act() == {0}  # her turn timer ran out: the policy places for her
    await world.env.advance_time(1.0)
    await open_panel(world, world.alice)  # she is back before its pace is over
    assert not table.seats[0].away
    await world.env.advance_time(5.0)
    assert engine.public_view().street == 1 and engine.to_act() == {0}, "the bot placed for a member who came back"
    await _placed_as_her_panel_would(world, table, 0)
    assert engine.public_view().street == 2


async def test_a_table_of_bots_and_away_players_plays_on_without_holding_up_others(world: Any) -> None:
    table = await _practice_with_bots(world, "oicho", bots=2)
    engine = table.engine
    # Alice does nothing: the turn timer marks her away when it is her turn, and the policy plays for her.
    other = world.guild.create_text_channel("other")
    for _ in range(400):
        if not world.env.bot.tables.tables or len(world.env.bot.tables.tables) > 1:
            break
        await world.env.advance_time(61)
    # Meanwhile another table opens and answers at once in another channel.
    opened = await world.bob.slash(other, "play", game="oicho")
    assert opened.ephemeral and "is open below" in (opened.response or opened.followups[0]).content
    for _ in range(400):
        if table.id not in world.env.bot.tables.tables:
            break
        await world.env.advance_time(61)
    assert table.id not in world.env.bot.tables.tables and engine.is_over
    assert any(s.away for s in table.seats if not s.bot)


async def test_the_table_narrates_the_moves(world: Any) -> None:
    table = await _oicho_alice_against_bob(world)
    await press(world, world.alice, "bet 1 5")
    narrated = str(table_message(world).embeds[0].to_dict())
    assert "Recent moves" in narrated and "alice bets 5 on pile 1." in narrated
    del table


@pytest.mark.simcord(settle_timeout=0.4)  # under the bot pace (0.5 s): SimCord runs timers due within it
async def test_every_bot_move_is_shown_before_the_next_and_a_settled_deal_is_given_time(
    world: Any, database: Any, clock: Any, monkeypatch: Any
) -> None:
    """With a real edit window (1 s) and a brisk bot pace (0.5 s), a bot's pace counts from when the move before it
    was shown, so no move is lost inside an edit window (a trick, a deal's last card); after a deal is settled, the
    next deal's first bot move waits three paces, so people can read the results."""
    from bot.tables.play import Play
    from bot.tables.state import PictureState

    await world.env.restart_bot(make_bot(database, clock, edit_interval=1.0, bot_pace=0.5))
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    made: list[tuple[int, float, bool]] = []  # serial after each change, loop time, whether it settled a deal
    shown: dict[int, float] = {}
    plain_follow_up, plain_showed = Play.follow_up, PictureState.showed

    async def follow_up(self: Play, session: Any, outcome: Any, **kwargs: Any) -> None:
        if outcome.action is not None and session.engine is not None:
            made.append((session.engine.serial, world.env._virtual_time, bool(outcome.settled)))
        await plain_follow_up(self, session, outcome, **kwargs)

    def showed(self: PictureState, serial: int) -> None:
        shown.setdefault(serial, world.env._virtual_time)
        plain_showed(self, serial)

    monkeypatch.setattr(Play, "follow_up", follow_up)
    monkeypatch.setattr(PictureState, "showed", showed)
    table = await _practice_with_bots(world, "oicho", bots=2)
    engine = table.engine
    assert engine is not None
    for _ in range(600):  # Alice never moves: her timer marks her away, and every seat is played by the policy
        if any(settled for *_, settled in made) and len(made) >= 30:
            break
        await world.env.advance_time(0.25)
    assert len(made) >= 30 and any(settled for *_, settled in made)
    for (serial, _at, _), (_next_serial, next_at, _) in itertools.pairwise(made):
        assert serial in shown, f"the state after move {serial} never reached the channel"
        assert next_at - shown[serial] >= 0.5 - 1e-6, "a bot moved before the move before it had been seen for a pace"
    settled_at = [(serial, at) for serial, at, settled in made if settled]
    for serial, _at in settled_at:
        later = [next_at for next_serial, next_at, _ in made if next_serial > serial]
        if later:
            assert later[0] - shown[serial] >= 1.5 - 1e-6, "the next deal began before its results could be read"


def test_a_panel_id_too_long_for_discord_is_a_bug_not_a_silent_cut() -> None:
    """A custom id or menu value cut to Discord's 100 characters would send another move than the one shown: the
    view refuses it (bot.ui.panel keeps every id within the limit; this guards the boundary)."""
    from bot.tables.components import panel_view
    from bot.ui.panel.components import Button, Rendered, Select, SelectOption

    fits = Rendered("ok", [[Button("f" * 100, "Go")]])
    assert panel_view(fits).children[0].custom_id == "f" * 100  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="100"):
        panel_view(Rendered("too long", [[Button("f" * 101, "Go")]]))
    option = SelectOption("a card", "v" * 101)
    with pytest.raises(ValueError, match="100"):
        panel_view(Rendered("too long", [[Select("fdb:1:2:u:x", (option,), "pick")]]))


def test_a_busy_bots_pool_asks_strong_bots_for_less_search() -> None:
    from bot.tables.autoplay import FULL_EFFORT_WAITING, LEAST_EFFORT, effort

    assert effort(0, 1) == effort(FULL_EFFORT_WAITING - 1, 1) == 1.0  # a short queue: the whole budget
    assert effort(FULL_EFFORT_WAITING, 1) < 1.0
    assert effort(2 * FULL_EFFORT_WAITING - 1, 1) == 0.5  # twice the queue: half the search each
    assert effort(2 * FULL_EFFORT_WAITING - 1, 2) == 1.0  # two workers take twice the queue
    assert effort(10_000, 1) == LEAST_EFFORT  # however long the queue, a bot still searches a little


@pytest.mark.simcord(settle_timeout=1.0)
async def test_the_mover_hands_the_effort_of_the_moment_to_the_search(
    world: Any, database: Any, clock: Any, monkeypatch: Any
) -> None:
    import bot.render.runner
    import bot.tables.autoplay

    await world.env.restart_bot(make_bot(database, clock, bot_pace=0.5))
    efforts: list[float] = []
    _note_decisions(monkeypatch, lambda args: efforts.append(args[5]))  # args[5]: the effort
    monkeypatch.setattr(bot.render.runner, "thinking", lambda: (60, 1))  # a long queue on one worker
    table = await _practice_with_bots(world, "ofc", bots=1)
    await world.env.advance_time(0.6)
    assert efforts and efforts[0] == bot.tables.autoplay.effort(60, 1) < 0.2
    monkeypatch.setattr(bot.render.runner, "thinking", lambda: (0, 1))
    await _placed_as_her_panel_would(world, table, 0)
    await world.env.advance_time(0.6)
    assert efforts[-1] == 1.0
