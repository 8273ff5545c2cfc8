"""Every registered game, played to the end through Discord by members clicking random enabled components, with
every legal move checked reachable through the panel at each decision; and that check shown to be real."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.ui import adapters, panel, ui_for
from bot.ui.base import TableContext
from bot.ui.panel import arrange, menus, shapes
from games.core.rng import Shuffle, Shuffler
from games.registry import get_game
from tests.bot.tables.any_game import (
    ReachWatch,
    check_chips,
    check_reachable,
    play_any_game,
    private_panels_stay_private,
    spy,
)
from tests.bot.tables.driver import enabled_actions, live_table, open_panel, table_message


@pytest.mark.parametrize("game_id", sorted(adapters()))
async def test_every_game_plays_to_the_end_through_the_panels(world: Any, monkeypatch: Any, game_id: str) -> None:
    watch = spy(monkeypatch, world)
    members = (world.alice, world.bob)
    reach = ReachWatch()
    table = await play_any_game(world, game_id, random.Random(f"any:{game_id}"), members=members, bots=1, reach=reach)
    assert table.engine is not None and table.engine.is_over
    await check_chips(world, table, members)
    private_panels_stay_private(world, members)
    assert watch.leaks == []
    assert watch.panels > 10 and watch.public > 5 and watch.cards_checked > 0
    # The reachability check ran all along, on more moves than decisions (listed ones, or families' members driven).
    # (A game's length varies with its fresh shuffles: the shortest Oicho-Kabu games meet about 15 decisions.)
    assert reach.decisions >= 10 and max(reach.moves, reach.driven) > reach.decisions


@pytest.mark.place("thread")
@pytest.mark.parametrize("game_id", ["ofc", "oicho"])  # simultaneous and turn-by-turn decisions
async def test_every_game_plays_to_the_end_in_a_thread(world: Any, monkeypatch: Any, game_id: str) -> None:
    """The same journey with the server's default: the table in its own thread of the channel."""
    watch = spy(monkeypatch, world)
    members = (world.alice, world.bob)
    table = await play_any_game(world, game_id, random.Random(f"thread:{game_id}"), members=members, bots=1)
    assert table.parent_id == world.channel.id and table.channel_id in {t.id for t in world.channel.threads}
    assert table.engine is not None and table.engine.is_over
    await check_chips(world, table, members)
    private_panels_stay_private(world, members)
    assert watch.leaks == [] and watch.panels > 10 and watch.public > 5


async def test_the_driver_catches_a_panel_drawn_from_another_seat(world: Any, monkeypatch: Any) -> None:
    """The check is real: a runtime that drew a member's panel from the next seat's view is caught."""
    from bot.tables.panels import Panels

    plain = Panels.snapshot

    async def wrong_seat(self: Panels, session: Any, seat: int, lang: str) -> Any:
        return await plain(self, session, (seat + 1) % len(session.seats), lang)

    monkeypatch.setattr(Panels, "snapshot", wrong_seat)
    watch = spy(monkeypatch, world)
    from tests.bot.tables.driver import live_table, open_panel

    await world.alice.slash(world.channel, "play", game="ofc")
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    assert live_table(world).engine is not None
    await open_panel(world, world.alice)
    assert any("another view" in leak for leak in watch.leaks)
    assert any("shows hidden" in leak for leak in watch.leaks)  # Bob's cards reached Alice's panel


# ---------------------------------------------------------------- every legal move reachable: the check is real


def _cut_like_before(monkeypatch: Any) -> None:
    """Put the old truncation back: a one-choice menu is the first 25 choices, flat."""

    def cut(entries: Any, custom_id: str, placeholder: str, *args: Any, **kwargs: Any) -> panel.Select:
        options = tuple(panel.SelectOption(e.label[:100], e.value) for e in entries[: panel.SELECT_LIMIT])
        return panel.Select(custom_id, options, placeholder)

    monkeypatch.setattr(shapes, "_menu", cut)


def nine_tens() -> Any:
    """The declarer holds all nine Tens and leads again after an unbeatable 1C: 39 legal leads."""
    from tests.games.luk_fu.lukfu_kit import A, act, table, trick

    engine = table({A: "1T 2T 3T 4T 5T 6T 7T 8T 9T 1C 2C 3S"})
    act(engine, A, "play")
    assert trick(engine, "1C", "*", "*") == A
    return engine


