"""Every registered game played to the end through Discord while a member who is not seated watches it, with and
without the delay: a watcher's panel is drawn from the public view only, never a seat's, and holds no card the engine
hides from an onlooker at the moment it was taken (the every-game driver's privacy check, for watchers); with the
delay it never shows a deal that is not settled; at the end the watcher is told the table ended."""

from __future__ import annotations

import contextvars
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.ui import adapters
from bot.watch import sight
from games.core.engine import iter_cards
from games.registry import all_games
from tests.bot.tables.any_game import _click_something
from tests.bot.tables.driver import live_table, lobby_message, open_panel
from tests.bot.watch.kit import panel_now, watch

DRAWING = contextvars.ContextVar("drawing_for_a_watcher", default=False)


@dataclass
class WatchSpy:
    views: int = 0
    cards: int = 0
    lines: int = 0
    leaks: list[str] = field(default_factory=list)


def spy(monkeypatch: Any) -> WatchSpy:
    """While a watcher's sight is taken (live, or a settled deal on the worker pool), every engine view asked for is
    checked as it is made: a seat's view is a leak; a public view must hold no card the engine hides from an onlooker
    then; every event narrated must be public."""
    found = WatchSpy()
    plain_live, plain_settled = sight.live, sight.settled_parts

    async def live(*args: Any) -> Any:
        token = DRAWING.set(True)
        try:
            return await plain_live(*args)
        finally:
            DRAWING.reset(token)

    def settled_parts(*args: Any) -> Any:  # runs on the worker pool (threads in tests)
        token = DRAWING.set(True)
        try:
            return plain_settled(*args)
        finally:
            DRAWING.reset(token)

    monkeypatch.setattr(sight, "live", live)
    monkeypatch.setattr(sight, "settled_parts", settled_parts)
    for spec in all_games().values():
        cls = spec.engine
        plain_public, plain_view = cls.public_view, cls.view

        def public_view(self: Any, _plain: Any = plain_public) -> Any:
            view = _plain(self)
            if DRAWING.get():
                shown = list(iter_cards(view))
                found.views += 1
                found.cards += len(shown)
                leaked = self.hidden_from(None).intersection(shown)
                if leaked:
                    found.leaks.append(f"a watcher's view shows hidden {sorted(map(str, leaked))}")
            return view

        def view(self: Any, seat: int, _plain: Any = plain_view) -> Any:
            if DRAWING.get():
                found.leaks.append(f"seat {seat}'s view was taken for a watcher")
            return _plain(self, seat)

        monkeypatch.setattr(cls, "public_view", public_view)
        monkeypatch.setattr(cls, "view", view)
    for ui in adapters().values():
        cls = type(ui)
        plain_describe = cls.describe

        def describe(self: Any, event: Any, ctx: Any, _plain: Any = plain_describe) -> Any:
            if DRAWING.get():
                found.lines += 1
                if not event.public:
                    found.leaks.append(f"a watcher was told a private event {event!r}")
            return _plain(self, event, ctx)

        monkeypatch.setattr(cls, "describe", describe)
    return found


async def settled(world: Any, table: Any) -> set[int]:
    return {h.deal_no for h in await world.env.bot.db.table_history(table.id, limit=1000)}


@pytest.mark.parametrize("delay", [False, True], ids=["live", "delayed"])
@pytest.mark.parametrize("game_id", sorted(adapters()))
async def test_a_watcher_never_sees_a_private_card(world: Any, monkeypatch: Any, game_id: str, delay: bool) -> None:
    found = spy(monkeypatch)
    rng = random.Random(f"watch:{game_id}:{delay}")
    db = world.env.bot.db
    await db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True, watch_delay=delay)
    await world.alice.slash(world.channel, "play", game=game_id)
    await world.bob.click(lobby_message(world), label="Join")
    await world.alice.click(lobby_message(world), label="Add bot")
    await world.alice.click(lobby_message(world), label="Start")
    table = live_table(world)
    engine = table.engine
    opened = await watch(world, world.carol)
    panel_id = opened.response.id
    by_seat = {table.seat_of(m.id): m for m in (world.alice, world.bob)}
    panels: dict[int, Any] = {}
    shown_deals: set[int] = set()
    for _ in range(4000):
        if not world.env.bot.tables.tables:
            break
        seat = rng.choice([s for s in sorted(engine.to_act()) if s in by_seat])
        if seat not in panels or rng.random() < 0.2:
            panels[seat] = await open_panel(world, by_seat[seat])
        result = await _click_something(by_seat[seat], panels[seat], rng)
        if result.response is not None and result.response.ephemeral and result.response.components:
            panels[seat] = result
        elif result.response is not None and not result.response.components:
            panels.pop(seat, None)
        panel = panel_now(world, world.carol, panel_id)
        if delay and world.env.bot.tables.tables and panel.embeds:
            title = panel.embeds[-1].title or ""
            assert title.startswith("Deal ") and title.endswith(", every move"), title
            deal = int(title.split()[1].rstrip(","))
            assert deal in await settled(world, table), f"deal {deal} shown before it was settled"
            shown_deals.add(deal)
    else:
        raise AssertionError(f"{game_id}: no end")
    assert found.leaks == []
    assert found.lines > 0
    if delay:
        # Drawn once a deal is settled, from that deal's public view (which may hold no card: its hand is over). A
        # game can end after its second deal (a stack emptied), so one shown deal is the least a whole game gives.
        assert shown_deals and found.views >= len(shown_deals)
    else:
        assert found.views > 10 and found.cards > 0  # drawn at every move
    panel = panel_now(world, world.carol, panel_id)
    assert f"Table #{table.id} has ended" in panel.content and panel.embeds == []


async def test_the_check_is_real(world: Any, monkeypatch: Any) -> None:
    """A watcher's sight that asked for a seat's view is caught, and so is a hidden card in a public view."""
    found = spy(monkeypatch)
    plain = sight.live

    async def peeking(session: Any, lang: str) -> Any:
        shown = await plain(session, lang)
        token = DRAWING.set(True)  # as if it were taken inside the sight
        try:
            session.engine.view(0)
        finally:
            DRAWING.reset(token)
        return shown

    monkeypatch.setattr(sight, "live", peeking)
    await world.alice.slash(world.channel, "play", game="oicho")
    await world.bob.click(lobby_message(world), label="Join")
    await world.alice.click(lobby_message(world), label="Start")
    opened = await watch(world, world.carol)
    assert found.leaks == ["seat 0's view was taken for a watcher"]

    # The piles' first cards are face up; say the engine hid them: the check sees them.
    found.leaks.clear()
    monkeypatch.setattr(sight, "live", plain)
    table = live_table(world)
    cls = all_games()["oicho"].engine
    public = frozenset(iter_cards(table.engine.public_view()))
    assert public, "the piles show cards"
    plain_hidden = cls.hidden_from
    monkeypatch.setattr(cls, "hidden_from", lambda self, seat: plain_hidden(self, seat) | public)
    await world.carol.click(panel_now(world, world.carol, opened.response.id), custom_id=f"fdb:{table.id}:t:watch")
    assert found.leaks and all("a watcher's view shows hidden" in leak for leak in found.leaks)
