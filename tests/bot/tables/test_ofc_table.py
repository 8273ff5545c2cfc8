"""Open-Face Chinese Poker tables driven through Discord as members would play them."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.core.cards import french_deck, parse_french
from games.core.rng import Shuffle, Shuffler
from games.ofc.board import Board
from tests.bot.tables.driver import buttons, forge_click, live_table, open_panel, table_message

TURBO = (5, 4, 4)

# Alice's first board: QQ in front with kings and aces behind, so she reaches Fantasyland.
ALICE_STREETS = [
    {"Qs": "f", "Qh": "f", "2c": "f", "Ks": "m", "Kh": "m"},
    {"Kd": "m", "3c": "m", "4d": "m", "As": "b"},
    {"Ah": "b", "Ad": "b", "Ac": "b", "5h": "b"},
]
# Her 13 Fantasyland cards next hand, and how she will arrange them with the row selects.
ALICE_FL = {"front": "2d 3d 4h", "middle": "5s 5d 9c 9d Jh", "back": "Ts Td Th 7s 6c"}


def dealer_draw(dealer: int) -> str:
    """A draw-for-dealer pack in which ``dealer`` draws the ace of spades."""
    return " ".join([*["2c", "2d", "2h", "2s"][:dealer], "As"])


def turbo_deck(first: dict[int, list[str]], seats: int, seed: int = 7) -> str:
    """A hand's pack for a Turbo deal in turn order 0..seats-1: given seats get their streets, the others filler."""
    fixed = {c for streets in first.values() for c in streets}
    filler = [c.notation for c in french_deck() if c.notation not in fixed]
    random.Random(seed).shuffle(filler)
    parts: list[str] = []
    for k, n in enumerate(TURBO):
        for seat in range(seats):
            if seat in first:
                parts += first[seat][sum(TURBO[:k]) : sum(TURBO[: k + 1])]
            else:
                parts += [filler.pop() for _ in range(n)]
    return " ".join(parts)


def stack(world: Any, orders: list[str]) -> None:
    """The next table's shuffles: these orders first, then seeded ones."""
    rng = random.Random(1)
    world.env.bot.tables.new_shuffler = lambda: Shuffler(
        planned=[Shuffle(order=o) for o in orders], seed_source=lambda: f"{rng.getrandbits(256):064x}"
    )


def ids(result: Any) -> dict[str, dict[str, Any]]:
    """Custom id → button of an interaction's message."""
    return {b["custom_id"]: b for b in buttons(result.response)}


ROWS = {"f": "front", "m": "middle", "b": "back", "x": "discard"}


def ui(table_id: int, decision: int, verb: str, arg: str = "") -> str:
    """The id of a panel step: the placement's pick, row, undo, clear and confirm, and the hint and refresh."""
    step, step_arg = {
        "pick": ("pick", f"place/{arg}"),
        "row": ("put", f"place/{ROWS.get(arg, arg)}"),
        "undo": ("undo", "place"),
        "clear": ("clr", "place"),
        "confirm": ("ok", "place"),
        "hint": ("x", "hint/"),
        "refresh": ("x", "refresh/"),
    }[verb]
    return f"fdb:{table_id}:{decision}:u:{step}:{step_arg}"


async def settled(world: Any, table: Any) -> list[Any]:
    """The table's settled deals, oldest first (the hand history in the database)."""
    return sorted(await world.env.bot.db.table_history(table.id, limit=1000), key=lambda h: h.deal_no)


def snapshot(table: Any) -> str:
    return json.dumps(table.engine.snapshot())


def content_of(result: Any) -> str:
    return str(result.response.content)


async def click_ui(member: Any, panel: Any, verb: str, arg: str = "") -> Any:
    table_id, decision = _panel_ids(panel)
    cid = ui(table_id, decision, verb, arg)
    present = ids(panel)
    assert cid in present, (cid, list(present), content_of(panel))
    assert not present[cid].get("disabled"), (cid, content_of(panel))
    result = await member.click(panel.response, custom_id=cid)
    assert result.response is not None and result.response.ephemeral, result
    return result


def _panel_ids(panel: Any) -> tuple[int, int]:
    for cid in ids(panel):
        parts = cid.split(":")
        if len(parts) > 3 and parts[3] in ("u", "a"):
            return int(parts[1]), int(parts[2])
    selects = [c for row in panel.response.components for c in row.get("components", []) if c.get("type") == 3]
    parts = selects[0]["custom_id"].split(":")
    return int(parts[1]), int(parts[2])


