"""``/stats`` through SimCord, as members meet it.

A short scripted game of each game (stacked decks, moves pressed on the panels, the table stopped after the deals
that matter) is checked against figures worked out by hand from the rules; a random full game of each game against
the facts recomputed from each deal's record (``db.full_record`` replayed by :func:`games.replay.replay`, not the
stored summaries), with the players' counters against the same history. Then the answers around it: no deals, bots,
a game filter, Japanese, practice deals, sharing.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from bot.storage.stats import game_stats
from bot.ui import adapters
from games.core.engine import DealResult
from games.core.record import TableRecord
from games.core.rng import Shuffle, Shuffler
from games.replay import replay
from tests.bot.cogs.conftest import embed_text
from tests.bot.conftest import LOCALES
from tests.bot.tables.any_game import play_any_game
from tests.bot.tables.driver import buttons, enabled_actions, forge_click, live_table, open_panel, press

# ---------------------------------------------------------------------------- reading what a member sees


async def ask(member: Any, world: Any, whose: Any | None = None, game: str | None = None) -> Any:
    options: dict[str, Any] = {}
    if whose is not None:
        options["member"] = whose
    if game is not None:
        options["game"] = game
    return await member.slash(world.channel, "stats", **options)


async def figures(member: Any, world: Any, whose: Any | None = None, game: str | None = None) -> dict[str, str]:
    """The answer's embed as ``{"title", "overall", "footer", <game name>: field text}``; it must be private."""
    answer = await ask(member, world, whose, game)
    assert answer.ephemeral and answer.response is not None, answer
    [embed] = [e.to_dict() for e in answer.response.embeds]
    shown = {"title": embed["title"], "overall": embed["description"], "footer": embed["footer"]["text"]}
    shown.update({f["name"]: f["value"] for f in embed.get("fields", [])})
    return shown


def stack(world: Any, *orders: str) -> None:
    """The next table's shuffles: these orders first, then fixed seeds."""
    world.env.bot.tables.new_shuffler = lambda: Shuffler(
        planned=[Shuffle(order=o) for o in orders], seed_source=lambda: "ab" * 32
    )


async def open_table(world: Any, game: str, *members: Any) -> Any:
    """Alice opens a chip table of ``game``; ``members`` join; she starts it."""
    await world.alice.slash(world.channel, "play", game=game)
    lobby = world.channel.last_message
    for member in members:
        await member.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    return live_table(world)


async def stop(world: Any) -> None:
    """The host stops the table between deals: every settled deal stands, the one just dealt has no move."""
    await world.alice.slash(world.channel, "table stop")
    assert not world.env.bot.tables.tables


async def act(world: Any, member: Any, action: str) -> None:
    """Press the button of one move on the member's panel; an Oicho-Kabu bet picks its pile in the menu first."""
    verb, *args = action.split()
    if verb != "bet" or args[0] == "1":
        pressed = await press(world, member, action)
        assert pressed.response is not None, pressed
        return
    panel = await open_panel(world, member)
    piles = next(
        c["custom_id"]
        for row in panel.response.components
        for c in row["components"]
        if ":s:rng:bet" in c.get("custom_id", "")
    )
    panel = await member.select(panel.response, [args[0]], custom_id=piles)
    await member.click(panel.response, custom_id=enabled_actions(panel)[action])


# ---------------------------------------------------------------------------- scripted games, figures by hand


