"""Oicho-Kabu tables driven through Discord as members would play them."""

from __future__ import annotations

import json
from typing import Any

from tests.bot.tables.driver import (
    buttons,
    enabled_actions,
    forge_click,
    live_table,
    open_panel,
    play_until,
    press,
    table_message,
    whose_turn,
)


async def _short_rules(world: Any) -> None:
    """One round per tenure keeps a full game short (stored like any moderator's house rule)."""
    await world.env.bot.db.set_house_rule(
        world.guild.id,
        "oicho",
        {"dealer_rounds": 1},
        actor_id=world.mod.id,
        path="dealer_rounds",
        old_value=3,
        new_value=1,
    )


async def _open_and_start(world: Any, *, bot: bool = True) -> None:
    alice, bob, ch = world.alice, world.bob, world.channel
    await alice.slash(ch, "play", game="oicho")
    lobby = ch.last_message
    await bob.click(lobby, label="Join")
    if bot:
        await alice.click(lobby, label="Add bot")
    await alice.click(lobby, label="Start")


async def test_full_game_moves_chips_and_fills_the_leaderboard(world: Any) -> None:
    db = world.env.bot.db
    await db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True)
    await _short_rules(world)
    await _open_and_start(world)
    table = live_table(world)
    assert [s.name for s in table.seats] == ["alice", "bob", "Tanuki"]
    # Buy-ins left the wallets: 1000 starting balance − 100 buy-in.
    assert await db.balance(world.guild.id, world.alice.id) == 900
    members = {world.alice.id: world.alice, world.bob.id: world.bob}
    await play_until(world, members, stop=lambda tb: False)
    assert not world.env.bot.tables.tables  # the game ended by itself
    alice_balance = await db.balance(world.guild.id, world.alice.id)
    bob_balance = await db.balance(world.guild.id, world.bob.id)
    engine = table.engine
    assert engine is not None and engine.is_over
    # Final stacks went back to the wallets, and each player's change equals the settled deals' results.
    hands = await db.table_history(table.id, limit=10_000)
    won = [sum(h.deltas[s] for h in hands) for s in range(3)]
    assert won == [(engine.stacks[s] - table.points_per_seat) * table.stake for s in range(3)]
    assert alice_balance == 1000 + won[0]
    assert bob_balance == 1000 + won[1]
    assert sum(won) == 0 and any(won)
    # Results were posted publicly, and the final message lists the stacks.
    titles = [e.title for m in world.channel.history() for e in m.embeds]
    assert any(t and "results" in t for t in titles)
    assert any(t == "The game is over" for t in titles)
    # The per-game leaderboard shows both members with their net result, and never the bot.
    page = await db.net_leaderboard(world.guild.id, "oicho")
    assert {e.user_id: e.value for e in page.entries} == {world.alice.id: won[0], world.bob.id: won[1]}


async def test_a_hand_is_private(world: Any) -> None:
    await _open_and_start(world, bot=False)
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    dealer = engine.public_view().dealer
    dealer_member = world.alice if table.seats[dealer].user_id == world.alice.id else world.bob
    other = world.bob if dealer_member is world.alice else world.alice
    panel = await open_panel(world, dealer_member)
    assert "You are the dealer" in panel.response.content
    seen_by_other = [m.content for m in world.channel.history(viewer=other)]
    assert panel.response.content not in seen_by_other
    assert all("You are the dealer" not in c for c in seen_by_other)


async def test_out_of_turn_not_seated_and_forged_clicks_change_nothing(world: Any) -> None:
    await _open_and_start(world, bot=False)
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    db = world.env.bot.db
    before, logged = json.dumps(engine.snapshot()), await db.table_log(table.id)
    waiting = [s for s in range(2) if s not in engine.to_act()]
    idle_member = world.alice if table.seats[waiting[0]].user_id == world.alice.id else world.bob
    panel = await open_panel(world, idle_member)
    assert enabled_actions(panel) == {}
    # A member who is not seated.
    result = await world.carol.click(table_message(world), custom_id=f"fdb:{table.id}:t:hand")
    assert result.ephemeral and "not seated" in result.response.content
    # Forged ids: another decision, an action out of turn, garbage, an absurd amount.
    idle = engine.decision_id(waiting[0])
    for custom_id, expect in [
        (f"fdb:{table.id}:{idle + 5}:a:done", "never offered to you"),
        (f"fdb:{table.id}:{idle}:a:done", "not your turn"),
        (f"fdb:{table.id}:{idle}:a:explode~now", "not one of this table's"),
        (f"fdb:999999:{idle}:a:done", "no longer exists"),
    ]:
        r = await forge_click(world, idle_member, custom_id)
        assert r.ephemeral and expect in r.response.content.lower(), (custom_id, r.response.content)
    mover_seat, mover = whose_turn(world)
    decision = engine.decision_id(mover_seat)
    for amount, expect in [(0, "at least 1"), (10**12, "at most"), (51, "at most")]:
        r = await forge_click(world, mover, f"fdb:{table.id}:{decision}:a:bet~1~{amount}")
        assert r.ephemeral and expect in r.response.content.lower(), (amount, r.response.content)
    assert json.dumps(engine.snapshot()) == before and await db.table_log(table.id) == logged
    assert await world.env.bot.db.balance(world.guild.id, world.alice.id) == 900


