"""Skill ratings (``/rating``, ``/leaderboard by:rating``, ``/ratings rebuild``): openskill's Plackett-Luce model
(Weng-Lin, made for many players and ties), one rating per member per game per server and rating period, updated
once per finished game from its final standings (migration 0012).

What is rated. A table's game that ended by itself (its engine over: the closing written with its last move, in
:meth:`~bot.storage.tables.log.LogOps.append_step`), at a chip table, with at least two members seated: not a
practice table, not a table stopped by its host or a moderator, not a lobby cancelled. Each seat's score is its
final stack minus its buy-in; equal scores share a place. Everyone is ranked, bots included (their places are stored
with the game), but only members are rated: openskill reads only the order of the teams it is given, so a member's
rating moves by where they finished among the other members, never by beating or losing to a bot.

Where it runs. :func:`rate_game` is a body awaited by the closing transaction itself (``_finish``), so the game's
closing and its rating are written together or not at all: a restart can neither lose the update nor apply it
twice, and the game's ``source`` (``table:<id>``) is UNIQUE, so rating the same source again returns what was
stored. Another feature rates its own games with :meth:`RatingQueries.rate` (its own transaction) or by awaiting
:func:`rate_game` inside one of its transactions, with a ``source`` of its own (a tournament's table, say).

The truth is the stored standings (``rated_games``, ``rated_places``): :meth:`RatingQueries.rebuild` replays every
rated game of a server's game in id order (the order they were rated in: two games sharing a member conflict on that
member's rating row, so the later to commit also has the later id) and gets the same numbers as the updates made one
game at a time; it reports and corrects any row that differs.

Rating periods. A season whose start resets the ratings begins a new period (its id); earlier periods' ratings stay
stored. ``season_ratings`` keeps, for the season running when a game finished, each of its members' rating after
their last game of that season, so a season's board, running or past, is one index range.

The model and its parameters are fixed here (:data:`MODEL`, named by :data:`MODEL_NAME`, which is stored with every
rating and rated game, so a change of them shows); a change takes effect for the next games, and a rebuild recomputes
everything under the new one.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

from bot.storage.economy import _check_page
from bot.storage.errors import InvalidValue
from bot.storage.tx import All, Exec, Insert, Many, One, Row, Scalar

if TYPE_CHECKING:
    from bot.storage.core import Core
    from bot.storage.models import Table

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
KAPPA = 0.0001
TAU = MU / 300
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU)
"""openskill's Plackett-Luce model with its usual parameters written out, so that a new release of openskill changing
its defaults cannot change them unseen."""
MODEL_NAME = "openskill PlackettLuce mu=25 sigma=25/3 beta=25/6 kappa=0.0001 tau=25/300"
"""What is stored with every rating and rated game: change it with any change of :data:`MODEL`."""
PROVISIONAL_GAMES = 10
"""A rating is shown as provisional until it counts this many games."""

INSERT_GAME = (
    "INSERT INTO rated_games (guild_id, game, source, table_id, period, season_id, model, finished_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_PLACE = (
    "INSERT INTO rated_places (rated_id, position, user_id, score, place, mu_before, sigma_before, mu_after,"
    " sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, game, period, user_id, mu, sigma, ordinal, games, model, updated_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, period, user_id) DO UPDATE SET"
    " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games,"
    " model = excluded.model, updated_at = excluded.updated_at"
)
UPSERT_SEASON = (
    "INSERT INTO season_ratings (season_id, game, user_id, mu, sigma, ordinal, games, rated)"
    " VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (season_id, game, user_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, ordinal = excluded.ordinal, games = season_ratings.games + 1, rated = excluded.rated"
)
PERIOD = "SELECT coalesce(max(id), 0) FROM seasons WHERE guild_id = ? AND reset_ratings = 1"
RUNNING = "SELECT id FROM seasons WHERE guild_id = ? AND ended_at IS NULL"


# ---------------------------------------------------------------------------------------------------- the model


def ordinal(mu: float, sigma: float) -> float:
    """openskill's conservative ordinal of a rating: mu - 3 sigma (the skill the player is 99.7 % likely to have)."""
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def places(scores: Sequence[int]) -> list[int]:
    """Competition places from scores (higher is better): 1 for the best, equal scores share a place, and the next
    place counts everyone above (scores 5 5 2 → places 1 1 3)."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def rate_members(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """openskill's update of players ``(mu, sigma)``, each a team of one, finishing at ``ranks`` (lower is better,
    equal is a tie): their ``(mu, sigma)`` after, in the same order."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=[int(r) for r in ranks])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


