"""Hachi-Hachi Trick (ハチハチトリック) tables driven through Discord as members would play them, with bot players."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from bot.ui.hachi_hachi import card_text
from games.core.cards import FrenchCard, parse_french
from games.core.rng import Shuffle, Shuffler
from games.core.snapshot import decode
from games.hachi_hachi import events as ev
from tests.bot.conftest import LOCALES
from tests.bot.tables.any_game import START_BALANCE, _click_something, check_chips, private_panels_stay_private
from tests.bot.tables.driver import enabled_actions, forge_click, live_table, open_panel, press, table_message

RESULT_LINE = re.compile(r"^(.+?) \*\*([+-][\d,]+)\*\*", re.MULTILINE)


async def _set_rules(world: Any, **values: Any) -> None:
    for option, value in values.items():
        done = await world.mod.slash(
            world.channel, "rules set", game="hachi_hachi", option=option, value=str(value).lower()
        )
        assert done.response is not None and option in done.response.content, done


def _table_texts(world: Any) -> str:
    """Every version of every message the bot posted or edited in the channel (embeds as text)."""
    texts = []
    for request in world.env.http_requests:
        if request.method in ("POST", "PATCH") and request.path.startswith("/channels/") and request.json:
            texts.append(str(request.json.get("embeds", "")))
    return "\n".join(texts)


def _embed_text(message: Any) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    return "\n".join(parts)


def _seen_by(world: Any, member: Any) -> str:
    """Everything ``member`` can read in the channel now: public messages and their own ephemeral ones."""
    return "\n".join(_embed_text(m) for m in world.channel.history(viewer=member))


def _results(world: Any) -> list[Any]:
    return [
        e.to_dict()
        for m in world.channel.history()
        for e in m.embeds
        if "result" in (e.title or "") and e.title.startswith("Hachi-Hachi")
    ]


def _stack(world: Any, deal: str) -> None:
    """Seat 0 draws the start player's card (A♠), then the first round's deck is ``deal`` (packets of seven in
    declaration order from the start player, then the trump indicator)."""
    world.env.bot.tables.new_shuffler = lambda: Shuffler(
        planned=[Shuffle(order="As"), Shuffle(order=deal)], seed_source=lambda: "ab" * 32
    )


async def _open_three(world: Any) -> Any:
    """Alice (seat 0), Bob (1) and Carol (2) at one table; Alice starts it."""
    await world.alice.slash(world.channel, "play", game="hachi_hachi")
    lobby = world.channel.last_message
    for member in (world.bob, world.carol):
        await member.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    assert [table.seat_of(m.id) for m in (world.alice, world.bob, world.carol)] == [0, 1, 2]
    return table


async def _check_pot_and_stacks(world: Any, table: Any, total: int) -> None:
    """The chips at the table (every seat's stack and the pot, as stored) are what was bought in, and match the
    engine's."""
    row = await world.env.bot.db.get_table(table.id)
    assert row is not None
    assert sum(s.stack for s in row.seats) + row.pot == total
    assert row.pot == table.engine.pot_total() * table.stake
    assert [s.stack for s in row.seats] == [st * table.stake for st in table.engine.stacks]


# ---------------------------------------------------------------- 1. seven players, members and bots, to the end


async def test_seven_players_with_bots_play_a_short_game_to_the_end(world: Any) -> None:
    db = world.env.bot.db
    await db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True)
    await _set_rules(world, rounds=3)
    seeds = random.Random("hachi-hachi: seven seats")
    world.env.bot.tables.new_shuffler = lambda: Shuffler(seed_source=lambda: f"{seeds.getrandbits(256):064x}")
    members = (world.alice, world.bob, world.carol)
    await world.alice.slash(world.channel, "play", game="hachi_hachi", stake=2)
    lobby = world.channel.last_message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    for _ in range(4):
        await world.alice.click(lobby, label="Add bot")
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    engine = table.engine
    assert engine is not None and len(table.seats) == 7 and table.stake == 2
    total = 7 * table.points_per_seat * table.stake
    by_seat = {table.seat_of(m.id): m for m in members}
    for member in members:  # each looks at their hand (one may be forced out of every round, never to act)
        await open_panel(world, member)
    rng = random.Random(7)
    deal, steps = engine.deal_no, 0
    while world.env.bot.tables.tables:
        steps += 1
        assert steps < 2000, "the game did not end"
        if engine.deal_no != deal:  # a round was settled: chips are neither made nor lost, the pot included
            deal = engine.deal_no
            await _check_pot_and_stacks(world, table, total)
        view = engine.public_view()  # within a round, the fold fees paid so far are in the pot
        assert (sum(view.stacks_after_fees) + view.pot) * table.stake == total
        acting = [s for s in sorted(engine.to_act()) if s in by_seat]
        assert acting, "only bots must act, yet the table stands still"
        member = by_seat[acting[0]]
        panel = await open_panel(world, member)
        for _ in range(4):
            serial = engine.serial
            result = await _click_something(member, panel, rng)
            if engine.serial != serial or not world.env.bot.tables.tables:
                break
            if result.response is None or not result.response.components:
                break
            panel = result
    # The game ended after its three rounds, every chip back in a wallet.
    assert engine.is_over and engine.pot_total() == 0
    assert sum(engine.stacks) * table.stake == total
    assert any(e.title == "The game is over" for m in world.channel.history() for e in m.embeds)
    hands = await db.table_history(table.id, limit=100)
    assert len(hands) == 3
    await check_chips(world, table, members)
    private_panels_stay_private(world, members)
    # Every card a bot played is in the table's narration or its public message, beside the bot's name.
    shown = _table_texts(world)
    names = table.names()
    bot_seats = {s for s, info in enumerate(table.seats) if info.bot}
    played = [
        e
        for h in hands
        for e in map(decode, h.summary.get("events", []))
        if isinstance(e, ev.CardPlayed) and e.seat in bot_seats
    ]
    assert len(played) >= 7  # the bots really played tricks (so the check below checks something)
    for event in played:
        card = card_text(event.card)
        assert (
            f"{names[event.seat]} plays {card} (trick {event.trick})" in shown
            or f"{names[event.seat]}: {card}" in shown
        ), (event, card)
    # Each seat's results lines add up to what it won; the winner's balance says the same.
    results = _results(world)
    assert len(results) == 3
    won = [0] * 7
    for embed in results:
        (chips,) = [f["value"] for f in embed["fields"] if f["name"] == "Chips"]
        for name, amount in RESULT_LINE.findall(chips):
            won[names.index(name)] += int(amount.replace(",", ""))
    assert won == [(engine.stacks[s] - table.points_per_seat) * table.stake for s in range(7)]
    winner = engine.winners[0]
    if winner in by_seat:
        assert await db.balance(world.guild.id, by_seat[winner].id) == START_BALANCE + won[winner]
    else:
        assert await db.house_balance(world.guild.id) == sum(won[s] for s in bot_seats)
    assert sum(won) == 0


