"""bot/storage/ratings.py and migration 0012 on both backends: a finished table's game rated in its closing
transaction, exactly as openskill rates the same standings (computed here with openskill itself, at its default
parameters); ties; what is not rated (practice tables, fewer than two members, bots, stopped tables); the stored
standings rebuilt into the same numbers; a closing never written without its rating, nor rated twice."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.storage import Database, DealToSettle, InvalidState, InvalidValue, LogEntry
from bot.storage import ratings as ratings_module
from bot.storage.ratings import MODEL_NAME, PROVISIONAL_GAMES, RatingQueries, Standing
from bot.storage.seasons import SeasonQueries

GUILD, OTHER_GUILD = 10, 11
MOD = 99
BUY_IN = 100
_channels = itertools.count(1000)


async def finished_table(
    db: Database,
    game: str,
    seats: Sequence[int | str],
    finals: Sequence[int],
    *,
    practice: bool = False,
    guild: int = GUILD,
    close: bool = True,
) -> int:
    """A table of ``game`` whose seats (member ids, or bot names) play one deal ending at ``finals`` (chips by
    seat) and whose game then ends by itself (the closing written with the last move, as the runtime does)."""
    await db.set_config(guild, actor_id=MOD, bots_play_for_chips=True)
    table = await db.open_table(guild, next(_channels), game, MOD, buy_in=BUY_IN, practice=practice)
    for seat in seats:
        if isinstance(seat, str):
            await db.add_bot_seat(table.id, seat)
        else:
            await db.join_table(table.id, seat)
    await db.start_table(table.id, record="{}", entries=[LogEntry(1, "shuffle", '{"seed":"aa"}', deal=1)])
    deltas = tuple(final - BUY_IN for final in finals)
    assert sum(deltas) == 0
    await db.append_step(
        table.id, [LogEntry(2, "action", "x", seat=0)], settle=[DealToSettle(1, deltas, {})], checkpoint=("{}", 2)
    )
    if close:
        await db.append_step(table.id, [LogEntry(3, "action", "y", seat=0)], close=True)
    return table.id


def openskill_rate(before: Sequence[Any], ranks: Sequence[int]) -> list[Any]:
    """openskill's own update at its default parameters: each player a team of one."""
    model = PlackettLuce()
    return [team[0] for team in model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in before], ranks=list(ranks))]


def fresh() -> Any:
    return PlackettLuce().rating()


async def rating_of(db: Database, user: int, game: str = "oicho", guild: int = GUILD) -> tuple[float, float, int]:
    found = await RatingQueries(db).member(guild, user, game)
    assert found is not None, user
    return found.rating.mu, found.rating.sigma, found.rating.games


