"""Seasons (``/season start|end|show``, ``/leaderboard … season:``): a server's fresh starts, and the boards of each
season, running or past (migration 0012).

A moderator starts a season (at most one runs in a server at a time; names are unique in a server, whatever their
case) and ends it. A season counts the chip deals settled while it ran: the deals whose hand ids are from
``first_hand``, the next id when it started, to ``last_hand``, the last when it ended. (Hand ids grow with every
settled deal; on PostgreSQL a deal being settled at the very moment a season starts or ends may fall either side.)

* **Chips won** in a season: each member's net over those deals (``deal_seats``: their chips for each deal, per game).
  While the season runs, one range of the ``deal_seats_guild`` index (which holds every column read) summed per
  member; when it ends the sums are kept (``season_chips``, per game and for every game, ``*``), so a past season's
  board is one index range.
* **Rating** in a season: each member's rating after their last rated game of it (``season_ratings``, written with
  every rated game: :mod:`bot.storage.ratings`).

Starting a season may **reset balances**: every wallet of the server is brought to the server's starting balance by
one movement per member, ``grant`` or ``take`` against the mint, as ``/chips grant|take`` are, keyed
``season_reset:<season>:<member>`` and noted ``season reset: <name>``, so the ledger still sums to zero and says why.
It is refused while any chip table of the server is open (a lobby's buy-ins or a game's stacks would come back on top
of the reset balance): stop them first. It may also **reset ratings**: the season begins a new rating period, and the
ratings before it stay stored (a past season's board shows them as they were). Both happen in the transaction that
starts the season, or not at all.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.storage.core import Leg
from bot.storage.economy import _check_page, _ranked
from bot.storage.errors import InvalidState, InvalidValue, NotFound
from bot.storage.models import LeaderboardPage
from bot.storage.tx import All, Exec, Insert, One, Row, Scalar

if TYPE_CHECKING:
    from bot.storage.core import Core

NAME_LIMIT = 40
"""The longest season name, in characters."""
ALL_GAMES = "*"
"""``season_chips.game`` of a member's chips over every game."""
DEALS = "deal_seats INDEXED BY deal_seats_guild"
"""A season's deals are one range of this index, which holds every column read (SQLite's planner, without statistics,
might otherwise group along a member's index; PostgreSQL gets the statement without the hint)."""


@dataclass(frozen=True)
class Season:
    id: int
    guild_id: int
    name: str
    started_at: float
    started_by: int
    first_hand: int
    reset_balances: bool
    reset_ratings: bool
    ended_at: float | None = None
    ended_by: int | None = None
    last_hand: int | None = None

    @property
    def running(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True)
class SeasonStart:
    """A season started: how many balances its start reset, and the chips that granted and took in all."""

    season: Season
    reset: int
    granted: int
    taken: int


@dataclass(frozen=True)
class SeasonFigures:
    """A season in numbers: its settled chip deals, rated games, and members who played a chip deal in it."""

    deals: int
    rated_games: int
    members: int


def _season(row: Row) -> Season:
    return Season(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        started_at=float(row["started_at"]),
        started_by=row["started_by"],
        first_hand=row["first_hand"],
        reset_balances=bool(row["reset_balances"]),
        reset_ratings=bool(row["reset_ratings"]),
        ended_at=None if row["ended_at"] is None else float(row["ended_at"]),
        ended_by=row["ended_by"],
        last_hand=row["last_hand"],
    )


def clean_name(name: str) -> str:
    """A season's name as stored: its spaces collapsed; refused (``seasons.bad_name``) when empty, longer than
    :data:`NAME_LIMIT` or holding control characters."""
    cleaned = " ".join(str(name).split())
    if not cleaned or len(cleaned) > NAME_LIMIT or any(unicodedata.category(c).startswith("C") for c in cleaned):
        raise InvalidValue("seasons.bad_name", f"bad season name {name!r}", limit=NAME_LIMIT)
    return cleaned


def name_key(name: str) -> str:
    """What two names of one server must not share: the name casefolded (``Spring`` and ``SPRING`` are one)."""
    return unicodedata.normalize("NFKC", " ".join(str(name).split())).casefold()


