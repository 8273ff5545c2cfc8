"""Opening a table and its lobby seats: members joining (their buy-in paid from the wallet into the seat's stack),
bot seats (funded by the house), leaving the lobby (refunded), turning a chip lobby into practice, and seats marked
away or back."""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping

from bot.storage.core import Leg
from bot.storage.economy import check_amount
from bot.storage.errors import InvalidState, InvalidValue, NotFound, StorageError
from bot.storage.models import (
    TABLE_PACES,
    JsonValue,
    SeatChange,
    Table,
    TablePace,
    dump_outcome,
    load_outcome,
)
from bot.storage.tables.base import TableBase
from bot.storage.tx import Exec, Insert, Scalar
from games.registry import DEFAULT_LEVEL, LEVELS, is_level

MAX_STAKE = 1_000_000
MAX_TURN = 7 * 86400
"""The longest a decision may be given (a week), whatever a server allows."""
MAX_DEAL_LIMIT = 10_000
"""The most deals a table may be limited to (a bound on a value written into the table's row, nothing more)."""


class SeatOps(TableBase):
    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        *,
        buy_in: int,
        stake: int = 1,
        rules: Mapping[str, JsonValue] | None = None,
        practice: bool = False,
        lang: str = "en",
        parent_id: int | None = None,
        pace: TablePace = "live",
        turn_seconds: int | None = None,
        deal_limit: int | None = None,
    ) -> Table:
        """A new table in the lobby; :class:`StorageError` ``storage.channel_busy`` if the channel has one.

        ``parent_id``: the channel whose thread the table will live in (its ``channel_id`` is then a placeholder
        until :meth:`set_place` names the thread). ``pace`` and ``turn_seconds``: a correspondence table's hours per
        decision (None: the server's turn timer). ``deal_limit``: the table ends by itself once that deal is settled
        (None: when the game ends by its rules)."""
        if pace not in TABLE_PACES:
            raise InvalidValue("storage.invalid_pace", f"pace must be one of {TABLE_PACES}", pace=pace)
        if turn_seconds is not None and (
            isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int) or not 10 <= turn_seconds <= MAX_TURN
        ):
            raise InvalidValue("storage.invalid_turn", f"turn_seconds must be 10–{MAX_TURN}", turn=turn_seconds)
        if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= MAX_STAKE:
            raise InvalidValue("storage.invalid_stake", f"stake must be 1–{MAX_STAKE}", stake=stake)
        if deal_limit is not None and (
            isinstance(deal_limit, bool) or not isinstance(deal_limit, int) or not 1 <= deal_limit <= MAX_DEAL_LIMIT
        ):
            raise InvalidValue(
                "storage.invalid_deal_limit",
                f"deal_limit must be 1–{MAX_DEAL_LIMIT}",
                deal_limit=deal_limit,
                max=MAX_DEAL_LIMIT,
            )
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
                " lang, created_at, updated_at, parent_id, pace, turn_seconds, deal_limit)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    game,
                    host_id,
                    stake,
                    buy_in,
                    rules_json,
                    int(practice),
                    lang,
                    now,
                    now,
                    parent_id,
                    pace,
                    turn_seconds,
                    deal_limit,
                ),
            )
            # The opening process drives the table (bot.storage.leases).
            await Exec(
                "INSERT INTO table_leases (table_id, owner, expires_at) VALUES (?, ?, ?)", (table_id, owner, now + span)
            )
            return await self._table_row(table_id)

        return await self._transaction(tx)

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
        bot_level: str | None = None,
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
            "INSERT INTO seats (table_id, position, user_id, bot_name, stack, buy_in, joined_at, display_name, bot_level)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table.id,
                position,
                user_id,
                bot_name,
                buy_in if table.practice else 0,
                buy_in,
                now,
                display_name if user_id is not None else bot_name,
                bot_level if user_id is None else None,
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
        level: str = DEFAULT_LEVEL,
    ) -> SeatChange:
        """Seat a bot player that plays at ``level`` (one of :data:`games.registry.LEVELS`, else
        ``storage.invalid_bot_level``). At a chip table the house funds its stack, which needs the guild's
        ``bots_play_for_chips`` (else ``storage.bots_not_for_chips``); at a practice table it is virtual."""
        if not is_level(level):
            raise InvalidValue("storage.invalid_bot_level", f"level must be one of {LEVELS}", level=level)
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
                table,
                user_id=None,
                bot_name=bot_name,
                buy_in=buy_in,
                max_seats=max_seats,
                key=key,
                now=now,
                bot_level=level,
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
