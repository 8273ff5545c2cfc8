"""A refused move names its cards as the member's panel names them, in the member's language, never by the engine's
code: a member sends a crafted (forged custom id) move naming a card that is not theirs and reads the reason.

Hachi-Hachi Trick has its own in ``test_hachi_hachi_table.py`` (forged and stale buttons). Oicho-Kabu has none: no
Oicho-Kabu move names a card (bets name a pile and an amount), so none of its refusals can."""

from __future__ import annotations

import json
from typing import Any

from bot.ui.luk_fu import card_text as luk_fu_card
from games.core.cards import LukFuCard
from games.core.rng import Shuffle, Shuffler
from tests.bot.conftest import LOCALES
from tests.bot.tables.driver import enabled_actions, forge_click, live_table, open_panel
from tests.bot.tables.test_ofc_table import dealer_draw, stack, turbo_deck


async def _refused(world: Any, member: Any, custom_id: str, lang: str) -> str:
    """The ephemeral answer ``member`` (reading ``lang``) gets for a forged move; the table does not change."""
    table = live_table(world)
    before, logged = json.dumps(table.engine.snapshot()), await world.env.bot.db.table_log(table.id)
    LOCALES[member.id] = "ja" if lang == "ja" else "en-US"
    try:
        answer = await forge_click(world, member, custom_id)
    finally:
        del LOCALES[member.id]
    assert answer.ephemeral, answer
    assert json.dumps(table.engine.snapshot()) == before and await world.env.bot.db.table_log(table.id) == logged
    return str(answer.response.content)


async def test_ofc_a_forged_placement_of_a_card_not_dealt_names_it_as_the_board_does(world: Any) -> None:
    # Alice (seat 0) is dealt Q♠ Q♥ 2♣ K♠ K♥ first; 7♦ is not among her cards.
    alice = ["Qs", "Qh", "2c", "Ks", "Kh", "Kd", "3c", "4d", "As", "Ah", "Ad", "Ac", "5h"]
    stack(world, [dealer_draw(1), turbo_deck({0: alice}, 2)])
    await world.alice.slash(world.channel, "play", game="ofc")
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    engine = table.engine
    assert [c.notation for c in engine.hands[0].pending] == alice[:5]
    panel = await open_panel(world, world.alice)
    assert "Q♠" in panel.response.content and "Qs" not in panel.response.content  # how her panel names a card
    forged = f"fdb:{table.id}:{engine.decision_id(0)}:a:place~7d:f~Qs:f~Qh:f~Ks:m~Kh:m"
    assert await _refused(world, world.alice, forged, "en") == "⚠️ 7♦ is not one of the cards you have to place."
    assert await _refused(world, world.alice, forged, "ja") == "⚠️ 7♦ はあなたが配置するカードではありません。"


async def test_luk_fu_a_forged_lead_of_a_card_not_held_names_it_as_the_hand_does(world: Any) -> None:
    # LF-5's hands: Alice (seat 0, dealer and parent) passes, Bob declares, and Alice leads.
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
    for member, call in ((world.alice, "pass"), (world.carol, "pass"), (world.bob, "play")):
        panel = await open_panel(world, member)
        await member.click(panel.response, custom_id=enabled_actions(panel)[call])
    assert engine.public_view().phase == "lead" and engine.to_act() == {0}
    decision = engine.decision_id(0)
    # Bob's 7M, as Alice's panel would name it: 七貫 7M in English, 七貫 in Japanese.
    seven = LukFuCard.parse("7M")
    lead = f"fdb:{table.id}:{decision}:a:lead~7M"
    en = await _refused(world, world.alice, lead, "en")
    assert en == f"⚠️ {luk_fu_card(seven, 'en')} is not in your hand." == "⚠️ 七貫 7M is not in your hand."
    assert await _refused(world, world.alice, lead, "ja") == f"⚠️ {luk_fu_card(seven, 'ja')} は手札にありません。"
    # Her own old 9T, led alone: the refusal names it exactly as the panel's forbidden lead does.
    panel = await open_panel(world, world.alice)
    assert "⛔ 🔴九十 9T: an old card may not be led on its own" in panel.response.content
    old = f"fdb:{table.id}:{decision}:a:lead~9T"
    assert await _refused(world, world.alice, old, "en") == "⚠️ 🔴九十 9T is an old card: it may not be led on its own."
    assert await _refused(world, world.alice, old, "ja") == "⚠️ 🔴九十 は古い札なので単独でリードできません。"