async def test_a_scripted_oicho_kabu_game(world: Any) -> None:
    # Bob draws the lowest month and deals. Round 1: piles 9 2 5 3, Bob's card 9; first extras 9 7 1 4, then 1 for
    # Bob: Kuppin (九一). Alice backs piles 1 (9-9: 8) and 3 (5-1: 6) with 5 and 10: both lose, Bob +15.
    # Round 2 (Bob keeps the bank): piles 1 2 3 4, Bob's 5; first extras 6 7 8 9, then 3 for Bob (8). Alice backs
    # pile 2 (2-7: Kabu, 9) with 10 and wins: Bob -10.
    stack(world, "5 1", "9 2 5 3 9 9 7 1 4 1", "1 2 3 4 5 6 7 8 9 3")
    table = await open_table(world, "oicho", world.bob)
    assert table.engine is not None and table.engine.public_view().dealer == 1
    for action in ("bet 1 5", "bet 3 10", "done", "stand"):
        await act(world, world.alice, action)
    await act(world, world.bob, "stand")
    await act(world, world.bob, "continue")
    for action in ("bet 2 10", "done"):
        await act(world, world.alice, action)
    await act(world, world.bob, "stand")
    assert len(await world.env.bot.db.table_history(table.id)) == 2
    await stop(world)

    bob = await figures(world.bob, world)
    assert bob["overall"] == "Deals played: **2** · won: **1** (50%) · net: **+5** chips"
    assert bob["Oicho-Kabu"] == (
        "Deals: 2 · won: 1 (50%) · net: +5 chips\n"
        "· Rounds as dealer (親): **2**, net **+5** chips\n"
        "· Piles bet on as a child (子): **0**, of which **0** beat the dealer (–)\n"
        "· Hands, yours as dealer and those of the piles you bet on: Kuppin ×1"
    )
    alice = await figures(world.alice, world)
    assert alice["overall"] == "Deals played: **2** · won: **1** (50%) · net: **-5** chips"
    assert alice["Oicho-Kabu"].splitlines()[1:] == [
        "· Rounds as dealer (親): **0**, net **+0** chips",
        "· Piles bet on as a child (子): **3**, of which **1** beat the dealer (33%)",
        "· Hands, yours as dealer and those of the piles you bet on: Kabu (9) ×1",
    ]


async def test_a_scripted_ofc_hand(world: Any) -> None:
    from tests.bot.tables.test_ofc_table import ALICE_STREETS, dealer_draw, place_street, turbo_deck

    # Alice: QQ in front (royalty 7), three kings in the middle (2), four aces behind (10): 19 royalties, and
    # Fantasyland. Bob: jacks in front over nothing: a foul. Alice wins 3 rows + the scoop bonus 3 + her 19 = 25.
    bob_streets = [
        {"Js": "f", "Jh": "f", "2h": "m", "3h": "m", "2d": "b"},
        {"8c": "f", "6d": "m", "9s": "m", "3s": "b"},
        {"Tc": "m", "7h": "b", "8d": "b", "9c": "b"},
    ]
    alice_cards = [card for street in ALICE_STREETS for card in street]
    bob_cards = [card for street in bob_streets for card in street]
    stack(world, dealer_draw(1), turbo_deck({0: alice_cards, 1: bob_cards}, 2))
    table = await open_table(world, "ofc", world.bob)
    for mine, his in zip(ALICE_STREETS, bob_streets, strict=True):
        await place_street(world, world.alice, mine)
        await place_street(world, world.bob, his)
    [hand] = await world.env.bot.db.table_history(table.id)
    assert hand.deltas == (25, -25)
    await stop(world)

    alice = await figures(world.alice, world)
    assert alice["Open-Face Chinese Poker"] == (
        "Deals: 1 · won: 1 (100%) · net: +25 chips\n"
        "· Fouls: **0%** of hands (0 of 1)\n"
        "· Royalties: **19** in all, **19.00** per hand\n"
        "· Scoops: **1**\n"
        "· Fantasyland: entered **1**, hands played in it **0**, stayed **0** (–)"
    )
    bob = await figures(world.bob, world)
    assert bob["Open-Face Chinese Poker"].splitlines()[:4] == [
        "Deals: 1 · won: 0 (0%) · net: -25 chips",
        "· Fouls: **100%** of hands (1 of 1)",
        "· Royalties: **0** in all, **0.00** per hand",
        "· Scoops: **0**",
    ]


async def test_a_scripted_luk_fu_game(world: Any) -> None:
    from tests.games.luk_fu.lukfu_kit import deal_order, draw_for

    # Alice deals and is the parent. Hand 1: she holds Five Tigers (the four 1s and Li Tyen), says Play and reveals
    # them at her first lead: the hand ends, credited 6 tricks, and each loser pays her the share, 6 - 5 = 1.
    # Hand 2 (the winner deals again): everyone passes, nobody wins.
    tigers = "1C 1S 1M 1T LT 9T 8T 7T 6T 5T 4T 3T"
    stack(world, draw_for(0), deal_order({0: tigers}))
    table = await open_table(world, "luk_fu", world.bob, world.carol)
    members = {0: world.alice, 1: world.bob, 2: world.carol}
    from tests.bot.tables.test_every_game import choose

    await act(world, world.alice, "play")
    # The first lead: the menu of kinds opens Five Tigers, and its one choice reveals them.
    shown = await choose(world.alice, await open_panel(world, world.alice), "lead", "▶ Five Tigers")
    await choose(world.alice, shown, "lead", "Reveal Five Tigers")
    engine = table.engine
    assert engine is not None
    while len(await world.env.bot.db.table_history(table.id)) < 2:
        await act(world, members[min(engine.to_act())], "pass")
    await stop(world)

    alice = await figures(world.alice, world, game="luk_fu")
    assert alice["title"] == "📊 Statistics of alice · Luk Fu"
    assert alice["overall"] == "Deals played: **2** · won: **1** (50%) · net: **+2** chips"
    assert alice["Luk Fu"] == (
        "Deals: 2 · won: 1 (50%) · net: +2 chips\n"
        "· Declarer (宣言者) success: **100%** (1 of 1)\n"
        "· Five Tigers (五虎) revealed: **1**\n"
        "· Tricks: **6**, **3.00** per hand played"
    )
    carol = await figures(world.carol, world, whose=world.carol)
    assert carol["Luk Fu"].splitlines() == [
        "Deals: 2 · won: 0 (0%) · net: -1 chips",
        "· Declarer (宣言者) success: **–** (0 of 0)",
        "· Five Tigers (五虎) revealed: **0**",
        "· Tricks: **0**, **0.00** per hand played",
    ]


