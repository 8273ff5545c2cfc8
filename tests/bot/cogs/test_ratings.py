"""``/rating``, ``/leaderboard … by:rating`` and ``/ratings rebuild`` through SimCord, as members and moderators meet
them: a Luk Fu game of one hand (a moderator's house rule) played to its end on the panels, rated as openskill rates
its final standings (computed here with openskill itself); what is not rated; the runtime's closing and a restart
never losing or doubling a rating; the rebuild and who may run it."""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from bot.storage import ratings as ratings_module
from bot.storage.ratings import RatingQueries
from tests.bot.cogs.conftest import allow_command, embed_text
from tests.bot.cogs.test_stats import act, stack
from tests.bot.conftest import LOCALES, make_bot
from tests.bot.tables.driver import live_table, open_panel
from tests.bot.tables.test_every_game import choose
from tests.games.luk_fu.lukfu_kit import deal_order, draw_for

TIGERS = "1C 1S 1M 1T LT 9T 8T 7T 6T 5T 4T 3T"


async def one_hand_games(world: Any) -> None:
    """A moderator makes a Luk Fu game one hand long."""
    changed = await world.mod.slash(world.channel, "rules set", game="luk_fu", option="hands_total", value="1")
    assert changed.response is not None and not changed.ephemeral, changed


async def open_luk_fu(world: Any, *others: Any, bots: int = 0, practice: bool = False) -> Any:
    """Alice opens a Luk Fu table (chips unless ``practice``), ``others`` join, bots fill in, she starts it; she
    deals and is the parent, holding Five Tigers."""
    stack(world, draw_for(0), deal_order({0: TIGERS}))
    options: dict[str, Any] = {"practice": True} if practice else {}
    await world.alice.slash(world.channel, "play", game="luk_fu", **options)
    lobby = world.channel.last_message
    for member in others:
        await member.click(lobby, label="Join")
    for _ in range(bots):
        await world.alice.click(lobby, label="Add bot")
    await world.alice.click(lobby, label="Start")
    return live_table(world)


async def reveal_tigers(world: Any) -> None:
    """Alice says Play and reveals Five Tigers at her first lead: the hand, and the one-hand game, are hers."""
    await act(world, world.alice, "play")
    shown = await choose(world.alice, await open_panel(world, world.alice), "lead", "▶ Five Tigers")
    await choose(world.alice, shown, "lead", "Reveal Five Tigers")


async def tigers_game(world: Any, *others: Any, bots: int = 0) -> Any:
    table = await open_luk_fu(world, *others, bots=bots)
    await reveal_tigers(world)
    assert not world.env.bot.tables.tables, "the game ended"
    return table


def openskill(ranks: list[int]) -> list[Any]:
    model = PlackettLuce()
    return [team[0] for team in model.rate([[model.rating()] for _ in ranks], ranks=ranks)]


async def rating_fields(asker: Any, world: Any, **options: Any) -> dict[str, str]:
    """``/rating``'s answer, which must be private: its title and each field (name: value), and its footer."""
    answer = await asker.slash(world.channel, "rating", **options)
    assert answer.ephemeral and answer.response is not None, answer
    [embed] = [e.to_dict() for e in answer.response.embeds]
    shown = {"title": embed["title"], "footer": embed["footer"]["text"]}
    shown.update({f["name"]: f["value"] for f in embed.get("fields", [])})
    return shown


def figure(value: float) -> str:
    return f"{value:.1f}"


# ---------------------------------------------------------------------------------------------------- rated and shown


