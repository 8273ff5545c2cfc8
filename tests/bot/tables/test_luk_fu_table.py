"""Luk Fu (六虎) tables driven through Discord as members would play them, with bot players."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bot.i18n import t
from bot.render.luk_fu import draw_luk_fu_table
from bot.ui.luk_fu import BACK, LukFuUI, card_text, cards_text
from games.core.cards import parse_lukfu
from games.core.rng import Shuffle, Shuffler
from games.core.snapshot import decode
from games.luk_fu import events as ev
from games.luk_fu.views import LukFuPublicView
from tests.bot.conftest import LOCALES
from tests.bot.tables.any_game import _click_something, check_chips, private_panels_stay_private
from tests.bot.tables.driver import buttons, enabled_actions, forge_click, live_table, open_panel, table_message


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


# ---------------------------------------------------------------- the end of a hand


def _kit() -> ModuleType:
    """``tests/games/luk_fu/lukfu_kit.py``: stacked Luk Fu deals written as each player's hand."""
    folder = str(Path(__file__).resolve().parents[2] / "games" / "luk_fu")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module("lukfu_kit")


def _selects(panel: Any) -> list[dict[str, Any]]:
    return [c for row in panel.response.components for c in row["components"] if c.get("type") == 3]


async def _make(world: Any, member: Any, text: str) -> None:
    """Make the move ``text`` through the member's panel: its button, its line in a menu, or (a face-down follow)
    its cards picked in the menu and confirmed."""
    table = live_table(world)
    serial = table.engine.serial
    panel = await open_panel(world, member)
    actions = enabled_actions(panel)
    if text in actions:
        await member.click(panel.response, custom_id=actions[text])
    elif text.startswith("discard "):
        (menu,) = [c for c in _selects(panel) if ":s:sub:" in c["custom_id"]]
        picked = await member.select(panel.response, text.split()[1:], custom_id=menu["custom_id"])
        (ok,) = [b for b in buttons(picked.response) if ":u:subok:" in b.get("custom_id", "")]
        await member.click(picked.response, custom_id=ok["custom_id"])
    else:
        (menu,) = [c for c in _selects(panel) if text in [o["value"] for o in c["options"]]]
        await member.select(panel.response, [text], custom_id=menu["custom_id"])
    assert table.engine.serial == serial + 1, (text, panel.response.content)


def _message_texts(message: Any) -> str:
    return "\n".join(str(e.to_dict()) for e in message.embeds)


def _field(message: Any, name: str) -> str | None:
    found = [f.value for e in message.embeds for f in e.fields if f.name == name]
    return str(found[0]) if found else None


def _final_trick_in_picture(view: LukFuPublicView, names: list[str]) -> list[Any]:
    return [c.card for c in draw_luk_fu_table(view, names).cards if c.area == "final_trick"]