def check_luk_fu(engine: Any, seat: int, state: dict[str, str] | None = None) -> Any:
    ui, ctx = ui_for("luk_fu"), TableContext(5, ["alice", "bob", "carol"], 1, True, "en")
    view, legal = engine.view(seat), engine.legal_actions(seat)
    return check_reachable(
        lambda st: ui.panel(view, seat, legal, ctx, st),
        legal,
        panel.Ids(5, engine.decision_id(seat)),
        "en",
        get_game("luk_fu").codec,
        state or {},
        random.Random(0),
    )


def test_every_lead_of_the_nine_tens_declarer_is_reachable() -> None:
    engine = nine_tens()
    leads = [a.text for a in engine.legal_actions(0)]
    assert len(leads) == 39
    reach = check_luk_fu(engine, 0)
    assert sorted(reach.actions) == sorted(leads)
    assert "lead 1T 2T 3T 4T 5T 6T 7T 8T 9T" in reach.actions
    assert reach.states == 10  # the top (as drawn, and gone back to) and the eight kinds: single, runs of 3 to 9


def test_the_check_fails_on_a_menu_cut_at_25_and_lists_what_is_lost(monkeypatch: Any) -> None:
    _cut_like_before(monkeypatch)
    with pytest.raises(AssertionError) as failed:
        check_luk_fu(nine_tens(), 0)
    message = str(failed.value)
    assert "14 legal move(s) unreachable" in message
    assert "'lead 1T 2T 3T 4T 5T 6T 7T 8T 9T'" in message and "'lead 4T 5T 6T 7T 8T 9T'" in message


async def test_the_driver_fails_when_the_panel_cuts_a_menu(world: Any, monkeypatch: Any) -> None:
    """Played through Discord: a panel that drops the last choice of every menu is caught at a real decision."""
    plain = menus._ordered

    def drop_last(entries: Any) -> Any:
        ordered = plain(entries)
        return ordered[:-1] if len(ordered) > 5 else ordered

    monkeypatch.setattr(menus, "_ordered", drop_last)
    seeds = random.Random("cut deals")  # the same deals every run: a lead menu of more than five comes up
    world.env.bot.tables.new_shuffler = lambda: Shuffler(seed_source=lambda: f"{seeds.getrandbits(256):064x}")
    with pytest.raises(AssertionError, match=r"legal move\(s\) unreachable through the panel: \['"):
        await play_any_game(world, "luk_fu", random.Random("cut"), members=(world.alice, world.bob), bots=1)


def fantasyland() -> Any:
    from games.ofc.board import Board
    from games.ofc.engine import OFCEngine
    from games.ofc.rules import OFCRules
    from tests.games.ofc.ofc_testkit import deal_order, dealer_order, place, play_boards, stacked, streets_of

    kings = Board.parse("Kd Ks 2h / Ad As 3d 3s 4h / Ah Kh 8h 6h 3h")
    other = Board.parse("Kc 7s 6d / Js Jd 8s 8d 2d / Tc Td Th 4c 4s")
    boards = {1: kings, 0: other}
    shuffler = stacked([dealer_order(0), deal_order(boards, [1, 0], [5, 4, 4])])
    engine = OFCEngine(OFCRules(variant="d"), [100, 100], shuffler)
    assert place and streets_of  # the kit's helpers, used by play_boards
    play_boards(engine, boards, (5, 4, 4))
    assert engine.hands[1].fantasyland and len(engine.hands[1].pending) == 14
    return engine


def check_ofc(engine: Any, seat: int) -> Any:
    ui, ctx = ui_for("ofc"), TableContext(5, ["alice", "bob"], 1, True, "en", engine.rules)
    view, legal = engine.view(seat), engine.legal_actions(seat)
    return check_reachable(
        lambda st: ui.panel(view, seat, legal, ctx, st),
        legal,
        panel.Ids(5, engine.decision_id(seat)),
        "en",
        get_game("ofc").codec,
        {},
        random.Random(0),
    )