async def test_a_scripted_hachi_hachi_game(world: Any) -> None:
    from tests.games.hachi_hachi.hachi_kit import round_order

    # Alice draws A♠ and starts. Round 1 (7♣ turned: a plain field, ×1): she declares Mizuten and must play; Bob
    # folds (fee 2), Carol folds (fee 3): Alice alone takes the pot, 5. Round 2 (8♣): Alice and Bob play, Carol folds
    # (2); both choose split: 1 each.
    stacks = [50, 50, 50]
    stack(world, "As", round_order({}, sp=0, stacks=stacks), round_order({}, sp=0, stacks=stacks, indicator="8c"))
    table = await open_table(world, "hachi_hachi", world.bob, world.carol)
    for member, action in (
        (world.alice, "mizuten"),
        (world.alice, "play"),
        (world.bob, "fold"),
        (world.carol, "fold"),
        (world.alice, "no-mizuten"),
        (world.alice, "play"),
        (world.bob, "play"),
        (world.carol, "fold"),
        (world.alice, "split"),
        (world.bob, "split"),
    ):
        await act(world, member, action)
    assert [h.deltas for h in reversed(await world.env.bot.db.table_history(table.id))] == [(5, -2, -3), (1, 1, -2)]
    await stop(world)

    alice = await figures(world.alice, world)
    assert alice["Hachi-Hachi Trick"] == (
        "Deals: 2 · won: 2 (100%) · net: +6 chips\n"
        "· Played (出る): **100%** of rounds dealt in (2 of 2) · folded (降りる): 0 · forced out (降ろされ): 0\n"
        "· Pots taken: **2** · tricks taken: **0**\n"
        "· Hand combinations made (shown at the settlement): none yet\n"
        "· Mizuten (見ず転): declared **1**, bonus paid **0**, net **+5** chips"
    )
    bob = await figures(world.bob, world)
    assert bob["Hachi-Hachi Trick"].splitlines()[:3] == [
        "Deals: 2 · won: 1 (50%) · net: -1 chips",
        "· Played (出る): **50%** of rounds dealt in (1 of 2) · folded (降りる): 1 · forced out (降ろされ): 0",
        "· Pots taken: **1** · tricks taken: **0**",
    ]
    carol = await figures(world.carol, world)
    assert carol["overall"] == "Deals played: **2** · won: **0** (0%) · net: **-5** chips"
    assert "Mizuten" not in carol["Hachi-Hachi Trick"]


# ---------------------------------------------------------------------------- stored facts against the records


async def stored_facts(db: Any, table_id: int) -> Counter[tuple[int, int, str]]:
    rows = await db._all(
        "SELECT h.deal_no, f.user_id, f.fact, f.value FROM deal_facts f JOIN hand_history h ON h.id = f.hand_id"
        " WHERE h.table_id = ?",
        (table_id,),
    )
    return Counter({(r["deal_no"], r["user_id"], r["fact"]): r["value"] for r in rows})


