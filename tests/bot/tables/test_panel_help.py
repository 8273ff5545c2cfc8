"""The "?" of every private panel, as a member meets it: pressed at every kind of decision of every game, it opens
the ``/howto`` page about that decision in a new private message, in the member's language, and changes nothing
(neither the table, nor the seat's panel choices and notes, nor the panel pressed). It works from a panel of an
earlier decision (the page is the one for the decision now) and after a restart; a forged "?" is refused, privately,
and changes nothing either."""

from __future__ import annotations

import json
import random
from typing import Any, get_args

from bot import howto
from bot.howto.message import house_rules
from bot.i18n import t
from games.core.rng import Shuffle, Shuffler
from games.hachi_hachi.views import Phase as HachiPhase
from games.luk_fu.views import Phase as LukFuPhase
from games.oicho.views import Phase as OichoPhase
from tests.bot.conftest import LOCALES
from tests.bot.howto.conftest import shown
from tests.bot.tables.any_game import _click_something
from tests.bot.tables.driver import buttons, forge_click, live_table, open_oicho, open_panel, press, whose_turn
from tests.bot.tables.test_hachi_hachi_table import TWO_DEAL, _open_three
from tests.bot.tables.test_hachi_hachi_table import _set_rules as set_hachi_rules
from tests.bot.tables.test_hachi_hachi_table import _stack as stack_hachi
from tests.bot.tables.test_ofc_table import (
    ALICE_FL,
    ALICE_STREETS,
    dealer_draw,
    hint_and_confirm,
    place_street,
    stack,
    turbo_deck,
)
from tests.bot.tables.test_ofc_table import _open as open_ofc

KINDS: dict[str, dict[str, tuple[str, str]]] = {
    "oicho": {
        "bet": ("betting", "betting"),
        "pile draw or stand": ("deciding", "drawing"),
        "dealer draw or stand": ("dealer", "drawing"),
        "keep or pass the bank": ("round_over", "dealer"),
    },
    "ofc": {"street": ("", "fouls"), "fantasyland": ("", "fantasyland")},
    "luk_fu": {
        "call": ("call", "call"),
        "five tigers": ("tigers", "five_tigers"),
        "declarer's free lead": ("lead", "leads"),
        "restricted lead": ("lead", "old_cards"),
        "beat": ("follow", "must_beat"),
        "discard face down": ("follow", "must_beat"),
        "stop or continue": ("stop", "six_tricks"),
    },
    "hachi_hachi": {
        "mizuten": ("mizuten", "mizuten"),
        "play or fold": ("declare", "declare"),
        "split or fight": ("choose", "split_or_fight"),
        "card": ("trick", "tricks"),
    },
}
"""Every kind of decision a seat meets, by game: (the engine's phase it comes in, the guide's topic about it)."""


def kind_of(game: str, engine: Any, seat: int) -> str:
    """Which kind of decision ``seat`` faces now, read from the engine (not from the panel under test)."""
    view = engine.view(seat)
    if game == "ofc":
        return "fantasyland" if view.fantasyland_hand else "street"
    if game == "luk_fu" and view.phase == "lead":
        return "declarer's free lead" if view.lead_exempt == "declarer" else "restricted lead"
    if game == "luk_fu" and view.phase == "follow":
        return "beat" if view.can_beat else "discard face down"
    (kind,) = [k for k, (phase, _) in KINDS[game].items() if phase == view.phase]
    return kind


def test_the_kinds_are_every_decision_of_every_game() -> None:
    """Every phase in which a seat decides something has its kinds here (the end of a game is no decision), and
    every topic named is one of the game's guide."""
    final = {"oicho": {"game_over"}, "luk_fu": {"over"}, "hachi_hachi": {"over"}}
    for game, phases in (("oicho", OichoPhase), ("luk_fu", LukFuPhase), ("hachi_hachi", HachiPhase)):
        assert {phase for phase, _ in KINDS[game].values()} == set(get_args(phases)) - final[game]
    assert set(KINDS) == set(howto.GAMES)
    for game, kinds in KINDS.items():
        assert {topic for _, topic in kinds.values()} <= set(howto.topic_ids(game))


