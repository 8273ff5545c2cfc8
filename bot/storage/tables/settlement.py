"""Settling a finished deal: stacks (and the table's pot), the ledger, the hand history row, the members' seats of the
deal and their statistics (``deal_seats``, ``deal_facts``: :mod:`bot.storage.stats`) and the players' counters, in one
transaction (:meth:`SettlementOps.settle_deal`, and inside :meth:`~bot.storage.tables.log.LogOps.append_step`)."""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from bot.storage.core import Leg
from bot.storage.errors import IntegrityError, InvalidState, InvalidValue
from bot.storage.models import JsonValue, Settlement, Table, dump_outcome, load_outcome
from bot.storage.stats import record_deal
from bot.storage.tables.base import TableBase
from bot.storage.tx import Insert, Many


class SettlementOps(TableBase):
    async def settle_deal(
        self,
        table_id: int,
        deal_no: int,
        deltas: Sequence[int],
        summary: Mapping[str, JsonValue],
        *,
        key: str | None = None,
        pot: int = 0,
    ) -> Settlement:
        """Apply one finished deal in a single transaction: stacks, ledger, hand history, the members' seats of the deal
        and their statistics, and the player counters.

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
        summary: Mapping[str, JsonValue],
        key: str | None,
        now: float,
        table: Table | None = None,
        pot: int = 0,
        facts: Sequence[Mapping[str, int]] | None = None,
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
        await record_deal(hand_id, table, deal_no, seats, deltas, summary, now, facts=facts)
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
