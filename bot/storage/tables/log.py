"""The table log: what one change of a playing table writes as one transaction (:meth:`LogOps.append_step`: its log
rows, seats away or back, the deals it finished, a new restart point, the closing), and what restarts and replays read
back (the restart point, the log, the whole record)."""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence

from bot.storage.errors import IntegrityError, InvalidState
from bot.storage.models import DealToSettle, JsonObject, LogEntry, Step
from bot.storage.tables.base import _log_rows, _no_table
from bot.storage.tables.closing import ClosingOps
from bot.storage.tables.settlement import SettlementOps
from bot.storage.tx import All, Exec, Many, One, Row, Scalar


def _log_entries(rows: Sequence[Row]) -> list[LogEntry]:
    return [LogEntry(r["seq"], r["kind"], r["body"], r["seat"], r["deal"]) for r in rows]


DEAL_SHUFFLES = (
    "SELECT body FROM table_log INDEXED BY table_log_shuffles WHERE table_id = ? AND kind = 'shuffle' AND deal = ?"
    " ORDER BY seq"
)
"""One deal's shuffles, by the shuffles' index: without statistics, SQLite's planner would rather walk the table's
whole log along the primary key (which gives ``seq`` order without a sort)."""


def keep_start(table_id: int, deal_no: int, seq: int, record: str) -> Exec:
    """The statement keeping one deal's start, for a transaction that writes a table's restart point as the deal
    begins (``append_step`` with a ``deal_start``): every new deal's start is kept as it is made, so a replay of any
    deal begun by a move reads from its own start; replays keep the starts they walk past for deals from before."""
    return Exec(
        "INSERT INTO deal_starts (table_id, deal_no, seq, record) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (table_id, deal_no) DO NOTHING",
        (table_id, deal_no, seq, record),
    )


class LogOps(SettlementOps, ClosingOps):
    async def append_step(
        self,
        table_id: int,
        entries: Sequence[LogEntry],
        *,
        away: Mapping[int, bool] | None = None,
        settle: Sequence[DealToSettle] = (),
        checkpoint: tuple[str, int] | None = None,
        deal_start: tuple[int, int, str] | None = None,
        close: bool = False,
        pot_back: Sequence[int] | None = None,
    ) -> Step:
        """Everything one change of a playing table writes, as one transaction: its log rows (actions and the
        shuffles they made), seats marked away or back (by position), the deals it finished (as
        :meth:`settle_deal`), a new restart point (``(record JSON, last log seq it includes)``), the start of the deal this
        change began (``(deal, last log seq it includes, record JSON)``, kept for replays in ``deal_starts``)
        and, when the game ended, the closing (every stack paid back, as :meth:`close_table`; ``pot_back`` pays back
        a pot the table still holds, chips by seat position, when it ends before its game does: a deal limit).

        Nothing is written if any part is refused; the log's ``(table, seq)`` key refuses a row written twice.
        """
        # Copies taken before the round trip: the body runs on the connection's thread.
        log = _log_rows(table_id, entries) if entries else None
        changes, deals = dict(away or {}), list(settle)
        back = None if pot_back is None else [int(b) for b in pot_back]

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
                    table_id, deal.deal_no, deal.deltas, deal.summary, None, now, table, deal.pot, deal.facts
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
                    "UPDATE tables SET record = ?, checkpoint_seq = ?, updated_at = ?, turn_started_at = ?"
                    " WHERE id = ?",
                    (record, seq, now, now, table_id),
                )
            if deal_start is not None:
                await keep_start(table_id, *deal_start)
            closure = None
            if close:
                ending = await self._table_row(table_id)
                closure = await self._finish(
                    ending, "ended", "cash_out", f"close:{table_id}", None, now, back, finished=True
                )
            elif checkpoint is None:
                # The seats now to act began their decisions now (the turn timer counts from here after a restart).
                await Exec("UPDATE tables SET updated_at = ?, turn_started_at = ? WHERE id = ?", (now, now, table_id))
            return Step(tuple(settlements), closure, at=now)

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

    async def deal_shuffles(self, table_id: int, deal_no: int) -> list[JsonObject]:
        """The shuffles of one deal (JSON objects), in order."""
        rows = await self._read(lambda: All(DEAL_SHUFFLES, (table_id, deal_no)))
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