# ---------------------------------------------------------------- pressing "?" as a member


def _help_button(panel: Any, lang: str) -> dict[str, Any]:
    found = [b for b in buttons(panel.response) if b.get("custom_id", "").endswith(":u:help:")]
    assert len(found) == 1, [b.get("label") for b in buttons(panel.response)]
    assert found[0]["label"] == t("panel.help", lang) and not found[0].get("disabled")
    return found[0]


def _seen(world: Any, member: Any, message_id: int) -> tuple[str, str]:
    """A message as ``member`` sees it now (content and components)."""
    places = (world.channel, *world.channel.threads)
    for message in (m for place in places for m in place.history(viewer=member)):
        if message.id == message_id:
            return message.content or "", json.dumps(
                [c if isinstance(c, dict) else c.to_dict() for c in message.components]
            )
    raise AssertionError(f"{member} cannot see message {message_id}")


async def _table_state(world: Any, table: Any) -> tuple[str, str, str, str]:
    """Everything a press could change at the table: the engine, the log, the seats' panel choices and notes."""
    logged = await world.env.bot.db.table_log(table.id)
    return (
        json.dumps(table.engine.snapshot()),
        repr([(e.kind, e.body) for e in logged]),
        repr(sorted((seat, sorted(state.items())) for seat, state in table.panel_state.items())),
        repr(sorted(table.runtime.panels.notes.items())),
    )


async def ask(world: Any, member: Any, panel: Any, game: str, lang: str = "en") -> str:
    """Press the "?" of ``panel`` (``member`` reading ``lang``); the topic of the page it opened. Checked: the page
    is a new private message (the panel is not replaced), the first page of that topic in the member's language
    under the table's rules, theirs to page; nothing at the table changed, and the panel pressed is as it was."""
    table = live_table(world)
    button = _help_button(panel, "en")
    before, panel_before = await _table_state(world, table), _seen(world, member, panel.response.id)
    LOCALES[member.id] = "ja" if lang == "ja" else "en-US"
    try:
        opened = await member.click(panel.response, custom_id=button["custom_id"])
    finally:
        del LOCALES[member.id]
    assert opened.ephemeral and opened.response is not None and opened.response.id != panel.response.id
    page = shown(opened.response)
    assert page.menu is not None
    [topic] = [o["value"] for o in page.menu["options"] if o.get("default")]
    assert page.body == howto.page(game, topic, 0, lang, table.rules).body
    assert all(b["custom_id"].startswith(f"fdb:howto:{member.id}:{game}:{topic}:0:") for b in page.buttons)
    assert await _table_state(world, table) == before
    assert _seen(world, member, panel.response.id) == panel_before
    assert world.env.errors == []
    return topic


async def walk(world: Any, game: str, members: tuple[Any, ...], rng: random.Random, limit: int) -> dict[str, str]:
    """Play the live table through the panels (random enabled components, as the every-game driver does), pressing
    "?" at the first decision of each kind a member meets (in Japanese every other time): kind → topic opened."""
    table = live_table(world)
    engine = table.engine
    by_seat = {table.seat_of(m.id): m for m in members}
    opened: dict[str, str] = {}
    for _ in range(limit):
        if set(opened) == set(KINDS[game]) or not world.env.bot.tables.tables:
            break
        acting = sorted(s for s in engine.to_act() if s in by_seat)
        assert acting, f"{game}: no member may act"
        seat = rng.choice(acting)
        member, kind = by_seat[seat], kind_of(game, engine, seat)
        panel = await open_panel(world, member)
        if kind not in opened:
            opened[kind] = await ask(world, member, panel, game, "ja" if len(opened) % 2 else "en")
        await _click_something(member, panel, rng)
    return opened


def _seeded(world: Any, name: str) -> None:
    seeds = random.Random(name)
    world.env.bot.tables.new_shuffler = lambda: Shuffler(seed_source=lambda: f"{seeds.getrandbits(256):064x}")


def expected(game: str, kinds: Any = None) -> dict[str, str]:
    return {kind: topic for kind, (_, topic) in KINDS[game].items() if kinds is None or kind in kinds}