async def test_a_finished_game_is_rated_as_openskill_rates_it_and_shown(world: Any) -> None:
    await one_hand_games(world)
    table = await tigers_game(world, world.bob, world.carol)
    # Alice won 2 chips, Bob and Carol lost 1 each: places 1, 2, 2.
    alice, bob, carol = openskill([1, 2, 2])
    assert bob.mu == carol.mu and alice.ordinal() > bob.ordinal()

    shown = await rating_fields(world.alice, world)
    assert shown["title"] == "🎯 Rating of alice"
    assert shown["Luk Fu · provisional"] == (
        f"Rating **{figure(alice.ordinal())}** · rank **1** of 3\n"
        f"μ {alice.mu:.2f} · σ {alice.sigma:.2f} · rated games: 1\n"
        "Provisional until 10 rated games (9 to go)."
    )
    assert "μ − 3σ" in shown["footer"] and "bots are not rated" in shown["footer"]
    assert set(shown) == {"title", "footer", "Luk Fu · provisional"}  # no other game has a rating

    # Anyone's rating may be looked up, in one game; Bob and Carol tie for second.
    carols = await rating_fields(world.bob, world, member=world.carol, game="luk_fu")
    assert carols["title"] == "🎯 Rating of carol · Luk Fu"
    assert carols["Luk Fu · provisional"].startswith(f"Rating **{figure(carol.ordinal())}** · rank **2** of 3\n")

    # In Japanese.
    LOCALES[world.bob.id] = "ja"
    mine = await rating_fields(world.bob, world)
    assert mine["title"] == "🎯 bob のレーティング"
    assert mine["六虎（ルクフ） · 暫定"] == (
        f"レーティング **{figure(bob.ordinal())}** · 3 人中 **2** 位\n"
        f"μ {bob.mu:.2f} · σ {bob.sigma:.2f} · 対局数 1\n"
        "対局数が 10 に達するまで暫定です（あと 9 局）。"
    )
    stored = await RatingQueries(world.env.bot.db).rated_game(f"table:{table.id}")
    assert stored is not None and stored.places == (1, 2, 2)

    # The board, for everyone to see.
    board = await world.carol.slash(world.channel, "leaderboard", game="luk_fu", by="rating")
    assert not board.ephemeral
    text = embed_text(board.response)
    assert "🎯 Leaderboard — rating at Luk Fu" in text
    line = "**{rank}.** <@{id}> — **{o}** (μ {mu:.2f} · σ {sigma:.2f} · games: 1 · provisional)"
    assert line.format(rank=1, id=world.alice.id, o=figure(alice.ordinal()), mu=alice.mu, sigma=alice.sigma) in text
    first, second = sorted([world.bob.id, world.carol.id])
    assert line.format(rank=2, id=first, o=figure(bob.ordinal()), mu=bob.mu, sigma=bob.sigma) in text
    assert line.format(rank=2, id=second, o=figure(carol.ordinal()), mu=carol.mu, sigma=carol.sigma) in text
    assert "Page 1 of 1 · 3 members" in text
    # The chips boards are as they were.
    chips = embed_text((await world.carol.slash(world.channel, "leaderboard", game="luk_fu")).response)
    assert "net winnings at Luk Fu" in chips and "+2 chips over 1 deals" in chips


async def test_an_all_pass_hand_is_a_tie_for_everyone(world: Any) -> None:
    await one_hand_games(world)
    table = await open_luk_fu(world, world.bob, world.carol)
    engine = table.engine
    members = {0: world.alice, 1: world.bob, 2: world.carol}
    while world.env.bot.tables.tables:
        await act(world, members[min(engine.to_act())], "pass")
    tied = openskill([1, 1, 1])
    for member in (world.alice, world.bob, world.carol):
        shown = await rating_fields(member, world, game="luk_fu")
        assert shown["Luk Fu · provisional"].startswith(f"Rating **{figure(tied[0].ordinal())}** · rank **1** of 3")


async def test_a_rating_board_needs_a_game(world: Any) -> None:
    refused = await world.alice.slash(world.channel, "leaderboard", by="rating")
    assert refused.ephemeral and "A rating board is per game" in refused.response.content
    LOCALES[world.alice.id] = "ja"
    refused = await world.alice.slash(world.channel, "leaderboard", by="rating")
    assert refused.ephemeral and "ゲームを選んでください" in refused.response.content
    empty = await world.alice.slash(world.channel, "leaderboard", game="ofc", by="rating")
    assert "まだ誰もランキングに載っていません" in embed_text(empty.response)


# ---------------------------------------------------------------------------------------------------- not rated


async def test_practice_stopped_and_lone_games_are_not_rated(world: Any) -> None:
    await one_hand_games(world)
    await world.env.bot.db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True)
    # A practice game, played to its end.
    await open_luk_fu(world, world.bob, practice=True, bots=1)
    await reveal_tigers(world)
    assert not world.env.bot.tables.tables
    # A chip game stopped by its host before its end.
    await open_luk_fu(world, world.bob, world.carol)
    await world.alice.slash(world.channel, "table stop")
    assert not world.env.bot.tables.tables
    # A chip game of one member with bots, played to its end.
    await tigers_game(world, bots=2)
    for member in (world.alice, world.bob):
        answer = await member.slash(world.channel, "rating")
        assert answer.ephemeral and "You have no rating yet" in answer.response.content
    other = await world.alice.slash(world.channel, "rating", member=world.bob, game="luk_fu")
    assert "bob has no rating at Luk Fu yet." in other.response.content
    assert await world.env.bot.db._scalar("SELECT count(*) FROM rated_games") == 0


