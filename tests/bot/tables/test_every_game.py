"""Every registered game, played to the end through Discord by members clicking random enabled components."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ui import adapters
from tests.bot.tables.any_game import check_chips, play_any_game, private_panels_stay_private, spy


@pytest.mark.parametrize("game_id", sorted(adapters()))
async def test_every_game_plays_to_the_end_through_the_panels(world: Any, monkeypatch: Any, game_id: str) -> None:
    watch = spy(monkeypatch, world)
    members = (world.alice, world.bob)
    table = await play_any_game(world, game_id, random.Random(f"any:{game_id}"), members=members, bots=1)
    assert table.engine is not None and table.engine.is_over
    await check_chips(world, table, members)
    private_panels_stay_private(world, members)
    assert watch.leaks == []
    assert watch.panels > 10 and watch.public > 5 and watch.cards_checked > 0


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