def test_a_fantasyland_hand_is_checked_by_driving_toward_sampled_arrangements(monkeypatch: Any) -> None:
    engine = fantasyland()
    reach = check_ofc(engine, 1)
    assert reach.driven >= 4  # far too many arrangements to list: members of the family, one by one
    plain = arrange._item_entries
    monkeypatch.setattr(arrange, "_item_entries", lambda decision: plain(decision)[:-1])  # a card cut from the rows
    with pytest.raises(AssertionError, match="unreachable"):
        check_ofc(engine, 1)


async def test_a_member_leads_a_run_of_nine_through_the_split_menu(world: Any) -> None:
    from tests.games.luk_fu.lukfu_kit import deal_order, draw_for

    alice = "1T 2T 3T 4T 5T 6T 7T 8T 9T 1C 2C 3S"
    world.env.bot.tables.new_shuffler = lambda: Shuffler(
        planned=[Shuffle(order=draw_for(0)), Shuffle(order=deal_order({0: alice}))], seed_source=lambda: "cd" * 32
    )
    await world.alice.slash(world.channel, "play", game="luk_fu")
    for member in (world.bob, world.carol):
        await member.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    engine = table.engine
    members = {0: world.alice, 1: world.bob, 2: world.carol}
    shown = await open_panel(world, world.alice)
    await world.alice.click(shown.response, custom_id=enabled_actions(shown)["play"])
    # The first lead, 1C (nothing beats it), is a single: found under "Single".
    shown = await choose(world.alice, await open_panel(world, world.alice), "lead", "▶ Single")
    await choose(world.alice, shown, "lead", "🔴一銭 1C")
    for seat in (2, 1):  # counter-clockwise; each follows face down with one card of its choice
        member = members[seat]
        shown = await open_panel(world, member)
        (discard,) = selects(shown, "discard")
        shown = await member.select(shown.response, [discard["options"][0]["value"]], custom_id=discard["custom_id"])
        await member.click(shown.response, label="Confirm")
    assert engine.to_act() == {0} and len(engine.legal_actions(0)) == 39
    # The lead menu: eight kinds, not 39 leads cut at 25; a kind opens its leads, with a way back.
    shown = await open_panel(world, world.alice)
    (menu,) = selects(shown, "lead")
    assert [o["label"] for o in menu["options"]] == ["▶ Single"] + [f"▶ Run of {n}" for n in range(3, 10)]
    shown = await choose(world.alice, shown, "lead", "▶ Run of 9")
    (menu,) = selects(shown, "lead")
    assert menu["placeholder"].startswith("Run of 9") and menu["options"][0]["label"] == "◀ Back"
    # A forged group (one the menu does not have) is refused, privately, and the menu stays where it was.
    before = dict(table.panel_state[0])
    channel = world.env.bot.get_channel(world.channel.id)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Select(custom_id=menu["custom_id"], options=[discord.SelectOption(label="x", value="@9")]))
    forged = await channel.send("forged", view=view)
    refused = await world.alice.select(forged, ["@9"], custom_id=menu["custom_id"])
    assert refused.ephemeral and "That group or page is not on your panel" in refused.response.content
    assert table.panel_state[0] == before
    world.env.errors.clear()
    again = await open_panel(world, world.alice)  # a fresh panel opens where the menu stands
    assert selects(again, "lead")[0]["options"] == menu["options"]
    led = await choose(world.alice, again, "lead", "🔴一十 1T 二十 2T")
    assert led.response is not None
    trick = engine.public_view().trick
    assert [c.notation for c in trick.plays[0].cards] == ["1T", "2T", "3T", "4T", "5T", "6T", "7T", "8T", "9T"]
    assert "九十 9T" in str([e.to_dict() for e in table_message(world).embeds])


def selects(shown: Any, key: str) -> list[dict[str, Any]]:
    return [
        c
        for row in shown.response.components
        for c in (row if isinstance(row, dict) else row.to_dict())["components"]
        if c.get("custom_id", "").split(":s:", 1)[-1].split(":", 1)[-1].split("@")[0] == key
    ]


async def choose(member: Any, shown: Any, key: str, label: str) -> Any:
    """Choose the option of the ``key`` menu whose label starts with ``label``; the panel shown after."""
    (menu,) = selects(shown, key)
    (value,) = [o["value"] for o in menu["options"] if o["label"].startswith(label)]
    done = await member.select(shown.response, [value], custom_id=menu["custom_id"])
    assert done.response is not None and done.response.ephemeral, done
    return done
