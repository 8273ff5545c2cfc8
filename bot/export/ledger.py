"""``/export ledger``: a server's chip movements in a period, one CSV row per ledger leg, oldest first.

Columns: ``movement`` (its id), ``time`` (UTC, ISO 8601), ``kind`` (the movement's reason: ``daily``, ``buy_in``,
``settlement`` …), ``key`` (its idempotency key), ``note`` (a moderator's reason for a grant or a take), ``actor`` (who
made it), ``account`` (``wallet``, ``seat``, ``house``, ``mint``, ``pot`` or ``tournament``), ``member`` (the wallet's
member, or the seated member on a seat leg), ``seat`` and ``bot`` (a seat leg's seat id, and the bot's name on a bot's seat), ``table``
(the movement's table; a pot leg's pot) and ``delta`` (chips in, or out when negative).

The database is read a page of movements at a time, each with all of its legs, and a movement's rows always go to one
file: every file's deltas sum to zero, as the ledger's do.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from bot.export.parts import Parts
from bot.export.period import Period, iso
from bot.storage.exports import ExportQueries, LedgerLeg

COLUMNS = ("movement", "time", "kind", "key", "note", "actor", "account", "member", "seat", "bot", "table", "delta")
PAGE = 500
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str | None) -> str:
    """Free text as a spreadsheet reads it as text: a cell that begins like a formula gets a leading quote."""
    if not value:
        return ""
    return "'" + value if value.startswith(FORMULA_START) else value


def _cell(value: int | None) -> str:
    return "" if value is None else str(value)


def rows_of(legs: Sequence[LedgerLeg]) -> str:
    """The CSV rows of some legs (one movement's, say)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for leg in legs:
        writer.writerow(
            (
                leg.movement_id,
                iso(leg.created_at),
                leg.reason,
                _text(leg.key),
                _text(leg.note),
                _cell(leg.actor_id),
                leg.account,
                _cell(leg.user_id),
                _cell(leg.seat_id),
                _text(leg.bot),
                _cell(leg.table_id),
                leg.delta,
            )
        )
    return out.getvalue()


def header() -> str:
    return ",".join(COLUMNS) + "\n"


@dataclass
class LedgerTally:
    movements: int = 0
    legs: int = 0


async def write_ledger(queries: ExportQueries, guild_id: int, when: Period, parts: Parts) -> LedgerTally:
    """Every movement of the server in ``when`` into ``parts``, a page at a time."""
    tally = LedgerTally()
    after: tuple[float, int] | None = None
    while True:
        page = await queries.ledger_page(guild_id, since=when.since, until=when.until, after=after, limit=PAGE)
        tally.movements += page.movements
        block: list[LedgerLeg] = []
        for leg in page.legs:
            if block and block[-1].movement_id != leg.movement_id:
                parts.add(rows_of(block))
                block = []
            block.append(leg)
        if block:
            parts.add(rows_of(block))
        tally.legs += len(page.legs)
        if page.cursor is None:
            return tally
        after = page.cursor