def facts_from_the_record(record: TableRecord, stake: int, members: dict[int, int]) -> Counter[tuple[int, int, str]]:
    """Every deal's facts for the member seats ``{position: user}``, from the record replayed afresh."""
    engine = replay(record, open_end=True)
    stats = game_stats(record.game)
    assert stats is not None
    found: Counter[tuple[int, int, str]] = Counter()
    for result in engine.results:
        chips = DealResult(result.deal, tuple(d * stake for d in result.deltas), result.detail, result.pot * stake)
        for seat, user in members.items():
            delta = chips.deltas[seat]
            found[(result.deal, user, "deals")] = 1
            if delta:
                found[(result.deal, user, "won" if delta > 0 else "lost")] = delta
            for fact, value in stats.facts(chips, seat).items():
                found[(result.deal, user, fact)] = value
    return found


@pytest.mark.parametrize("game_id", sorted(adapters()))
async def test_stored_facts_are_the_records_and_the_counters_agree(world: Any, game_id: str) -> None:
    members = (world.alice, world.bob)
    table = await play_any_game(world, game_id, random.Random(f"stats:{game_id}"), members=members, bots=1)
    db = world.env.bot.db
    text = await db.full_record(table.id)
    assert text is not None
    seated = {table.seat_of(m.id): m.id for m in members}
    expected = facts_from_the_record(TableRecord.loads(text), table.stake, seated)
    stored = await stored_facts(db, table.id)
    assert stored == expected
    assert sum(1 for (_, _, fact) in stored if fact not in ("deals", "won", "lost")) > 0, "the game gave facts"
    # The players' counters (the leaderboard's) against the same history, and /stats says the same.
    for member in members:
        [counter] = await db._all(
            "SELECT net, deals_played FROM player_stats WHERE guild_id = ? AND user_id = ? AND game = ?",
            (world.guild.id, member.id, game_id),
        )
        deals = sum(1 for (_, user, fact) in stored if user == member.id and fact == "deals")
        net = sum(v for (_, user, fact), v in stored.items() if user == member.id and fact in ("won", "lost"))
        assert (counter["net"], counter["deals_played"]) == (net, deals)
        shown = await figures(member, world)
        assert f"Deals played: **{deals}**" in shown["overall"] and f"net: **{net:+,}** chips" in shown["overall"]


# ---------------------------------------------------------------------------- the answers around it


async def test_no_deals_bots_and_another_members_figures(world: Any) -> None:
    mine = await ask(world.carol, world)
    assert mine.ephemeral and "You have no settled chip deals in this server yet" in mine.response.content
    other = await ask(world.carol, world, whose=world.bob)
    assert other.ephemeral and "bob has no settled chip deals" in other.response.content
    game = await ask(world.carol, world, game="ofc")
    assert game.ephemeral and "no settled chip deals of Open-Face Chinese Poker" in game.response.content
    bot_user = world.guild.add_member(world.env.create_user("dealerbot", bot=True))
    refused = await ask(world.carol, world, whose=bot_user)
    assert refused.ephemeral and "Bots keep no statistics" in refused.response.content
    # A member who has played: anyone may look (the figures are public), privately, without a Share button.
    await play_any_game(world, "oicho", random.Random("stats:other"), members=(world.alice, world.bob), bots=1)
    answer = await ask(world.carol, world, whose=world.alice)
    assert answer.ephemeral and "Statistics of alice" in embed_text(answer.response)
    assert buttons(answer.response) == []
    assert not (await ask(world.carol, world)).response.embeds


async def test_a_game_filter_and_japanese(world: Any) -> None:
    members = (world.alice, world.bob)
    await play_any_game(world, "luk_fu", random.Random("stats:filter:1"), members=members, bots=1)
    await play_any_game(world, "ofc", random.Random("stats:filter:2"), members=members, bots=1)
    both = await figures(world.alice, world)
    assert {"Luk Fu", "Open-Face Chinese Poker"} <= set(both) and "Oicho-Kabu" not in both
    only = await figures(world.alice, world, game="ofc")
    assert (
        "Open-Face Chinese Poker" in only
        and "Luk Fu" not in only
        and only["title"].endswith("· Open-Face Chinese Poker")
    )
    # The overall line of one game is that game's own line of the whole answer.
    deals, won, rate, net = re.fullmatch(
        r"Deals: (\d+) · won: (\d+) \((.+)\) · net: (\S+) chips", both["Open-Face Chinese Poker"].splitlines()[0]
    ).groups()
    assert only["overall"] == f"Deals played: **{deals}** · won: **{won}** ({rate}) · net: **{net}** chips"
    assert only["Open-Face Chinese Poker"] == both["Open-Face Chinese Poker"]
    LOCALES[world.alice.id] = "ja"
    ja = await figures(world.alice, world)
    assert ja["title"] == "📊 alice の成績" and ja["overall"].startswith("局数: **")
    assert (
        "バースト" in ja["オープンフェイス・チャイニーズポーカー"]
        and "宣言者として" in ja["六虎（ルクフ）"]
        and "練習卓" in ja["footer"]
    )
    refused = await ask(world.alice, world, whose=world.carol)
    assert "carol さんがこのサーバーで決着したチップの局はまだありません" in refused.response.content


