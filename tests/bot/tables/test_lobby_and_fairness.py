"""Lobby money flows, languages, message reposting and the /verify fairness check."""

from __future__ import annotations

from typing import Any

from games.core.cards import kabu_deck
from games.core.rng import commitment, seeded_shuffle
from tests.bot.conftest import LOCALES
from tests.bot.tables.driver import live_table, open_panel, play_one_turn, table_message, whose_turn


async def test_lobby_join_leave_cancel_refund_exactly(world: Any) -> None:
    db = world.env.bot.db
    gid = world.guild.id
    await world.alice.slash(world.channel, "play", game="oicho", buy_in=300, stake=3)
    lobby = world.channel.last_message
    await world.bob.click(lobby, label="Join")
    assert await db.balance(gid, world.bob.id) == 700
    again = await world.bob.click(lobby, label="Join")
    assert again.ephemeral
    assert "already seated" in again.response.content
    await world.bob.click(lobby, label="Leave")
    assert await db.balance(gid, world.bob.id) == 1000
    refused = await world.bob.click(lobby, label="Start")
    assert "host" in refused.response.content
    too_few = await world.alice.click(lobby, label="Start")
    assert "At least 2" in too_few.response.content
    await world.carol.click(lobby, label="Join")
    await world.alice.click(lobby, label="Cancel")
    assert await db.balance(gid, world.alice.id) == 1000
    assert await db.balance(gid, world.carol.id) == 1000
    assert "cancelled" in world.channel.last_message.embeds[0].description
    assert await db.verify_ledger(gid) == []


async def test_buy_in_must_suit_the_stake_and_the_wallet(world: Any) -> None:
    odd = await world.alice.slash(world.channel, "play", game="oicho", buy_in=100, stake=3)
    assert odd.ephemeral
    assert "multiple of the stake" in odd.response.content
    poor = await world.alice.slash(world.channel, "play", game="oicho", buy_in=5000)
    assert world.env.bot.tables.tables == {}  # the host could not pay: no table is left behind
    # The refusal, and the balance it names, are private: nothing reached the channel.
    assert poor.ephemeral and "Not enough chips" in (poor.response or poor.followups[0]).content
    assert world.channel.last_message is None
    busy = await world.alice.slash(world.channel, "play", game="oicho")
    assert busy.acknowledged
    second = await world.bob.slash(world.channel, "play", game="oicho")
    assert second.ephemeral
    assert "already has an active table" in (second.response or second.followups[0]).content


async def test_a_bot_makes_a_practice_table_unless_the_guild_allows_chips(world: Any) -> None:
    db = world.env.bot.db
    gid = world.guild.id
    await world.alice.slash(world.channel, "play", game="oicho")
    lobby = world.channel.last_message
    await world.bob.click(lobby, label="Join")
    assert await db.balance(gid, world.bob.id) == 900
    await world.alice.click(lobby, label="Add bot")
    # Every buy-in went back; the lobby now says no chips are at stake.
    assert await db.balance(gid, world.alice.id) == 1000
    assert await db.balance(gid, world.bob.id) == 1000
    assert "Practice table" in str(world.channel.last_message.embeds[0].to_dict())
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    assert table.practice
    assert [s.bot for s in table.seats] == [False, False, True]
    await world.alice.slash(world.channel, "table stop")
    assert await db.balance(gid, world.alice.id) == 1000
    assert await db.verify_ledger(gid) == []


async def test_bots_play_for_chips_from_the_house_when_allowed(world: Any) -> None:
    db = world.env.bot.db
    gid = world.guild.id
    await db.set_config(gid, actor_id=world.mod.id, bots_play_for_chips=True)
    await world.alice.slash(world.channel, "play", game="oicho")
    lobby = world.channel.last_message
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(lobby, label="Start")
    assert not live_table(world).practice
    assert await db.house_balance(gid) == -100  # the house funded the bot's stack
    assert await db.balance(gid, world.alice.id) == 900


async def test_idle_lobby_expires_with_refunds(world: Any) -> None:
    await world.alice.slash(world.channel, "play", game="oicho")
    await world.bob.click(world.channel.last_message, label="Join")
    await world.env.advance_time(901)
    assert world.env.bot.tables.tables == {}
    assert await world.env.bot.db.balance(world.guild.id, world.bob.id) == 1000
    assert "expired" in world.channel.last_message.embeds[0].description