async def all_rows(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the rating tables, to compare before and after a rebuild."""
    out = {}
    for table, order in (
        ("ratings", "guild_id, game, period, user_id"),
        ("season_ratings", "season_id, game, user_id"),
        ("rated_places", "rated_id, position"),
        ("rated_games", "id"),
    ):
        out[table] = [tuple(r) for r in await db._all(f"SELECT * FROM {table} ORDER BY {order}")]
    return out


# ---------------------------------------------------------------------------------------------------- rated as openskill


async def test_a_finished_game_is_rated_as_openskill_rates_the_same_standings(db: Database) -> None:
    # Alice ends with 130, Bob 70, Carol 100 and the bot 100: places 1, 4, 2, 2 in the full standings; the three
    # members are rated among themselves in that order.
    table_id = await finished_table(db, "oicho", [1, 2, 3, "Tanuki"], [130, 70, 100, 100])
    expected = openskill_rate([fresh(), fresh(), fresh()], [1, 4, 2])
    for user, rating in zip((1, 2, 3), expected, strict=True):
        assert await rating_of(db, user) == (rating.mu, rating.sigma, 1)
    rated = await RatingQueries(db).rated_game(f"table:{table_id}")
    assert rated is not None and rated.places == (1, 4, 2, 2) and not rated.replayed
    assert [(c.user_id, c.place) for c in rated.changes] == [(1, 1), (2, 4), (3, 2)]
    assert all(c.before == (25.0, 25.0 / 3) for c in rated.changes)

    # A second game of the same three carries their ratings on: Bob wins, Alice and Carol tie behind him.
    await finished_table(db, "oicho", [2, 1, 3], [150, 75, 75])
    second = openskill_rate([expected[1], expected[0], expected[2]], [1, 2, 2])
    for user, rating in zip((2, 1, 3), second, strict=True):
        mu, sigma, games = await rating_of(db, user)
        assert (mu, sigma, games) == (rating.mu, rating.sigma, 2)
        found = await RatingQueries(db).member(GUILD, user, "oicho")
        assert found is not None
        assert found.rating.ordinal == rating.ordinal()
        assert found.rating.provisional and found.rating.model == MODEL_NAME
    # Ranks in the server follow the ordinals.
    board = await RatingQueries(db).board(GUILD, "oicho")
    assert board.total == 3
    assert [e.user_id for e in board.entries] == [
        u for _, u in sorted(((-r.ordinal(), u) for u, r in zip((2, 1, 3), second, strict=True)))
    ]
    assert [e.rank for e in board.entries] == [1, 2, 3]
    assert [(await RatingQueries(db).member(GUILD, e.user_id, "oicho")).rank for e in board.entries] == [1, 2, 3]  # type: ignore[union-attr]
    # Another game's ratings and another server's are their own.
    assert await RatingQueries(db).member(GUILD, 1, "ofc") is None
    assert await RatingQueries(db).member(OTHER_GUILD, 1, "oicho") is None


async def test_ties_share_a_place_and_are_rated_as_ties(db: Database) -> None:
    await finished_table(db, "ofc", [1, 2, 3], [100, 100, 100])
    tied = openskill_rate([fresh()] * 3, [1, 1, 1])
    for user, rating in zip((1, 2, 3), tied, strict=True):
        assert await rating_of(db, user, "ofc") == (rating.mu, rating.sigma, 1)
    # A three-way tie moves nobody's mean, and the uncertainty shrinks for all alike.
    assert {round(r.mu, 9) for r in tied} == {25.0}
    board = await RatingQueries(db).board(GUILD, "ofc")
    assert [e.rank for e in board.entries] == [1, 1, 1]

    await finished_table(db, "luk_fu", [1, 2, 3, 4], [160, 60, 60, 120])
    rated = openskill_rate([fresh()] * 4, [1, 3, 3, 2])
    for user, rating in zip((1, 2, 3, 4), rated, strict=True):
        assert await rating_of(db, user, "luk_fu") == (rating.mu, rating.sigma, 1)
    assert (await rating_of(db, 2, "luk_fu")) == (await rating_of(db, 3, "luk_fu"))


def test_places_are_competition_ranks() -> None:
    assert ratings_module.places([5, 5, 2]) == [1, 1, 3]
    assert ratings_module.places([0, 30, -30, 0]) == [2, 1, 4, 2]
    assert ratings_module.places([7]) == [1]


def test_the_model_is_openskills_default_plackett_luce() -> None:
    """The parameters written out are openskill's defaults, and the stored name says so."""
    default, ours = PlackettLuce(), ratings_module.MODEL
    for name in ("mu", "sigma", "beta", "kappa", "tau", "margin", "limit_sigma", "balance"):
        assert getattr(ours, name) == getattr(default, name), name
    assert "PlackettLuce" in MODEL_NAME
    assert PROVISIONAL_GAMES == 10


# ---------------------------------------------------------------------------------------------------- not rated


async def test_what_is_not_rated(db: Database) -> None:
    # A practice table; one member with bots; a table stopped by its host after a settled deal; a cancelled lobby.
    practice = await finished_table(db, "oicho", [1, 2], [150, 50], practice=True)
    alone = await finished_table(db, "oicho", [1, "Tanuki", "Kitsune"], [150, 50, 100])
    stopped = await finished_table(db, "oicho", [1, 2], [150, 50], close=False)
    await db.close_table(stopped, actor_id=MOD)
    lobby = await db.open_table(GUILD, next(_channels), "oicho", 1, buy_in=BUY_IN)
    await db.join_table(lobby.id, 1)
    await db.join_table(lobby.id, 2)
    await db.cancel_table(lobby.id)
    queries = RatingQueries(db)
    for table_id in (practice, alone, stopped, lobby.id):
        assert await queries.rated_game(f"table:{table_id}") is None
    assert await db._scalar("SELECT count(*) FROM ratings") == 0
    assert await db._scalar("SELECT count(*) FROM rated_games") == 0
    assert await db.verify_ledger() == []


async def test_bots_are_ranked_but_never_rated(db: Database) -> None:
    # The bots win and lose around two members: only the members' order counts, and only they have ratings.
    table_id = await finished_table(db, "hachi_hachi", ["Tanuki", 1, "Kitsune", 2], [200, 90, 10, 100])
    rated = await RatingQueries(db).rated_game(f"table:{table_id}")
    assert rated is not None and rated.places == (1, 3, 4, 2)
    places = await db._all("SELECT position, user_id, score, place, mu_after FROM rated_places ORDER BY position")
    rows = [tuple(p) for p in places]
    assert rows[0] == (0, None, 100, 1, None)
    assert rows[2][:4] == (2, None, -90, 4)
    assert sorted(r[0] for r in await db._all("SELECT user_id FROM ratings")) == [1, 2]
    expected = openskill_rate([fresh(), fresh()], [3, 2])  # Bob (100) ahead of Alice (90)
    assert await rating_of(db, 1, "hachi_hachi") == (expected[0].mu, expected[0].sigma, 1)
    assert await rating_of(db, 2, "hachi_hachi") == (expected[1].mu, expected[1].sigma, 1)
    # The same as rating the two members alone: beating a bot is not credited.
    alone = openskill_rate([fresh(), fresh()], [2, 1])
    assert (expected[0].mu, expected[1].mu) == (alone[0].mu, alone[1].mu)


# ---------------------------------------------------------------------------------------------------- once, and never lost


async def test_a_source_is_rated_once(db: Database) -> None:
    queries = RatingQueries(db)
    standings = [Standing(1, 10), Standing(None, 0), Standing(2, -10)]
    first = await queries.rate(GUILD, "ofc", standings, source="tournament:1:table:1")
    assert first is not None and not first.replayed
    again = await queries.rate(GUILD, "ofc", standings, source="tournament:1:table:1")
    assert again is not None and again.replayed and again.id == first.id and again.changes == first.changes
    assert (await rating_of(db, 1, "ofc"))[2] == 1
    assert await queries.rate(GUILD, "ofc", [Standing(1, 5), Standing(None, 0)], source="solo") is None
    with pytest.raises(InvalidValue, match="two seats"):
        await queries.rate(GUILD, "ofc", [Standing(1, 5), Standing(1, 0)], source="twice")
    assert await db._scalar("SELECT count(*) FROM rated_games") == 1


async def test_a_closing_is_never_written_without_its_rating(db: Database, monkeypatch: Any) -> None:
    """The rating is part of the closing's transaction: if it fails, nothing of the closing is written (the table
    still plays, every stack still on it), and the closing written later rates the game once."""
    table_id = await finished_table(db, "oicho", [1, 2], [150, 50], close=False)

    def broken(*args: Any) -> Any:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(ratings_module, "rate_members", broken)
    with pytest.raises(RuntimeError):
        await db.append_step(table_id, [LogEntry(3, "action", "y", seat=0)], close=True)
    table = await db.get_table(table_id)
    assert table is not None and table.status == "playing" and [s.stack for s in table.seats] == [150, 50]
    assert await db._scalar("SELECT count(*) FROM movements WHERE idem_key = ?", (f"close:{table_id}",)) == 0
    assert await db._scalar("SELECT count(*) FROM rated_games") == 0

    monkeypatch.undo()
    await db.append_step(table_id, [LogEntry(3, "action", "y", seat=0)], close=True)
    # The same closing again (a retry after a restart) is refused as already written, and rates nothing more.
    with pytest.raises(InvalidState, match=r"is ended, not playing"):
        await db.append_step(table_id, [LogEntry(3, "action", "y", seat=0)], close=True)
    await db.close_table(table_id)  # the closing's key replayed
    expected = openskill_rate([fresh(), fresh()], [1, 2])
    assert await rating_of(db, 1) == (expected[0].mu, expected[0].sigma, 1)
    assert await db._scalar("SELECT count(*) FROM rated_games") == 1
    assert await db.verify_ledger() == []


async def test_a_reopened_database_keeps_the_rating_once(target: str, clock: Any) -> None:
    """A restart right after the closing: the rating was committed with it, and nothing rates the game again."""
    async with await Database.open(target, clock=clock) as db:
        table_id = await finished_table(db, "oicho", [1, 2], [150, 50])
        before = await all_rows(db)
    async with await Database.open(target, clock=clock) as db:
        assert await all_rows(db) == before
        assert (await rating_of(db, 1))[2] == 1
        await db.close_table(table_id)  # a closing retried after the restart: replayed
        assert await all_rows(db) == before


# ---------------------------------------------------------------------------------------------------- rebuilding


async def test_a_rebuild_from_the_stored_standings_gives_the_same_numbers(db: Database, clock: Any) -> None:
    rng = random.Random(18)
    seasons = SeasonQueries(db)
    members = [1, 2, 3, 4, 5, 6]
    for round_no in range(24):
        if round_no == 8:
            await seasons.start(GUILD, "Spring", actor_id=MOD)
        if round_no == 14:
            await seasons.end(GUILD, actor_id=MOD)
            await seasons.start(GUILD, "Summer", actor_id=MOD, reset_ratings=True)
        game = rng.choice(["oicho", "ofc"])
        seated: list[int | str] = list(rng.sample(members, rng.randint(2, 4)))
        if rng.random() < 0.4:
            seated.insert(rng.randrange(len(seated) + 1), "Tanuki")
        moves = [rng.choice([-20, -10, 0, 0, 10, 20]) for _ in seated[:-1]]
        finals = [BUY_IN + m for m in moves] + [BUY_IN - sum(moves)]
        await finished_table(db, game, seated, finals)
        clock.advance(60)
    assert await db._scalar("SELECT count(*) FROM season_ratings") > 0
    incremental = await all_rows(db)
    queries = RatingQueries(db)
    for game in ("oicho", "ofc"):
        rebuilt = await queries.rebuild(GUILD, game)
        assert rebuilt.differed == 0 and rebuilt.games > 0 and rebuilt.ratings > 0, rebuilt
    assert await all_rows(db) == incremental

    # The check can fail: a rating, a season's rating and a stored "after" changed by hand are found and corrected.
    await db._exec("UPDATE ratings SET mu = mu + 1 WHERE user_id = 1 AND game = 'oicho'")
    await db._exec("UPDATE season_ratings SET mu = mu - 1 WHERE user_id = 2")
    await db._exec("UPDATE rated_places SET sigma_after = 1.0 WHERE position = 0 AND user_id IS NOT NULL")
    fixed = sum([(await queries.rebuild(GUILD, game)).differed for game in ("oicho", "ofc")])
    assert fixed >= 3
    assert await all_rows(db) == incremental


async def test_a_rebuild_starts_again_when_a_game_is_rated_meanwhile(db: Database, monkeypatch: Any) -> None:
    await finished_table(db, "oicho", [1, 2], [150, 50])
    queries = RatingQueries(db)
    plain = ratings_module.replay
    rated_meanwhile = False

    def replay_then_rate(games: Any) -> Any:
        nonlocal rated_meanwhile
        if not rated_meanwhile:
            rated_meanwhile = True
            import asyncio

            asyncio.run_coroutine_threadsafe(finished_table(db, "oicho", [2, 3], [120, 80]), loop).result()
        return plain(games)

    import asyncio

    loop = asyncio.get_running_loop()
    monkeypatch.setattr(ratings_module, "replay", replay_then_rate)
    rebuilt = await queries.rebuild(GUILD, "oicho")
    assert rebuilt.games == 2 and rebuilt.differed == 0