# ---------------------------------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Standing:
    """One seat's final standing in a game: its member (None: a bot, ranked but never rated) and its score (higher is
    better; for a table, chips at the close minus the buy-in)."""

    user_id: int | None
    score: int


@dataclass(frozen=True)
class Rating:
    """A member's rating in one game (of a server and rating period, or a season)."""

    user_id: int
    game: str
    mu: float
    sigma: float
    games: int
    model: str = MODEL_NAME

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class RatingChange:
    """A member's rating before and after one rated game (before: the starting rating for a first game)."""

    user_id: int
    position: int
    place: int
    before: tuple[float, float]
    after: tuple[float, float]


@dataclass(frozen=True)
class RatedGame:
    """A rated game as stored: every seat's place by position, and its members' changes."""

    id: int
    guild_id: int
    game: str
    source: str
    period: int
    season_id: int | None
    places: tuple[int, ...]
    changes: tuple[RatingChange, ...]
    replayed: bool = False


@dataclass(frozen=True)
class RatingEntry:
    """One line of a rating board: competition rank by ordinal (equal ordinals share a rank). On a season's board,
    ``season_games`` is the member's rated games in the season (the rating's ``games`` counts every game of its
    period, earlier seasons' included when the season did not reset the ratings)."""

    rank: int
    rating: Rating
    season_games: int | None = None

    @property
    def user_id(self) -> int:
        return self.rating.user_id


@dataclass(frozen=True)
class RatingPage:
    entries: tuple[RatingEntry, ...]
    total: int
    offset: int
    limit: int


@dataclass(frozen=True)
class MemberRating:
    """A member's rating in one game with their rank among the server's rated members of that game."""

    rating: Rating
    rank: int
    total: int


@dataclass(frozen=True)
class Rebuilt:
    """What :meth:`RatingQueries.rebuild` did: the games it replayed, the ratings it wrote (current and per season),
    and how many stored rows differed from the replay (each corrected)."""

    games: int
    ratings: int
    season_ratings: int
    differed: int


# ---------------------------------------------------------------------------------------------------- rating a game


async def rate_game(
    guild_id: int,
    game: str,
    standings: Sequence[Standing],
    *,
    source: str,
    now: float,
    table_id: int | None = None,
) -> RatedGame | None:
    """Inside a transaction: rate one finished game from its final standings (by seat position), once per
    ``source``; None when it does not count (fewer than two members). A ``source`` already rated gives what was
    stored, marked ``replayed``, and changes nothing."""
    stored = await One("SELECT id FROM rated_games WHERE source = ?", (source,))
    if stored is not None:
        return await _stored_game(stored["id"], replayed=True)
    members = [(position, s.user_id) for position, s in enumerate(standings) if s.user_id is not None]
    if len(members) < 2:
        return None
    users = [user for _, user in members]
    if len(set(users)) != len(users):
        raise InvalidValue("storage.rating_member_twice", f"a member holds two seats in {source}", source=source)
    period = int(await Scalar(PERIOD, (guild_id,)) or 0)
    season_id = await Scalar(RUNNING, (guild_id,))
    rows = await All(
        f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ? AND period = ?"
        f" AND user_id IN ({', '.join('?' * len(users))})",
        (guild_id, game, period, *users),
    )
    known = {row["user_id"]: (float(row["mu"]), float(row["sigma"]), int(row["games"])) for row in rows}
    place = places([s.score for s in standings])
    before = [known.get(user, (MU, SIGMA, 0))[:2] for user in users]
    after = rate_members(before, [place[position] for position, _ in members])
    rated_id = await Insert(INSERT_GAME, (guild_id, game, source, table_id, period, season_id, MODEL_NAME, now))
    changes = {
        position: RatingChange(user, position, place[position], b, a)
        for (position, user), b, a in zip(members, before, after, strict=True)
    }
    await Many(INSERT_PLACE, [_place_row(rated_id, p, s, place[p], changes.get(p)) for p, s in enumerate(standings)])
    counted = {user: games for user, (_, _, games) in known.items()}
    rows_after = [
        (guild_id, game, period, c.user_id, *c.after, ordinal(*c.after), counted.get(c.user_id, 0) + 1, MODEL_NAME, now)
        for c in changes.values()
    ]
    await Many(UPSERT_RATING, rows_after)
    if season_id is not None:
        await Many(UPSERT_SEASON, [(season_id, game, *row[3:8]) for row in rows_after])
    return RatedGame(rated_id, guild_id, game, source, period, season_id, tuple(place), tuple(changes.values()))