# ---------------------------------------------------------------- 2. split against fight


# Alice (SP, D1) and Carol (D2) play; Bob folds. Clubs are trumps (7♣), a plain field. No hand scores.
SPLIT_DEAL = " ".join(
    [
        "Ah Kh Qh 2d 3d 4s 6s",  # Alice
        "2h 3h 4h 5s 7s 8s 9d",  # Bob
        "Ac Kc Qc Jc 5d 6d 8d",  # Carol
        "7c",  # the trump indicator
    ]
)


async def test_split_against_fight_stays_secret_then_the_round_is_played(world: Any) -> None:
    await _set_rules(world, rounds=1)
    _stack(world, SPLIT_DEAL)
    table = await _open_three(world)
    engine = table.engine
    alice, bob, carol = world.alice, world.bob, world.carol
    await press(world, alice, "no-mizuten")
    await press(world, alice, "play")
    panel = await open_panel(world, bob)
    assert "Folding now costs **2** chips" in panel.response.content
    await bob.click(panel.response, custom_id=enabled_actions(panel)["fold"])
    await press(world, carol, "play")
    assert engine.public_view().phase == "choose" and engine.to_act() == {0, 2}
    panel = await open_panel(world, carol)
    assert "alice's choice is hidden until both have chosen" in panel.response.content
    assert set(enabled_actions(panel)) == {"split", "fight"}

    chose = await press(world, alice, "split")
    assert "You chose **split**. Waiting for carol" in chose.response.content
    # Nobody else can tell what Alice chose: not Carol's panel, not Bob's, not the table, not the narration.
    assert engine.view(2).choices == () and engine.view(1).choices == () and engine.public_view().choices == ()
    carol_panel = await open_panel(world, carol)
    await open_panel(world, bob)
    public = _embed_text(table_message(world))
    assert "Chosen: alice · still choosing: carol" in public
    assert "alice has chosen split or fight (hidden until both have)" in public
    for member in (bob, carol):
        seen = _seen_by(world, member)
        assert "alice split" not in seen and "chose **split**" not in seen and "You chose split" not in seen
    assert set(enabled_actions(carol_panel)) == {"split", "fight"}

    await press(world, carol, "fight")
    # Both choices are shown, and one fight is enough (§3.2 step 5): the hands are shown and the tricks played.
    view = engine.public_view()
    assert view.choices == ((0, "split"), (2, "fight")) and view.split is False and view.phase == "trick"
    public = _embed_text(table_message(world))
    assert "alice split · carol fight → one fight is enough: the round is played out." in public
    assert "Choices shown: alice split · carol fight." in public
    members = {0: alice, 2: carol}
    while world.env.bot.tables.tables:
        seat = min(engine.to_act())
        actions = enabled_actions(await open_panel(world, members[seat]))
        assert actions and all(a.startswith("card ") for a in actions), actions
        assert set(actions) == {f"card {c.notation}" for c in engine.view(seat).legal_cards}
        await press(world, members[seat], sorted(actions)[0])
    (result,) = await world.env.bot.db.table_history(table.id, limit=10)  # the round, as settled and stored
    tricks = result.summary["tricks"]
    taker, loser = (0, 2) if tricks[0] > tricks[2] else (2, 0)
    # The pot (Bob's fee of 2) goes to the one with more tricks; the other pays 2 per trick of difference.
    diff = 2 * (tricks[taker] - tricks[loser])
    expected = [0, -2, 0]
    expected[taker], expected[loser] = 2 + diff, -diff
    assert list(result.deltas) == expected and tricks[0] + tricks[2] == 7
    (embed,) = _results(world)
    assert "Split or fight: alice split · carol fight" in embed["description"]
    assert f"**{table.names()[taker]}** took the most tricks and takes the pot." in embed["description"]
    (chips,) = [f["value"] for f in embed["fields"] if f["name"] == "Chips"]
    assert dict(RESULT_LINE.findall(chips)) == {"alice": f"{expected[0]:+}", "bob": "-2", "carol": f"{expected[2]:+}"}


