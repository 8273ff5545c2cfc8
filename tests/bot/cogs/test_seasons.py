"""``/season start|end|show`` and ``/leaderboard … season:`` through SimCord, as moderators and members meet them:
a season started and ended with and without resets (balances back to the starting balance by ledger movements that
keep the ledger whole; ratings afresh, the old kept), its boards while it runs and after, and what is refused."""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from tests.bot.cogs.conftest import allow_command, embed_text
from tests.bot.cogs.test_ratings import figure, one_hand_games, open_luk_fu, rating_fields, tigers_game
from tests.bot.conftest import LOCALES


async def start(world: Any, name: str, **options: Any) -> Any:
    started = await world.mod.slash(world.channel, "season start", name=name, **options)
    assert started.response is not None
    return started


def board_text(result: Any) -> str:
    assert not result.ephemeral and result.response is not None, result
    return embed_text(result.response)


async def test_a_season_runs_its_boards_and_stays_viewable(world: Any, clock: Any) -> None:
    await one_hand_games(world)
    await tigers_game(world, world.bob, world.carol)  # before the season: not in its boards
    started = await start(world, "Spring")
    assert not started.ephemeral
    assert started.response.content == (
        f"🏁 Season **Spring** has begun, started by <@{world.mod.id}>.\nFollow it with `/leaderboard season:Spring`."
    )
    shown = await world.alice.slash(world.channel, "season show")
    assert shown.ephemeral
    text = embed_text(shown.response)
    assert "🗓️ Season Spring" in text
    assert f"Running since <t:{int(clock.now)}:f>, started by <@{world.mod.id}>." in text
    assert "At its start: nothing reset." in text
    assert "0 chip deals settled, 0 rated games, 0 members played." in text

    clock.advance(3600)
    await tigers_game(world, world.carol, world.bob)  # Alice +2, Carol and Bob -1
    chips = board_text(await world.bob.slash(world.channel, "leaderboard", season="Spring"))
    assert "🏆 Leaderboard — chips won · season Spring" in chips
    assert f"**1.** <@{world.alice.id}> — +2 chips over 1 deals" in chips
    first, second = sorted([world.bob.id, world.carol.id])
    assert f"**2.** <@{first}> — -1 chips over 1 deals" in chips and f"**2.** <@{second}> — -1" in chips
    luk_fu = board_text(await world.bob.slash(world.channel, "leaderboard", game="luk_fu", season="spring"))
    assert "chips won at Luk Fu · season Spring" in luk_fu and "+2 chips over 1 deals" in luk_fu
    ofc = board_text(await world.bob.slash(world.channel, "leaderboard", game="ofc", season="Spring"))
    assert "Nobody is on this board yet." in ofc
    # Ratings carry on into a season that does not reset them; its board shows its members as they now stand.
    rated = board_text(await world.bob.slash(world.channel, "leaderboard", game="luk_fu", by="rating", season="Spring"))
    assert "🎯 Leaderboard — rating at Luk Fu · season Spring" in rated
    # (Alice's rating counts her 2 games, still provisional; one of them was in this season.)
    assert f"**1.** <@{world.alice.id}> — " in rated and "games this season: 1 · provisional" in rated

    clock.advance(3600)
    ended = await world.mod.slash(world.channel, "season end")
    assert not ended.ephemeral
    assert ended.response.content.startswith(f"🏆 Season **Spring** is over, ended by <@{world.mod.id}>.\n")
    assert f"Chips won: **1.** <@{world.alice.id}> +2 · **2.** <@{first}> -1 · **2.** <@{second}> -1" in (
        ended.response.content
    )

    # After it: a game no longer counts, and the boards stay as they were.
    await tigers_game(world, world.bob, world.carol)
    assert board_text(await world.bob.slash(world.channel, "leaderboard", season="Spring")) == chips
    again = board_text(await world.bob.slash(world.channel, "leaderboard", game="luk_fu", by="rating", season="Spring"))
    assert again == rated
    past = embed_text((await world.carol.slash(world.channel, "season show", name="spring")).response)
    start_at, end_at = int(clock.now) - 7200, int(clock.now)
    assert (
        f"Ran from <t:{start_at}:f> to <t:{end_at}:f>; started by <@{world.mod.id}>, ended by <@{world.mod.id}>."
        in past
    )
    assert "1 chip deals settled, 1 rated games, 3 members played." in past
    assert f"Chips won: **1.** <@{world.alice.id}> +2" in past
    none = await world.carol.slash(world.channel, "season show")
    assert none.ephemeral and none.response.content == "No season is running.\nPast seasons: **Spring**"

    # The season's name is completed as it is typed.
    await start(world, "Summer")
    offered = await world.alice.autocomplete(world.channel, "leaderboard", "season", "sPR")
    assert [c["value"] for c in offered] == ["Spring"]
    offered = await world.alice.autocomplete(world.channel, "season show", "name", "")
    assert [c["value"] for c in offered] == ["Summer", "Spring"]


