"""/balance, /daily, /give and /leaderboard, driven through SimCord as members would."""

from __future__ import annotations

from typing import Any

from tests.bot.cogs.conftest import button_labels, embed_text
from tests.bot.conftest import LOCALES

DAY = 86400


async def test_first_balance_credits_the_starting_chips_once(world: Any) -> None:
    first = await world.alice.slash(world.channel, "balance")
    assert not first.ephemeral
    text = embed_text(first.response)
    assert f"<@{world.alice.id}> has **1,000** chips." in text
    assert "starting balance of 1,000 chips" in text
    assert "Rank: #1 of 1" in text

    again = await world.alice.slash(world.channel, "balance")
    assert "starting balance" not in embed_text(again.response)
    assert "**1,000** chips" in embed_text(again.response)


async def test_looking_up_a_newcomer_does_not_open_their_wallet(world: Any, database: Any) -> None:
    result = await world.alice.slash(world.channel, "balance", member=world.bob)
    assert result.ephemeral
    assert "bob has no chips here yet" in result.response.content
    assert await database.rank(world.guild.id, world.bob.id) is None


async def test_daily_pays_then_waits_out_the_cooldown(world: Any, clock: Any) -> None:
    claimed = await world.alice.slash(world.channel, "daily")
    assert not claimed.ephemeral
    assert "collected the daily **100** chips. Balance: **1,100**" in claimed.response.content

    clock.advance(DAY - 2 * 3600 - 30 * 60)
    early = await world.alice.slash(world.channel, "daily")
    assert early.ephemeral
    assert "not ready yet: come back in 2 hours 30 minutes" in early.response.content

    clock.advance(2 * 3600 + 30 * 60)
    again = await world.alice.slash(world.channel, "daily")
    assert not again.ephemeral
    assert "Balance: **1,200**" in again.response.content


async def test_give_is_off_until_a_moderator_enables_it(world: Any, database: Any) -> None:
    await world.bob.slash(world.channel, "balance")
    refused = await world.alice.slash(world.channel, "give", member=world.bob, amount=50)
    assert refused.ephemeral
    assert "Giving chips between members is turned off" in refused.response.content

    await world.mod.slash(world.channel, "config set", give_enabled=True)
    given = await world.alice.slash(world.channel, "give", member=world.bob, amount=50)
    assert not given.ephemeral
    assert f"<@{world.alice.id}> gave **50** chips to <@{world.bob.id}>" in given.response.content
    assert await database.balance(world.guild.id, world.alice.id) == 950
    assert await database.balance(world.guild.id, world.bob.id) == 1050


async def test_give_refuses_yourself_bots_and_more_than_you_have(world: Any, database: Any) -> None:
    await world.mod.slash(world.channel, "config set", give_enabled=True)
    to_self = await world.alice.slash(world.channel, "give", member=world.alice, amount=1)
    assert to_self.ephemeral
    assert "cannot give chips to yourself" in to_self.response.content

    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    to_bot = await world.alice.slash(world.channel, "give", member=robot, amount=1)
    assert to_bot.ephemeral
    assert "robot is a bot" in to_bot.response.content

    too_much = await world.alice.slash(world.channel, "give", member=world.bob, amount=1001)
    assert too_much.ephemeral
    assert "cannot give 1,001 chips: you have only 1,000" in too_much.response.content
    assert await database.balance(world.guild.id, world.alice.id) == 1000
    assert await database.rank(world.guild.id, robot.id) is None


async def test_leaderboard_orders_by_balance_and_pages_with_buttons(world: Any, database: Any) -> None:
    guild = world.guild.id
    members = [world.guild.add_member(world.env.create_user(f"p{i:02}")) for i in range(12)]
    for i, member in enumerate(members):
        await database.grant(guild, member.id, 10 * (i + 1), actor_id=world.mod.id)  # p11 richest
    await world.alice.slash(world.channel, "balance")  # 1,000: last, below p00 (1,010)

    board = await world.carol.slash(world.channel, "leaderboard")
    assert not board.ephemeral
    text = embed_text(board.response)
    lines = [line for line in text.splitlines() if line.startswith("**")]
    assert lines[0] == f"**1.** <@{members[11].id}> — 1,120 chips"
    assert lines[9] == f"**10.** <@{members[2].id}> — 1,030 chips"
    assert "Page 1 of 2 · 13 members" in text
    assert button_labels(board.response) == [("Previous", True), ("Next", False)]

    page2 = await world.bob.click(board.response, label="Next")
    message = world.channel.history(viewer=world.bob)[-1]
    text2 = embed_text(message)
    assert f"**11.** <@{members[1].id}> — 1,020 chips" in text2
    assert f"**13.** <@{world.alice.id}> — 1,000 chips" in text2
    assert "Page 2 of 2" in text2
    assert not page2.ephemeral

    back = await world.bob.click(message, label="Previous")
    assert back.acknowledged
    assert "Page 1 of 2" in embed_text(world.channel.history(viewer=world.bob)[-1])


async def test_leaderboard_buttons_survive_a_restart(world: Any, database: Any, clock: Any) -> None:
    from tests.bot.conftest import make_bot

    for i in range(11):
        member = world.guild.add_member(world.env.create_user(f"q{i:02}"))
        await database.ensure_member(world.guild.id, member.id)
    board = await world.alice.slash(world.channel, "leaderboard")
    await world.env.restart_bot(make_bot(database, clock))
    await world.alice.click(board.response, label="Next")
    assert "Page 2 of 2" in embed_text(world.channel.history(viewer=world.alice)[-1])


async def test_leaderboard_by_game_is_empty_before_anyone_plays(world: Any) -> None:
    result = await world.alice.slash(world.channel, "leaderboard", game="oicho")
    text = embed_text(result.response)
    assert "net winnings at Oicho-Kabu" in text
    assert "Nobody is on this board yet." in text
    assert button_labels(result.response) == []


async def test_japanese_member_reads_japanese(world: Any, clock: Any) -> None:
    LOCALES[world.alice.id] = "ja"
    first = await world.alice.slash(world.channel, "balance")
    assert "の所持チップ: **1,000**" in embed_text(first.response)
    assert "初期チップ 1,000 を受け取りました" in embed_text(first.response)
    await world.alice.slash(world.channel, "daily")
    clock.advance(DAY - 90 * 60)
    early = await world.alice.slash(world.channel, "daily")
    assert "あと 1時間30分 お待ちください" in early.response.content
    refused = await world.alice.slash(world.channel, "give", member=world.bob, amount=1)
    assert "チップ譲渡は無効です" in refused.response.content
