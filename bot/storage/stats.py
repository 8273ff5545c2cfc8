"""A member's statistics (``/stats``): what each settled deal gave each member, written as the deal settles, and
read back as one aggregate (``deal_facts``, migration 0008).

Which facts a deal gives a seat is the game's own declaration (``games/<game>/stats.py``: ``FACTS`` and
``facts(result, seat)``), read from the deal's summary as the hand history stores it; this module adds the facts
every deal has (:data:`BASE_FACTS`: ``deals``, ``won``, ``lost``) and does the SQL:

* :func:`record_deal`, a body awaited by the settling transaction (``bot/storage/tables/settlement.py``): the deal's
  member seats (``deal_seats``, what ``/history`` pages through) and, at a chip table, their facts;
* :meth:`StatsQueries.member_stats`, one statement over the ``deal_facts_member`` index: per game and fact, how many
  deals gave it and its total;
* :meth:`StatsQueries.backfill`, the data step for deals settled before facts were kept: their game facts derived
  from their stored summaries, a chunk at a time (the migration cannot run Python; the stats cog runs it in the
  background at start, and any number of processes may run it at once).

Nothing private is ever a fact: a summary holds only what the deal's results message shows everyone.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import asyncio
import functools
import importlib
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from bot.storage.tx import All, Exec, Many
from games.core.engine import DealResult
from games.core.errors import RecordError
from games.registry import all_games

if TYPE_CHECKING:
    from bot.storage.core import Core
    from bot.storage.models import Seat, Table

log = logging.getLogger(__name__)

BASE_FACTS: tuple[str, ...] = ("deals", "won", "lost")
"""Every chip deal's facts for each member seat: ``deals`` (value 1 when the game's own facts of the deal are
stored, 0 when they could not be known), ``won`` (the chips of a deal won) and ``lost`` (of one lost, negative)."""

BACKFILL_CHUNK = 200
"""Deals whose facts :meth:`StatsQueries.backfill` derives at a time (one read, one write transaction)."""

INSERT_SEAT = (
    "INSERT INTO deal_seats (guild_id, user_id, hand_id, position, game, delta, table_id, deal_no, created_at,"
    " channel_id, parent_id, seated, seat_id, practice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_FACT = "INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value) VALUES (?, ?, ?, ?, ?, ?)"


class GameStats(Protocol):
    """A game's ``games/<game>/stats.py``."""

    FACTS: tuple[str, ...]

    def facts(self, result: DealResult[Any], seat: int) -> dict[str, int]: ...


@functools.cache
def game_stats(game: str) -> GameStats | None:
    """The game's statistics module; None for a game that declares none (its deals give only the base facts)."""
    name = f"games.{game}.stats"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name in (name, f"games.{game}"):
            return None
        raise
    return cast(GameStats, module)


def seat_facts(
    game: str, deal_no: int, deltas: Sequence[int], summary: Mapping[str, Any]
) -> list[dict[str, int]] | None:
    """Each seat's game facts of a settled deal (by position), from its summary as stored and its chip ``deltas``;
    None when they cannot be known: a game without statistics, a summary its result type cannot read (one from an
    engine too old), or a declaration that failed on it (logged: settling never fails for the statistics)."""
    spec = all_games().get(game)
    if game_stats(game) is None or spec is None:
        return None
    try:
        detail = spec.result.from_json(summary)
    except RecordError:
        return None
    return result_facts(game, DealResult(deal_no, tuple(deltas), detail, pot=-sum(deltas)))


def result_facts(game: str, result: DealResult[Any]) -> list[dict[str, int]] | None:
    """Each seat's game facts of a settled deal (by position), from its result with ``deltas`` in chips: what a live
    table passes with the deal to settle (:class:`~bot.storage.DealToSettle`), so the settling transaction does not
    read the summary back. None as for :func:`seat_facts`."""
    stats = game_stats(game)
    if stats is None:
        return None
    declared = set(stats.FACTS)
    try:
        found = [stats.facts(result, seat) for seat in range(len(result.deltas))]
        for facts in found:
            unknown = [fact for fact in facts if fact not in declared or not isinstance(facts[fact], int)]
            if unknown:
                raise ValueError(f"facts not declared in {game}'s FACTS (or not whole numbers): {unknown}")
    except Exception:
        log.exception("%s deal %s: its statistics could not be derived", game, result.deal)
        return None
    return found