# ---------------------------------------------------------------- 3. an edited hand table


# Alice holds Karasu (空素: seven pips); Bob and Carol hold nothing that scores. Spades are trumps (3♠).
KARASU_DEAL = " ".join(
    [
        "2c 3d 4h 5s 7c 8d 9h",  # Alice
        "Ac Kc 5d 6d Ah Qh 8s",  # Bob
        "Qc Jc 9d Td Qs 6h 2s",  # Carol
        "3s",
    ]
)


async def test_a_table_opened_under_an_edited_hand_table_scores_by_it(world: Any) -> None:
    changed = await world.mod.slash(
        world.channel, "rules set", game="hachi_hachi", option="yaku_table.karasu", value="on 9 5"
    )
    assert "`yaku_table.karasu`: on 4 2 → **on 9 5**" in changed.response.content, changed.response.content
    await _set_rules(world, rounds=1)
    _stack(world, KARASU_DEAL)
    await world.alice.slash(world.channel, "play", game="hachi_hachi")
    lobby = world.channel.last_message
    assert "`yaku_table.karasu` = `on 9 5`" in _embed_text(lobby)
    for member in (world.bob, world.carol):
        await member.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    engine = table.engine
    assert engine.rules.yaku_table.karasu.normal == 9
    await press(world, world.alice, "no-mizuten")
    panel = await open_panel(world, world.alice)
    assert "Karasu 空素 — worth 9 as a declarer, 5 if forced out." in panel.response.content
    for member in (world.alice, world.bob, world.carol):
        await press(world, member, "play")
    # Three declarers: the hands are shown at once, Alice's Karasu at its edited value.
    public = _embed_text(table_message(world))
    hand = " ".join(card_text(c) for c in parse_french("2c 3d 4h 5s 7c 8d 9h"))
    assert f"**alice** (D1): Karasu 空素 · {hand} → value **9**" in public
    assert "**bob** (D2): no hand combination → value **0**" in public
    # To the end: her hand is worth 9 against each of the others' 0.
    members = {0: world.alice, 1: world.bob, 2: world.carol}
    while world.env.bot.tables.tables:
        seat = min(engine.to_act())
        await press(world, members[seat], sorted(enabled_actions(await open_panel(world, members[seat])))[0])
    (result,) = await world.env.bot.db.table_history(table.id, limit=10)
    assert [p for p in result.summary["payments"] if p["kind"] == "hand"] == [
        {"from": 1, "to": 0, "amount": 9, "kind": "hand"},
        {"from": 2, "to": 0, "amount": 9, "kind": "hand"},
    ]
    (embed,) = _results(world)
    (chips,) = [f["value"] for f in embed["fields"] if f["name"] == "Chips"]
    assert "hands +18" in chips.splitlines()[0]
    assert any("value **9**" in f["value"] for f in embed["fields"])