async def _running(guild_id: int) -> Season | None:
    row = await One("SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
    return None if row is None else _season(row)


async def _named(guild_id: int, name: str) -> Season | None:
    row = await One("SELECT * FROM seasons WHERE guild_id = ? AND name_key = ?", (guild_id, name_key(name)))
    return None if row is None else _season(row)


def _chips_range(season: Season, game: str | None) -> tuple[str, tuple[object, ...]]:
    """The WHERE clause (and its parameters) of a season's chip deals in ``deal_seats``: one range of
    ``deal_seats_guild``."""
    where = "guild_id = ? AND hand_id >= ? AND practice = 0"
    params: tuple[object, ...] = (season.guild_id, season.first_hand)
    if season.last_hand is not None:
        where += " AND hand_id <= ?"
        params += (season.last_hand,)
    if game is not None:
        where += " AND game = ?"
        params += (game,)
    return where, params


class SeasonQueries:
    def __init__(self, db: Core) -> None:
        self.db = db

    # ------------------------------------------------------------------ starting and ending

    async def start(
        self, guild_id: int, name: str, *, actor_id: int, reset_balances: bool = False, reset_ratings: bool = False
    ) -> SeasonStart:
        """Start a season named ``name``, resetting balances and ratings if asked, in one transaction. Refused
        (nothing written) while another season runs (``seasons.already_running``), when the name is taken
        (``seasons.name_taken``) or bad (``seasons.bad_name``), and when balances are to be reset while chip tables
        are open (``seasons.tables_open``)."""
        cleaned = clean_name(name)
        key = name_key(cleaned)

        async def tx(now: float) -> SeasonStart:
            running = await _running(guild_id)
            if running is not None:
                raise InvalidState("seasons.already_running", f"season {running.name} runs", name=running.name)
            if await _named(guild_id, cleaned) is not None:
                raise InvalidValue("seasons.name_taken", f"a season {cleaned} exists", name=cleaned)
            if reset_balances:
                open_tables = int(
                    await Scalar(
                        "SELECT count(*) FROM tables WHERE guild_id = ? AND status IN ('lobby', 'playing')"
                        " AND practice = 0",
                        (guild_id,),
                    )
                    or 0
                )
                if open_tables:
                    raise InvalidState("seasons.tables_open", f"{open_tables} chip tables open", count=open_tables)
            first_hand = int(await Scalar("SELECT coalesce(max(id), 0) FROM hand_history") or 0) + 1
            season_id = await Insert(
                "INSERT INTO seasons (guild_id, name, name_key, started_at, started_by, first_hand, reset_balances,"
                " reset_ratings) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, cleaned, key, now, actor_id, first_hand, int(reset_balances), int(reset_ratings)),
            )
            season = Season(season_id, guild_id, cleaned, now, actor_id, first_hand, reset_balances, reset_ratings)
            reset = granted = taken = 0
            if reset_balances:
                reset, granted, taken = await self._reset_balances(season, actor_id, now)
            return SeasonStart(season, reset, granted, taken)

        return await self.db._transaction(tx)

    async def _reset_balances(self, season: Season, actor_id: int, now: float) -> tuple[int, int, int]:
        """Inside the start: every wallet of the server brought to the starting balance, one movement per member
        against the mint. Returns how many were reset, and the chips granted and taken."""
        starting = (await self.db._config(season.guild_id)).starting_balance
        wallets = await All(
            "SELECT user_id, balance FROM wallets WHERE guild_id = ? AND balance <> ? ORDER BY user_id",
            (season.guild_id, starting),
        )
        granted = taken = 0
        for row in wallets:
            user_id, change = row["user_id"], starting - int(row["balance"])
            reason = "grant" if change > 0 else "take"
            await self.db._move(
                season.guild_id,
                reason,
                f"season_reset:{season.id}:{user_id}",
                [Leg("mint", -change), Leg("wallet", change, user_id=user_id)],
                now,
                actor_id=actor_id,
                note=f"season reset: {season.name}",
            )
            if change > 0:
                granted += change
            else:
                taken -= change
        return len(wallets), granted, taken

    async def end(self, guild_id: int, *, actor_id: int) -> Season:
        """End the running season: its last deal is the last settled now, and its members' chips won are kept.
        Refused (``seasons.none_running``) when no season runs."""

        async def tx(now: float) -> Season:
            running = await _running(guild_id)
            if running is None:
                raise InvalidState("seasons.none_running", "no season runs")
            last_hand = int(await Scalar("SELECT coalesce(max(id), 0) FROM hand_history") or 0)
            await Exec(
                "UPDATE seasons SET ended_at = ?, ended_by = ?, last_hand = ? WHERE id = ?",
                (now, actor_id, last_hand, running.id),
            )
            ended = dataclasses.replace(running, ended_at=now, ended_by=actor_id, last_hand=last_hand)
            where, params = _chips_range(ended, None)
            await Exec(
                "INSERT INTO season_chips (season_id, game, user_id, net, deals)"
                f" SELECT CAST(? AS BIGINT), game, user_id, sum(delta), count(*) FROM {DEALS} WHERE {where}"
                " GROUP BY game, user_id",
                (running.id, *params),
            )
            await Exec(
                "INSERT INTO season_chips (season_id, game, user_id, net, deals)"
                " SELECT CAST(? AS BIGINT), CAST(? AS TEXT), user_id, sum(delta), count(*)"
                f" FROM {DEALS} WHERE {where} GROUP BY user_id",
                (running.id, ALL_GAMES, *params),
            )
            return ended

        return await self.db._transaction(tx)

    # ------------------------------------------------------------------ reading

    async def running(self, guild_id: int) -> Season | None:
        return await self.db._read(lambda: _running(guild_id))

    async def named(self, guild_id: int, name: str) -> Season | None:
        """The server's season of that name (whatever its case), or None."""
        return await self.db._read(lambda: _named(guild_id, name))

    async def find(self, guild_id: int, name: str) -> Season:
        """The server's season of that name, or :class:`NotFound` (``seasons.unknown``)."""
        season = await self.named(guild_id, name)
        if season is None:
            raise NotFound("seasons.unknown", f"no season {name!r}", name=" ".join(str(name).split())[:NAME_LIMIT])
        return season

    async def get(self, season_id: int) -> Season | None:
        row = await self.db._read(lambda: One("SELECT * FROM seasons WHERE id = ?", (season_id,)))
        return None if row is None else _season(row)

    async def list(self, guild_id: int, *, limit: int = 25) -> list[Season]:
        """The server's seasons, newest first."""
        rows = await self.db._read(
            lambda: All("SELECT * FROM seasons WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, limit))
        )
        return [_season(row) for row in rows]

    async def chips_board(
        self, season: Season, game: str | None = None, *, offset: int = 0, limit: int = 10
    ) -> LeaderboardPage:
        """Members by chips won in the season (net over its chip deals, of one game or all), highest first (ties by
        user id), each with the deals counted. A past season's board is one range of ``season_chips_board``; a
        running season's sums one range of the server's deals (``deal_seats_guild``) per member."""
        _check_page(offset, limit)
        if season.running:
            where, params = _chips_range(season, game)
            rows = await self.db._read(
                lambda: All(
                    f"SELECT user_id, sum(delta) AS net, count(*) AS deals FROM {DEALS} WHERE {where} GROUP BY user_id",
                    params,
                )
            )
            ordered = sorted(
                ((r["user_id"], int(r["net"]), int(r["deals"])) for r in rows), key=lambda r: (-r[1], r[0])
            )
            page = ordered[offset : offset + limit]
            first = 1 + sum(1 for r in ordered if page and r[1] > page[0][1])
            return LeaderboardPage(_ranked(page, first, offset, stats=True), len(ordered), offset, limit)
        chosen = game if game is not None else ALL_GAMES

        async def read() -> LeaderboardPage:
            total = await Scalar(
                "SELECT count(*) FROM season_chips WHERE season_id = ? AND game = ?", (season.id, chosen)
            )
            rows = await All(
                "SELECT user_id, net, deals FROM season_chips WHERE season_id = ? AND game = ?"
                " ORDER BY net DESC, user_id LIMIT ? OFFSET ?",
                (season.id, chosen, limit, offset),
            )
            first = 1
            if rows:
                first += int(
                    await Scalar(
                        "SELECT count(*) FROM season_chips WHERE season_id = ? AND game = ? AND net > ?",
                        (season.id, chosen, rows[0][1]),
                    )
                )
            return LeaderboardPage(_ranked(list(rows), first, offset, stats=True), int(total), offset, limit)

        return await self.db._read(read)

    async def figures(self, season: Season) -> SeasonFigures:
        """The season's settled chip deals, rated games and members who played."""
        where, params = _chips_range(season, None)

        async def read() -> SeasonFigures:
            deals = await Scalar(f"SELECT count(DISTINCT hand_id) FROM {DEALS} WHERE {where}", params)
            members = await Scalar(f"SELECT count(DISTINCT user_id) FROM {DEALS} WHERE {where}", params)
            rated = await Scalar("SELECT count(*) FROM rated_games WHERE season_id = ?", (season.id,))
            return SeasonFigures(int(deals or 0), int(rated or 0), int(members or 0))

        return await self.db._read(read)