async def test_what_seasons_refuse(world: Any) -> None:
    nothing = await world.mod.slash(world.channel, "season end")
    assert nothing.ephemeral and nothing.response.content == "⚠️ No season is running."
    never = await world.alice.slash(world.channel, "season show")
    assert never.ephemeral and "has never run a season" in never.response.content
    await start(world, "Spring")
    second = await world.mod.slash(world.channel, "season start", name="Summer")
    assert second.ephemeral and "Season **Spring** is running: end it with /season end" in second.response.content
    await world.mod.slash(world.channel, "season end")
    taken = await world.mod.slash(world.channel, "season start", name="SPRING")
    assert taken.ephemeral and "already had a season called **SPRING**" in taken.response.content
    blank = await world.mod.slash(world.channel, "season start", name="   ")
    assert blank.ephemeral and "1 to 40 characters" in blank.response.content
    unknown = await world.alice.slash(world.channel, "leaderboard", season="Autumn")
    assert unknown.ephemeral and "no season called **Autumn**" in unknown.response.content
    unknown = await world.alice.slash(world.channel, "season show", name="Autumn")
    assert unknown.ephemeral and "no season called **Autumn**" in unknown.response.content
    LOCALES[world.mod.id] = "ja"
    japanese = await world.mod.slash(world.channel, "season end")
    assert japanese.ephemeral and "開催中のシーズンはありません" in japanese.response.content
    assert [s.name for s in await seasons_of(world)] == ["Spring"]


async def seasons_of(world: Any) -> list[Any]:
    from bot.storage.seasons import SeasonQueries

    return await SeasonQueries(world.env.bot.db).list(world.guild.id)


async def test_members_may_look_but_not_start_or_end_a_season(world: Any) -> None:
    allow_command(world, "season", world.alice)
    for command in ("season start", "season end"):
        options = {"name": "Mine"} if command == "season start" else {}
        refused = await world.alice.slash(world.channel, command, **options)
        assert refused.ephemeral and "Only moderators can do that" in refused.response.content
    assert await seasons_of(world) == []
    await start(world, "Spring")
    refused = await world.alice.slash(world.channel, "season end")
    assert "Only moderators can do that" in refused.response.content
    assert (await seasons_of(world))[0].running
    assert "season show" in world.alice.available_commands(world.channel)


async def test_a_season_that_resets_balances(world: Any, database: Any) -> None:
    guild = world.guild.id
    await world.mod.slash(world.channel, "chips grant", member=world.alice, amount=500, reason="prize")
    await world.mod.slash(world.channel, "chips take", member=world.bob, amount=300, reason="fine")
    await world.carol.slash(world.channel, "balance")  # 1,000: nothing to reset
    # An open chip lobby holds Alice's buy-in: no reset while it is open, and nothing changes.
    await world.alice.slash(world.channel, "play", game="oicho")
    refused = await world.mod.slash(world.channel, "season start", name="Fresh", reset_balances=True)
    assert refused.ephemeral and "Balances cannot be reset while chip tables are open (1)" in refused.response.content
    assert await seasons_of(world) == []
    assert await database.balance(guild, world.alice.id) == 1500 - 100
    await world.alice.slash(world.channel, "table stop")

    started = await start(world, "Fresh", reset_balances=True)
    assert not started.ephemeral
    assert (
        "Every balance is back at 1,000 chips: 2 members reset (300 chips granted, 500 taken), each in the ledger."
        in started.response.content
    )
    for member in (world.alice, world.bob, world.carol):
        assert await database.balance(guild, member.id) == 1000
    notes = await database._all(
        "SELECT reason, note, actor_id FROM movements WHERE idem_key LIKE 'season_reset:%' ORDER BY id"
    )
    assert [tuple(n) for n in notes] == [
        ("take", "season reset: Fresh", world.mod.id),
        ("grant", "season reset: Fresh", world.mod.id),
    ]
    assert await database.verify_ledger(guild) == []
    shown = embed_text((await world.alice.slash(world.channel, "season show")).response)
    assert "At its start: balances reset." in shown