async def test_oicho_every_decision_opens_its_page(world: Any) -> None:
    _seeded(world, "help: oicho")
    await open_oicho(world, world.bob)
    opened = await walk(world, "oicho", (world.alice, world.bob), random.Random("oicho"), 400)
    assert opened == expected("oicho")


async def test_luk_fu_every_decision_opens_its_page(world: Any) -> None:
    # Five Tigers asked of every seat right after the call (the default asks only at a holder's lead).
    done = await world.mod.slash(
        world.channel, "rules set", game="luk_fu", option="five_tigers_timing", value="after_call"
    )
    assert done.response is not None and "five_tigers_timing" in done.response.content
    _seeded(world, "help: luk fu")
    await world.alice.slash(world.channel, "play", game="luk_fu")
    for member in (world.bob, world.carol):
        await member.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    members = (world.alice, world.bob, world.carol)
    opened = await walk(world, "luk_fu", members, random.Random("luk fu"), 1500)
    assert opened == expected("luk_fu")


async def test_hachi_hachi_every_decision_opens_its_page(world: Any) -> None:
    """Alice, the start player, declares Mizuten and must play; Bob plays, so Carol is forced out and the two
    declarers choose split or fight; then the tricks."""
    await set_hachi_rules(world, max_declarers=2, rounds=1)
    stack_hachi(world, TWO_DEAL)
    table = await _open_three(world)
    engine = table.engine
    alice, bob = world.alice, world.bob
    opened = {"mizuten": await ask(world, alice, await open_panel(world, alice), "hachi_hachi")}
    await press(world, alice, "mizuten")
    opened["play or fold"] = await ask(world, alice, await open_panel(world, alice), "hachi_hachi", "ja")
    await press(world, alice, "play")
    await press(world, bob, "play")
    assert engine.phase == "choose"
    opened["split or fight"] = await ask(world, bob, await open_panel(world, bob), "hachi_hachi")
    await press(world, alice, "fight")
    await press(world, bob, "fight")
    seat, member = whose_turn(world)
    assert kind_of("hachi_hachi", engine, seat) == "card"
    opened["card"] = await ask(world, member, await open_panel(world, member), "hachi_hachi", "ja")
    assert opened == expected("hachi_hachi")


async def test_ofc_a_street_and_a_fantasyland_hand_open_their_pages(world: Any) -> None:
    """Alice reaches Fantasyland in the first hand (QQ in front); her streets open fouls, her Fantasyland hand
    Fantasyland."""
    await world.env.bot.db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True)
    alice_cards = [c for street in ALICE_STREETS for c in street]
    stack(world, [dealer_draw(3), turbo_deck({0: alice_cards}, 4), " ".join(ALICE_FL.values())])
    await open_ofc(world, bots=2, members=(world.bob,))
    table = live_table(world)
    engine = table.engine
    opened = {}
    for street in ALICE_STREETS:
        if not opened:
            assert kind_of("ofc", engine, 0) == "street"
            opened["street"] = await ask(world, world.alice, await open_panel(world, world.alice), "ofc")
        await place_street(world, world.alice, street)
        await hint_and_confirm(world, world.bob)
    assert engine.hands[0].fantasyland and kind_of("ofc", engine, 0) == "fantasyland"
    panel = await open_panel(world, world.alice)
    opened["fantasyland"] = await ask(world, world.alice, panel, "ofc", "ja")
    assert opened == expected("ofc")


# ---------------------------------------------------------------- a stale panel, a seat waiting, a restart, forgeries

# LF-5's hands: Alice (seat 0, dealer and parent) passes, Bob declares, and Alice leads under the restriction.
LF5 = {
    0: "9T 8T 3T 5M 6M 2S 1S 2C 4C 6C 7C LT",
    2: "1C 3C 5C 8C 9C 3S 4S 5S 6S 7S 8S 9S",
    1: "1M 2M 3M 4M 7M 8M 9M 1T 2T 4T 5T 6T",
}


