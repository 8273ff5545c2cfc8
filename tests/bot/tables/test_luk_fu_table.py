"""Luk Fu (六虎) tables driven through Discord as members would play them, with bot players."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ui.luk_fu import card_text
from games.core.rng import Shuffler
from games.core.snapshot import decode
from games.luk_fu import events as ev
from tests.bot.tables.any_game import _click_something, check_chips, private_panels_stay_private
from tests.bot.tables.driver import enabled_actions, live_table, open_panel, table_message


def table_message_embeds(world: Any) -> list[Any]:
    return [e.to_dict() for e in table_message(world).embeds]


async def _set_rules(world: Any, **values: Any) -> None:
    for option, value in values.items():
        done = await world.mod.slash(world.channel, "rules set", game="luk_fu", option=option, value=str(value).lower())
        assert done.response is not None and option in done.response.content, done


def _table_texts(world: Any) -> str:
    """Every version of every table message the bot sent or edited (embeds as text)."""
    texts = []
    for request in world.env.http_requests:
        if request.method in ("POST", "PATCH") and request.path.startswith("/channels/") and request.json:
            texts.append(str(request.json.get("embeds", "")))
    return "\n".join(texts)


async def _play_to_the_end(world: Any, members: tuple[Any, ...], rng: random.Random, limit: int = 3000) -> Any:
    table = live_table(world)
    engine = table.engine
    by_seat = {table.seat_of(m.id): m for m in members}
    steps = 0
    while world.env.bot.tables.tables:
        steps += 1
        assert steps < limit, "the game did not end"
        acting = [s for s in sorted(engine.to_act()) if s in by_seat]
        assert acting, "only bots must act, yet the table stands still"
        member = by_seat[acting[0]]
        panel = await open_panel(world, member)
        for _ in range(6):  # a few clicks make a move (a discard picks its cards, then confirms)
            serial = engine.serial
            result = await _click_something(member, panel, rng)
            if engine.serial != serial or not world.env.bot.tables.tables:
                break
            if result.response is None or not result.response.components:
                break
            panel = result
    return table


OTHER_RULES = {
    "four_player_layout": "opposite_sits_out",
    "old_card_mode": "knowledge",
    "five_tigers_timing": "after_call",
    "five_tigers_tricks": 8,
    "red_bonus": True,
    "red_scope": "all_captured",
    "big_hand_multiplier": True,
    "declarer_pays_double": False,
    "ones_set_rank": "high",
    "stay_if_parent_declared_and_no_winner": True,
}


@pytest.mark.parametrize(("seats", "bots", "rules"), [(3, 1, {}), (4, 2, {}), (4, 1, OTHER_RULES)])
async def test_a_game_with_members_and_bots_plays_to_the_end(
    world: Any, seats: int, bots: int, rules: dict[str, Any]
) -> None:
    db = world.env.bot.db
    await db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True)
    # Seeded shuffles: with random ones a bot could sit out or pass every hand of a short game by chance.
    seeds = random.Random(f"luk fu: {seats} seats, {bots} bots, {len(rules)} rules")
    world.env.bot.tables.new_shuffler = lambda: Shuffler(seed_source=lambda: f"{seeds.getrandbits(256):064x}")
    await _set_rules(world, hands_total=4, **({"players": 4} if seats == 4 else {}), **rules)
    members = (world.alice, world.bob) if seats - bots == 2 else (world.alice, world.bob, world.carol)[: seats - bots]
    await world.alice.slash(world.channel, "play", game="luk_fu")
    lobby = world.channel.last_message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    for _ in range(bots):
        await world.alice.click(lobby, label="Add bot")
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    assert len(table.seats) == seats and table.engine is not None
    await _play_to_the_end(world, members, random.Random(seats))
    assert table.engine.is_over
    await check_chips(world, table, members)
    private_panels_stay_private(world, members)
    # Every card a bot played face up was on the table for everyone to see.
    hands = await db.table_history(table.id, limit=1000)
    assert len(hands) == 4
    shown = _table_texts(world)
    bot_seats = {s for s, info in enumerate(table.seats) if info.bot}
    played = [
        e
        for h in hands
        for e in map(decode, h.summary.get("events", []))
        if isinstance(e, ev.Led | ev.Followed) and e.seat in bot_seats
    ]
    assert len(played) >= 5  # the bots really played (and the check below checks something)
    for event in played:
        for card in event.cards:
            assert card_text(card, table.lang) in shown, (event, card)


async def test_the_panel_says_why_a_single_lead_is_forbidden(world: Any) -> None:
    from games.core.rng import Shuffle, Shuffler

    # LF-5's hand for Alice (seat 0, dealer and parent), who will not declare.
    alice = "9T 8T 3T 5M 6M 2S 1S 2C 4C 6C 7C LT"
    carol = "1C 3C 5C 8C 9C 3S 4S 5S 6S 7S 8S 9S"
    bob = "1M 2M 3M 4M 7M 8M 9M 1T 2T 4T 5T 6T"  # then the dead card, 7T
    world.env.bot.tables.new_shuffler = lambda: Shuffler(
        planned=[Shuffle(order="9T"), Shuffle(order=f"{alice} {carol} {bob} 7T")], seed_source=lambda: "cd" * 32
    )
    await world.alice.slash(world.channel, "play", game="luk_fu")
    for member in (world.bob, world.carol):
        await member.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    engine = table.engine
    assert engine.public_view().parent == 0
    panel = await open_panel(world, world.alice)
    await world.alice.click(panel.response, custom_id=enabled_actions(panel)["pass"])
    for member in (world.carol, world.bob):  # counter-clockwise: seat 2, then seat 1
        panel = await open_panel(world, member)
        await member.click(panel.response, custom_id=enabled_actions(panel)["play" if member is world.bob else "pass"])
    assert engine.public_view().phase == "lead" and engine.to_act() == {0}
    panel = await open_panel(world, world.alice)
    text = panel.response.content
    assert "⛔ 🔴九十 9T: an old card may not be led on its own" in text
    assert "⛔ 五貫 5M: a single lead must come from your highest suit" in text
    # Twelve choices (one legal lead, eleven forbidden ones) make a menu; only the legal lead is in it.
    (menu,) = [
        c
        for row in panel.response.components
        for c in row["components"]
        if c.get("custom_id", "").endswith(":s:act:lead")
    ]
    assert [o["value"] for o in menu["options"]] == ["lead 3T"]
    led = await world.alice.select(panel.response, ["lead 3T"], custom_id=menu["custom_id"])
    assert led.response is not None and engine.public_view().trick is not None
    assert "三十 3T" in str(table_message_embeds(world))