async def test_practice_deals_are_in_history_but_not_in_stats(world: Any) -> None:
    # The bot draws the lowest month and deals; Alice backs pile 1 (2-3: 5) and stands on it.
    stack(world, "5 1", "2 2 9 9 8 3 3 1 1 4 4 6 6 6")
    await world.alice.slash(world.channel, "play", game="oicho", practice=True)
    lobby = world.channel.last_message
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    assert table.practice and table.engine is not None and table.engine.public_view().dealer == 1
    engine = table.engine
    for action in ("bet 1 5", "done"):
        await act(world, world.alice, action)
    while engine.phase == "deciding":  # she decides every pile that may draw, backed or not
        await act(world, world.alice, "stand")
    await world.env.settle()  # the bot dealer's move
    assert len(await world.env.bot.db.table_history(table.id)) == 1
    listed = await world.alice.slash(world.channel, "history")
    assert listed.ephemeral and f"#{table.id}, deal 1" in embed_text(listed.response)
    refused = await ask(world.alice, world)
    assert refused.ephemeral and "You have no settled chip deals" in refused.response.content
    assert await world.env.bot.db._scalar("SELECT count(*) FROM deal_facts") == 0


async def test_sharing_ones_own_figures(world: Any) -> None:
    await play_any_game(world, "hachi_hachi", random.Random("stats:share"), members=(world.alice, world.bob), bots=1)
    answer = await ask(world.alice, world)
    [share] = buttons(answer.response)
    assert share["label"] == "Share in channel"
    shared = await world.alice.click(answer.response, custom_id=share["custom_id"])
    assert shared.response is not None and not shared.ephemeral
    posted = world.channel.last_message
    assert posted.content == f"📊 <@{world.alice.id}> shared their statistics:"
    assert posted.embeds[0].title == "📊 Statistics of alice" and buttons(posted) == []
    assert posted.embeds[0].description == answer.response.embeds[0].description
    # Bob presses a copy of Alice's button, or asks to share Alice's figures as his: refused, privately.
    forged = await forge_click(world, world.bob, share["custom_id"])
    assert forged.ephemeral and "Only the member who asked" in forged.response.content
    own_id = share["custom_id"].replace(f":{world.alice.id}:{world.alice.id}:", f":{world.bob.id}:{world.alice.id}:")
    forged = await forge_click(world, world.bob, own_id)
    assert forged.ephemeral and "only your own" in forged.response.content
    # The real button, pressed on a public copy of it: refused.
    forged = await forge_click(world, world.alice, share["custom_id"])
    assert forged.ephemeral and "only works on your own private" in forged.response.content
    garbage = await forge_click(world, world.alice, "fdb:stats:x")
    assert garbage.ephemeral and "not one of the statistics'" in garbage.response.content


async def test_figures_of_deals_settled_before_they_were_kept_are_derived_after_a_restart(
    world: Any, database: Any, clock: Any
) -> None:
    from bot.storage.stats import StatsQueries
    from tests.bot.conftest import make_bot

    await play_any_game(world, "ofc", random.Random("stats:older"), members=(world.alice, world.bob), bots=1)
    whole = await figures(world.alice, world)
    # The deals as migration 0008 leaves the deals settled before it: base facts only, waiting for the data step.
    hands = [h["hand_id"] for h in await database._all("SELECT DISTINCT hand_id FROM deal_facts")]
    async with database._write():
        await database._exec("DELETE FROM deal_facts WHERE fact NOT IN ('deals', 'won', 'lost')")
        await database._exec("UPDATE deal_facts SET value = 0 WHERE fact = 'deals'")
        for hand in hands:
            await database._exec("INSERT INTO deal_facts_pending (hand_id) VALUES (?)", (hand,))
    waiting = await figures(world.alice, world)
    assert waiting["overall"] == whole["overall"], "deals, wins and net never wait"
    assert f"count 0 of these {len(hands)} deals" in waiting["Open-Face Chinese Poker"]
    # At start the bot derives them from the stored summaries, in the background.
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    assert await StatsQueries(database).pending() == 0
    assert await figures(world.alice, world) == whole
