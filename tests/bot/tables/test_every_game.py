"""Every registered game, played to the end through Discord by members clicking random enabled components, with
every legal move checked reachable through the panel at each decision; and that check shown to be real."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ui import adapters, panel, ui_for
from bot.ui.base import TableContext
from games.registry import get_game
from tests.bot.tables.any_game import (
    ReachWatch,
    check_chips,
    check_reachable,
    play_any_game,
    private_panels_stay_private,
    spy,
)
from tests.bot.tables.driver import live_table, open_panel


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
    assert reach.decisions > 20 and reach.moves > reach.decisions  # the reachability check ran all along


async def test_the_driver_catches_a_panel_drawn_from_another_seat(world: Any, monkeypatch: Any) -> None:
    """The check is real: a runtime that drew a member's panel from the next seat's view is caught."""
    from bot.tables.panels import Panels

    plain = Panels.snapshot

    async def wrong_seat(self: Panels, session: Any, seat: int, lang: str) -> Any:
        return await plain(self, session, (seat + 1) % len(session.seats), lang)

    monkeypatch.setattr(Panels, "snapshot", wrong_seat)
    watch = spy(monkeypatch, world)

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

    monkeypatch.setattr(panel, "_menu", cut)


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


def test_the_check_fails_on_a_menu_cut_at_25_and_lists_what_is_lost(monkeypatch: Any) -> None:
    _cut_like_before(monkeypatch)
    with pytest.raises(AssertionError) as failed:
        check_luk_fu(nine_tens(), 0)
    message = str(failed.value)
    assert "14 legal move(s) unreachable" in message
    assert "'lead 1T 2T 3T 4T 5T 6T 7T 8T 9T'" in message and "'lead 4T 5T 6T 7T 8T 9T'" in message


async def test_the_driver_fails_when_the_panel_cuts_a_menu(world: Any, monkeypatch: Any) -> None:
    """Played through Discord: a panel that drops the last choice of every menu is caught at a real decision."""
    plain = panel._ordered

    def drop_last(entries: Any) -> Any:
        ordered = plain(entries)
        return ordered[:-1] if len(ordered) > 5 else ordered

    monkeypatch.setattr(panel, "_ordered", drop_last)
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
    plain = panel._item_entries
    monkeypatch.setattr(panel, "_item_entries", lambda decision: plain(decision)[:-1])  # a card cut from the rows
    with pytest.raises(AssertionError, match="unreachable"):
        check_ofc(engine, 1)