async def test_a_stale_panel_opens_the_page_of_the_decision_now_and_a_waiting_seat_the_moment_of_the_table(
    world: Any,
) -> None:
    from tests.games.luk_fu.lukfu_kit import deal_order, draw_for

    world.env.bot.tables.new_shuffler = lambda: Shuffler(
        planned=[Shuffle(order=draw_for(0)), Shuffle(order=deal_order(LF5))], seed_source=lambda: "cd" * 32
    )
    await world.alice.slash(world.channel, "play", game="luk_fu")
    for member in (world.bob, world.carol):
        await member.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    engine = live_table(world).engine
    call_panel = await open_panel(world, world.alice)  # drawn for her call; she calls from another panel
    assert await ask(world, world.alice, call_panel, "luk_fu") == "call"
    await press(world, world.alice, "pass")
    await press(world, world.carol, "pass")
    await press(world, world.bob, "play")
    assert engine.public_view().phase == "lead" and engine.to_act() == {0}
    assert kind_of("luk_fu", engine, 0) == "restricted lead"
    # The call panel is stale now: its "?" opens the page of her decision now (a restricted lead), and says nothing
    # of a stale button (a move pressed there would).
    assert ":u:help:" in _help_button(call_panel, "en")["custom_id"]
    assert await ask(world, world.alice, call_panel, "luk_fu", "ja") == "old_cards"
    # Carol waits while Alice leads: her "?" opens what may be led.
    assert await ask(world, world.carol, await open_panel(world, world.carol), "luk_fu") == "leads"


async def test_the_question_mark_works_after_a_restart(world: Any, database: Any, clock: Any) -> None:
    from tests.bot.conftest import make_bot

    await open_oicho(world, world.bob)
    _, mover = whose_turn(world)
    panel = await open_panel(world, mover)  # opened before the restart
    await world.env.restart_bot(make_bot(database, clock))
    assert await ask(world, mover, panel, "oicho") == "betting"


async def test_a_forged_question_mark_is_refused_and_changes_nothing(world: Any) -> None:
    table = await open_oicho(world, world.bob)
    seat, mover = whose_turn(world)
    decision = table.engine.decision_id(seat)
    panel = await open_panel(world, mover)
    real = _help_button(panel, "en")["custom_id"]
    assert real == f"fdb:{table.id}:{decision}:u:help:"
    before = await _table_state(world, table)
    for member, custom_id, said in [
        (mover, f"fdb:{table.id}:{decision}:u:help:topic~dealer", "not one of this table's"),  # an argument
        (mover, f"fdb:{table.id}:{decision + 5}:u:help:", "not one of this table's"),  # a decision never offered
        (mover, f"fdb:{table.id}:{decision}:s:help:", "not one of this table's"),  # as a menu
        (mover, f"fdb:{table.id}:{decision}:m:help:", "not one of this table's"),  # as the amount form
        (mover, f"fdb:999999:{decision}:u:help:", "no longer exists"),  # another table
        (world.carol, real, "not seated"),  # not at the table
    ]:
        refused = await forge_click(world, member, custom_id)
        assert refused.ephemeral and refused.response is not None, custom_id
        assert refused.response.content.startswith("⚠️") and said in refused.response.content, refused.response.content
        assert refused.response.embeds == [] and refused.followups == [], custom_id  # no page was opened
        assert await _table_state(world, table) == before, custom_id
    assert world.env.errors == []


async def test_the_question_mark_reads_the_tables_rules_not_the_servers_changed_since(world: Any) -> None:
    """A moderator raises the bank cap while a table plays under the old one: that table's "?" teaches the cap it
    plays with (the server's new cap is for tables opened from now on)."""
    await open_oicho(world, world.bob)
    table = live_table(world)
    assert table.rules.bank_cap == 50
    changed = await world.mod.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="80")
    assert not changed.ephemeral
    assert (await house_rules(world.env.bot, world.guild.id, "oicho")).bank_cap == 80  # type: ignore[attr-defined]
    _seat, member = whose_turn(world)
    panel = await open_panel(world, member)
    assert await ask(world, member, panel, "oicho") == "betting"
    page = shown(world.channel.history(viewer=member)[-1])
    assert "**50**" in page.body and "**80**" not in page.body
