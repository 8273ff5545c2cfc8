"""Tournaments' storage (migration 0014): the tournament, its entrants, each round's tables and seats, and every chip
it moves.

:class:`TournamentStore` wraps a :class:`~bot.storage.Database` (its reads, transactions and the one place that moves
chips), so this feature's SQL lives here without growing the database class. Each method is one read or one
transaction, and each that changes a tournament checks, inside its transaction, that the tournament is still where
the caller found it (signing up, the round it is in), so a step made twice (a restart, a second bot process) is made
once.

Chips. Only buy-ins and the payout touch balances; the tables play with tournament chips (practice stacks):

* a sign-up moves the buy-in from the member's wallet to the guild's ``tournament`` account (reason ``buy_in``);
* a withdrawal before the start moves it back (``refund``), and so does a cancel, every buy-in in one movement;
* the payout moves the whole pool from the account to the winners' wallets in one movement (``cash_out``).

Every movement's key begins ``tournament:<id>:`` and its note is ``tournament <id>``; ``tournaments.pool`` is what the
tournament holds in the account, so the account's balance is the sum of the pools of the tournaments under way
(:meth:`TournamentStore.escrow_problems` checks both).
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from bot.storage.core import Leg
from bot.storage.errors import InvalidState, NotFound
from bot.storage.models import JsonValue
from bot.storage.tx import All, Exec, Insert, Many, One, Row, Scalar

if TYPE_CHECKING:
    from bot.storage.core import Core

TournamentStatus = Literal["signup", "running", "finished", "cancelled"]
LIVE: tuple[TournamentStatus, ...] = ("signup", "running")


@dataclass(frozen=True)
class Entry:
    """A member signed up: ``score`` is the tournament chips won over the rounds played; ``place`` and ``prize``
    once the tournament is over."""

    user_id: int
    name: str
    buy_in: int
    entered_at: float
    score: int = 0
    place: int | None = None
    prize: int | None = None


@dataclass(frozen=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    game: str
    rules: dict[str, JsonValue]
    buy_in: int
    table_size: int
    rounds: int
    deals_per_round: int
    payout: str
    place: Literal["thread", "channel"]
    lang: str
    seed: str
    start_at: float
    status: TournamentStatus
    round: int
    pool: int
    created_at: float
    ended_at: float | None
    entries: tuple[Entry, ...] = ()
    """Best first once rounds are played (by chips won), else in sign-up order."""

    @property
    def live(self) -> bool:
        return self.status in LIVE

    def entry(self, user_id: int) -> Entry | None:
        return next((e for e in self.entries if e.user_id == user_id), None)


@dataclass(frozen=True)
class RoundTable:
    """One table of a round: the members in seat order (user id, name), its bots, and its table once opened (with
    that table's status)."""

    round: int
    table_no: int
    members: tuple[tuple[int, str], ...]
    bots: int
    table_id: int | None
    status: str | None
    channel_id: int | None = None
    """Where the table is played (its thread, or the channel), once it is."""


@dataclass(frozen=True)
class Plan:
    """A round's seating as a step writes it: for each table, its members in seat order and its bots."""

    tables: Sequence[tuple[Sequence[int], int]]


Planner = Callable[[Mapping[int, int]], Plan]
"""Seats a round from the entrants' scores (user → chips won): run inside the transaction that writes the round, on
the entrants as that transaction reads them (it must only compute: it may run twice on PostgreSQL)."""
Payout = Callable[[Mapping[int, int], int], tuple[Mapping[int, int], Mapping[int, int]]]
"""Shares a pool by the final scores: ``(scores, pool)`` → (each user's place, each user's prize), run inside the
paying transaction as a :data:`Planner` is. The prizes must add up to the pool."""


def _entry(row: Row) -> Entry:
    return Entry(
        row["user_id"],
        row["display_name"],
        row["buy_in"],
        row["entered_at"],
        row["score"],
        row["place"],
        row["prize"],
    )


def _tournament(row: Row, entries: Sequence[Entry] = ()) -> Tournament:
    return Tournament(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        host_id=row["host_id"],
        game=row["game"],
        rules=json.loads(row["rules"]),
        buy_in=row["buy_in"],
        table_size=row["table_size"],
        rounds=row["rounds"],
        deals_per_round=row["deals_per_round"],
        payout=row["payout"],
        place=row["place"],
        lang=row["lang"],
        seed=row["seed"],
        start_at=row["start_at"],
        status=row["status"],
        round=row["round"],
        pool=row["pool"],
        created_at=row["created_at"],
        ended_at=row["ended_at"],
        entries=tuple(entries),
    )


def key_prefix(tournament_id: int) -> str:
    return f"tournament:{tournament_id}:"


class TournamentStore:
    def __init__(self, db: Core) -> None:
        self.db = db

    # ------------------------------------------------------------------ reads

    async def _read_one(self, tournament_id: int) -> Tournament | None:
        row = await One("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        if row is None:
            return None
        entries = await All(
            "SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY score DESC, entered_at, user_id",
            (tournament_id,),
        )
        return _tournament(row, [_entry(e) for e in entries])

    async def get(self, tournament_id: int) -> Tournament | None:
        """The tournament with its entrants, or None."""
        return await self.db._read(lambda: self._read_one(tournament_id))

    async def live(self) -> list[Tournament]:
        """Every tournament signing up or running (without entrants), by start time: what the bot drives."""
        rows = await self.db._read(
            lambda: All("SELECT * FROM tournaments WHERE status IN ('signup', 'running') ORDER BY start_at, id")
        )
        return [_tournament(r) for r in rows]

    async def of_guild(self, guild_id: int, *, limit: int = 10) -> list[Tournament]:
        """A server's tournaments under way, then the latest over, newest first within each (without entrants)."""
        rows = await self.db._read(
            lambda: All(
                "SELECT * FROM tournaments WHERE guild_id = ?"
                " ORDER BY CASE WHEN status IN ('signup', 'running') THEN 0 ELSE 1 END, id DESC LIMIT ?",
                (guild_id, limit),
            )
        )
        return [_tournament(r) for r in rows]

    async def round_tables(self, tournament_id: int, round_no: int) -> list[RoundTable]:
        """The round's tables, each with its members in seat order and its table's status."""

        async def read() -> list[RoundTable]:
            tables = await All(
                "SELECT x.table_no, x.bots, x.table_id, t.status, t.channel_id FROM tournament_tables x"
                " LEFT JOIN tables t ON t.id = x.table_id"
                " WHERE x.tournament_id = ? AND x.round = ? ORDER BY x.table_no",
                (tournament_id, round_no),
            )
            seats = await All(
                "SELECT s.table_no, s.user_id, e.display_name FROM tournament_seats s"
                " JOIN tournament_entries e ON e.tournament_id = s.tournament_id AND e.user_id = s.user_id"
                " WHERE s.tournament_id = ? AND s.round = ? ORDER BY s.table_no, s.position",
                (tournament_id, round_no),
            )
            members: dict[int, list[tuple[int, str]]] = {}
            for seat in seats:
                members.setdefault(seat["table_no"], []).append((seat["user_id"], seat["display_name"]))
            return [
                RoundTable(
                    round_no,
                    t["table_no"],
                    tuple(members.get(t["table_no"], ())),
                    t["bots"],
                    t["table_id"],
                    t["status"],
                    t["channel_id"] if t["channel_id"] is not None and t["channel_id"] > 0 else None,
                )
                for t in tables
            ]

        return await self.db._read(read)

    async def round_nets(self, tournament_id: int) -> dict[int, dict[int, int]]:
        """Round → user → chips won there, for every round played to its end."""
        rows = await self.db._read(
            lambda: All(
                "SELECT round, user_id, net FROM tournament_seats WHERE tournament_id = ? AND net IS NOT NULL",
                (tournament_id,),
            )
        )
        found: dict[int, dict[int, int]] = {}
        for row in rows:
            found.setdefault(row["round"], {})[row["user_id"]] = row["net"]
        return found

    async def table_closing(self, table_id: int) -> tuple[str | None, list[tuple[int, int | None]]]:
        """What a round's table ended with: its restart record (the engine after its last settled deal) and its seats
        by position (user id, None for a bot)."""

        async def read() -> tuple[str | None, list[tuple[int, int | None]]]:
            record = await Scalar("SELECT record FROM tables WHERE id = ?", (table_id,))
            seats = await All(
                "SELECT position, user_id FROM seats WHERE table_id = ? AND left_at IS NULL ORDER BY position",
                (table_id,),
            )
            return record, [(s["position"], s["user_id"]) for s in seats]

        return await self.db._read(read)

    async def table_deltas(self, table_id: int) -> list[int]:
        """The sum of every settled deal's chips by seat position (what the hand history says the table moved)."""
        rows = await self.db._read(lambda: All("SELECT deltas FROM hand_history WHERE table_id = ?", (table_id,)))
        total: list[int] = []
        for row in rows:
            deltas = json.loads(row["deltas"])
            total = [a + b for a, b in zip(total or [0] * len(deltas), deltas, strict=True)]
        return total

    async def tournament_of_table(self, table_id: int) -> int | None:
        return await self.db._read(
            lambda: Scalar("SELECT tournament_id FROM tournament_tables WHERE table_id = ?", (table_id,))
        )

    # ------------------------------------------------------------------ opening and signing up

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        *,
        rules: Mapping[str, JsonValue],
        buy_in: int,
        table_size: int,
        rounds: int,
        deals_per_round: int,
        payout: str,
        place: Literal["thread", "channel"],
        lang: str,
        seed: str,
        start_at: float,
    ) -> Tournament:
        """A new tournament, signing up until ``start_at``."""
        rules_json = json.dumps(dict(rules), ensure_ascii=False, separators=(",", ":"))

        async def tx(now: float) -> Tournament:
            tournament_id = await Insert(
                "INSERT INTO tournaments (guild_id, channel_id, host_id, game, rules, buy_in, table_size, rounds,"
                " deals_per_round, payout, place, lang, seed, start_at, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    host_id,
                    game,
                    rules_json,
                    buy_in,
                    table_size,
                    rounds,
                    deals_per_round,
                    payout,
                    place,
                    lang,
                    seed,
                    start_at,
                    now,
                    now,
                ),
            )
            found = await self._read_one(tournament_id)
            assert found is not None
            return found

        return await self.db._transaction(tx)

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        await self.db._transaction(
            lambda now: Exec(
                "UPDATE tournaments SET message_id = ?, updated_at = ? WHERE id = ?", (message_id, now, tournament_id)
            )
        )

    async def _signing_up(self, tournament_id: int, now: float) -> Row:
        row = await One("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        if row is None:
            raise NotFound("tournaments.no_such", f"no tournament {tournament_id}", id=tournament_id)
        if row["status"] != "signup" or now >= row["start_at"]:
            raise InvalidState("tournaments.signup_closed", f"tournament {tournament_id} has started", id=tournament_id)
        return row

    async def sign_up(
        self, tournament_id: int, user_id: int, name: str, *, key: str, most: int | None = None
    ) -> Tournament:
        """Sign a member up, moving the buy-in from their wallet into escrow (their wallet is created on first use).
        Refused (nothing changes): ``tournaments.signup_closed`` once it has started (or its start time has come),
        ``tournaments.already_signed_up``, ``tournaments.full`` (``most`` entrants), and the wallet's
        :class:`~bot.storage.InsufficientFunds`."""
        move_key = f"{key_prefix(tournament_id)}join:{key}"

        async def tx(now: float) -> Tournament:
            if await self.db._replayed(move_key, "buy_in") is None:
                row = await self._signing_up(tournament_id, now)
                if await Scalar(
                    "SELECT 1 FROM tournament_entries WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
                ):
                    raise InvalidState("tournaments.already_signed_up", "already signed up", id=tournament_id)
                if most is not None:
                    count = await Scalar(
                        "SELECT count(*) FROM tournament_entries WHERE tournament_id = ?", (tournament_id,)
                    )
                    if int(count or 0) >= most:
                        raise InvalidState("tournaments.full", "the tournament is full", id=tournament_id, most=most)
                buy_in = int(row["buy_in"])
                await self.db._ensure_wallet(row["guild_id"], user_id, now)
                legs = [Leg("wallet", -buy_in, user_id=user_id), Leg("tournament", buy_in)]
                await self.db._move(
                    row["guild_id"], "buy_in", move_key, legs, now, actor_id=user_id, note=f"tournament {tournament_id}"
                )
                await Exec(
                    "INSERT INTO tournament_entries (tournament_id, user_id, display_name, buy_in, entered_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (tournament_id, user_id, name[:64], buy_in, now),
                )
                await Exec(
                    "UPDATE tournaments SET pool = pool + ?, updated_at = ? WHERE id = ?", (buy_in, now, tournament_id)
                )
            found = await self._read_one(tournament_id)
            assert found is not None
            return found

        return await self.db._transaction(tx)

    async def withdraw(self, tournament_id: int, user_id: int, *, key: str) -> Tournament:
        """Withdraw a member before the start, refunding their buy-in; ``tournaments.not_signed_up`` if they are not
        in, ``tournaments.signup_closed`` once it has started."""
        move_key = f"{key_prefix(tournament_id)}leave:{key}"

        async def tx(now: float) -> Tournament:
            if await self.db._replayed(move_key, "refund") is None:
                row = await self._signing_up(tournament_id, now)
                buy_in = await Scalar(
                    "SELECT buy_in FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, user_id),
                )
                if buy_in is None:
                    raise InvalidState("tournaments.not_signed_up", "not signed up", id=tournament_id)
                legs = [Leg("tournament", -int(buy_in)), Leg("wallet", int(buy_in), user_id=user_id)]
                await self.db._move(
                    row["guild_id"], "refund", move_key, legs, now, actor_id=user_id, note=f"tournament {tournament_id}"
                )
                await Exec(
                    "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
                )
                await Exec(
                    "UPDATE tournaments SET pool = pool - ?, updated_at = ? WHERE id = ?",
                    (int(buy_in), now, tournament_id),
                )
            found = await self._read_one(tournament_id)
            assert found is not None
            return found

        return await self.db._transaction(tx)

    # ------------------------------------------------------------------ rounds

    async def _write_round(self, tournament_id: int, round_no: int, plan: Plan) -> None:
        await Many(
            "INSERT INTO tournament_tables (tournament_id, round, table_no, bots) VALUES (?, ?, ?, ?)",
            [(tournament_id, round_no, n, bots) for n, (_, bots) in enumerate(plan.tables, start=1)],
        )
        await Many(
            "INSERT INTO tournament_seats (tournament_id, round, user_id, table_no, position) VALUES (?, ?, ?, ?, ?)",
            [
                (tournament_id, round_no, user, n, position)
                for n, (members, _) in enumerate(plan.tables, start=1)
                for position, user in enumerate(members)
            ],
        )

    async def start(self, tournament_id: int, planner: Planner) -> bool:
        """Signing up → running, with the first round seated by ``planner`` (scores all 0). False when it had already
        started, finished or been cancelled (nothing changes)."""

        async def tx(now: float) -> bool:
            started = await Exec(
                "UPDATE tournaments SET status = 'running', round = 1, updated_at = ? WHERE id = ? AND status = 'signup'",
                (now, tournament_id),
            )
            if not started:
                return False
            users = await All("SELECT user_id FROM tournament_entries WHERE tournament_id = ?", (tournament_id,))
            await self._write_round(tournament_id, 1, planner({r["user_id"]: 0 for r in users}))
            return True

        return await self.db._transaction(tx)

    async def record_table(self, tournament_id: int, round_no: int, table_no: int, table_id: int) -> None:
        """The round's table ``table_no`` is table ``table_id`` (written the moment it exists)."""
        await self.db._transaction(
            lambda now: Exec(
                "UPDATE tournament_tables SET table_id = ? WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (table_id, tournament_id, round_no, table_no),
            )
        )

    async def announce(self, tournament_id: int, round_no: int) -> bool:
        """Claim posting the start of round ``round_no``: True once (the first to ask), so it is posted once."""
        changed = await self.db._transaction(
            lambda now: Exec(
                "UPDATE tournaments SET announced = ? WHERE id = ? AND announced < ?",
                (round_no, tournament_id, round_no),
            )
        )
        return bool(changed)

    async def forget_table(self, tournament_id: int, round_no: int, table_no: int, table_id: int) -> None:
        """The round's table never started (the bot stopped while opening it): it is opened again."""
        await self.db._transaction(
            lambda now: Exec(
                "UPDATE tournament_tables SET table_id = NULL"
                " WHERE tournament_id = ? AND round = ? AND table_no = ? AND table_id = ?",
                (tournament_id, round_no, table_no, table_id),
            )
        )

    async def finish_round(
        self,
        tournament_id: int,
        round_no: int,
        nets: Mapping[int, int],
        *,
        planner: Planner | None = None,
        payout: Payout | None = None,
    ) -> bool:
        """Round ``round_no`` is over: each member's chips won there (``nets``) are added to their score; then either
        the next round is seated by ``planner``, or (the last round) ``payout`` gives each member's place and prize
        from the scores and the whole pool is paid out in one movement. False when the
        tournament is no longer in that round (the step was made already; nothing changes)."""
        changes = {int(user): int(net) for user, net in nets.items()}

        async def tx(now: float) -> bool:
            row = await One("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
            if row is None or row["status"] != "running" or row["round"] != round_no:
                return False
            await Many(
                "UPDATE tournament_seats SET net = ? WHERE tournament_id = ? AND round = ? AND user_id = ?",
                [(net, tournament_id, round_no, user) for user, net in changes.items()],
            )
            await Many(
                "UPDATE tournament_entries SET score = score + ? WHERE tournament_id = ? AND user_id = ?",
                [(net, tournament_id, user) for user, net in changes.items()],
            )
            entries = await All(
                "SELECT user_id, score FROM tournament_entries WHERE tournament_id = ?", (tournament_id,)
            )
            scores = {e["user_id"]: e["score"] for e in entries}
            if round_no < row["rounds"]:
                assert planner is not None
                await Exec(
                    "UPDATE tournaments SET round = ?, updated_at = ? WHERE id = ?", (round_no + 1, now, tournament_id)
                )
                await self._write_round(tournament_id, round_no + 1, planner(scores))
                return True
            assert payout is not None
            await self._pay_out(row, scores, payout, now)
            return True

        return await self.db._transaction(tx)

    async def _pay_out(self, row: Row, scores: Mapping[int, int], payout: Payout, now: float) -> None:
        tournament_id, pool = row["id"], int(row["pool"])
        places, prizes = payout(scores, pool)
        if sum(prizes.values()) != pool:
            raise InvalidState("tournaments.payout_unbalanced", f"prizes {prizes} do not pay a pool of {pool}")
        legs = [Leg("tournament", -pool)] + [
            Leg("wallet", prize, user_id=user) for user, prize in sorted(prizes.items()) if prize
        ]
        await self.db._move(
            row["guild_id"],
            "cash_out",
            f"{key_prefix(tournament_id)}payout",
            legs,
            now,
            actor_id=None,
            note=f"tournament {tournament_id}",
        )
        await Many(
            "UPDATE tournament_entries SET place = ?, prize = ? WHERE tournament_id = ? AND user_id = ?",
            [(places[user], prizes.get(user, 0), tournament_id, user) for user in scores],
        )
        await Exec(
            "UPDATE tournaments SET status = 'finished', pool = 0, updated_at = ?, ended_at = ? WHERE id = ?",
            (now, now, tournament_id),
        )

    async def cancel(self, tournament_id: int, *, actor_id: int | None) -> Tournament:
        """Cancel a tournament signing up or running: every buy-in goes back to its member's wallet, in one movement;
        nothing else moves (its tables play with tournament chips). ``tournaments.not_live`` once it is over."""
        move_key = f"{key_prefix(tournament_id)}cancel"

        async def tx(now: float) -> Tournament:
            if await self.db._replayed(move_key, "refund") is None:
                row = await One("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
                if row is None:
                    raise NotFound("tournaments.no_such", f"no tournament {tournament_id}", id=tournament_id)
                if row["status"] not in LIVE:
                    raise InvalidState("tournaments.not_live", "the tournament is over", id=tournament_id)
                entries = await All(
                    "SELECT user_id, buy_in FROM tournament_entries WHERE tournament_id = ? ORDER BY user_id",
                    (tournament_id,),
                )
                refunded = sum(int(e["buy_in"]) for e in entries)
                if refunded != row["pool"]:
                    raise InvalidState("tournaments.pool_mismatch", f"pool {row['pool']} but buy-ins {refunded}")
                legs = [Leg("tournament", -refunded)] + [
                    Leg("wallet", int(e["buy_in"]), user_id=e["user_id"]) for e in entries
                ]
                await self.db._move(
                    row["guild_id"],
                    "refund",
                    move_key,
                    legs,
                    now,
                    actor_id=actor_id,
                    note=f"tournament {tournament_id}",
                )
                await Exec(
                    "UPDATE tournaments SET status = 'cancelled', pool = 0, updated_at = ?, ended_at = ? WHERE id = ?",
                    (now, now, tournament_id),
                )
            found = await self._read_one(tournament_id)
            assert found is not None
            return found

        return await self.db._transaction(tx)

    # ------------------------------------------------------------------ health

    async def escrow_problems(self, guild_id: int | None = None) -> list[str]:
        """What does not add up in the tournaments' escrow (empty when all is well): each tournament's pool against
        its own movements and its entrants' buy-ins, and the guild's ``tournament`` account against the pools."""
        g = "" if guild_id is None else " AND t.guild_id = ?"
        p: tuple[int, ...] = () if guild_id is None else (guild_id,)

        async def read() -> list[str]:
            problems: list[str] = []
            for row in await All(
                "SELECT t.id, t.status, t.pool, coalesce(sum(l.delta), 0) AS held FROM tournaments t"
                " LEFT JOIN movements m ON m.idem_key LIKE 'tournament:' || t.id || ':%'"
                " LEFT JOIN ledger l ON l.movement_id = m.id AND l.account = 'tournament'"
                f" WHERE TRUE{g} GROUP BY t.id, t.status, t.pool",
                p,
            ):
                if row["pool"] != row["held"]:
                    problems.append(f"tournament {row['id']}: pool {row['pool']}, ledger {row['held']}")
                if row["status"] not in LIVE and row["pool"]:
                    problems.append(f"tournament {row['id']} is {row['status']} with {row['pool']} in its pool")
            for row in await All(
                "SELECT t.id, t.pool, coalesce(sum(e.buy_in), 0) AS buy_ins FROM tournaments t"
                " LEFT JOIN tournament_entries e ON e.tournament_id = t.id"
                f" WHERE t.status IN ('signup', 'running'){g} GROUP BY t.id, t.pool",
                p,
            ):
                if row["pool"] != row["buy_ins"]:
                    problems.append(f"tournament {row['id']}: pool {row['pool']}, buy-ins {row['buy_ins']}")
            for row in await All(
                "SELECT a.guild_id, a.balance, (SELECT coalesce(sum(t.pool), 0) FROM tournaments t"
                " WHERE t.guild_id = a.guild_id) AS pools FROM guild_accounts a"
                f" WHERE a.kind = 'tournament'{g.replace('t.', 'a.')}",
                p,
            ):
                if row["balance"] != row["pools"]:
                    problems.append(f"guild {row['guild_id']}: account {row['balance']}, pools {row['pools']}")
            return problems

        return await self.db._read(read)
