"""The faults found when the bot was tried as a new user would, each played the way a member would play it.

Every test drives the real bot through SimCord: members click, type and restart; Discord calls fail where
a real Discord can fail them. What is checked is what people see and what happens to their chips.
"""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest
import simcord.interactions as sim_interactions
from simcord.backend import serializers
from simcord.enums import InteractionType
from simcord.results import InteractionResult

from tests.bot.conftest import make_bot
from tests.bot.tables.driver import (
    buttons,
    enabled_actions,
    forge_click,
    live_table,
    open_oicho,
    open_panel,
    play_one_turn,
    press,
    table_message,
    whose_turn,
)


def _members(world: Any) -> dict[int, Any]:
    return {m.id: m for m in (world.alice, world.bob, world.carol, world.mod)}


async def simultaneous(world: Any, *clicks: tuple[Any, Any, str]) -> list[InteractionResult]:
    """Several members' clicks reaching the bot together (SimCord's actor verbs cannot overlap), settled once."""
    env = world.env
    backend = env.backend
    records = []
    for actor, message, custom_id in clicks:
        stored = backend.get_message(world.channel.id, message.id)
        record, payload = sim_interactions.base_payload(
            backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=world.channel.id,
            guild_id=world.guild.id,
            user_id=actor.id,
            data={"custom_id": custom_id, "component_type": 2},
        )
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        records.append((record, payload))
    for _record, payload in records:
        backend.emit("INTERACTION_CREATE", payload)
    await env._settle_internal(dispatch="INTERACTION_CREATE")
    return [InteractionResult(env, record) for record, _ in records]


# ---------------------------------------------------------------- 1. one source of truth for seats


async def test_chips_go_to_the_member_who_played_the_seat_after_leaving_and_rejoining(world: Any) -> None:
    db = world.env.bot.db
    gid = world.guild.id
    await world.alice.slash(world.channel, "play", game="oicho")
    lobby = world.channel.last_message
    for member in (world.bob, world.carol):
        await member.click(lobby, label="Join")
    await world.bob.click(lobby, label="Leave")
    await world.mod.click(lobby, label="Join")  # takes the lowest free seat, bob's
    await world.bob.click(lobby, label="Join")
    players = next(f for f in world.channel.last_message.embeds[0].fields if f.name.startswith("Players"))
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    stored = await db.get_table(table.id)
    assert stored is not None
    # The lobby, the live table and the database agree on who sits where.
    assert [s.user_id for s in stored.seats] == [s.user_id for s in table.seats]
    assert players.value.splitlines() == [f"{i + 1}. {s.name}" for i, s in enumerate(table.seats)]
    members = _members(world)
    while not any(any(h.deltas) for h in await db.table_history(table.id)):  # until chips have moved
        _seat, member = whose_turn(world)
        await play_one_turn(world, member)
    hands = await db.table_history(table.id)
    await world.alice.slash(world.channel, "table stop")
    for seat, info in enumerate(table.seats):
        member = members[info.user_id]
        # Each member's balance moved by exactly what the seat they played won or lost.
        won = sum(h.deltas[seat] for h in hands)
        assert await db.balance(gid, member.id) == 1000 + won, (member, [h.deltas for h in hands])
    assert await db.verify_ledger(gid) == []


# ---------------------------------------------------------------- 2. a lobby that could not be posted


async def test_a_lobby_that_cannot_be_posted_is_rolled_back(world: Any) -> None:
    db = world.env.bot.db
    world.env.inject_error("POST", "/channels/*/messages", status=403, code=50013, times=1)
    refused = await world.alice.slash(world.channel, "play", game="oicho")
    text = (refused.response or refused.followups[0]).content
    assert refused.ephemeral and "could not be posted" in text and "returned" in text
    assert world.env.backend.faults == []
    assert await db.balance(world.guild.id, world.alice.id) == 1000
    assert world.env.bot.tables.tables == {} and await db.active_table_in(world.channel.id) is None
    # The channel is free again, and the ledger shows the buy-in going out and straight back.
    again = await world.alice.slash(world.channel, "play", game="oicho")
    assert again.ephemeral and "is open below" in (again.response or again.followups[0]).content
    assert await db.balance(world.guild.id, world.alice.id) == 900
    assert await db.verify_ledger(world.guild.id) == []


# ---------------------------------------------------------------- 3. "nothing changed" after a change