async def test_bots_are_not_rated(world: Any) -> None:
    await one_hand_games(world)
    await world.env.bot.db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True)
    table = await tigers_game(world, world.bob, bots=1)
    alice, bob = openskill([1, 2])  # the bot lost as Bob did: only the two members' order counts
    shown = await rating_fields(world.bob, world)
    assert shown["Luk Fu · provisional"].startswith(f"Rating **{figure(bob.ordinal())}** · rank **2** of 2")
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    refused = await world.alice.slash(world.channel, "rating", member=robot)
    assert refused.ephemeral and "Bots have no ratings" in refused.response.content
    stored = await RatingQueries(world.env.bot.db).rated_game(f"table:{table.id}")
    assert stored is not None and stored.places == (1, 2, 2) and len(stored.changes) == 2
    text = embed_text((await world.alice.slash(world.channel, "leaderboard", game="luk_fu", by="rating")).response)
    assert f"**1.** <@{world.alice.id}> — **{figure(alice.ordinal())}**" in text and "2 members" in text


# ---------------------------------------------------------------------------------------------------- never lost, never doubled


async def test_a_closing_that_fails_is_made_again_and_rated_once(world: Any, monkeypatch: Any) -> None:
    """The last move's write fails at the rating (a crash in the closing transaction): nothing of the closing is
    written, the table is rebuilt from the database and Alice's move can be made again; then the game is rated once."""
    await one_hand_games(world)
    await open_luk_fu(world, world.bob, world.carol)
    plain = ratings_module.rate_members

    def broken(*args: Any) -> Any:
        raise RuntimeError("the process died in the closing transaction")

    monkeypatch.setattr(ratings_module, "rate_members", broken)
    await act(world, world.alice, "play")
    shown = await choose(world.alice, await open_panel(world, world.alice), "lead", "▶ Five Tigers")
    (menu,) = [
        c
        for row in shown.response.components
        for c in row["components"]
        if c.get("type") == 3 and any(o["label"].startswith("Reveal") for o in c.get("options", []))
    ]
    value = next(o["value"] for o in menu["options"] if o["label"].startswith("Reveal Five Tigers"))
    failed = await world.alice.select(shown.response, [value], custom_id=menu["custom_id"])
    assert failed.ephemeral and "could not save this move" in failed.response.content
    assert world.env.bot.tables.tables, "the table still plays"
    db = world.env.bot.db
    assert await db._scalar("SELECT count(*) FROM rated_games") == 0

    monkeypatch.setattr(ratings_module, "rate_members", plain)
    # The panel is as Alice left it, the Five Tigers menu open: she reveals them again.
    await choose(world.alice, await open_panel(world, world.alice), "lead", "Reveal Five Tigers")
    assert not world.env.bot.tables.tables
    assert await db._scalar("SELECT count(*) FROM rated_games") == 1
    assert await db.verify_ledger(world.guild.id) == []


async def test_a_restart_after_the_game_neither_loses_nor_doubles_its_rating(
    world: Any, database: Any, clock: Any
) -> None:
    await one_hand_games(world)
    await tigers_game(world, world.bob, world.carol)
    before = await rating_fields(world.alice, world)
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    assert await rating_fields(world.alice, world) == before
    assert await database._scalar("SELECT count(*) FROM rated_games") == 1
    assert await database._scalar("SELECT sum(games) FROM ratings") == 3


# ---------------------------------------------------------------------------------------------------- the rebuild


async def test_a_moderator_rebuilds_the_ratings_and_a_member_may_not(world: Any, database: Any) -> None:
    await one_hand_games(world)
    await tigers_game(world, world.bob, world.carol)
    await tigers_game(world, world.carol, world.bob)
    rebuilt = await world.mod.slash(world.channel, "ratings rebuild", game="luk_fu")
    assert rebuilt.ephemeral
    assert rebuilt.response.content == (
        "Rebuilt Luk Fu's ratings from 2 stored games: 3 ratings (0 in seasons), every one as it was."
    )
    # A rating changed behind the bot's back is found and put right.
    before = await rating_fields(world.carol, world)
    await database._exec("UPDATE ratings SET mu = mu + 5 WHERE user_id = ?", (world.carol.id,))
    assert await rating_fields(world.carol, world) != before
    LOCALES[world.mod.id] = "ja"
    fixed = await world.mod.slash(world.channel, "ratings rebuild", game="luk_fu")
    assert fixed.response.content == (
        "六虎（ルクフ） のレーティングを保存済みの 2 対局から計算し直しました：3 件（シーズン別 0 件）。1 件の値が異なっていたので修正しました。"
    )
    assert await rating_fields(world.carol, world) == before

    assert not any(c.startswith("ratings") for c in world.alice.available_commands(world.channel))
    allow_command(world, "ratings", world.alice)
    refused = await world.alice.slash(world.channel, "ratings rebuild", game="luk_fu")
    assert refused.ephemeral and "Only moderators can do that" in refused.response.content