def fact_rows(
    hand_id: int,
    guild_id: int,
    game: str,
    members: Sequence[tuple[int, int, int]],
    facts: Sequence[Mapping[str, int]] | None,
) -> list[tuple[int, int, int, str, str, int]]:
    """``deal_facts`` rows of one deal for its ``members`` ``(user id, position, chips)``: the base facts, and each
    one's game facts when known (``facts`` by position)."""
    rows: list[tuple[int, int, int, str, str, int]] = []
    for user_id, position, delta in members:
        rows.append((hand_id, guild_id, user_id, game, "deals", int(facts is not None)))
        if delta:
            rows.append((hand_id, guild_id, user_id, game, "won" if delta > 0 else "lost", delta))
        if facts is not None:
            rows.extend(game_fact_rows(hand_id, guild_id, user_id, game, facts[position]))
    return rows


def game_fact_rows(
    hand_id: int, guild_id: int, user_id: int, game: str, facts: Mapping[str, int]
) -> list[tuple[int, int, int, str, str, int]]:
    return [(hand_id, guild_id, user_id, game, fact, value) for fact, value in facts.items() if value]


BOT_MARK = "🤖 "
"""Before a bot player's name in a deal's ``seated`` line."""


def seated_line(seats: Sequence[Seat]) -> str:
    """Who sat at a deal, by position, as ``/history`` lists them: ``"alice, bob, 🤖 Tanuki"`` (a member's name as
    when they sat down; a bot's marked). Kept with each member's row of the deal (``deal_seats.seated``), so a page
    reads no seat."""
    return ", ".join(BOT_MARK + s.name if s.is_bot else s.name for s in seats)


async def record_deal(
    hand_id: int,
    table: Table,
    deal_no: int,
    seats: Sequence[Seat],
    deltas: Sequence[int],
    summary: Mapping[str, Any],
    now: float,
    *,
    facts: Sequence[Mapping[str, int]] | None = None,
) -> None:
    """Inside the settling transaction: the deal's member seats (each with what a /history line shows: who sat, by
    position) and, at a chip table, their facts (``facts``, by position, when the caller derived them from the typed
    result; else from the summary)."""
    members = [(s.user_id, s.position, s.id, d) for s, d in zip(seats, deltas, strict=True) if s.user_id is not None]
    if not members:
        return
    game, guild_id, practice = table.game, table.guild_id, table.practice
    seated = seated_line(seats)
    place = (table.id, deal_no, now, table.channel_id, table.parent_id, seated)
    await Many(
        INSERT_SEAT,
        [
            (guild_id, user, hand_id, position, game, delta, *place, seat_id, int(practice))
            for user, position, seat_id, delta in members
        ],
    )
    if practice:
        return
    if facts is None:
        facts = seat_facts(game, deal_no, deltas, summary)
    rows = fact_rows(hand_id, guild_id, game, [(user, position, delta) for user, position, _, delta in members], facts)
    await Many(INSERT_FACT, rows)


# ---------------------------------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Figure:
    """One fact over a member's deals: how many deals gave it, and its total."""

    count: int = 0
    total: int = 0


NONE = Figure()


@dataclass(frozen=True)
class GameFigures:
    """A member's figures in one game: every fact (:data:`BASE_FACTS` and the game's own) by name."""

    game: str
    figures: Mapping[str, Figure] = field(default_factory=dict)

    def __getitem__(self, fact: str) -> Figure:
        return self.figures.get(fact, NONE)

    @property
    def deals(self) -> int:
        return self["deals"].count

    @property
    def counted(self) -> int:
        """Deals whose game facts are stored (the game's own figures count these)."""
        return self["deals"].total

    @property
    def won(self) -> int:
        return self["won"].count

    @property
    def net(self) -> int:
        return self["won"].total + self["lost"].total


@dataclass(frozen=True)
class MemberStats:
    """A member's figures in one server, per game played (chip deals only), in the registry's order."""

    games: tuple[GameFigures, ...]

    @property
    def deals(self) -> int:
        return sum(g.deals for g in self.games)

    @property
    def won(self) -> int:
        return sum(g.won for g in self.games)

    @property
    def net(self) -> int:
        return sum(g.net for g in self.games)

    def of(self, game: str) -> GameFigures:
        return next((g for g in self.games if g.game == game), GameFigures(game))


