"""Tables and seats: opening, joining, bots, starting, records, settling deals, closing, hand history.

Chips reach a table only as seat stacks (escrow, rules.md §0.4): a wallet pays the buy-in into the
stack, deals move chips between stacks at settlement, and closing pays every stack back. A practice
table moves no chips: its stacks are virtual and its movements have no ledger legs.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import dataclasses
import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from bot.storage.core import Core, Leg
from bot.storage.economy import check_amount
from bot.storage.errors import IntegrityError, InvalidState, InvalidValue, NotFound, StorageError
from bot.storage.models import (
    ACTIVE_STATUSES,
    Closure,
    DealToSettle,
    HandRecord,
    LogEntry,
    PanelRow,
    Seat,
    SeatChange,
    Settlement,
    Step,
    Table,
    TableStatus,
    dump_outcome,
    load_outcome,
)
from bot.storage.tx import All, Exec, Insert, Many, One, Row, Scalar

MAX_STAKE = 1_000_000


def _seat(row: Row) -> Seat:
    return Seat(
        id=row["id"],
        table_id=row["table_id"],
        position=row["position"],
        user_id=row["user_id"],
        bot_name=row["bot_name"],
        stack=row["stack"],
        buy_in=row["buy_in"],
        away=bool(row["away"]),
        joined_at=row["joined_at"],
        display_name=row["display_name"],
    )


def _table(row: Row, seats: Sequence[Seat]) -> Table:
    return Table(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        host_id=row["host_id"],
        status=row["status"],
        stake=row["stake"],
        buy_in=row["buy_in"],
        rules=json.loads(row["rules"]),
        practice=bool(row["practice"]),
        message_id=row["message_id"],
        message_created_at=row["message_created_at"],
        record=row["record"],
        lang=row["lang"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        seats=tuple(seats),
        opening=row["opening"],
        checkpoint_seq=row["checkpoint_seq"],
        pot=row["pot"],
    )


def _hand(row: Row, position: int | None = None) -> HandRecord:
    return HandRecord(
        id=row["id"],
        table_id=row["table_id"],
        guild_id=row["guild_id"],
        game=row["game"],
        deal_no=row["deal_no"],
        deltas=tuple(json.loads(row["deltas"])),
        summary=json.loads(row["summary"]),
        created_at=row["created_at"],
        position=position,
        posted=bool(row["posted"]),
    )


def _check_status(table_id: int, status: TableStatus, statuses: tuple[TableStatus, ...]) -> None:
    if status not in statuses:
        raise InvalidState(
            "storage.table_not_active",
            f"table {table_id} is {status}, not {' or '.join(statuses)}",
            table_id=table_id,
            status=status,
            expected=statuses,
        )


def _no_table(table_id: int) -> NotFound:
    return NotFound("storage.no_table", f"no table {table_id}", table_id=table_id)


def _log_rows(table_id: int, entries: Sequence[LogEntry]) -> Many:
    return Many(
        "INSERT INTO table_log (table_id, seq, kind, seat, deal, body) VALUES (?, ?, ?, ?, ?, ?)",
        [(table_id, e.seq, e.kind, e.seat, e.deal, e.body) for e in entries],
    )


def _log_entries(rows: Sequence[Row]) -> list[LogEntry]:
    return [LogEntry(r["seq"], r["kind"], r["body"], r["seat"], r["deal"]) for r in rows]


class TableOps(Core):
    # ------------------------------------------------------------------ reading

    async def _table_row(self, table_id: int) -> Table:
        """The table with its current seats, or :class:`NotFound` (inside a transaction or read)."""
        row = await One("SELECT * FROM tables WHERE id = ?", (table_id,))
        if row is None:
            raise _no_table(table_id)
        seats = await All("SELECT * FROM seats WHERE table_id = ? AND left_at IS NULL ORDER BY position", (table_id,))
        return _table(row, [_seat(s) for s in seats])

    async def get_table(self, table_id: int) -> Table | None:
        """The table and its seats, or None."""

        async def read() -> Table | None:
            try:
                return await self._table_row(table_id)
            except NotFound:
                return None

        return await self._read(read)

    async def _active_id_in(self, channel_id: int) -> int | None:
        table_id: int | None = await Scalar(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')", (channel_id,)
        )
        return table_id

    async def active_table_in(self, channel_id: int) -> Table | None:
        """The lobby or playing table in a channel, if any."""

        async def read() -> Table | None:
            table_id = await self._active_id_in(channel_id)
            return None if table_id is None else await self._table_row(table_id)

        return await self._read(read)

    async def list_active_tables(self, guild_id: int | None = None) -> list[Table]:
        """Every lobby or playing table (of one guild, or all: what a restart resumes)."""
        where = "status IN ('lobby', 'playing')" + ("" if guild_id is None else " AND guild_id = ?")
        params = () if guild_id is None else (guild_id,)

        async def read() -> tuple[list[Row], list[Row]]:
            rows = await All(f"SELECT * FROM tables WHERE {where} ORDER BY id", params)
            seats = await All(
                "SELECT s.* FROM seats s JOIN tables t ON t.id = s.table_id"
                f" WHERE s.left_at IS NULL AND t.{where} ORDER BY s.table_id, s.position",
                params,
            )
            return rows, seats

        rows, seats = await self._read(read)
        by_table: dict[int, list[Seat]] = {}
        for s in seats:
            by_table.setdefault(s["table_id"], []).append(_seat(s))
        return [_table(row, by_table.get(row["id"], [])) for row in rows]

    # ------------------------------------------------------------------ lifecycle

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        *,
        buy_in: int,
        stake: int = 1,
        rules: Mapping[str, Any] | None = None,
        practice: bool = False,
        lang: str = "en",
    ) -> Table:
        """A new table in the lobby; :class:`StorageError` ``storage.channel_busy`` if the channel has one."""
        if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= MAX_STAKE:
            raise InvalidValue("storage.invalid_stake", f"stake must be 1–{MAX_STAKE}", stake=stake)
        check_amount(buy_in)
        rules_json = json.dumps(dict(rules or {}), ensure_ascii=False, separators=(",", ":"))
        owner, span = self.owner, self.lease_seconds

        async def tx(now: float) -> Table:
            # The partial unique index enforces this too; checking first names the table in the error.
            busy = await self._active_id_in(channel_id)
            if busy is not None:
                raise StorageError(
                    "storage.channel_busy", f"channel {channel_id} already has table {busy}", table_id=busy
                )
            table_id = await Insert(
                "INSERT INTO tables (guild_id, channel_id, game, host_id, stake, buy_in, rules, practice,"
                " lang, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, game, host_id, stake, buy_in, rules_json, int(practice), lang, now, now),
            )
            # The opening process drives the table (bot.storage.leases).
            await Exec(
                "INSERT INTO table_leases (table_id, owner, expires_at) VALUES (?, ?, ?)", (table_id, owner, now + span)
            )
            return await self._table_row(table_id)

        return await self._transaction(tx)

    async def _active(self, table_id: int, *statuses: TableStatus) -> Table:
        table = await self._table_row(table_id)
        _check_status(table_id, table.status, statuses)
        return table

    async def _driven(self, table_id: int, now: float, *statuses: TableStatus) -> Table:
        """:meth:`_active`, and this process holds the table's lease (the fencing check, :meth:`Core._fence`), the
        lease read with the table's row (no round trip of its own)."""
        row = await One(
            "SELECT t.*, l.owner AS lease_owner FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id"
            " WHERE t.id = ?",
            (table_id,),
        )
        if row is None:
            raise _no_table(table_id)
        _check_status(table_id, row["status"], statuses)
        seats = await All("SELECT * FROM seats WHERE table_id = ? AND left_at IS NULL ORDER BY position", (table_id,))
        await self._hold(table_id, row["lease_owner"], now)
        return _table(row, [_seat(s) for s in seats])

    async def _check_driven(self, table_id: int, now: float, *statuses: TableStatus) -> None:
        """The checks of :meth:`_driven` without reading the table's record and seats (a plain move needs neither),
        in one lookup: the table's status and its lease's owner."""
        row = await One(
            "SELECT t.status, l.owner FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id WHERE t.id = ?",
            (table_id,),
        )
        if row is None:
            raise _no_table(table_id)
        _check_status(table_id, row[0], statuses)
        await self._hold(table_id, row[1], now)

    async def _take_seat(
        self,
        table: Table,
        *,
        user_id: int | None,
        bot_name: str | None,
        buy_in: int | None,
        max_seats: int | None,
        key: str,
        now: float,
        display_name: str | None = None,
    ) -> SeatChange:
        buy_in = table.buy_in if buy_in is None else buy_in
        check_amount(buy_in)
        if max_seats is not None and len(table.seats) >= max_seats:
            raise InvalidState(
                "storage.table_full", f"table {table.id} is full", table_id=table.id, max_seats=max_seats
            )
        taken = {s.position for s in table.seats}
        position = next(p for p in range(len(taken) + 1) if p not in taken)
        wallet_balance: int | None = None
        if user_id is not None and not table.practice:
            wallet = await self._ensure_wallet(table.guild_id, user_id, now)
            wallet_balance = wallet.balance - buy_in
        # A practice stack is virtual: it starts full and no movement funds it.
        seat_id = await Insert(
            "INSERT INTO seats (table_id, position, user_id, bot_name, stack, buy_in, joined_at, display_name)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table.id,
                position,
                user_id,
                bot_name,
                buy_in if table.practice else 0,
                buy_in,
                now,
                display_name if user_id is not None else bot_name,
            ),
        )
        legs: list[Leg] = []
        if not table.practice:  # _move refuses (InsufficientFunds) a buy-in the wallet cannot pay
            source = Leg("wallet", -buy_in, user_id=user_id) if user_id is not None else Leg("house", -buy_in)
            legs = [source, Leg("seat", buy_in, user_id=user_id, seat_id=seat_id)]
        reason = "buy_in" if user_id is not None else "house_fund"
        movement_id = await self._move(
            table.guild_id, reason, key, legs, now, actor_id=user_id, table_id=table.id, note=bot_name
        )
        result = SeatChange(table.id, seat_id, position, buy_in, wallet_balance, movement_id)
        await self._set_outcome(movement_id, dump_outcome(result))
        return result

    async def join_table(
        self,
        table_id: int,
        user_id: int,
        *,
        buy_in: int | None = None,
        max_seats: int | None = None,
        key: str | None = None,
        display_name: str | None = None,
    ) -> SeatChange:
        """Seat a member in the lobby, moving the buy-in (default: the table's) from their wallet to the stack.
        The seat's position is the lowest free one: the table's seat order is the order of positions.

        Raises :class:`InsufficientFunds` if the wallet cannot pay, ``storage.already_seated``,
        ``storage.table_full`` (when ``max_seats`` is given) or ``storage.table_not_active``.
        """
        key = key or f"join:{uuid.uuid4().hex}"

        async def tx(now: float) -> SeatChange:
            if (stored := await self._replayed(key, "buy_in")) is not None:
                return load_outcome(SeatChange, stored)
            table = await self._driven(table_id, now, "lobby")
            if table.seat_of(user_id) is not None:
                raise InvalidState(
                    "storage.already_seated", f"user {user_id} is already at table {table_id}", table_id=table_id
                )
            return await self._take_seat(
                table,
                user_id=user_id,
                bot_name=None,
                buy_in=buy_in,
                max_seats=max_seats,
                key=key,
                now=now,
                display_name=display_name,
            )

        return await self._transaction(tx)

    async def add_bot_seat(
        self,
        table_id: int,
        bot_name: str,
        *,
        buy_in: int | None = None,
        max_seats: int | None = None,
        key: str | None = None,
    ) -> SeatChange:
        """Seat a bot player. At a chip table the house funds its stack, which needs the guild's
        ``bots_play_for_chips`` (else ``storage.bots_not_for_chips``); at a practice table it is virtual."""
        key = key or f"bot:{uuid.uuid4().hex}"

        async def tx(now: float) -> SeatChange:
            if (stored := await self._replayed(key, "house_fund")) is not None:
                return load_outcome(SeatChange, stored)
            table = await self._driven(table_id, now, "lobby")
            if not table.practice and not (await self._config(table.guild_id)).bots_play_for_chips:
                raise StorageError(
                    "storage.bots_not_for_chips", "bots may not play for chips in this server", table_id=table_id
                )
            return await self._take_seat(
                table, user_id=None, bot_name=bot_name, buy_in=buy_in, max_seats=max_seats, key=key, now=now
            )

        return await self._transaction(tx)

    async def leave_lobby(
        self, table_id: int, user_id: int | None = None, *, position: int | None = None, key: str | None = None
    ) -> SeatChange:
        """Give up a lobby seat (a member's by ``user_id``, or any by ``position``), refunding its stack."""
        if (user_id is None) == (position is None):
            raise InvalidValue("storage.invalid_seat", "give exactly one of user_id and position")
        key = key or f"leave:{uuid.uuid4().hex}"

        async def tx(now: float) -> SeatChange:
            if (stored := await self._replayed(key, "refund")) is not None:
                return load_outcome(SeatChange, stored)
            table = await self._driven(table_id, now, "lobby")
            seat = (
                table.seat_of(user_id)
                if user_id is not None
                else next((s for s in table.seats if s.position == position), None)
            )
            if seat is None:
                raise NotFound("storage.not_seated", f"no such seat at table {table_id}", table_id=table_id)
            await Exec("UPDATE seats SET left_at = ? WHERE id = ?", (now, seat.id))
            movement_id = await self._move(
                table.guild_id,
                "refund",
                key,
                [] if table.practice else self._return_legs(seat),
                now,
                actor_id=user_id,
                table_id=table_id,
            )
            wallet_balance = None
            if seat.user_id is not None and not table.practice:
                wallet_balance = await Scalar(
                    "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (table.guild_id, seat.user_id)
                )
            result = SeatChange(table_id, seat.id, seat.position, 0, wallet_balance, movement_id)
            await self._set_outcome(movement_id, dump_outcome(result))
            return result

        return await self._transaction(tx)

    async def make_practice(self, table_id: int, *, actor_id: int | None = None, key: str | None = None) -> Table:
        """Turn a chip lobby into a practice table: every buy-in goes back to its wallet in one movement,
        and the stacks become virtual (as at any practice table). Used when a bot joins a server whose
        bots may not play for chips."""
        key = key or f"practice:{table_id}"

        async def tx(now: float) -> Table:
            if await self._replayed(key, "refund") is not None:
                return await self._table_row(table_id)
            table = await self._driven(table_id, now, "lobby")
            if table.practice:
                return table
            members = [s for s in table.seats if s.user_id is not None and s.stack]
            movement_id = await self._move(
                table.guild_id,
                "refund",
                key,
                [leg for s in members for leg in self._return_legs(s)],
                now,
                actor_id=actor_id,
                table_id=table_id,
                note="practice",
            )
            await Exec("UPDATE seats SET stack = buy_in WHERE table_id = ? AND left_at IS NULL", (table_id,))
            await Exec("UPDATE tables SET practice = 1, updated_at = ? WHERE id = ?", (now, table_id))
            await self._set_outcome(movement_id, json.dumps({"table_id": table_id}))
            return await self._table_row(table_id)

        return await self._transaction(tx)

    @staticmethod
    def _return_legs(seat: Seat) -> list[Leg]:
        """The legs paying a seat's whole stack back to its wallet (or the house, for a bot)."""
        back = Leg("wallet", seat.stack, user_id=seat.user_id) if seat.user_id is not None else Leg("house", seat.stack)
        return [Leg("seat", -seat.stack, user_id=seat.user_id, seat_id=seat.id), back]

    async def set_away(self, table_id: int, user_id: int, away: bool) -> None:
        """Mark a seated member away (the bot plays or passes for them) or back."""

        async def tx(now: float) -> None:
            changed = await Exec(
                "UPDATE seats SET away = ? WHERE table_id = ? AND user_id = ? AND left_at IS NULL",
                (int(away), table_id, user_id),
            )
            if not changed:
                raise NotFound("storage.not_seated", f"user {user_id} is not at table {table_id}", table_id=table_id)
            await self._fence(table_id, now)
            await Exec("UPDATE tables SET updated_at = ? WHERE id = ?", (now, table_id))

        await self._transaction(tx)

    async def start_table(self, table_id: int, *, record: str | None = None, entries: Sequence[LogEntry] = ()) -> Table:
        """Lobby → playing. Seat positions are renumbered 0..n-1 in order: they are the engine's seat indices.

        ``record`` is the opening record (JSON, without shuffles or actions) and ``entries`` the log rows of
        the steps the engine made by itself as the table opened (the first shuffles)."""
        log = _log_rows(table_id, entries) if entries else None

        async def tx(now: float) -> Table:
            table = await self._driven(table_id, now, "lobby")
            # Ascending order never collides: each seat moves down into a position already vacated.
            for index, seat in enumerate(table.seats):
                if seat.position != index:
                    await Exec("UPDATE seats SET position = ? WHERE id = ?", (index, seat.id))
            await Exec(
                "UPDATE tables SET status = 'playing', record = coalesce(?, record), opening = coalesce(?, opening),"
                " checkpoint_seq = 0, updated_at = ? WHERE id = ?",
                (record, record, now, table_id),
            )
            if log is not None:
                await log
            return await self._table_row(table_id)

        return await self._transaction(tx)

    async def save_record(
        self,
        table_id: int,
        record: str,
        *,
        message_id: int | None = None,
        message_created_at: float | None = None,
    ) -> None:
        """Store the table record (JSON text) after an action, and the public message if it was (re)posted."""

        async def tx(now: float) -> None:
            changed = await Exec(
                "UPDATE tables SET record = ?, message_id = coalesce(?, message_id),"
                " message_created_at = coalesce(?, message_created_at), updated_at = ? WHERE id = ?",
                (record, message_id, message_created_at, now, table_id),
            )
            if not changed:
                raise _no_table(table_id)
            await self._fence(table_id, now)  # (rolls the update back if the table is another process's)

        await self._transaction(tx)

    async def set_message(self, table_id: int, message_id: int, created_at: float) -> None:
        """Remember the table's public message (after posting or reposting it)."""

        async def tx(now: float) -> None:
            changed = await Exec(
                "UPDATE tables SET message_id = ?, message_created_at = ?, updated_at = ? WHERE id = ?",
                (message_id, created_at, now, table_id),
            )
            if not changed:
                raise _no_table(table_id)
            await self._fence(table_id, now)  # (rolls the update back if the table is another process's)

        await self._transaction(tx)

    # ------------------------------------------------------------------ settlement

    async def settle_deal(
        self,
        table_id: int,
        deal_no: int,
        deltas: Sequence[int],
        summary: Mapping[str, Any],
        *,
        key: str | None = None,
        pot: int = 0,
    ) -> Settlement:
        """Apply one finished deal in a single transaction: stacks, ledger, hand history and player stats.

        ``deltas`` are chips (points × stake) by seat position and ``pot`` the chips the deal put into the
        table's pot (negative: paid out of it); ``sum(deltas) + pot`` must be zero. A settlement that would drive
        a stack or the pot below 0 is refused (``storage.settlement_overdraws_stack`` /
        ``storage.settlement_overdraws_pot``) and changes nothing. The default key ``settle:<table>:<deal>``
        makes a repeated call a no-op.
        """
        # Copies taken before the round trip: the body runs on the connection's thread.
        return await self._transaction(
            lambda now: self._settle(table_id, deal_no, list(deltas), dict(summary), key, now, pot=int(pot))
        )

    async def _settle(
        self,
        table_id: int,
        deal_no: int,
        deltas: Sequence[int],
        summary: Mapping[str, Any],
        key: str | None,
        now: float,
        table: Table | None = None,
        pot: int = 0,
    ) -> Settlement:
        """:meth:`settle_deal` inside a transaction (also used by :meth:`append_step`, which passes the
        playing ``table`` as this transaction has it, so it is not read twice). ``pot``: chips the deal put into
        the table's pot (negative: paid out of it)."""
        key = key or f"settle:{table_id}:{deal_no}"
        deltas = [int(d) for d in deltas]
        summary_json = json.dumps(dict(summary), ensure_ascii=False, separators=(",", ":"))
        if (stored := await self._replayed(key, "settlement")) is not None:
            return load_outcome(Settlement, stored)
        if table is None:
            table = await self._driven(table_id, now, "playing")
        seats = table.seats
        if len(deltas) != len(seats):
            raise InvalidValue(
                "storage.settlement_seat_mismatch",
                f"{len(deltas)} deltas for {len(seats)} seats",
                deltas=len(deltas),
                seats=len(seats),
            )
        if sum(deltas) + pot != 0:
            raise InvalidValue(
                "storage.settlement_unbalanced",
                f"deltas sum to {sum(deltas)} with {pot} into the pot",
                total=sum(deltas) + pot,
            )
        if table.pot + pot < 0:
            raise InvalidValue(
                "storage.settlement_overdraws_pot",
                f"the pot holds {table.pot}, cannot pay {-pot}",
                pot=table.pot,
                delta=pot,
            )
        for seat, delta in zip(seats, deltas, strict=True):
            if seat.stack + delta < 0:
                raise InvalidValue(
                    "storage.settlement_overdraws_stack",
                    f"seat {seat.position} has {seat.stack} chips, cannot lose {-delta}",
                    position=seat.position,
                    stack=seat.stack,
                    delta=delta,
                )
        legs = [Leg("seat", d, user_id=s.user_id, seat_id=s.id) for s, d in zip(seats, deltas, strict=True)]
        if pot:
            legs.append(Leg("pot", pot, table_id=table_id))
        if table.practice:
            changed = [leg for leg in legs if leg.delta]
            if changed:
                await self._apply_legs(table.guild_id, changed)  # virtual stacks: no ledger legs
            legs = []
        movement_id = await self._move(table.guild_id, "settlement", key, legs, now, table_id=table_id)
        try:
            hand_id = await Insert(
                "INSERT INTO hand_history (table_id, guild_id, game, deal_no, deltas, summary, created_at, posted)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
                (table_id, table.guild_id, table.game, deal_no, json.dumps(deltas), summary_json, now),
            )
        except IntegrityError as exc:
            raise InvalidState(
                "storage.deal_already_settled",
                f"deal {deal_no} of table {table_id} is already settled",
                table_id=table_id,
                deal_no=deal_no,
            ) from exc
        if not table.practice:
            stats = [
                (table.guild_id, seat.user_id, table.game, delta, now)
                for seat, delta in zip(seats, deltas, strict=True)
                if seat.user_id is not None
            ]
            if stats:
                await Many(
                    "INSERT INTO player_stats (guild_id, user_id, game, net, deals_played, updated_at)"
                    " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, user_id, game) DO UPDATE SET"
                    " net = player_stats.net + excluded.net, deals_played = player_stats.deals_played + 1,"
                    " updated_at = excluded.updated_at",
                    stats,
                )
        stacks = tuple(s.stack + d for s, d in zip(seats, deltas, strict=True))
        result = Settlement(table_id, deal_no, hand_id, movement_id, tuple(deltas), stacks)
        await self._set_outcome(movement_id, dump_outcome(result))
        return result

    # ------------------------------------------------------------------ the table log

    async def append_step(
        self,
        table_id: int,
        entries: Sequence[LogEntry],
        *,
        away: Mapping[int, bool] | None = None,
        settle: Sequence[DealToSettle] = (),
        checkpoint: tuple[str, int] | None = None,
        close: bool = False,
    ) -> Step:
        """Everything one change of a playing table writes, as one transaction: its log rows (actions and the
        shuffles they made), seats marked away or back (by position), the deals it finished (as
        :meth:`settle_deal`), a new restart point (``(record JSON, last log seq it includes)``) and, when
        the game ended, the closing (every stack paid back, as :meth:`close_table`).

        Nothing is written if any part is refused; the log's ``(table, seq)`` key refuses a row written twice.
        """
        # Copies taken before the round trip: the body runs on the connection's thread.
        log = _log_rows(table_id, entries) if entries else None
        changes, deals = dict(away or {}), list(settle)

        async def tx(now: float) -> Step:
            if deals:
                table = await self._driven(table_id, now, "playing")
            else:  # the hot path, a plain move: no need for the table's record and seats
                await self._check_driven(table_id, now, "playing")
            if log is not None:
                try:
                    await log
                except IntegrityError as exc:
                    raise InvalidState(
                        "storage.log_conflict", f"table {table_id}: log rows already written ({exc})", table_id=table_id
                    ) from exc
            if changes:
                await Many(
                    "UPDATE seats SET away = ? WHERE table_id = ? AND position = ? AND left_at IS NULL",
                    [(int(flag), table_id, position) for position, flag in changes.items()],
                )
            settlements = []
            for deal in deals:
                settled = await self._settle(
                    table_id, deal.deal_no, deal.deltas, deal.summary, None, now, table, deal.pot
                )
                settlements.append(settled)
                if not settled.replayed:  # the stacks this transaction now holds, for the next deal's checks
                    seats = tuple(
                        dataclasses.replace(s, stack=stack)
                        for s, stack in zip(table.seats, settled.stacks, strict=True)
                    )
                    table = dataclasses.replace(table, seats=seats, pot=table.pot + deal.pot)
            if checkpoint is not None:
                record, seq = checkpoint
                await Exec(
                    "UPDATE tables SET record = ?, checkpoint_seq = ?, updated_at = ? WHERE id = ?",
                    (record, seq, now, table_id),
                )
            closure = None
            if close:
                ending = await self._table_row(table_id)
                closure = await self._finish(ending, "ended", "cash_out", f"close:{table_id}", None, now)
            elif not deals and checkpoint is None:
                await Exec("UPDATE tables SET updated_at = ? WHERE id = ?", (now, table_id))
            return Step(tuple(settlements), closure)

        return await self._transaction(tx)

    async def _log(self, table_id: int, after: int) -> list[LogEntry]:
        rows = await All(
            "SELECT seq, kind, seat, deal, body FROM table_log WHERE table_id = ? AND seq > ? ORDER BY seq",
            (table_id, after),
        )
        return _log_entries(rows)

    async def table_log(self, table_id: int, *, after: int = 0) -> list[LogEntry]:
        """The table's log rows after ``seq`` (all of them by default), in order."""
        return await self._read(lambda: self._log(table_id, after))

    async def restart_point(self, table_id: int) -> tuple[str | None, int, list[LogEntry]]:
        """What a restart replays: the stored record (the opening, or the last snapshot), the last log row it
        includes, and the log after it, read together so they agree."""

        async def read() -> tuple[str | None, int, list[LogEntry]]:
            row = await One("SELECT record, checkpoint_seq FROM tables WHERE id = ?", (table_id,))
            if row is None:
                raise _no_table(table_id)
            entries = await self._log(table_id, row["checkpoint_seq"])
            return row["record"], row["checkpoint_seq"], entries

        return await self._read(read)

    async def full_record(self, table_id: int) -> str | None:
        """The whole record from the opening deal (JSON), for verification and ``python -m games replay``;
        None for a table that never started."""

        async def read() -> tuple[Row, list[Row]]:
            row = await One("SELECT opening, record FROM tables WHERE id = ?", (table_id,))
            if row is None:
                raise _no_table(table_id)
            rows = await All("SELECT kind, seat, body FROM table_log WHERE table_id = ? ORDER BY seq", (table_id,))
            return row, rows

        row, rows = await self._read(read)
        if row["opening"] is None:
            whole: str | None = row["record"]  # a table from before the log: its record is whole
            return whole
        data = json.loads(row["opening"])
        data["shuffles"] = [json.loads(r["body"]) for r in rows if r["kind"] == "shuffle"]
        data["actions"] = [[r["seat"], r["body"]] for r in rows if r["kind"] == "action"]
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    async def deal_shuffles(self, table_id: int, deal_no: int) -> list[dict[str, Any]]:
        """The shuffles of one deal (JSON objects), in order."""
        rows = await self._read(
            lambda: All(
                "SELECT body FROM table_log WHERE table_id = ? AND kind = 'shuffle' AND deal = ? ORDER BY seq",
                (table_id, deal_no),
            )
        )
        return [json.loads(r["body"]) for r in rows]

    async def adopt_record(self, table_id: int, opening: str, entries: Sequence[LogEntry]) -> None:
        """Move a table stored before the log existed (one whole record) into the log: its opening and rows."""
        log = _log_rows(table_id, entries)

        async def tx(now: float) -> None:
            await self._driven(table_id, now, "playing")
            if await Scalar("SELECT 1 FROM table_log WHERE table_id = ? LIMIT 1", (table_id,)):
                return
            await log
            await Exec(
                "UPDATE tables SET opening = ?, record = ?, checkpoint_seq = 0, updated_at = ? WHERE id = ?",
                (opening, opening, now, table_id),
            )

        await self._transaction(tx)

    # ------------------------------------------------------------------ results owed to the channel

    async def mark_posted(self, table_id: int, deal_no: int) -> None:
        """The results message of a deal reached the channel."""
        await self._transaction(
            lambda now: Exec(
                "UPDATE hand_history SET posted = 1 WHERE table_id = ? AND deal_no = ?", (table_id, deal_no)
            )
        )

    async def unposted_results(self, table_id: int | None = None) -> list[HandRecord]:
        """Settled deals whose results message has not reached the channel yet (of one table, or all), oldest first."""
        where = "posted = 0" + ("" if table_id is None else " AND table_id = ?")
        rows = await self._read(
            lambda: All(
                f"SELECT * FROM hand_history WHERE {where} ORDER BY table_id, deal_no",
                () if table_id is None else (table_id,),
            )
        )
        return [_hand(r) for r in rows]

    # ------------------------------------------------------------------ open private panels

    async def save_panel(self, panel: PanelRow) -> None:
        """Remember a seat's latest private panel (replacing its previous one)."""
        await self._transaction(
            lambda now: Exec(
                "INSERT INTO table_panels (table_id, seat, application_id, token, locale, opened_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET"
                " application_id = excluded.application_id, token = excluded.token, locale = excluded.locale,"
                " opened_at = excluded.opened_at",
                (panel.table_id, panel.seat, panel.application_id, panel.token, panel.locale, panel.opened_at),
            )
        )

    async def open_panels(self, table_id: int, *, since: float) -> list[PanelRow]:
        """The table's panels opened after ``since`` (older interaction tokens no longer work)."""
        rows = await self._read(
            lambda: All(
                "SELECT * FROM table_panels WHERE table_id = ? AND opened_at > ? ORDER BY seat", (table_id, since)
            )
        )
        return [
            PanelRow(r["table_id"], r["seat"], r["application_id"], r["token"], r["locale"], r["opened_at"])
            for r in rows
        ]

    async def forget_panels(self, table_id: int, seat: int | None = None) -> None:
        """Drop a seat's remembered panel (or every one of the table's)."""
        if seat is None:
            forget = Exec("DELETE FROM table_panels WHERE table_id = ?", (table_id,))
        else:
            forget = Exec("DELETE FROM table_panels WHERE table_id = ? AND seat = ?", (table_id, seat))
        await self._transaction(lambda now: forget)

    # ------------------------------------------------------------------ closing

    async def _finish(
        self,
        table: Table,
        status: TableStatus,
        reason: str,
        key: str,
        actor_id: int | None,
        now: float,
        pot_back: Sequence[int] | None = None,
    ) -> Closure:
        """Pay every stack back (members' to wallets under ``reason``, bots' to the house) and set ``status``.

        A table whose pot holds chips first pays it back to its seats: ``pot_back`` says how much each seat
        position gets (the game's :meth:`Engine.stop_result`, in chips), and must add up to the pot.
        The members' movement carries ``key`` (and the replayable outcome); the bots' carries ``key:house``.
        """
        if table.pot:
            if pot_back is None:
                # Chips left in a pot would belong to nobody: the game must say whose they are.
                raise InvalidState(
                    "storage.pot_not_empty",
                    f"table {table.id} still holds {table.pot} in its pot",
                    table_id=table.id,
                    pot=table.pot,
                )
            back = [int(b) for b in pot_back]
            if len(back) != len(table.seats) or any(b < 0 for b in back) or sum(back) != table.pot:
                raise InvalidValue(
                    "storage.pot_back_mismatch",
                    f"{back} does not pay back a pot of {table.pot}",
                    pot=table.pot,
                    total=sum(back),
                )
            legs = [Leg("pot", -table.pot, table_id=table.id)] + [
                Leg("seat", b, user_id=s.user_id, seat_id=s.id) for s, b in zip(table.seats, back, strict=True) if b
            ]
            if table.practice:
                await self._apply_legs(table.guild_id, legs)  # virtual chips: no ledger legs
            else:
                await self._move(
                    table.guild_id, "refund", f"{key}:pot", legs, now, actor_id=actor_id, table_id=table.id, note="pot"
                )
            seats = tuple(dataclasses.replace(s, stack=s.stack + b) for s, b in zip(table.seats, back, strict=True))
            table = dataclasses.replace(table, seats=seats, pot=0)
        members = [s for s in table.seats if s.user_id is not None and s.stack]
        bots = [s for s in table.seats if s.user_id is None and s.stack]
        funded = not table.practice
        member_legs = [leg for s in members for leg in self._return_legs(s)] if funded else []
        movement_id = await self._move(
            table.guild_id, reason, key, member_legs, now, actor_id=actor_id, table_id=table.id
        )
        if funded and bots:
            bot_legs = [leg for s in bots for leg in self._return_legs(s)]
            await self._move(
                table.guild_id, "house_return", f"{key}:house", bot_legs, now, actor_id=actor_id, table_id=table.id
            )
        if not funded:
            await Exec("UPDATE seats SET stack = 0 WHERE table_id = ? AND left_at IS NULL", (table.id,))
        await Exec("UPDATE tables SET status = ?, updated_at = ? WHERE id = ?", (status, now, table.id))
        await Exec("DELETE FROM table_leases WHERE table_id = ?", (table.id,))  # an ended table is nobody's
        returned = tuple((s.position, s.stack) for s in table.seats if s.stack) if funded else ()
        result = Closure(table.id, status, returned)
        await self._set_outcome(movement_id, dump_outcome(result))
        return result

    async def cancel_table(self, table_id: int, *, actor_id: int | None = None, key: str | None = None) -> Closure:
        """Cancel a table still in the lobby, refunding every stack exactly."""
        key = key or f"cancel:{table_id}"

        async def tx(now: float) -> Closure:
            if (stored := await self._replayed(key, "refund")) is not None:
                return load_outcome(Closure, stored)
            table = await self._driven(table_id, now, "lobby")
            return await self._finish(table, "cancelled", "refund", key, actor_id, now)

        return await self._transaction(tx)

    async def close_table(
        self,
        table_id: int,
        *,
        actor_id: int | None = None,
        voided: bool = False,
        key: str | None = None,
        pot_back: Sequence[int] | None = None,
    ) -> Closure:
        """End a table (lobby or playing): every stack goes back to its wallet, bots' to the house.

        Stacks move only at settlement, so an unfinished deal moved nothing: stopping a table
        mid-deal is this call with ``voided=True``, which records the payback under reason ``void``.
        A table holding chips in its pot needs ``pot_back`` (chips by seat position, see :meth:`_finish`).
        """
        reason = "void" if voided else "cash_out"
        key = key or f"close:{table_id}"

        async def tx(now: float) -> Closure:
            if (stored := await self._replayed(key, "cash_out", "void")) is not None:
                return load_outcome(Closure, stored)
            table = await self._driven(table_id, now, *ACTIVE_STATUSES)
            return await self._finish(table, "ended", reason, key, actor_id, now, pot_back)

        return await self._transaction(tx)

    # ------------------------------------------------------------------ hand history

    async def table_history(self, table_id: int, *, limit: int = 20) -> list[HandRecord]:
        """The table's most recent settled deals, newest first."""
        rows = await self._read(
            lambda: All(
                "SELECT * FROM hand_history WHERE table_id = ? ORDER BY deal_no DESC LIMIT ?", (table_id, limit)
            )
        )
        return [_hand(r) for r in rows]

    async def deal_settled(self, table_id: int, deal_no: int) -> bool:
        """Whether a deal of the table has been settled (its seeds may be shown)."""
        return bool(
            await self._read(
                lambda: Scalar("SELECT 1 FROM hand_history WHERE table_id = ? AND deal_no = ?", (table_id, deal_no))
            )
        )

    async def member_history(self, guild_id: int, user_id: int, *, limit: int = 20) -> list[HandRecord]:
        """The member's most recent settled deals in the guild, newest first, with their seat position."""
        rows = await self._read(
            lambda: All(
                "SELECT h.*, s.position AS seat_position FROM seats s JOIN hand_history h ON h.table_id = s.table_id"
                " WHERE s.user_id = ? AND s.left_at IS NULL AND h.guild_id = ?"
                " ORDER BY h.created_at DESC, h.id DESC LIMIT ?",
                (user_id, guild_id, limit),
            )
        )
        return [_hand(r, r["seat_position"]) for r in rows]