async def test_custom_amount_modal_checks_the_amount(world: Any) -> None:
    await _open_and_start(world, bot=False)
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    mover_seat, mover = whose_turn(world)
    panel = await open_panel(world, mover)
    custom = next(b for b in buttons(panel.response) if ":u:amt:" in b.get("custom_id", ""))
    shown = await mover.click(panel.response, custom_id=custom["custom_id"])
    assert shown.modal is not None
    field_id = "amount"
    assert shown.modal["components"][0]["components"][0]["custom_id"] == field_id
    refused = await mover.submit_modal(shown, {field_id: "lots"})
    assert refused.ephemeral and "not a whole number" in refused.response.content
    shown = await mover.click(panel.response, custom_id=custom["custom_id"])
    accepted = await mover.submit_modal(shown, {field_id: "7"})
    assert accepted.response.ephemeral  # the panel it updated is private
    assert engine.view(mover_seat).my_bets == ((1, 7),)


async def test_restart_in_the_middle_of_a_deal_keeps_the_table(world: Any, database: Any, clock: Any) -> None:
    from tests.bot.conftest import make_bot

    await _open_and_start(world, bot=False)
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    _, mover = whose_turn(world)
    await press(world, mover, "bet 1 5")
    state_before = json.dumps(engine.snapshot())
    old_message = table_message(world)
    await world.env.restart_bot(make_bot(database, clock))
    restored = live_table(world)
    assert restored is not table and restored.engine is not None
    assert json.dumps(restored.engine.snapshot()) == state_before
    # The buttons of the old message still work after the restart.
    result = await mover.click(old_message, custom_id=f"fdb:{restored.id}:t:hand")
    assert result.ephemeral and "your bet 5" in result.response.content
    await press(world, mover, "done")
    assert restored.engine is not None
    logged = await world.env.bot.db.table_log(restored.id)
    assert [e.body for e in logged if e.kind == "action"][-2:] == ["bet 1 5", "done"]
    assert await world.env.bot.db.balance(world.guild.id, world.alice.id) == 900


async def test_a_failed_table_edit_loses_nothing(world: Any) -> None:
    await _open_and_start(world, bot=False)
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    mover_seat, mover = whose_turn(world)
    panel = await open_panel(world, mover)
    decision = engine.decision_id(mover_seat)
    chosen = await mover.select(panel.response, ["2"], custom_id=f"fdb:{table.id}:{decision}:s:rng:bet")
    actions = enabled_actions(chosen)
    assert "bet 2 5" in actions and "bet 1 5" not in actions
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=1)
    await mover.click(chosen.response, custom_id=actions["bet 2 5"])
    assert engine.view(mover_seat).my_bets == ((2, 5),)
    logged = await world.env.bot.db.table_log(table.id)
    assert "bet 2 5" in [e.body for e in logged]
    assert world.env.backend.faults == []  # the injected failure was hit (and used up) by the table edit
    # The next action works and the table message catches up with both changes.
    await press(world, mover, "done")
    embed = table_message(world).embeds[0].to_dict()
    assert "bob 5" in str(embed) or "alice 5" in str(embed)
    assert engine.public_view().phase != "betting"


async def test_turn_timer_plays_for_an_absent_player(world: Any) -> None:
    await _open_and_start(world, bot=False)
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    waiting = min(engine.to_act())
    moves = engine.serial
    await world.env.advance_time(61)
    assert engine.serial > moves
    assert table.seats[waiting].away
    assert "Away" in str(table_message(world).embeds[0].to_dict())


async def test_stop_returns_every_chip(world: Any) -> None:
    await _open_and_start(world, bot=False)
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    _, mover = whose_turn(world)
    await press(world, mover, "bet 1 10")
    refused = await world.carol.slash(world.channel, "table stop")
    assert refused.ephemeral and "host" in refused.response.content
    await world.alice.slash(world.channel, "table stop")
    db = world.env.bot.db
    assert await db.balance(world.guild.id, world.alice.id) == 1000
    assert await db.balance(world.guild.id, world.bob.id) == 1000
    assert not world.env.bot.tables.tables


async def test_clear_is_greyed_out_with_its_reason_until_a_bet_is_made(world: Any) -> None:
    """A child with no bets sees "Clear my bets" disabled and why; after a bet it is enabled and the reason goes."""
    await _open_and_start(world, bot=False)
    _seat, child = whose_turn(world)
    panel = await open_panel(world, child)
    clear = next(b for b in buttons(panel.response) if b.get("label") == "Clear my bets")
    assert clear.get("disabled")
    assert "⛔ Clear my bets: You have no bets to withdraw." in panel.response.content
    bet = next(a for a in enabled_actions(panel) if a.startswith("bet "))
    panel = await press(world, child, bet)
    clear = next(b for b in buttons(panel.response) if b.get("label") == "Clear my bets")
    assert not clear.get("disabled")
    assert "no bets to withdraw" not in panel.response.content