def stats_query(guild_id: int, user_id: int, *, game: str | None) -> tuple[str, tuple[object, ...]]:
    """The statement of :meth:`StatsQueries.member_stats` and its parameters."""
    sql = (
        "SELECT game, fact, count(*) AS n, sum(value) AS total FROM deal_facts WHERE guild_id = ? AND user_id = ?"
        + (" AND game = ?" if game is not None else "")
        + " GROUP BY game, fact"
    )
    return sql, ((guild_id, user_id) if game is None else (guild_id, user_id, game))


class StatsQueries:
    def __init__(self, db: Core) -> None:
        self.db = db

    async def member_stats(self, guild_id: int, user_id: int, *, game: str | None = None) -> MemberStats:
        """The member's figures in the guild (of one game): one statement, an aggregate over one range of the
        ``deal_facts_member`` index, which holds every column it reads."""
        sql, params = stats_query(guild_id, user_id, game=game)
        rows = await self.db._read(lambda: All(sql, params))
        found: dict[str, dict[str, Figure]] = {}
        for row in rows:
            found.setdefault(row["game"], {})[row["fact"]] = Figure(int(row["n"]), int(row["total"]))
        order = list(all_games())
        games = sorted(found, key=lambda g: (order.index(g) if g in order else len(order), g))
        return MemberStats(tuple(GameFigures(g, found[g]) for g in games))

    # ------------------------------------------------------------------ the data step for older deals

    async def backfill(self, chunk: int = BACKFILL_CHUNK) -> int:
        """Derive the game facts of up to ``chunk`` deals settled before facts were kept (``deal_facts_pending``),
        oldest first, from their stored summaries (worked out on a thread, off the event loop), and write them in
        one transaction that takes those deals off the queue; a deal another process took meanwhile is left to it.
        Returns how many deals were read (0: the queue is empty)."""

        async def read() -> tuple[list[Any], list[Any]]:
            hands = await All(
                "SELECT h.id, h.guild_id, h.game, h.deal_no, h.deltas, h.summary FROM deal_facts_pending p"
                " JOIN hand_history h ON h.id = p.hand_id ORDER BY p.hand_id LIMIT ?",
                (chunk,),
            )
            if not hands:
                return [], []
            ids = [h["id"] for h in hands]
            members = await All(
                f"SELECT hand_id, position, user_id FROM deal_seats WHERE hand_id IN ({', '.join('?' * len(ids))})"
                " AND practice = 0",
                ids,
            )
            return [tuple(h) for h in hands], [tuple(m) for m in members]

        hands, members = await self.db._read(read)
        if not hands:
            return 0
        derived = await asyncio.to_thread(_derive, hands, members)

        async def write(now: float) -> None:
            for hand_id, rows in derived:
                if not await Exec("DELETE FROM deal_facts_pending WHERE hand_id = ?", (hand_id,)):
                    continue  # another process derived it
                if rows is None:
                    continue  # cannot be known: its ``deals`` facts stay 0
                await Exec("UPDATE deal_facts SET value = 1 WHERE hand_id = ? AND fact = 'deals'", (hand_id,))
                if rows:
                    await Many(INSERT_FACT, rows)

        await self.db._transaction(write)
        return len(hands)

    async def pending(self) -> int:
        """Deals whose game facts the backfill has still to derive."""
        rows = await self.db._read(lambda: All("SELECT count(*) AS n FROM deal_facts_pending"))
        return int(rows[0]["n"])


def _derive(
    hands: Sequence[tuple[Any, ...]], members: Sequence[tuple[Any, ...]]
) -> list[tuple[int, list[tuple[int, int, int, str, str, int]] | None]]:
    """For each pending deal ``(id, guild, game, deal, deltas, summary)``: its game facts' rows for its members
    ``(hand, position, user)``, or None when they cannot be known."""
    seated: dict[int, list[tuple[int, int]]] = {}
    for hand_id, position, user_id in members:
        seated.setdefault(hand_id, []).append((position, user_id))
    derived: list[tuple[int, list[tuple[int, int, int, str, str, int]] | None]] = []
    for hand_id, guild_id, game, deal_no, deltas, summary in hands:
        try:
            facts = seat_facts(game, deal_no, json.loads(deltas), json.loads(summary))
        except ValueError:  # JSON that does not parse
            facts = None
        if facts is None:
            derived.append((hand_id, None))
            continue
        rows = [
            row
            for position, user_id in seated.get(hand_id, [])
            if position < len(facts)
            for row in game_fact_rows(hand_id, guild_id, user_id, game, facts[position])
        ]
        derived.append((hand_id, rows))
    return derived