async def test_a_move_whose_panel_update_fails_is_reported_as_made_and_not_doubled(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    engine = table.engine
    seat, mover = whose_turn(world)
    panel = await open_panel(world, mover)
    bet = enabled_actions(panel)["bet 1 5"]
    world.env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    told = await mover.click(panel.response, custom_id=bet)
    assert engine.view(seat).my_bets == ((1, 5),)
    said = " ".join(m.content for m in [told.response, *told.followups] if m is not None)
    assert "Done" in said and "bets 5 on pile 1" in said and "My hand" in said
    assert "Nothing was changed" not in said
    world.env.errors.clear()
    # The open panel caught up with the table by itself, showing the bet.
    assert "your bet 5" in panel.response.content and bet not in enabled_actions(panel).values()
    # A client still showing the old panel presses the same button again: recognised, no second bet.
    again = await forge_click(world, mover, bet)
    assert "earlier decision" in str(again.response.content)
    assert engine.view(seat).my_bets == ((1, 5),)


async def test_a_failed_table_edit_after_a_move_does_not_say_nothing_changed(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    seat, mover = whose_turn(world)
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=1)
    result = await press(world, mover, "bet 1 5")
    assert result.response is not None and "Nothing was changed" not in result.response.content
    assert table.engine.view(seat).my_bets == ((1, 5),)
    assert world.env.backend.faults == []


# ---------------------------------------------------------------- 4. results are owed to the channel


async def _deal_until_settled(world: Any, table: Any, fail_results: int) -> Any:
    """Play until the first deal settles, making the results post fail ``fail_results`` times."""
    db = world.env.bot.db
    engine = table.engine
    while True:
        seat, member = whose_turn(world)
        legal = {a.text for a in engine.legal_actions(seat) if hasattr(a, "text")}
        if engine.public_view().phase == "dealer" and "stand" in legal:
            # The results become the table message (an edit), or a new message when that fails: both fail here.
            world.env.inject_error("PATCH", "/channels/*/messages/*", status=503, times=fail_results)
            world.env.inject_error("POST", "/channels/*/messages", status=503, times=fail_results)
            await press(world, member, "stand")
            break
        await play_one_turn(world, member)
    (hand,) = await db.table_history(table.id)
    return hand


def _result_posts(world: Any, deal: int) -> list[Any]:
    return [m for m in world.channel.history() for e in m.embeds if e.title == f"Round {deal} results"]


async def test_a_results_message_that_failed_is_posted_late_not_never(world: Any) -> None:
    db = world.env.bot.db
    table = await open_oicho(world, world.bob)
    hand = await _deal_until_settled(world, table, fail_results=1)
    # The post failed once; the table's next update brought it to the channel, with its seed.
    posts = _result_posts(world, hand.deal_no)
    assert len(posts) == 1
    assert hand.summary["seeds"][0] in str(posts[0].embeds[0].to_dict())
    assert await db.unposted_results() == []


async def test_results_owed_before_a_restart_are_posted_after_it(world: Any, database: Any, clock: Any) -> None:
    db = world.env.bot.db
    table = await open_oicho(world, world.bob)
    hand = await _deal_until_settled(world, table, fail_results=50)
    assert _result_posts(world, hand.deal_no) == []
    assert [h.deal_no for h in await db.unposted_results()] == [hand.deal_no]
    world.env.backend.faults.clear()
    world.env.errors.clear()
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    assert len(_result_posts(world, hand.deal_no)) == 1
    assert await db.unposted_results() == []


# ---------------------------------------------------------------- 5. /table stop racing the last move


@pytest.mark.parametrize("stop_first", [False, True])
async def test_a_stop_racing_the_last_move_says_what_happened_to_the_chips(world: Any, stop_first: bool) -> None:
    db = world.env.bot.db
    table = await open_oicho(world, world.bob)
    engine = table.engine
    while engine.public_view().phase != "dealer":
        _seat, member = whose_turn(world)
        await play_one_turn(world, member)
    _dealer_seat, dealer = whose_turn(world)
    panel = await open_panel(world, dealer)
    stand = enabled_actions(panel)["stand"]
    stop = f"fdb:{table.id}:t:stop"
    clicks = [(dealer, panel.response, stand), (world.alice, table_message(world), stop)]
    await simultaneous(world, *(reversed(clicks) if stop_first else clicks))
    world.env.errors.clear()  # the loser of the race was refused (the table had gone), as it should be
    assert not world.env.bot.tables.tables
    final = next(e for m in world.channel.history() for e in m.embeds if e.title == "The game is over")
    hands = await db.table_history(table.id)
    assert bool(hands) != stop_first  # the press that arrives first wins the table's lock: both orders are played
    if hands:  # the move won: the deal settled, and the message must not call it void
        assert "void" not in final.description and "settled" in final.description
        assert len(_result_posts(world, hands[0].deal_no)) == 1
        for seat, info in enumerate(table.seats):
            assert await db.balance(world.guild.id, info.user_id) == 1000 + hands[0].deltas[seat]
    else:  # the stop won: the deal is void and nobody's chips moved
        assert "void" in final.description
        for info in table.seats:
            assert await db.balance(world.guild.id, info.user_id) == 1000
    assert await db.verify_ledger(world.guild.id) == []


async def test_stopping_right_after_a_deal_settles_is_not_called_void(world: Any) -> None:
    db = world.env.bot.db
    table = await open_oicho(world, world.bob)
    await _deal_until_settled(world, table, fail_results=0)
    stopped = await world.alice.slash(world.channel, "table stop")
    assert "settled" in (stopped.response or stopped.followups[0]).content
    final = next(e for m in world.channel.history() for e in m.embeds if e.title == "The game is over")
    assert "void" not in final.description
    assert await db.verify_ledger(world.guild.id) == []


@pytest.mark.parametrize("stage", ["drawing", "sending"])
async def test_a_table_update_in_flight_never_lands_after_the_final_message(
    world: Any, monkeypatch: Any, stage: str
) -> None:
    """The last live picture of a table may still be drawing (or its edit on its way) when the game ends: the
    final message must stay the last word, neither overwritten by that picture nor followed by a new table."""
    import asyncio

    import bot.tables.public as public

    table = await open_oicho(world, world.bob)
    manager = world.env.bot.tables
    gate = asyncio.Event()
    if stage == "drawing":
        real_render = public.render_in_thread

        async def slow_render(*args: Any, **kwargs: Any) -> Any:
            await gate.wait()
            return await real_render(*args, **kwargs)

        monkeypatch.setattr(public, "render_in_thread", slow_render)
    else:
        real_show = public.PublicMessages._show

        async def slow_show(self: Any, session: Any, **fields: Any) -> None:
            await gate.wait()
            await real_show(self, session, **fields)

        monkeypatch.setattr(public.PublicMessages, "_show", slow_show)
    manager.public.mark(table)
    for _ in range(5):
        await asyncio.sleep(0)  # the updater is now waiting inside the picture's update
    updater = table.runtime.picture.updater
    assert updater is not None
    assert not updater.done()
    stopping = asyncio.ensure_future(manager.stop(table, by=world.alice.id))
    for _ in range(5):
        await asyncio.sleep(0)
    gate.set()
    said = await stopping
    await world.env.settle()
    assert said and updater.done()
    to_channel = [
        r
        for r in world.env.http_requests
        if r.method in ("POST", "PATCH") and r.path.startswith(f"/channels/{world.channel.id}/messages")
    ]
    last = to_channel[-1]
    assert last.method == "PATCH" and last.path.endswith(f"/messages/{table.message_id}")
    assert [e.get("title") for e in last.json["embeds"]] == ["The game is over"], "the final message is the last word"


# ---------------------------------------------------------------- 6. names after a restart


async def test_names_survive_a_restart(world: Any, database: Any, clock: Any) -> None:
    await world.alice.slash(world.channel, "play", game="oicho")
    lobby = world.channel.last_message
    await world.bob.click(lobby, label="Join")
    await world.env.restart_bot(make_bot(database, clock))
    await world.carol.click(lobby, label="Join")  # the lobby after the restart still names everyone
    players = next(f for f in world.channel.last_message.embeds[0].fields if f.name.startswith("Players"))
    assert players.value.splitlines() == ["1. alice", "2. bob", "3. carol"]
    await world.alice.click(lobby, label="Start")
    await world.env.restart_bot(make_bot(database, clock))
    table = live_table(world)
    assert table.names() == ["alice", "bob", "carol"]
    _seat, member = whose_turn(world)
    await play_one_turn(world, member)
    shown = str(table_message(world).embeds[0].to_dict())
    assert "alice" in shown and "player 1" not in shown


# ---------------------------------------------------------------- 7. amounts typed in the modal


async def test_typed_amounts_take_digits_and_thousands_separators_only(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    seat, mover = whose_turn(world)
    panel = await open_panel(world, mover)
    custom = next(b["custom_id"] for b in buttons(panel.response) if ":u:amt:" in b.get("custom_id", ""))
    for typed in ("1,5", "²", "٣", "1_0", "3.0", "-4", "1 0", "Ⅻ"):
        shown = await mover.click(panel.response, custom_id=custom)
        refused = await mover.submit_modal(shown, {"amount": typed})
        text = refused.response.content
        assert refused.ephemeral and f"“{typed}”" in text and "whole number" in text, (typed, text)
    assert table.engine.view(seat).my_bets == ()
    shown = await mover.click(panel.response, custom_id=custom)
    too_big = await mover.submit_modal(shown, {"amount": "2,000"})
    assert "at most" in too_big.response.content  # read as 2000, then refused by the rules with the reason
    shown = await mover.click(panel.response, custom_id=custom)
    await mover.submit_modal(shown, {"amount": "１２"})  # full-width digits, as a Japanese keyboard types them
    assert table.engine.view(seat).my_bets == ((1, 12),)


# ---------------------------------------------------------------- 8. malformed and forged ids


async def test_every_malformed_or_forged_id_gets_an_answer_and_changes_nothing(world: Any) -> None:
    db = world.env.bot.db
    table = await open_oicho(world, world.bob)
    engine = table.engine
    seat, mover = whose_turn(world)
    decision = engine.decision_id(seat)
    tid = table.id
    before = (json.dumps(engine.snapshot()), await db.table_log(tid), dict(table.panel_state))
    for custom_id in (
        f"fdb:{tid}:{decision}:a:",  # an empty action
        f"fdb:{tid}:x:a:done",  # a decision that is not a number
        f"fdb:{tid}:{decision}:z:done",  # an unknown kind
        f"fdb:{tid}:{decision}:u:explode:",  # an unknown verb
        f"fdb:{tid}:lobby:explode",
        f"fdb:{tid}:t:explode",
        f"fdb:{tid}:{decision}:u:rng:bet/9",  # a pile that does not exist
        f"fdb:{tid}:{decision}:u:amt:bet/9",
        f"fdb:{tid}:{decision}:a:bet~1~5~5",
        "fdb:",
        "hello",
        "fdb:" + "9" * 30 + ":1:a:done",
        f"fdb:{tid}:{decision}:a:bet~~1~5",
    ):
        answered = await forge_click(world, mover, custom_id)
        assert answered.acknowledged and answered.ephemeral, custom_id
        assert answered.response is not None and answered.response.content, custom_id
    world.env.errors.clear()
    assert (json.dumps(engine.snapshot()), await db.table_log(tid), dict(table.panel_state)) == before
    # A forged select (a pile that is not offered) is refused and stores nothing in the panel state.
    channel = world.env.bot.get_channel(world.channel.id)
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=f"fdb:{tid}:{decision}:s:rng:bet", options=[discord.SelectOption(label="x", value="9")]
        )
    )
    forged = await channel.send("forged", view=view)
    refused = await mover.select(forged, ["9"], custom_id=f"fdb:{tid}:{decision}:s:rng:bet")
    assert refused.ephemeral and "earlier deal or panel" in refused.response.content
    assert dict(table.panel_state) == before[2]
    # And "My hand" and its buttons still work.
    await press(world, mover, "bet 1 5")
    assert engine.view(seat).my_bets == ((1, 5),)