# ---------------------------------------------------------------- 4. forged and stale buttons


async def test_forged_ids_and_a_stale_card_button_change_nothing(world: Any) -> None:
    await _set_rules(world, rounds=1)
    _stack(world, KARASU_DEAL)
    table = await _open_three(world)
    engine = table.engine
    db = world.env.bot.db
    alice, bob, carol = world.alice, world.bob, world.carol
    await press(world, alice, "no-mizuten")
    for member in (alice, bob, carol):
        await press(world, member, "play")
    assert engine.public_view().phase == "trick" and engine.to_act() == {0}
    # Trick 1: Alice leads 2♣; her button for 3♦ is kept, as an old client would keep it.
    panel = await open_panel(world, alice)
    old_button = enabled_actions(panel)["card 3d"]
    await alice.click(panel.response, custom_id=enabled_actions(panel)["card 2c"])

    async def refused(member: Any, custom_id: str, expect: str) -> None:
        before, logged = json.dumps(engine.snapshot()), await db.table_log(table.id)
        answer = await forge_click(world, member, custom_id)
        assert answer.ephemeral and expect in answer.response.content, (custom_id, answer.response.content)
        assert json.dumps(engine.snapshot()) == before and await db.table_log(table.id) == logged

    # Bob must follow clubs: a forged A♥ is refused with the reason, and so is a card he does not hold.
    bob_now = engine.decision_id(1)
    # Cards are named as his panel names them (Q♣️), in his language, never by their code (Qc).
    await refused(bob, f"fdb:{table.id}:{bob_now}:a:card~Ah", "(♣ clubs): you must follow suit, not play A♥️.")
    await refused(bob, f"fdb:{table.id}:{bob_now}:a:card~Qc", "⚠️ Q♣️ is not in your hand.")
    LOCALES[bob.id] = "ja"
    await refused(bob, f"fdb:{table.id}:{bob_now}:a:card~Qc", "⚠️ Q♣️ は手札にありません。")
    await refused(bob, f"fdb:{table.id}:{bob_now}:a:card~Ah", "（♣ クラブ）の札を持っているので、A♥️ ではなく")
    del LOCALES[bob.id]
    await refused(bob, f"fdb:{table.id}:{bob_now}:a:card~Zz", "not one of this table's")
    await refused(bob, f"fdb:{table.id}:{bob_now}:a:split", "You cannot do that now (the round is at: trick play)")
    await refused(bob, f"fdb:999999:{bob_now}:a:card~Ac", "This table no longer exists.")
    await refused(carol, f"fdb:{table.id}:{engine.decision_id(2)}:a:card~Qc", "It is not your turn.")
    await press(world, bob, "card Ac")
    await press(world, carol, "card Qc")
    # Trick 2: Bob (who won with A♣) leads K♣ and Carol follows; Alice's old 3♦ button is for an earlier decision.
    await press(world, bob, "card Kc")
    await press(world, carol, "card Jc")
    assert engine.to_act() == {0} and FrenchCard.parse("3d") in engine.view(0).hand
    await refused(alice, old_button, "That button was for an earlier decision, so nothing was done.")
    # Her panel as it is now still works.
    assert set(enabled_actions(await open_panel(world, alice))) == {"card 7c"}
    await press(world, alice, "card 7c")
    assert engine.view(0).tricks[1] == 2