async def place_street(world: Any, member: Any, plan: dict[str, str]) -> Any:
    """Open the panel, put each card in its row (pick it, then press the row), and confirm."""
    panel = await open_panel(world, member)
    for card, row in plan.items():
        panel = await click_ui(member, panel, "pick", card)
        panel = await click_ui(member, panel, "row", row)
    return await click_ui(member, panel, "confirm")


async def hint_and_confirm(world: Any, member: Any) -> Any:
    panel = await open_panel(world, member)
    panel = await click_ui(member, panel, "hint")
    return await click_ui(member, panel, "confirm")


def seat_of(world: Any, member: Any) -> int:
    seat = live_table(world).seat_of(member.id)
    assert seat is not None
    return seat


async def _open(world: Any, *, bots: int, members: tuple[Any, ...] = ()) -> None:
    ch = world.channel
    await world.alice.slash(ch, "play", game="ofc")
    lobby = ch.last_message
    for member in members:
        await member.click(lobby, label="Join")
    for _ in range(bots):
        await world.alice.click(lobby, label="Add bot")
    await world.alice.click(lobby, label="Start")


async def _set_rules(world: Any, **values: Any) -> None:
    """A moderator sets house rules with /rules set, as on a real server."""
    for option, value in values.items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        done = await world.mod.slash(world.channel, "rules set", game="ofc", option=option, value=text)
        assert done.response is not None and option in done.response.content, done


# ---------------------------------------------------------------- a whole game


async def test_full_turbo_game_of_four_with_a_fantasyland_hand(world: Any) -> None:
    db = world.env.bot.db
    await db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True)
    await _set_rules(world, dealer_orbits=1)
    alice_cards = [c for street in ALICE_STREETS for c in street]
    fl_cards = " ".join(ALICE_FL.values())
    stack(world, [dealer_draw(3), turbo_deck({0: alice_cards}, 4), fl_cards])
    await _open(world, bots=2, members=(world.bob,))
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    assert [s.name for s in table.seats] == ["alice", "bob", "Tanuki", "Kitsune"]
    assert await db.balance(world.guild.id, world.alice.id) == 900
    assert engine.to_act() == {0, 1}  # bots placed at once; the members place together

    # Hand 1: Alice builds her board card by card; Bob takes the hint each street.
    for street in ALICE_STREETS:
        done = await place_street(world, world.alice, street)
        assert "waiting" in content_of(done).lower()
        await hint_and_confirm(world, world.bob)
    first = (await settled(world, table))[0]
    assert first.summary["fantasyland_next"][0] == 13
    assert engine.hands[0].fantasyland and engine.hand_no == 2

    # Hand 2: Alice's Fantasyland panel arranges 13 cards with one select per row.
    panel = await open_panel(world, world.alice)
    assert "Fantasyland" in content_of(panel)
    assert f"Hand 1: you {first.deltas[0]:+,}" in content_of(panel)
    table_id, decision = _panel_ids(panel)
    for row in ("back", "middle", "front"):
        cid = f"fdb:{table_id}:{decision}:s:grp:place/{row}"
        panel = await world.alice.select(
            panel.response, [c.notation for c in parse_french(ALICE_FL[row])], custom_id=cid
        )
        assert panel.response.ephemeral
    assert "fouls" not in content_of(panel)
    await click_ui(world.alice, panel, "confirm")
    assert not engine.hands[0].pending
    while engine.hand_no == 2:
        await hint_and_confirm(world, world.bob)
    second = (await settled(world, table))[1]
    assert second.summary["fantasyland"][0] is True
    played = Board.parse(second.summary["boards"][0])
    assert {row: set(played.row(row)) for row in ALICE_FL} == {r: set(parse_french(c)) for r, c in ALICE_FL.items()}
    result_titles = {f.name for m in world.channel.history() for e in m.embeds for f in e.fields}
    assert "alice's Fantasyland: the best arrangement" in result_titles

    # The rest of the game: both members take hints until the game ends by itself.
    for _ in range(200):
        if not world.env.bot.tables.tables:
            break
        acting = engine.to_act()
        for member in (world.alice, world.bob):
            if seat_of(world, member) in acting:
                await hint_and_confirm(world, member)
                break
    assert not world.env.bot.tables.tables and engine.is_over
    hands = await settled(world, table)
    won = [sum(h.deltas[s] for h in hands) for s in range(4)]
    assert sum(won) == 0
    assert await db.balance(world.guild.id, world.alice.id) == 1000 + won[0]
    assert await db.balance(world.guild.id, world.bob.id) == 1000 + won[1]
    assert len(hands) >= 5  # four button moves, and the frozen Fantasyland hand
    assert await db.verify_ledger() == []
    titles = [e.title for m in world.channel.history() for e in m.embeds]
    assert sum(1 for t in titles if t and t.endswith(": result")) == len(hands)
    assert "The game is over" in titles


