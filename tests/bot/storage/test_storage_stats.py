"""bot/storage/stats.py and migration 0008 on both backends: what settling a deal writes for its members
(``deal_seats``, ``deal_facts``), ``/stats``'s one aggregate, the counters against it, the migration's backfill of
deals settled before it and the data step that derives their game facts."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

import pytest

from bot.storage import Database
from bot.storage.database import migrations
from bot.storage.replays import page_query
from bot.storage.stats import StatsQueries, seat_facts, stats_query
from games.core.rng import Shuffler
from games.registry import get_game

GUILD, CHANNEL = 10, 500
ALICE, BOB = 1, 2


def results(game: str, seats: int, seed: int, deals: int) -> list[Any]:
    """The first ``deals`` results of a game played by the game's policy with seeded shuffles."""
    spec = get_game(game)
    rules = spec.default_rules()
    rng = random.Random(f"{game}:{seed}")
    engine = spec.engine(
        rules, [spec.starting_chips(rules)] * seats, Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}")
    )
    found: list[Any] = []
    while len(found) < deals and not engine.is_over:
        seat = min(engine.to_act())
        engine.apply(seat, spec.policies["normal"](engine.view(seat), engine.legal_actions(seat), rng))
        found += engine.results
        engine.results.clear()
    return found[:deals]


async def table_with_deals(
    db: Database, game: str, *, deals: int, practice: bool = False, seed: int = 0, channel: int = CHANNEL
) -> tuple[int, list[Any]]:
    """Alice, Bob and a bot at a table of ``game`` that settled the first ``deals`` deals of a policy game (stake 1,
    each stack the game's starting points, so the deltas always fit)."""
    spec = get_game(game)
    buy_in = spec.starting_chips(spec.default_rules())
    await db.set_config(GUILD, actor_id=ALICE, bots_play_for_chips=True)
    table = await db.open_table(GUILD, channel, game, ALICE, buy_in=buy_in, practice=practice)
    await db.join_table(table.id, ALICE)
    await db.join_table(table.id, BOB)
    await db.add_bot_seat(table.id, "Tanuki")
    await db.start_table(table.id, record='{"version":1}')
    played = results(game, 3, seed, deals)
    for result in played:
        await db.settle_deal(table.id, result.deal, result.deltas, result.summary, pot=result.pot)
    return table.id, played


async def stored(db: Database, table_id: int) -> Counter[tuple[int, int, str]]:
    rows = await db._all(
        "SELECT h.deal_no, f.user_id, f.fact, f.value FROM deal_facts f JOIN hand_history h ON h.id = f.hand_id"
        " WHERE h.table_id = ?",
        (table_id,),
    )
    return Counter({(r["deal_no"], r["user_id"], r["fact"]): r["value"] for r in rows})


def expected(game: str, played: list[Any], *, game_facts: bool = True) -> Counter[tuple[int, int, str]]:
    """The facts a member seat (Alice 0, Bob 1; the bot at 2 has none) should have of each deal."""
    found: Counter[tuple[int, int, str]] = Counter()
    for result in played:
        facts = seat_facts(game, result.deal, result.deltas, result.summary)
        assert facts is not None
        for seat, user in ((0, ALICE), (1, BOB)):
            delta = result.deltas[seat]
            found[(result.deal, user, "deals")] = int(game_facts)
            if delta:
                found[(result.deal, user, "won" if delta > 0 else "lost")] = delta
            if game_facts:
                for fact, value in facts[seat].items():
                    found[(result.deal, user, fact)] = value
    return found


@pytest.mark.parametrize("game", ["oicho", "ofc", "luk_fu", "hachi_hachi"])
async def test_settling_writes_the_members_seats_and_facts(db: Database, game: str) -> None:
    table_id, played = await table_with_deals(db, game, deals=6)
    seats = await db._all("SELECT position, user_id, delta, practice FROM deal_seats ORDER BY hand_id, position")
    assert [(r["position"], r["user_id"]) for r in seats] == [(0, ALICE), (1, BOB)] * 6, "members only, no bot"
    assert [r["delta"] for r in seats] == [d for r in played for d in r.deltas[:2]]
    assert await stored(db, table_id) == expected(game, played)
    # /stats: one aggregate, and the players' counters (the leaderboard's) agree with it.
    stats = await StatsQueries(db).member_stats(GUILD, ALICE)
    [figures] = stats.games
    alice = [r.deltas[0] for r in played]
    assert (figures.game, figures.deals, figures.counted) == (game, 6, 6)
    assert (figures.won, figures.net) == (sum(d > 0 for d in alice), sum(alice))
    counters = await db._all("SELECT user_id, net, deals_played FROM player_stats WHERE game = ?", (game,))
    by_user = {r["user_id"]: (r["net"], r["deals_played"]) for r in counters}
    for user in (ALICE, BOB):
        mine = (await StatsQueries(db).member_stats(GUILD, user)).of(game)
        assert by_user[user] == (mine.net, mine.deals)
    assert (await StatsQueries(db).member_stats(GUILD, ALICE, game="nope")).games == ()
    assert (await StatsQueries(db).member_stats(GUILD + 1, ALICE)).games == ()


async def test_a_game_filter_and_practice_deals(db: Database) -> None:
    await table_with_deals(db, "oicho", deals=3)
    await table_with_deals(db, "luk_fu", deals=2, channel=CHANNEL + 1)
    await table_with_deals(db, "ofc", deals=4, practice=True, channel=CHANNEL + 2)
    queries = StatsQueries(db)
    every = await queries.member_stats(GUILD, BOB)
    assert [g.game for g in every.games] == ["oicho", "luk_fu"] and every.deals == 5, "practice deals never count"
    only = await queries.member_stats(GUILD, BOB, game="luk_fu")
    assert [g.game for g in only.games] == ["luk_fu"] and only.of("luk_fu") == every.of("luk_fu")
    # A practice deal is in the member's history, with its seat.
    practice = await db._all("SELECT count(*) AS n FROM deal_seats WHERE practice = 1 AND user_id = ?", (BOB,))
    assert practice[0]["n"] == 4
    assert await db._scalar("SELECT count(*) FROM deal_facts WHERE game = 'ofc'") == 0


