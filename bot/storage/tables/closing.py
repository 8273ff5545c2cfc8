"""Ending a table: cancelling a lobby (every buy-in refunded) or closing a table (every stack paid back, bots' to the
house, a pot paid out first), which also drops its lease."""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.storage.core import Leg
from bot.storage.errors import InvalidState, InvalidValue
from bot.storage.models import ACTIVE_STATUSES, Closure, Table, TableStatus, dump_outcome, load_outcome
from bot.storage.ratings import rate_table
from bot.storage.tables.base import TableBase
from bot.storage.tx import Exec


class ClosingOps(TableBase):
    async def _finish(
        self,
        table: Table,
        status: TableStatus,
        reason: str,
        key: str,
        actor_id: int | None,
        now: float,
        pot_back: Sequence[int] | None = None,
        *,
        finished: bool = False,
    ) -> Closure:
        """Pay every stack back (members' to wallets under ``reason``, bots' to the house) and set ``status``.

        ``finished``: the game ended by itself (not stopped): it is rated from the final stacks in this same
        transaction (:func:`bot.storage.ratings.rate_table`), so a closing is never written without its rating.

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
        if finished:
            await rate_table(table, now)
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