# ---------------------------------------------------------------- privacy, refusals, restarts


async def _two_members(world: Any, **rules: Any) -> Any:
    if rules:
        await _set_rules(world, **rules)
    stack(world, [dealer_draw(1)])
    await _open(world, bots=0, members=(world.bob,))
    table = live_table(world)
    assert table.engine is not None and table.engine.to_act() == {0, 1}
    return table


async def test_an_unrevealed_placement_is_invisible_to_the_others(world: Any) -> None:
    table = await _two_members(world)
    engine = table.engine
    alice_cards = [c.pretty for c in engine.hands[0].pending]

    def bob_sees() -> str:
        public = table_message(world).embeds[0]
        history = [m.content for m in world.channel.history(viewer=world.bob)]
        return "\n".join([*history, public.description or "", *(f.value for f in public.fields)])

    # A provisional choice is Alice's alone, and so is her confirmed street until everyone has placed.
    panel = await open_panel(world, world.alice)
    panel = await click_ui(world.alice, panel, "row", "b")
    assert f"**{alice_cards[0]}**" in content_of(panel)
    bob_panel = await open_panel(world, world.bob)
    assert not any(card in content_of(bob_panel) or card in bob_sees() for card in alice_cards)
    panel = await click_ui(world.alice, panel, "hint")
    await click_ui(world.alice, panel, "confirm")
    assert engine.to_act() == {1}
    bob_panel = await open_panel(world, world.bob)
    assert "🂠" in content_of(bob_panel) and "🂠" in bob_sees()
    assert not any(card in content_of(bob_panel) or card in bob_sees() for card in alice_cards)
    # Once Bob confirms, the street is revealed to everyone.
    await click_ui(world.bob, await click_ui(world.bob, bob_panel, "hint"), "confirm")
    assert engine.public_view().street == 2
    bob_panel = await open_panel(world, world.bob)
    assert all(card in content_of(bob_panel) for card in alice_cards)


async def test_a_placement_that_overfills_a_row_is_refused(world: Any) -> None:
    table = await _two_members(world)
    engine = table.engine
    before = snapshot(table)
    panel = await open_panel(world, world.alice)
    for _ in range(3):
        panel = await click_ui(world.alice, panel, "row", "f")
    front = ui(table.id, engine.decision_id(0), "row", "f")
    assert ids(panel)[front].get("disabled")  # the button says so first
    state = dict(table.panel_state[0])
    refused = await forge_click(world, world.alice, front)
    assert refused.ephemeral and "front has no room left" in content_of(refused).lower()
    assert table.panel_state[0] == state
    # A forged confirm that puts five cards in the front is refused by the engine.
    cards = [c.notation for c in engine.hands[0].pending]
    text = "place~" + "~".join(f"{c}:f" for c in cards)
    refused = await forge_click(world, world.alice, f"fdb:{table.id}:{engine.decision_id(0)}:a:{text}")
    assert refused.ephemeral and "room for" in content_of(refused).lower()
    assert snapshot(table) == before and engine.to_act() == {0, 1}


async def test_confirming_twice_is_harmless(world: Any) -> None:
    table = await _two_members(world)
    engine = table.engine
    panel = await open_panel(world, world.alice)
    panel = await click_ui(world.alice, panel, "hint")
    confirm = ui(table.id, engine.decision_id(0), "confirm")
    await world.alice.click(panel.response, custom_id=confirm)
    placed = engine.view(0).board
    after_first = snapshot(table)
    again = await forge_click(world, world.alice, confirm)
    assert again.ephemeral and "earlier decision" in content_of(again)
    assert snapshot(table) == after_first and engine.view(0).board == placed
    assert engine.to_act() == {1}