def _place_row(
    rated_id: int, position: int, standing: Standing, place: int, change: RatingChange | None
) -> tuple[Any, ...]:
    rating: tuple[Any, ...] = (None,) * 4 if change is None else (*change.before, *change.after)
    return (rated_id, position, standing.user_id, standing.score, place, *rating)


async def _stored_game(rated_id: int, *, replayed: bool) -> RatedGame:
    row = await One("SELECT * FROM rated_games WHERE id = ?", (rated_id,))
    assert row is not None
    seats = await All("SELECT * FROM rated_places WHERE rated_id = ? ORDER BY position", (rated_id,))
    changes = tuple(
        RatingChange(
            s["user_id"],
            s["position"],
            s["place"],
            (float(s["mu_before"]), float(s["sigma_before"])),
            (float(s["mu_after"]), float(s["sigma_after"])),
        )
        for s in seats
        if s["user_id"] is not None
    )
    return RatedGame(
        row["id"],
        row["guild_id"],
        row["game"],
        row["source"],
        row["period"],
        row["season_id"],
        tuple(int(s["place"]) for s in seats),
        changes,
        replayed,
    )


def table_standings(table: Table) -> list[Standing]:
    """A table's final standings as it closes: each seat (by position) with its stack minus its buy-in."""
    return [Standing(seat.user_id, seat.stack - seat.buy_in) for seat in table.seats]


async def rate_table(table: Table, now: float) -> RatedGame | None:
    """Inside the closing transaction of a table whose game ended by itself: rate it, unless it does not count (a
    practice table, fewer than two members)."""
    if table.practice:
        return None
    return await rate_game(
        table.guild_id, table.game, table_standings(table), source=f"table:{table.id}", now=now, table_id=table.id
    )


# ---------------------------------------------------------------------------------------------------- rebuilding


@dataclass
class _Replay:
    """Every rating replayed from the stored standings of one server's game."""

    ratings: dict[tuple[int, int], tuple[float, float, int, float]]
    """(period, member) → mu, sigma, games, when last rated."""
    seasons: dict[tuple[int, int], tuple[float, float, int, int]]
    """(season, member) → mu, sigma, games in the season, games the rating counts."""
    places: list[tuple[float, float, float, float, int, int]]
    """Each member seat's rating before and after, with its (rated game, position)."""


def replay(games: Sequence[tuple[int, int, int | None, float, Sequence[tuple[int, int, int]]]]) -> _Replay:
    """Replay rated games ``(id, period, season, finished_at, [(position, member, place)])`` in the order given (their
    ids'), each member seat only (bots are not rated), from the starting rating of each member and period."""
    out = _Replay({}, {}, [])
    for rated_id, period, season_id, finished_at, members in games:
        before = [out.ratings.get((period, user), (MU, SIGMA, 0, 0.0))[:2] for _, user, _ in members]
        after = rate_members(before, [place for _, _, place in members])
        for (position, user, _), b, a in zip(members, before, after, strict=True):
            games_before = out.ratings.get((period, user), (MU, SIGMA, 0, 0.0))[2]
            out.ratings[(period, user)] = (*a, games_before + 1, finished_at)
            if season_id is not None:
                in_season = out.seasons.get((season_id, user), (MU, SIGMA, 0, 0))[2]
                out.seasons[(season_id, user)] = (*a, in_season + 1, games_before + 1)
            out.places.append((*b, *a, rated_id, position))
    return out


# ---------------------------------------------------------------------------------------------------- the queries


def _rating(row: Row, game: str, model: str | None = None) -> Rating:
    """A rating from a ``ratings`` row (or a ``season_ratings`` row, with the model named)."""
    name = model if model is not None else row["model"]
    return Rating(row["user_id"], game, float(row["mu"]), float(row["sigma"]), int(row["games"]), name)