async def test_a_summary_the_game_cannot_read_keeps_the_deal_without_game_facts(db: Database) -> None:
    await db.set_config(GUILD, actor_id=ALICE, bots_play_for_chips=True)
    table = await db.open_table(GUILD, CHANNEL, "oicho", ALICE, buy_in=100)
    await db.join_table(table.id, ALICE)
    await db.join_table(table.id, BOB)
    await db.start_table(table.id, record='{"version":1}')
    await db.settle_deal(table.id, 1, (7, -7), {"round": 1, "seeds": []})  # not an Oicho-Kabu result
    figures = (await StatsQueries(db).member_stats(GUILD, ALICE)).of("oicho")
    assert (figures.deals, figures.counted, figures.won, figures.net) == (1, 0, 1, 7)
    assert set(figures.figures) == {"deals", "won"}


# ---------------------------------------------------------------------------- deals settled before migration 0008


async def back_to_0007(db: Database) -> None:
    """The database as it was before migration 0008 (its tables gone, its version unrecorded)."""
    async with db._write():
        for table in ("deal_facts_pending", "deal_facts", "deal_seats"):
            await db._exec(f"DROP TABLE {table}")
        await db._exec("DELETE FROM schema_version WHERE version = 8")


async def test_the_migration_backfills_older_deals_and_the_data_step_derives_their_facts(db: Database) -> None:
    oicho, oicho_played = await table_with_deals(db, "oicho", deals=5)
    hachi, hachi_played = await table_with_deals(db, "hachi_hachi", deals=4, seed=3, channel=CHANNEL + 1)
    await table_with_deals(db, "ofc", deals=2, practice=True, channel=CHANNEL + 2)
    broken, _ = await table_with_deals(db, "luk_fu", deals=1, channel=CHANNEL + 3)
    await db._exec("UPDATE hand_history SET summary = '{\"deal\": 1}' WHERE table_id = ?", (broken,))
    before_seats = await db._all("SELECT * FROM deal_seats ORDER BY hand_id, position")
    await back_to_0007(db)

    assert await db.migrate() == [8]
    after_seats = await db._all("SELECT * FROM deal_seats ORDER BY hand_id, position")
    assert [tuple(r) for r in after_seats] == [tuple(r) for r in before_seats], (
        "the seats, chips, places and who sat of every deal, practice ones included, as settling writes them"
    )
    queries = StatsQueries(db)
    assert await queries.pending() == 5 + 4 + 1, "every chip deal waits for its game facts"
    assert await stored(db, oicho) == expected("oicho", oicho_played, game_facts=False)
    waiting = (await queries.member_stats(GUILD, ALICE)).of("oicho")
    assert (waiting.deals, waiting.counted) == (5, 0)

    # The data step, two processes at once and in small chunks: each deal is derived once.
    first, second = StatsQueries(db), StatsQueries(db)
    while sum(await asyncio.gather(first.backfill(chunk=3), second.backfill(chunk=3))):
        pass
    assert await queries.pending() == 0 and await queries.backfill() == 0
    assert await stored(db, oicho) == expected("oicho", oicho_played)
    assert await stored(db, hachi) == expected("hachi_hachi", hachi_played)
    unreadable = (await queries.member_stats(GUILD, ALICE)).of("luk_fu")
    assert (unreadable.deals, unreadable.counted) == (1, 0), "a summary that cannot be read keeps its deal uncounted"


def test_migration_0008_is_the_same_in_both_dialects() -> None:
    sqlite, postgres = migrations("sqlite")[7], migrations("postgresql")[7]
    assert sqlite.name == postgres.name == "0008_deal_seats_and_facts.sql"


async def test_the_queries_read_their_own_indexes(db: Database) -> None:
    """The page of /history and the aggregate of /stats are index range reads, with no sort (SQLite's plan names the
    indexes; /stats reads nothing but its covering index)."""
    if db.dialect != "sqlite":
        pytest.skip("SQLite's EXPLAIN QUERY PLAN names the index used")
    await table_with_deals(db, "oicho", deals=2)
    for game in (None, "oicho"):
        sql, params = stats_query(GUILD, ALICE, game=game)
        details = [r["detail"] for r in await db._all(f"EXPLAIN QUERY PLAN {sql}", params)]
        assert details == [
            "SEARCH deal_facts USING COVERING INDEX deal_facts_member ("
            + ("guild_id=? AND user_id=?)" if game is None else "guild_id=? AND user_id=? AND game=?)")
        ], details
        for before, after in ((None, None), (10**9, None), (None, 0)):
            sql, params = page_query(GUILD, ALICE, game=game, before=before, after=after, limit=10)
            details = [r["detail"] for r in await db._all(f"EXPLAIN QUERY PLAN {sql}", params)]
            search = "SEARCH d USING INDEX deal_seats_member_game " if game else "SEARCH d USING PRIMARY KEY "
            assert any(d.startswith(search) for d in details), details
            # The only rows read whole are the page's own (materialized: ``page``); no other table is read.
            assert {d for d in details if d.startswith("SCAN")} <= {"SCAN page"}, details
            assert not any(t in d for d in details for t in ("hand_history", "tables", "seats ")), details
            assert not any("TEMP B-TREE FOR ORDER BY" in d for d in details), details