async def test_a_restart_mid_street_keeps_every_confirmed_placement(world: Any, database: Any, clock: Any) -> None:
    from tests.bot.conftest import make_bot

    table = await _two_members(world)
    await hint_and_confirm(world, world.alice)
    await hint_and_confirm(world, world.bob)
    await hint_and_confirm(world, world.alice)  # street 2: Alice is in, Bob is not
    engine = table.engine
    alice_board = engine.view(0).board
    state = snapshot(table)
    await world.env.restart_bot(make_bot(database, clock))
    restored = live_table(world)
    assert restored is not table and snapshot(restored) == state
    assert restored.engine.view(0).board == alice_board and restored.engine.to_act() == {1}
    panel = await open_panel(world, world.alice)
    assert "waiting" in content_of(panel).lower() and "bob" in content_of(panel)
    await hint_and_confirm(world, world.bob)
    assert restored.engine.public_view().street == 3
    assert restored.engine.to_act() == {0, 1}


async def test_hints_can_be_turned_off(world: Any) -> None:
    table = await _two_members(world, hints=False)
    panel = await open_panel(world, world.alice)
    hint = ui(table.id, table.engine.decision_id(0), "hint")
    assert hint not in ids(panel)
    refused = await forge_click(world, world.alice, hint)
    assert refused.ephemeral and "turned off" in content_of(refused)


async def test_undo_and_foul_warning(world: Any) -> None:
    table = await _two_members(world)
    panel = await open_panel(world, world.alice)
    first = table.engine.hands[0].pending[0]
    panel = await click_ui(world.alice, panel, "row", "m")
    assert f"{first.pretty} → Middle" in content_of(panel)
    panel = await click_ui(world.alice, panel, "undo")
    assert f"{first.pretty} → ?" in content_of(panel)


async def _play_to_the_end(world: Any, members: tuple[Any, ...], limit: int = 400) -> None:
    """Every member takes the hint and confirms whenever it is their turn, until the table closes."""
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    for _ in range(limit):
        if not world.env.bot.tables.tables:
            return
        acting = engine.to_act()
        mover = next(m for m in members if seat_of(world, m) in acting)
        await hint_and_confirm(world, mover)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("variant", ["a", "b", "d"])
async def test_every_variant_plays_to_the_end_with_correct_chips(world: Any, variant: str) -> None:
    db = world.env.bot.db
    await db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True)
    await _set_rules(world, variant=variant, dealer_orbits=1)
    await _open(world, bots=1, members=(world.bob,))
    table = live_table(world)
    engine = table.engine
    assert engine is not None and engine.rules.variant == variant
    if variant in "ab":  # in turn: a member whose turn it is not is told so
        idle = next(m for m in (world.alice, world.bob) if seat_of(world, m) not in engine.to_act())
        assert "Not your turn yet" in content_of(await open_panel(world, idle))
    await _play_to_the_end(world, (world.alice, world.bob))
    assert engine.is_over
    history = await settled(world, table)
    won = [sum(h.deltas[s] for h in history) for s in range(3)]
    # Every deal settled (a whole game can end level for everyone: its shuffles are fresh each run).
    assert history and [h.deal_no for h in history] == list(range(1, len(history) + 1)) and sum(won) == 0
    assert await db.balance(world.guild.id, world.alice.id) == 1000 + won[0]
    assert await db.balance(world.guild.id, world.bob.id) == 1000 + won[1]
    assert await db.verify_ledger() == []
    assert won == [(engine.stacks[s] - table.points_per_seat) * table.stake for s in range(3)]


async def test_an_open_panel_follows_the_game(world: Any) -> None:
    """After confirming a Turbo street, a player's panel shows the next cards once the others are done."""
    table = await _two_members(world)
    engine = table.engine
    done = await hint_and_confirm(world, world.alice)
    assert "waiting" in content_of(done).lower()
    await hint_and_confirm(world, world.bob)
    assert engine.public_view().street == 2
    await world.env.settle()
    panel = next(m for m in world.channel.history(viewer=world.alice) if m.id == done.response.id)
    assert "street 2/3" in panel.content and "To place:" in panel.content
    assert "Hand 1: you" not in panel.content
    next_cards = [c.pretty for c in engine.hands[0].pending]
    assert all(card in panel.content for card in next_cards)
    # Bob never sees Alice's panel.
    assert all(m.id != done.response.id for m in world.channel.history(viewer=world.bob))