async def test_the_last_trick_of_a_hand_stays_in_view_until_the_next_lead_and_the_results_list_every_trick(
    world: Any, monkeypatch: Any
) -> None:
    """A hand played to its last card (stacked; three members): its final trick is never between tricks (the last
    card settles the hand and deals the next), so the table shows it, in words and in the picture, from the
    hand's end through the next hand's call until its first lead; the results message lists every trick in
    order, each with who took it, face-down follows as backs."""
    kit = _kit()
    drawn: list[LukFuPublicView] = []
    plain_render = LukFuUI.render

    def render(self: LukFuUI, view: LukFuPublicView, ctx: Any) -> bytes:
        drawn.append(view)
        return plain_render(self, view, ctx)

    monkeypatch.setattr(LukFuUI, "render", render)
    deal = kit.deal_order(kit.PLAYED_OUT, extra=kit.PLAYED_OUT_DEAD)
    world.env.bot.tables.new_shuffler = lambda: Shuffler(
        planned=[Shuffle(order="9T"), Shuffle(order=deal), Shuffle(order=kit.PLAYED_OUT_NEXT)],
        seed_source=lambda: "cd" * 32,
    )
    await world.alice.slash(world.channel, "play", game="luk_fu")
    for member in (world.bob, world.carol):
        await member.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    engine = table.engine
    names = table.names()
    alice, bob, carol = names
    assert [table.seat_of(m.id) for m in (world.alice, world.carol, world.bob)] == [kit.A, kit.B, kit.C]
    by_seat = {kit.A: world.alice, kit.B: world.carol, kit.C: world.bob}
    for seat, text in kit.PLAYED_OUT_MOVES:
        await _make(world, by_seat[seat], text)
    assert engine.deal_no == 2 and engine.phase == "call"

    # The results message: every trick in order, who played what (face-down follows as backs), who took it.
    history = list(world.channel.history(viewer=world.alice))
    (results,) = [m for m in history if m.embeds and m.embeds[0].title == t("luk_fu_ui.result_title", "en", deal=1)]

    def cards(text: str) -> str:
        return cards_text(parse_lukfu(text), "en")

    backs = BACK * 3
    log = [
        f"1. {alice}: {cards('1S 2S 3S')} · {carol}: {cards('4M 5M 6M')} ✅ · {bob}: {backs} → **{carol}** +3",
        f"2. {carol}: {cards('7T 8T 9T')} ✅ · {bob}: {backs} · {alice}: {backs} → **{carol}** +3",
        f"3. {carol}: {cards('2C 2M 2T')} · {bob}: {cards('5C 5S 5T')} ✅ · {alice}: {backs} → **{bob}** +3",
        f"4. {bob}: {cards('6C 7C 8C')} · {alice}: {cards('7M 8M 9M')} ✅ · {carol}: {backs} → **{alice}** +3",
    ]
    assert _field(results, "Trick by trick") == "\n".join(log)
    for card in parse_lukfu("1C 3C 4C 4S 6S 1M 7S 8S 9S 1T 3T 4T 9C 3M LT"):  # never shown face up
        assert card_text(card, "en") not in _message_texts(results)

    # The table, below the results: the final trick in words and in the picture, through the call, until the lead.
    final = "Final trick of hand 1 (trick 4): alice takes 3"
    words = f"{bob}: {cards('6C 7C 8C')}\n{alice}: {cards('7M 8M 9M')} ✅\n{carol}: {backs}"
    in_picture = [*parse_lukfu("6C 7C 8C 7M 8M 9M"), None, None, None]
    assert history.index(table_message(world)) > history.index(results)
    for seat, text in ((kit.B, "play"), (kit.B, "lead 1S 2S 3S")):
        message = table_message(world)
        assert _field(message, final) == words, (engine.phase, _message_texts(message))
        assert drawn[-1] == engine.public_view() and _final_trick_in_picture(drawn[-1], names) == in_picture
        await _make(world, by_seat[seat], text)
    # The next hand's first lead takes its place.
    message = table_message(world)
    assert engine.public_view().trick_no == 1 and drawn[-1] == engine.public_view()
    assert _field(message, final) is None and _field(message, "Trick 1 (3 card(s) each)") is not None
    assert _final_trick_in_picture(drawn[-1], names) == []


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_a_wrong_suit_lead_is_refused_in_plain_words(world: Any, locale: str) -> None:
    from games.core.rng import Shuffle, Shuffler

    # LF-5's hand for Alice (seat 0, dealer and parent), who will not declare: her single lead must be a Ten.
    alice = "9T 8T 3T 5M 6M 2S 1S 2C 4C 6C 7C LT"
    carol = "1C 3C 5C 8C 9C 3S 4S 5S 6S 7S 8S 9S"
    bob = "1M 2M 3M 4M 7M 8M 9M 1T 2T 4T 5T 6T"
    world.env.bot.tables.new_shuffler = lambda: Shuffler(
        planned=[Shuffle(order="9T"), Shuffle(order=f"{alice} {carol} {bob} 7T")], seed_source=lambda: "cd" * 32
    )
    await world.alice.slash(world.channel, "play", game="luk_fu")
    for member in (world.bob, world.carol):
        await member.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    engine = table.engine
    for member, text in ((world.alice, "pass"), (world.carol, "pass"), (world.bob, "play")):
        await _make(world, member, text)
    assert engine.phase == "lead" and engine.to_act() == {0}
    LOCALES[world.alice.id] = locale
    before = engine.serial
    refused = await forge_click(world, world.alice, f"fdb:{table.id}:{engine.decision_id(0)}:a:lead~5M")
    world.env.errors.clear()
    text = refused.response.content
    assert refused.ephemeral and engine.serial == before
    if locale == "ja":
        assert "単独でリードできません。単札は、古くない札が残る最も強い種類の十から出す必要があります。" in text
        assert "（" not in text
    else:
        assert "may not be led on its own: a single card must come from Tens 十, your highest suit" in text
        assert "(" not in text