# ---------------------------------------------------------------- 5. Mizuten where only two may play


# Alice (SP) and Bob play, Carol is forced out. Clubs are trumps (7♣). No hand scores and Carol holds no Ace.
TWO_DEAL = " ".join(
    [
        "As Ks 2h 6h 3d 8d Ac",  # Alice
        "4s 5s Ah Kh 4d 9d 2c",  # Bob
        "2s 3s 7s 3h 5h Td Qd",  # Carol
        "7c",
    ]
)


async def test_a_member_declares_mizuten_at_a_two_declarer_table_and_it_earns_no_bonus(world: Any) -> None:
    await _set_rules(world, max_declarers=2, rounds=1)
    _stack(world, TWO_DEAL)
    table = await _open_three(world)
    engine = table.engine
    alice, bob, carol = world.alice, world.bob, world.carol
    # The start player is offered Mizuten, and told it cannot pay here.
    panel = await open_panel(world, alice)
    assert set(enabled_actions(panel)) == {"mizuten", "no-mizuten"}
    assert "at this table at most 2 may: here Mizuten can never earn its bonus" in panel.response.content
    await alice.click(panel.response, custom_id=enabled_actions(panel)["mizuten"])
    assert engine.mizuten is True
    assert "**見ず転 Mizuten** declared by alice: they must play this round." in _embed_text(table_message(world))
    # She must play: her panel offers only Play, says why, and a forged Fold is refused.
    panel = await open_panel(world, alice)
    assert set(enabled_actions(panel)) == {"play"}
    assert "your Mizuten cannot earn its bonus: it only binds you to play" in panel.response.content
    before = json.dumps(engine.snapshot())
    answer = await forge_click(world, alice, f"fdb:{table.id}:{engine.decision_id(0)}:a:fold")
    assert answer.ephemeral and "you must play this round" in answer.response.content
    assert json.dumps(engine.snapshot()) == before
    await alice.click(panel.response, custom_id=enabled_actions(panel)["play"])
    await press(world, bob, "play")
    assert engine.forced == [2] and engine.phase == "choose"
    await press(world, alice, "fight")
    await press(world, bob, "fight")
    # Alice takes four tricks: with three declarers that would have earned the Mizuten bonus.
    members = {0: alice, 1: bob, 2: carol}
    for play in ("As 4s", "Ks 5s", "2h Ah", "Kh 6h", "4d 8d", "3d 9d", "2c Ac"):
        for card in play.split():
            await press(world, members[min(engine.to_act())], f"card {card}")
    assert not world.env.bot.tables.tables
    (result,) = await world.env.bot.db.table_history(table.id, limit=10)
    assert result.summary["tricks"][:2] == [4, 3]
    assert result.summary["mizuten"] is True and result.summary["mizuten_paid"] is False
    assert list(result.deltas) == [2, -2, 0], "tricks only: Bob pays 2 × 1; nobody pays a Mizuten bonus"
    (embed,) = _results(world)
    assert "見ず転 Mizuten: alice" in embed["description"] and "paid off" not in embed["description"]
    (chips,) = [f["value"] for f in embed["fields"] if f["name"] == "Chips"]
    assert "Mizuten" not in chips and dict(RESULT_LINE.findall(chips)) == {"alice": "+2", "bob": "-2"}