async def test_a_panel_that_cannot_be_edited_is_let_go(world: Any, clock: Any) -> None:
    table = await _two_members(world)
    await hint_and_confirm(world, world.alice)
    assert 0 in table.runtime.panels.open
    # Alice dismissed her panel: the edit fails, the table plays on, and her panel is no longer followed.
    token = table.runtime.panels.open[0].interaction.token
    world.env.inject_error("PATCH", f"/webhooks/*/{token}/messages/@original", status=404, code=10008, times=1)
    await hint_and_confirm(world, world.bob)
    await world.env.settle()
    assert 0 not in table.runtime.panels.open and 1 in table.runtime.panels.open
    assert table.engine.public_view().street == 2
    # A panel older than an interaction token's life is not edited again.
    clock.advance(15 * 60)
    await hint_and_confirm(world, world.alice)
    clock.advance(15 * 60)
    await hint_and_confirm(world, world.bob)
    await world.env.settle()
    assert 0 not in table.runtime.panels.open  # Alice's panel is 15 minutes old by now; Bob's was just opened
    assert 1 in table.runtime.panels.open and table.engine.public_view().street == 3


async def test_the_turn_timer_places_for_a_player_who_does_not(world: Any) -> None:
    table = await _two_members(world)
    engine = table.engine
    await hint_and_confirm(world, world.bob)
    assert engine.to_act() == {0}
    await world.env.advance_time(61)
    # Alice's street was placed for her (she is away now, so the bot keeps placing until she is back).
    assert table.seats[0].away and len(engine.view(0).full_board().cards()) >= 5
    assert engine.public_view().street == 2 and engine.to_act() == {1}
    assert "Away" in str(table_message(world).embeds[0].to_dict())
    # Pressing "My hand" brings her back; her next street waits for her.
    await hint_and_confirm(world, world.bob)
    panel = await open_panel(world, world.alice)
    assert not table.seats[0].away
    assert "To place:" in content_of(panel) or "waiting" in content_of(panel).lower()


async def test_a_japanese_player_gets_a_japanese_panel(world: Any) -> None:
    from tests.bot.conftest import LOCALES

    await _two_members(world)
    LOCALES[world.alice.id] = "ja"
    try:
        panel = await open_panel(world, world.alice)
        text = content_of(panel)
        assert "ターボ" in text and "配置するカード" in text
        labels = [b.get("label") for b in buttons(panel.response)]
        assert "確定" in labels and any(str(label).startswith("フロント") for label in labels)
    finally:
        LOCALES.pop(world.alice.id, None)


async def test_the_panel_shows_royalties_held_and_warns_of_a_foul_before_confirming(world: Any) -> None:
    # Alice's cards: three aces, then a middle that can no longer beat them.
    alice = ["As", "Ah", "Ad", "2c", "3d", "4h", "7s", "9c", "Kd", "5c", "6d", "8h", "Ts"]
    stack(world, [dealer_draw(1), turbo_deck({0: alice}, 2)])
    await _open(world, bots=0, members=(world.bob,))
    panel = await open_panel(world, world.alice)
    for card in ("As", "Ah", "Ad"):
        panel = await click_ui(world.alice, panel, "pick", card)
        panel = await click_ui(world.alice, panel, "row", "f")
    assert "Royalties held: 22" in content_of(panel)  # AAA in front
    assert "foul" not in content_of(panel)
    for card in ("2c", "3d"):
        panel = await click_ui(world.alice, panel, "pick", card)
        panel = await click_ui(world.alice, panel, "row", "m")
    await click_ui(world.alice, panel, "confirm")
    await hint_and_confirm(world, world.bob)
    panel = await open_panel(world, world.alice)
    for card, row in (("4h", "m"), ("7s", "m")):
        panel = await click_ui(world.alice, panel, "pick", card)
        panel = await click_ui(world.alice, panel, "row", row)
    assert "can no longer avoid a foul" in content_of(panel)
    # The warning is advice, not a refusal: undoing clears it, and the placement may still be confirmed.
    panel = await click_ui(world.alice, panel, "undo")
    assert "can no longer avoid a foul" not in content_of(panel)


async def test_panels_leave_no_view_timers_behind(world: Any) -> None:
    """Panel components are DynamicItems found from their custom ids: a panel edit per click must not leave a
    view timeout task running per message."""
    import asyncio

    table = await _two_members(world)
    for _ in range(2):
        await hint_and_confirm(world, world.alice)
        await hint_and_confirm(world, world.bob)
    assert table.engine.public_view().street == 3
    timers = [task for task in asyncio.all_tasks() if "timeout_task_impl" in task.get_coro().__qualname__]
    assert timers == []
    assert "To place:" in content_of(await open_panel(world, world.alice))  # and the buttons still work