async def test_a_season_that_resets_ratings_keeps_the_old_boards(world: Any) -> None:
    await one_hand_games(world)
    await start(world, "Spring")
    await tigers_game(world, world.bob, world.carol)
    await world.mod.slash(world.channel, "season end")
    spring = board_text(
        await world.bob.slash(world.channel, "leaderboard", game="luk_fu", by="rating", season="Spring")
    )
    LOCALES[world.mod.id] = "ja"
    started = await start(world, "Summer", reset_ratings=True, reset_balances=True)
    assert started.response.content == (
        f"🏁 <@{world.mod.id}> がシーズン「**Summer**」を開始しました。\n"
        "全員の所持チップを 1,000 チップに戻しました：3 人（付与 2、回収 2）、すべて台帳に記録済みです。\n"
        "レーティングは初期値から始まります。以前の値は過去のシーズンのランキングに残ります。\n"
        "`/leaderboard season:Summer` で順位を確認できます。"
    )
    fresh = await world.alice.slash(world.channel, "rating")
    assert fresh.ephemeral and "You have no rating yet" in fresh.response.content
    current = board_text(await world.bob.slash(world.channel, "leaderboard", game="luk_fu", by="rating"))
    assert "Nobody is on this board yet." in current
    assert board_text(
        await world.bob.slash(world.channel, "leaderboard", game="luk_fu", by="rating", season="Spring")
    ) == (spring)
    # A game in the new season rates from the start again.
    table = await open_luk_fu(world, world.bob, world.carol)
    engine = table.engine
    from tests.bot.cogs.test_stats import act

    members = {0: world.alice, 1: world.bob, 2: world.carol}
    while world.env.bot.tables.tables:
        await act(world, members[min(engine.to_act())], "pass")
    model = PlackettLuce()
    tied = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 1, 1])[0][0]
    shown = await rating_fields(world.alice, world)
    assert shown["Luk Fu · provisional"].startswith(f"Rating **{figure(tied.ordinal())}** · rank **1** of 3")
    assert "rated games: 1" in shown["Luk Fu · provisional"]


async def test_season_boards_page_with_buttons_that_survive_a_restart(world: Any, database: Any, clock: Any) -> None:
    from tests.bot.conftest import make_bot
    from tests.bot.storage.test_storage_ratings import finished_table

    await start(world, "Spring")
    members = [world.guild.add_member(world.env.create_user(f"p{i:02}")) for i in range(12)]
    for i in range(0, 12, 2):  # six two-member OFC games: the first of each pair wins 5, 15, … 55 chips
        won = 5 * (i + 1)
        await finished_table(
            database, "ofc", [members[i].id, members[i + 1].id], [100 + won, 100 - won], guild=world.guild.id
        )
    chips = await world.alice.slash(world.channel, "leaderboard", season="Spring")
    ratings = await world.alice.slash(world.channel, "leaderboard", game="ofc", by="rating", season="Spring")
    for board in (chips, ratings):
        assert "Page 1 of 2 · 12 members" in board_text(board)
    ids = [c["custom_id"] for row in ratings.response.components for c in row["components"]]
    assert all(i.startswith(f"fdb:lb:{world.guild.id}:ofc:") and i.endswith(":r:1") for i in ids), ids

    await world.env.restart_bot(make_bot(database, clock))
    await world.bob.click(chips.response, label="Next")
    text = embed_text(shown(world, chips))
    assert "chips won · season Spring" in text and "Page 2 of 2 · 12 members" in text
    assert [line for line in text.splitlines() if line.startswith("**")] == [
        f"**11.** <@{members[9].id}> — -45 chips over 1 deals",
        f"**12.** <@{members[11].id}> — -55 chips over 1 deals",
    ]
    await world.bob.click(ratings.response, label="Next")
    text = embed_text(shown(world, ratings))
    # Every winner has the same rating (one game each from the start), and so has every loser: six share 1st, six
    # share 7th, in order of member id.
    assert "rating at Open-Face Chinese Poker · season Spring" in text and "Page 2 of 2 · 12 members" in text
    losers = sorted(members[i].id for i in range(1, 12, 2))
    assert [line.split(" — ")[0] for line in text.splitlines() if line.startswith("**")] == [
        f"**7.** <@{user}>" for user in losers[4:]
    ]


def shown(world: Any, result: Any) -> Any:
    """The message a command posted, as it reads now (after its buttons edited it)."""
    return next(m for m in world.channel.history(viewer=world.bob) if m.id == result.response.id)
