"""A driver that plays any registered game through Discord: the conformance suite, one level up.

It opens a table with ``/play``, seats members and bots, starts it, and then plays as members would: each
member whose turn it is presses "My hand" and clicks random *enabled* components of their private panel
(buttons, selects, the amount modal) until their move is made, then the next, to the end of the game. It
knows nothing of any game: a new game gets this for free.

Checked on the way and at the end:

* every panel is drawn from the clicker's own seat view, and no view drawn for a panel or the public table
  holds a card that the engine hides from whoever it is drawn for (checked as each is drawn, under the
  table's lock); an ephemeral panel is never visible to another member;
* the game ends; every member's balance moved by exactly what their seat won in the settled deals; the
  ledger balances.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.tables.panels import Panels
from bot.ui import adapters
from games.core.engine import iter_cards
from tests.bot.tables.driver import buttons, live_table, open_panel

START_BALANCE = 1000


@dataclass
class Watch:
    """What the spies saw."""

    panels: int = 0
    public: int = 0
    cards_checked: int = 0
    leaks: list[str] = field(default_factory=list)
    ephemeral_ids: dict[int, set[int]] = field(default_factory=dict)


def spy(monkeypatch: Any, world: Any) -> Watch:
    """Check every view the runtime draws, at the moment it is drawn, against what the engine hides."""
    watch = Watch()
    plain_snapshot = Panels.snapshot

    async def snapshot(self: Panels, session: Any, seat: int, lang: str) -> Any:
        snap = await plain_snapshot(self, session, seat, lang)
        engine = session.engine
        if engine is not None:
            async with session.lock:
                hidden = engine.hidden_from(seat)
                fresh = engine.view(seat)
            shown = list(iter_cards(snap.view))
            watch.panels += 1
            watch.cards_checked += len(shown)
            if fresh != snap.view:
                watch.leaks.append(f"seat {seat}'s panel was drawn from another view")
            leaked = hidden.intersection(shown)
            if leaked:
                watch.leaks.append(f"seat {seat}'s panel shows hidden {sorted(map(str, leaked))}")
        return snap

    monkeypatch.setattr(Panels, "snapshot", snapshot)
    for ui in adapters().values():
        cls = type(ui)
        plain_summary = cls.public_summary

        def public_summary(self: Any, view: Any, ctx: Any, _plain: Any = plain_summary) -> Any:
            session = world.env.bot.tables.tables.get(ctx.table_id)
            if session is not None and session.engine is not None:
                leaked = session.engine.hidden_from(None).intersection(iter_cards(view))
                watch.public += 1
                if leaked:
                    watch.leaks.append(f"the public table shows hidden {sorted(map(str, leaked))}")
            return _plain(self, view, ctx)

        monkeypatch.setattr(cls, "public_summary", public_summary)
    return watch


def _components(message: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    def walk(items: Any) -> None:
        for item in items or []:
            item = item if isinstance(item, dict) else item.to_dict()
            if item.get("type") in (2, 3) and not item.get("disabled"):
                found.append(item)
            walk(item.get("components"))

    walk(getattr(message, "components", None))
    return found


def _weight(component: dict[str, Any]) -> int:
    cid = component.get("custom_id", "")
    if ":a:" in cid or ":u:ok:" in cid or ":u:subok:" in cid:
        return 6  # a move, or the confirm that makes one
    if ":u:x:hint" in cid:
        return 4
    if ":u:noop:" in cid or ":u:x:refresh" in cid:
        return 0
    return 2


async def _click_something(member: Any, panel: Any, rng: random.Random) -> Any:
    """One random enabled component of the panel: a button, a select (random values), or the amount modal."""
    choices = [c for c in _components(panel.response) if _weight(c)]
    assert choices, f"a panel to act on offers nothing: {panel.response.content!r}"
    component = rng.choices(choices, weights=[_weight(c) for c in choices])[0]
    cid = component["custom_id"]
    if component["type"] == 3:
        options = [o["value"] for o in component.get("options", [])]
        low = max(component.get("min_values", 1), 0)
        high = min(component.get("max_values", 1), len(options))
        values = rng.sample(options, rng.randint(low, high)) if options else []
        return await member.select(panel.response, values, custom_id=cid)
    result = await member.click(panel.response, custom_id=cid)
    if result.modal is not None:
        hint = str(result.modal["components"][0]["components"][0].get("placeholder") or "1–1")
        lo, _, hi = hint.partition("–")
        amount = rng.randint(int(lo.replace(",", "")), int(hi.replace(",", "")))
        return await member.submit_modal(result, {"amount": f"{amount:,}"})
    return result


async def play_any_game(
    world: Any, game_id: str, rng: random.Random, *, members: tuple[Any, ...], bots: int, step_limit: int = 4000
) -> Any:
    """Open, seat, start and play ``game_id`` to the end through the panels; returns the (ended) table."""
    db = world.env.bot.db
    await db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True)
    host, *others = members
    opened = await host.slash(world.channel, "play", game=game_id)
    assert opened.ephemeral
    lobby = world.channel.last_message
    for member in others:
        await member.click(lobby, label="Join")
    for _ in range(bots):
        await host.click(lobby, label="Add bot")
    await host.click(lobby, label="Start")
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    by_seat = {table.seat_of(m.id): m for m in members}
    panels: dict[int, Any] = {}
    steps = 0
    while world.env.bot.tables.tables:
        steps += 1
        assert steps <= step_limit, f"{game_id}: no end after {step_limit} clicks"
        acting = [s for s in sorted(engine.to_act()) if s in by_seat]
        assert acting, f"{game_id}: only bots or away players must act, yet the table stands still"
        seat = rng.choice(acting)
        member = by_seat[seat]
        if seat not in panels or rng.random() < 0.2:
            panels[seat] = await open_panel(world, member)
        result = await _click_something(member, panels[seat], rng)
        if result.response is not None and result.response.ephemeral and result.response.components:
            panels[seat] = result
        elif result.response is not None and not result.response.components:
            panels.pop(seat, None)  # a refusal or a note: open a fresh panel next time
    return table


async def check_chips(world: Any, table: Any, members: tuple[Any, ...]) -> None:
    """Every member's balance moved by what their seat won; the guild's chips still sum to zero."""
    db = world.env.bot.db
    hands = await db.table_history(table.id, limit=100_000)
    assert hands, "no deal was settled"
    for member in members:
        seat = table.seat_of(member.id)
        won = sum(h.deltas[seat] for h in hands)
        assert await db.balance(world.guild.id, member.id) == START_BALANCE + won, (member, won)
    bots_won = sum(h.deltas[s] for h in hands for s, info in enumerate(table.seats) if info.bot)
    assert await db.house_balance(world.guild.id) == bots_won
    assert await db.verify_ledger(world.guild.id) == []


def private_panels_stay_private(world: Any, members: tuple[Any, ...]) -> None:
    """No member can see another member's ephemeral messages."""
    for member in members:
        mine = {m.id for m in world.channel.history(viewer=member) if m.flags.ephemeral}
        for other in members:
            if other is not member:
                theirs = {m.id for m in world.channel.history(viewer=other) if m.flags.ephemeral}
                assert not mine & theirs


__all__ = ["buttons", "check_chips", "play_any_game", "private_panels_stay_private", "spy"]