async def test_a_forged_stale_button_on_a_public_message_never_shows_the_panel_publicly(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    seat, mover = whose_turn(world)
    other = world.bob if mover is world.alice else world.alice
    forged = f"fdb:{table.id}:{table.engine.decision_id(seat) + 3}:a:done"
    answered = await forge_click(world, mover, forged)
    # A decision id from the future was never offered: it is not called "an earlier decision".
    assert answered.ephemeral and "never offered to you" in answered.response.content
    assert "earlier decision" not in answered.response.content
    public = [m.content for m in world.channel.history(viewer=other)]
    assert not any("Your betting turn" in (c or "") for c in public)


# ---------------------------------------------------------------- 9. refusals are private


async def test_refusals_never_show_a_balance_publicly(world: Any) -> None:
    db = world.env.bot.db
    poor = await world.alice.slash(world.channel, "play", game="oicho", buy_in=5000)
    assert poor.ephemeral and "1000 available" in (poor.response or poor.followups[0]).content
    await world.bob.slash(world.channel, "play", game="oicho")
    await db.take(world.guild.id, world.carol.id, 950, actor_id=world.mod.id)
    joined = await world.carol.click(world.channel.last_message, label="Join")
    assert joined.ephemeral and "50 available" in joined.response.content
    for viewer in (world.alice, world.bob, world.carol):
        public = [m for m in world.channel.history(viewer=viewer) if not m.flags.ephemeral]
        assert not any("available" in str(m.content) + str([e.to_dict() for e in m.embeds]) for m in public)


# ---------------------------------------------------------------- 10. a restart shows the table's real state


async def test_the_away_flag_survives_a_restart(world: Any, database: Any, clock: Any) -> None:
    table = await open_oicho(world, world.bob)
    waiting = min(table.engine.to_act())
    await world.env.advance_time(61)
    assert table.seats[waiting].away
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    restored = live_table(world)
    assert restored.seats[waiting].away
    assert "Away" in str(table_message(world).embeds[0].to_dict())


async def test_an_unconfirmed_choice_is_gone_from_the_panel_after_a_restart(
    world: Any, database: Any, clock: Any
) -> None:
    await world.alice.slash(world.channel, "play", game="ofc")
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    panel = await open_panel(world, world.alice)
    put = next(b["custom_id"] for b in buttons(panel.response) if ":u:put:place/back" in b["custom_id"])
    panel = await world.alice.click(panel.response, custom_id=put)
    assert "→ Back" in panel.response.content  # a provisional choice, on Alice's panel only
    panel_id = panel.response.id
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    shown = message_by_id_for(world, world.alice, panel_id)
    # The restarted table has no such choice; the open panel was brought to its real state.
    assert "→ Back" not in shown.content and "→ ?" in shown.content
    confirm = next(b for b in buttons(shown) if ":u:ok:place" in b.get("custom_id", ""))
    assert confirm.get("disabled")
    assert live_table(world).panel_state == {}


def message_by_id_for(world: Any, viewer: Any, message_id: int) -> Any:
    return next(m for m in world.channel.history(viewer=viewer) if m.id == message_id)


# ---------------------------------------------------------------- 10. a double click's warning stays


def _seen_by(world: Any, member: Any, message_id: int) -> str:
    """A message's text as the member sees it now (their ephemeral panel, edited in place)."""
    return next(m.content for m in world.channel.history(viewer=member) if m.id == message_id)


@pytest.mark.parametrize("button", ["preset", "max"])
async def test_a_double_click_still_says_one_press_did_nothing_after_everything_settles(
    world: Any, button: str
) -> None:
    table = await open_oicho(world, world.bob)
    engine = table.engine
    seat, mover = whose_turn(world)
    panel = await open_panel(world, mover)
    actions = enabled_actions(panel)
    text = "bet 1 5" if button == "preset" else max((a for a in actions if a.startswith("bet 1 ")), key=len)
    cid = actions[text]
    await simultaneous(world, (mover, panel.response, cid), (mover, panel.response, cid))
    await world.env.settle()
    amount = int(text.split()[-1])
    assert engine.view(seat).my_bets == ((1, amount),), "one press made the bet, the other nothing"
    shown = _seen_by(world, mover, panel.response.id)
    assert "earlier decision, so nothing was done" in shown, shown
    assert f"your bets so far: {amount}" in shown
    # The table moves on without the member pressing anything (their turn timer runs out and the bot finishes
    # their turn): their open panel is redrawn, and still says that one press did nothing.
    await world.env.advance_time(61)
    await world.env.settle()
    assert table.seats[seat].away
    redrawn = _seen_by(world, mover, panel.response.id)
    assert redrawn != shown and "earlier decision, so nothing was done" in redrawn
    # Their next press is answered in full: the note has been read.
    fresh = await open_panel(world, mover)
    assert "earlier decision" not in fresh.response.content


async def test_a_double_click_of_ofc_confirm_still_says_one_press_did_nothing(world: Any) -> None:
    await world.alice.slash(world.channel, "play", game="ofc")
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    engine = table.engine
    seat = table.seat_of(world.alice.id)

    def cid(panel: Any, part: str) -> str:
        return next(b["custom_id"] for b in buttons(panel.response) if part in b.get("custom_id", ""))

    panel = await open_panel(world, world.alice)
    panel = await world.alice.click(panel.response, custom_id=cid(panel, ":u:x:hint"))
    ok = cid(panel, ":u:ok:place")
    await simultaneous(world, (world.alice, panel.response, ok), (world.alice, panel.response, ok))
    await world.env.settle()
    assert seat not in engine.to_act(), "her street was placed, once"
    assert "earlier decision, so nothing was done" in _seen_by(world, world.alice, panel.response.id)
    # Bob places his street: the street is revealed, Alice's open panel is redrawn, and still says so.
    bob_panel = await open_panel(world, world.bob)
    bob_panel = await world.bob.click(bob_panel.response, custom_id=cid(bob_panel, ":u:x:hint"))
    await world.bob.click(bob_panel.response, custom_id=cid(bob_panel, ":u:ok:place"))
    await world.env.settle()
    redrawn = _seen_by(world, world.alice, panel.response.id)
    assert seat in engine.to_act() and "street 2/3" in redrawn
    assert "earlier decision, so nothing was done" in redrawn