async def test_japanese_user_gets_a_japanese_panel(world: Any) -> None:
    await world.alice.slash(world.channel, "play", game="oicho")
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    LOCALES[world.bob.id] = "ja"
    panel = await open_panel(world, world.bob)
    assert "第1局" in panel.response.content
    LOCALES[world.alice.id] = "en-US"
    english = await open_panel(world, world.alice)
    assert "Round 1" in english.response.content


async def test_an_hour_old_table_message_is_posted_again(world: Any, clock: Any) -> None:
    await world.alice.slash(world.channel, "play", game="oicho")
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    first = table.message_id
    clock.advance(3601)
    engine = table.engine
    assert engine is not None
    _seat, member = whose_turn(world)
    await play_one_turn(world, member)
    assert table.message_id != first
    assert all(m.id != first for m in world.channel.history())
    assert table_message(world).attachments


async def test_verify_reveals_a_seed_that_reproduces_the_deal(world: Any) -> None:
    await world.alice.slash(world.channel, "play", game="oicho", practice=True)
    await world.alice.click(world.channel.last_message, label="Add bot")
    await world.alice.click(world.channel.last_message, label="Start")
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    early = await world.alice.slash(world.channel, "verify", table_id=table.id, deal=1)
    assert "has not finished" in early.response.content
    members = {world.alice.id: world.alice}
    db = world.env.bot.db
    first_deal = [s["seed"] for s in await db.deal_shuffles(table.id, 1) if s["purpose"] == "deal"]
    while not await db.deal_settled(table.id, 1):
        await play_one_turn(world, members[table.seats[min(engine.to_act())].user_id])
    result = await world.alice.slash(world.channel, "verify", table_id=table.id, deal=1)
    text = result.response.content
    assert result.ephemeral
    seed = first_deal[0]
    assert seed is not None
    assert seed in text
    assert commitment(seed) in text
    order = " ".join(c.notation for c in seeded_shuffle(kabu_deck(10), seed))
    assert order[:100] in text
    # The results message revealed the same seed publicly.
    assert any(seed in str(e.to_dict()) for m in world.channel.history() for e in m.embeds)


async def test_a_japanese_table_keeps_its_language_after_a_restart(world: Any, database: Any, clock: Any) -> None:
    from tests.bot.conftest import make_bot

    LOCALES[world.alice.id] = "ja"  # the interaction carries a Japanese guild locale too
    await world.alice.slash(world.channel, "play", game="oicho")
    await world.bob.click(world.channel.last_message, label="参加")
    await world.alice.click(world.channel.last_message, label="開始")
    assert live_table(world).lang == "ja"
    await world.env.restart_bot(make_bot(database, clock))
    restored = live_table(world)
    assert restored.lang == "ja"
    _seat, member = whose_turn(world)
    await play_one_turn(world, member)
    assert "おいちょかぶ" in table_message(world).embeds[0].title


async def test_the_table_commits_to_every_shuffle_of_the_deal_in_full(world: Any) -> None:
    await world.alice.slash(world.channel, "play", game="oicho")
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    engine = live_table(world).engine
    assert engine is not None
    footer = table_message(world).embeds[0].footer.text
    deal_one = [s for s in engine.shuffler.used if s.deal == 1]
    assert {s.purpose for s in deal_one} >= {"draw_dealer", "deal"}
    for shuffle in deal_one:
        assert shuffle.seed is not None
        assert commitment(shuffle.seed) in footer  # the whole hash, before anyone acts
        assert shuffle.seed not in footer


async def test_the_lobby_lists_the_house_rules_that_differ_from_the_defaults(world: Any) -> None:
    await world.alice.slash(world.channel, "play", game="oicho")
    assert "Standard rules" in str(world.channel.last_message.embeds[0].to_dict())
    await world.alice.click(world.channel.last_message, label="Cancel")
    await world.env.bot.db.set_house_rule(
        world.guild.id,
        "oicho",
        {"dealer_rounds": 1, "bank_cap": 80},
        actor_id=world.mod.id,
        path="bank_cap",
        old_value=50,
        new_value=80,
    )
    await world.alice.slash(world.channel, "play", game="oicho")
    rules_field = next(f for f in world.channel.last_message.embeds[0].fields if f.name == "House rules")
    assert rules_field.value.splitlines() == ["`bank_cap` = `80`", "`dealer_rounds` = `1`"]
