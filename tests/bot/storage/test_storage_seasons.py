"""bot/storage/seasons.py and migration 0012 on both backends: starting and ending seasons, with and without resets
(balances brought to the starting balance by ledger movements that sum to zero; ratings begun afresh, the old kept),
the chips won and ratings of a season, running and past, and what is refused."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import Database, InvalidState, InvalidValue, NotFound
from bot.storage.ratings import RatingQueries
from bot.storage.seasons import NAME_LIMIT, SeasonQueries
from tests.bot.storage.test_storage_ratings import BUY_IN, GUILD, MOD, OTHER_GUILD, finished_table, rating_of

START = 1000  # the default starting balance


async def test_a_season_starts_runs_and_ends(db: Database, clock: Any) -> None:
    seasons = SeasonQueries(db)
    assert await seasons.running(GUILD) is None
    started = await seasons.start(GUILD, "  Spring   2030 ", actor_id=MOD)
    assert (started.reset, started.granted, started.taken) == (0, 0, 0)
    season = started.season
    assert season.name == "Spring 2030" and season.running and season.started_by == MOD
    assert not season.reset_balances and not season.reset_ratings
    assert await seasons.running(GUILD) == season
    assert await seasons.running(OTHER_GUILD) is None
    assert await seasons.named(GUILD, "spring 2030") == season  # names are found whatever their case
    clock.advance(3600)
    ended = await seasons.end(GUILD, actor_id=MOD)
    assert not ended.running and ended.ended_by == MOD and ended.ended_at == clock.now
    assert await seasons.running(GUILD) is None
    assert await seasons.get(season.id) == ended
    await seasons.start(GUILD, "Summer", actor_id=MOD)
    assert [s.name for s in await seasons.list(GUILD)] == ["Summer", "Spring 2030"]


async def test_what_a_season_refuses(db: Database) -> None:
    seasons = SeasonQueries(db)
    with pytest.raises(InvalidState) as none:
        await seasons.end(GUILD, actor_id=MOD)
    assert none.value.code == "seasons.none_running"
    await seasons.start(GUILD, "Spring", actor_id=MOD)
    with pytest.raises(InvalidState) as second:
        await seasons.start(GUILD, "Summer", actor_id=MOD)
    assert second.value.code == "seasons.already_running" and second.value.params == {"name": "Spring"}
    await seasons.end(GUILD, actor_id=MOD)
    with pytest.raises(InvalidValue) as taken:
        await seasons.start(GUILD, "SPRING", actor_id=MOD)
    assert taken.value.code == "seasons.name_taken"
    for bad in ("", "   ", "x" * (NAME_LIMIT + 1), "bad\x00name"):
        with pytest.raises(InvalidValue) as refused:
            await seasons.start(GUILD, bad, actor_id=MOD)
        assert refused.value.code == "seasons.bad_name"
    with pytest.raises(NotFound) as unknown:
        await seasons.find(GUILD, "Autumn")
    assert unknown.value.code == "seasons.unknown" and unknown.value.params == {"name": "Autumn"}
    assert len(await seasons.list(GUILD)) == 1
    # The other server has seasons of its own, names included.
    await seasons.start(OTHER_GUILD, "Spring", actor_id=MOD)


# ---------------------------------------------------------------------------------------------------- balances


async def test_a_start_resets_balances_with_ledger_movements(db: Database) -> None:
    await db.grant(GUILD, 1, 500, actor_id=MOD)  # 1500
    await db.take(GUILD, 2, 300, actor_id=MOD)  # 700
    await db.ensure_member(GUILD, 3)  # 1000 already
    await db.ensure_member(GUILD, 4)
    await db.take(GUILD, 4, 1000, actor_id=MOD)  # 0
    await db.ensure_member(OTHER_GUILD, 1)
    await db.grant(OTHER_GUILD, 1, 5, actor_id=MOD)
    mint_before = await db._scalar("SELECT balance FROM guild_accounts WHERE guild_id = ? AND kind = 'mint'", (GUILD,))

    started = await SeasonQueries(db).start(GUILD, "Fresh", actor_id=MOD, reset_balances=True)
    assert (started.reset, started.granted, started.taken) == (3, 300 + 1000, 500)
    for user in (1, 2, 3, 4):
        assert await db.balance(GUILD, user) == START
    assert await db.balance(OTHER_GUILD, 1) == START + 5  # another server's wallets are not touched
    mint = await db._scalar("SELECT balance FROM guild_accounts WHERE guild_id = ? AND kind = 'mint'", (GUILD,))
    assert mint == mint_before - 1300 + 500
    moves = await db._all(
        "SELECT m.reason, m.note, m.actor_id, m.idem_key, l.account, l.user_id, l.delta FROM movements m"
        " JOIN ledger l ON l.movement_id = m.id WHERE m.idem_key LIKE 'season_reset:%' ORDER BY m.id, l.account"
    )
    season = started.season.id
    assert [tuple(r) for r in moves] == [
        ("take", "season reset: Fresh", MOD, f"season_reset:{season}:1", "mint", None, 500),
        ("take", "season reset: Fresh", MOD, f"season_reset:{season}:1", "wallet", 1, -500),
        ("grant", "season reset: Fresh", MOD, f"season_reset:{season}:2", "mint", None, -300),
        ("grant", "season reset: Fresh", MOD, f"season_reset:{season}:2", "wallet", 2, 300),
        ("grant", "season reset: Fresh", MOD, f"season_reset:{season}:4", "mint", None, -1000),
        ("grant", "season reset: Fresh", MOD, f"season_reset:{season}:4", "wallet", 4, 1000),
    ]
    assert await db.verify_ledger() == []


async def test_a_start_without_reset_leaves_balances_alone(db: Database) -> None:
    await db.grant(GUILD, 1, 500, actor_id=MOD)
    movements = await db._scalar("SELECT count(*) FROM movements")
    await SeasonQueries(db).start(GUILD, "Carry on", actor_id=MOD)
    assert await db.balance(GUILD, 1) == START + 500
    assert await db._scalar("SELECT count(*) FROM movements") == movements
    assert await db.verify_ledger() == []


async def test_no_balance_reset_while_chip_tables_are_open(db: Database) -> None:
    seasons = SeasonQueries(db)
    lobby = await db.open_table(GUILD, 700, "oicho", 1, buy_in=BUY_IN)
    await db.join_table(lobby.id, 1)
    practice = await db.open_table(GUILD, 701, "oicho", 2, buy_in=BUY_IN, practice=True)
    await db.join_table(practice.id, 2)
    with pytest.raises(InvalidState) as refused:
        await seasons.start(GUILD, "Fresh", actor_id=MOD, reset_balances=True)
    assert refused.value.code == "seasons.tables_open" and refused.value.params == {"count": 1}
    assert await seasons.running(GUILD) is None
    assert await db.balance(GUILD, 1) == START - BUY_IN
    # Without a reset the tables are no obstacle; once the chip table is gone, the reset is allowed.
    await db.cancel_table(lobby.id)
    started = await seasons.start(GUILD, "Fresh", actor_id=MOD, reset_balances=True)
    assert started.reset == 0  # everyone is back at the starting balance already
    assert await db.verify_ledger() == []


# ---------------------------------------------------------------------------------------------------- the boards


async def test_chips_won_in_a_season_running_and_past(db: Database) -> None:
    seasons = SeasonQueries(db)
    await finished_table(db, "oicho", [1, 2], [180, 20])  # before the season: not counted
    spring = (await seasons.start(GUILD, "Spring", actor_id=MOD)).season
    await finished_table(db, "oicho", [1, 2, "Tanuki"], [70, 160, 70])
    await finished_table(db, "ofc", [1, 3], [150, 50])
    await finished_table(db, "ofc", [2, 3], [100, 100], practice=True)  # a practice deal counts for nothing
    await finished_table(db, "oicho", [4, 5], [100, 100], guild=OTHER_GUILD)  # another server

    def board(page: Any) -> list[tuple[int, int, int, int | None]]:
        return [(e.rank, e.user_id, e.value, e.deals_played) for e in page.entries]

    running = await seasons.chips_board(spring)
    assert board(running) == [(1, 2, 60, 1), (2, 1, 20, 2), (3, 3, -50, 1)] and running.total == 3
    assert board(await seasons.chips_board(spring, "ofc")) == [(1, 1, 50, 1), (2, 3, -50, 1)]
    second_page = await seasons.chips_board(spring, offset=1, limit=1)
    assert board(second_page) == [(2, 1, 20, 2)] and second_page.total == 3
    figures = await seasons.figures(spring)
    assert (figures.deals, figures.members, figures.rated_games) == (2, 3, 2)

    ended = await seasons.end(GUILD, actor_id=MOD)
    await finished_table(db, "oicho", [1, 2], [200, 0])  # after the season: not counted
    assert board(await seasons.chips_board(ended)) == board(running)
    assert board(await seasons.chips_board(ended, "ofc")) == [(1, 1, 50, 1), (2, 3, -50, 1)]
    assert board(await seasons.chips_board(ended, "oicho")) == [(1, 2, 60, 1), (2, 1, -30, 1)]
    assert board(await seasons.chips_board(ended, "luk_fu")) == []
    assert board(await seasons.chips_board(ended, offset=1, limit=1)) == [(2, 1, 20, 2)]

    # Past seasons stay as they were while the next one runs.
    summer = (await seasons.start(GUILD, "Summer", actor_id=MOD)).season
    await finished_table(db, "ofc", [3, 1], [190, 10])
    assert board(await seasons.chips_board(await seasons.find(GUILD, "spring"))) == board(running)
    assert board(await seasons.chips_board(summer)) == [(1, 3, 90, 1), (2, 1, -90, 1)]
    # Ties share a rank.
    await finished_table(db, "oicho", [4, 5], [190, 10])
    tied = await seasons.chips_board(summer)
    assert board(tied)[:2] == [(1, 3, 90, 1), (1, 4, 90, 1)]


async def test_ratings_in_seasons_and_a_reset(db: Database) -> None:
    seasons, queries = SeasonQueries(db), RatingQueries(db)
    await finished_table(db, "oicho", [1, 2], [150, 50])  # no season: rated, in no season's board
    spring = (await seasons.start(GUILD, "Spring", actor_id=MOD)).season
    await finished_table(db, "oicho", [1, 3], [150, 50])
    await finished_table(db, "oicho", [1, 2], [50, 150])
    alice = await rating_of(db, 1)
    assert alice[2] == 3  # the ratings carry on across a season without a reset
    board = await queries.board(GUILD, "oicho", season_id=spring.id)
    assert {e.user_id: e.season_games for e in board.entries} == {1: 2, 2: 1, 3: 1}
    assert {e.user_id: e.rating.games for e in board.entries} == {1: 3, 2: 2, 3: 1}  # the games each rating counts
    assert next(e for e in board.entries if e.user_id == 1).rating.mu == alice[0]
    await seasons.end(GUILD, actor_id=MOD)

    summer = (await seasons.start(GUILD, "Summer", actor_id=MOD, reset_ratings=True)).season
    assert await queries.period(GUILD) == summer.id
    assert await queries.member(GUILD, 1, "oicho") is None  # a fresh start
    assert (await queries.board(GUILD, "oicho")).total == 0
    await finished_table(db, "oicho", [2, 1], [120, 80])
    assert (await rating_of(db, 1))[2] == 1
    # The past season's board still shows the ratings as they were.
    again = await queries.board(GUILD, "oicho", season_id=spring.id)
    assert again == board
    assert (await queries.board(GUILD, "oicho", season_id=summer.id)).total == 2
    # The old period's ratings are kept.
    assert await db._scalar("SELECT count(*) FROM ratings WHERE period = 0") == 3
    assert await db.verify_ledger() == []