class RatingQueries:
    def __init__(self, db: Core) -> None:
        self.db = db

    async def rate(
        self, guild_id: int, game: str, standings: Sequence[Standing], *, source: str, table_id: int | None = None
    ) -> RatedGame | None:
        """Rate one finished game from its final standings (by seat position; None: a bot) in its own transaction,
        once per ``source``: what a feature with games of its own (a tournament's tables) calls. None when it does
        not count (fewer than two members)."""
        rows = tuple(standings)
        return await self.db._transaction(
            lambda now: rate_game(guild_id, game, rows, source=source, now=now, table_id=table_id)
        )

    async def rated_game(self, source: str) -> RatedGame | None:
        """The stored rated game of ``source`` (``table:<id>``), or None if it was not rated."""

        async def read() -> RatedGame | None:
            rated_id = await Scalar("SELECT id FROM rated_games WHERE source = ?", (source,))
            return None if rated_id is None else await _stored_game(rated_id, replayed=False)

        return await self.db._read(read)

    async def period(self, guild_id: int) -> int:
        """The server's rating period: 0, or the id of the last season whose start reset the ratings."""
        return int(await self.db._read(lambda: Scalar(PERIOD, (guild_id,))) or 0)

    async def member(self, guild_id: int, user_id: int, game: str) -> MemberRating | None:
        """The member's current rating in ``game`` with their rank in the server; None if not rated yet."""

        async def read() -> MemberRating | None:
            period = int(await Scalar(PERIOD, (guild_id,)) or 0)
            row = await One(
                "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND period = ? AND user_id = ?",
                (guild_id, game, period, user_id),
            )
            if row is None:
                return None
            where = "guild_id = ? AND game = ? AND period = ?"
            above = await Scalar(
                f"SELECT count(*) FROM ratings WHERE {where} AND ordinal > ?", (guild_id, game, period, row["ordinal"])
            )
            total = await Scalar(f"SELECT count(*) FROM ratings WHERE {where}", (guild_id, game, period))
            return MemberRating(_rating(row, game), 1 + int(above), int(total))

        return await self.db._read(read)

    async def board(
        self, guild_id: int, game: str, *, season_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> RatingPage:
        """Members by rating (ordinal, highest first; ties by user id): the server's current ratings, or a season's
        (each member as after their last game of it). One range of ``ratings_board`` (``season_ratings_board``)."""
        _check_page(offset, limit)

        async def read() -> RatingPage:
            params: tuple[object, ...]
            if season_id is None:
                period = int(await Scalar(PERIOD, (guild_id,)) or 0)
                table, where, params = "ratings", "guild_id = ? AND game = ? AND period = ?", (guild_id, game, period)
                columns, model = "user_id, mu, sigma, ordinal, games, model", None
            else:
                table, where, params = "season_ratings", "season_id = ? AND game = ?", (season_id, game)
                columns, model = "user_id, mu, sigma, ordinal, rated AS games, games AS season_games", MODEL_NAME
            total = await Scalar(f"SELECT count(*) FROM {table} WHERE {where}", params)
            rows = await All(
                f"SELECT {columns} FROM {table} WHERE {where} ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?",
                (*params, limit, offset),
            )
            entries: list[RatingEntry] = []
            for i, row in enumerate(rows):
                if entries and row["ordinal"] == entries[-1].rating.ordinal:
                    rank = entries[-1].rank
                elif i == 0:
                    rank = 1 + int(
                        await Scalar(
                            f"SELECT count(*) FROM {table} WHERE {where} AND ordinal > ?", (*params, row["ordinal"])
                        )
                    )
                else:
                    rank = offset + i + 1
                in_season = None if season_id is None else int(row["season_games"])
                entries.append(RatingEntry(rank, _rating(row, game, model), in_season))
            return RatingPage(tuple(entries), int(total), offset, limit)

        return await self.db._read(read)

    async def rebuild(self, guild_id: int, game: str, *, attempts: int = 5) -> Rebuilt:
        """Recompute every rating of the server's game from the stored standings (every period, and every season's),
        compare with what is stored, and write the replay over it in one transaction: the report says how many rows
        differed (0 when the updates made one game at a time agree with the replay, as they should). The replay is
        worked out off the event loop; if a game of this server and game is rated meanwhile, it starts again."""
        for _ in range(attempts):
            source = await self.db._read(lambda: _rebuild_source(guild_id, game))
            done = await asyncio.to_thread(replay, source.games)
            result = await self.db._transaction(functools.partial(_write_rebuild, guild_id, game, source, done))
            if result is not None:
                return result
        raise InvalidValue("storage.rating_rebuild_busy", f"{game} kept being rated during the rebuild", game=game)


@dataclass(frozen=True)
class _Source:
    games: list[tuple[int, int, int | None, float, list[tuple[int, int, int]]]]
    last_id: int
    places: set[tuple[float, float, float, float, int, int]]
    """Each member seat's stored rating before and after, with its (rated game, position)."""
    ratings: dict[tuple[int, int], tuple[float, float, float, int, str, float]]
    seasons: dict[tuple[int, int], tuple[float, float, float, int, int]]


async def _rebuild_source(guild_id: int, game: str) -> _Source:
    """Inside a read: the server's rated games of ``game`` in id order with their members' places, and the ratings
    stored now (to compare)."""
    rows = await All(
        "SELECT g.id, g.period, g.season_id, g.finished_at, p.position, p.user_id, p.place, p.mu_before,"
        " p.sigma_before, p.mu_after, p.sigma_after FROM rated_games g"
        " JOIN rated_places p ON p.rated_id = g.id WHERE g.guild_id = ? AND g.game = ? AND p.user_id IS NOT NULL"
        " ORDER BY g.id, p.position",
        (guild_id, game),
    )
    games: list[tuple[int, int, int | None, float, list[tuple[int, int, int]]]] = []
    places: set[tuple[float, float, float, float, int, int]] = set()
    for row in rows:
        if not games or games[-1][0] != row["id"]:
            games.append((row["id"], row["period"], row["season_id"], float(row["finished_at"]), []))
        games[-1][4].append((row["position"], row["user_id"], row["place"]))
        before_after = (row["mu_before"], row["sigma_before"], row["mu_after"], row["sigma_after"])
        places.add((*(float(v) for v in before_after), row["id"], row["position"]))
    last = int(
        await Scalar("SELECT coalesce(max(id), 0) FROM rated_games WHERE guild_id = ? AND game = ?", (guild_id, game))
        or 0
    )
    stored = await All("SELECT * FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
    seasons = await All(
        "SELECT r.* FROM season_ratings r JOIN seasons s ON s.id = r.season_id WHERE s.guild_id = ? AND r.game = ?",
        (guild_id, game),
    )
    return _Source(
        games,
        last,
        places,
        {
            (r["period"], r["user_id"]): (
                float(r["mu"]),
                float(r["sigma"]),
                float(r["ordinal"]),
                int(r["games"]),
                r["model"],
                float(r["updated_at"]),
            )
            for r in stored
        },
        {
            (r["season_id"], r["user_id"]): (
                float(r["mu"]),
                float(r["sigma"]),
                float(r["ordinal"]),
                int(r["games"]),
                int(r["rated"]),
            )
            for r in seasons
        },
    )


async def _write_rebuild(guild_id: int, game: str, source: _Source, done: _Replay, now: float) -> Rebuilt | None:
    """Inside a transaction: write the replay over the stored ratings, unless a game was rated since it was read
    (None: read again)."""
    last = int(
        await Scalar("SELECT coalesce(max(id), 0) FROM rated_games WHERE guild_id = ? AND game = ?", (guild_id, game))
        or 0
    )
    if last != source.last_id:
        return None
    ratings = {
        key: (mu, sigma, ordinal(mu, sigma), games, MODEL_NAME, at)
        for key, (mu, sigma, games, at) in done.ratings.items()
    }
    seasons = {
        key: (mu, sigma, ordinal(mu, sigma), games, rated) for key, (mu, sigma, games, rated) in done.seasons.items()
    }
    wrong = sum(1 for key in ratings.keys() | source.ratings.keys() if ratings.get(key) != source.ratings.get(key))
    if wrong:
        await Exec("DELETE FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
        await Many(
            UPSERT_RATING,
            [(guild_id, game, period, user, *values) for (period, user), values in sorted(ratings.items())],
        )
    wrong_seasons = sum(
        1 for key in seasons.keys() | source.seasons.keys() if seasons.get(key) != source.seasons.get(key)
    )
    if wrong_seasons:
        await Exec(
            "DELETE FROM season_ratings WHERE game = ? AND season_id IN (SELECT id FROM seasons WHERE guild_id = ?)",
            (game, guild_id),
        )
        await Many(
            "INSERT INTO season_ratings (season_id, game, user_id, mu, sigma, ordinal, games, rated)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(season, game, user, *values) for (season, user), values in sorted(seasons.items())],
        )
    differed = wrong + wrong_seasons
    changed = [row for row in done.places if row not in source.places]
    differed += len(changed)
    if changed:
        await Many(
            "UPDATE rated_places SET mu_before = ?, sigma_before = ?, mu_after = ?, sigma_after = ?"
            " WHERE rated_id = ? AND position = ?",
            changed,
        )
    return Rebuilt(len(source.games), len(ratings), len(seasons), differed)
