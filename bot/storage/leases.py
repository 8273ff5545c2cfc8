"""Table leases: which bot process drives a table, so that several processes (one per group of Discord shards)
share one database and a table is never driven by two of them, even when they are configured wrong.

A lease names its owner (:attr:`Database.owner <bot.storage.core.Core.owner>`, a random id made when the process
opens the database) and when it runs out (``expires_at``, :attr:`~bot.storage.core.Core.lease_seconds` after it was
taken or renewed, on the writer's clock). A process:

* takes a table's lease when it opens the table (in :meth:`~bot.storage.tables.seats.SeatOps.open_table`'s transaction)
  and when it restores it after a start (:meth:`LeaseOps.acquire_leases`): only if the lease is free, ran out, or is
  already its own;
* renews all of its leases with one statement (:meth:`LeaseOps.renew_leases`), well before they run out;
* gives them back when it stops (:meth:`LeaseOps.release_leases`, also done by :meth:`Database.close`), so another
  process (or itself, started again) may take them at once;
* loses a table's lease when the table ends (the closing transaction deletes it).

And every write that changes a table (a move, a settlement, a closing, a seat taken or left, …) first checks, in its
own transaction, that its process holds the table's lease (:meth:`~bot.storage.core.Core._fence`, one primary-key
lookup; a table whose lease nobody holds, given back or from before leases existed, becomes the writer's) and
otherwise refuses with :class:`~bot.storage.errors.LeaseLost` (``storage.lease_lost``), writing nothing:
a process that was paused past its lease's end, while another took the table over, cannot write over the other's
moves. Only the owner matters to that check, not the expiry: a lease that ran out but that nobody took is harmless
to write under (nobody else drives the table), and its owner's next renewal extends it.

With one process nothing of this shows: every lease is its own. After a crash (no release), a new process waits for
the old leases to run out (at most :data:`~bot.storage.core.LEASE_SECONDS`) before it drives those tables.
"""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.storage.core import Core
from bot.storage.tx import All, Exec, Guard, Many, One

log = logging.getLogger(__name__)


class LeaseOps(Core):
    async def acquire_leases(self, table_ids: Iterable[int]) -> set[int]:
        """Take the leases of these tables that are free, ran out, or already this process's (renewing those), in
        one transaction; returns the ids of those this process now holds. A table that is not open (lobby or
        playing) gets no lease."""
        wanted = sorted(set(int(t) for t in table_ids))
        if not wanted:
            return set()
        owner, span = self.owner, self.lease_seconds

        async def tx(now: float) -> set[int]:
            rows = await All("SELECT id FROM tables WHERE status IN ('lobby', 'playing')")
            active = {int(r[0]) for r in rows}  # once: 5,000 tables to take among 10,000 open must stay linear
            open_ids = [t for t in wanted if t in active]
            if not open_ids:
                return set()
            mine = {int(r[0]) for r in await All("SELECT table_id FROM table_leases WHERE owner = ?", (owner,))}
            # A table changing hands: a move its old owner is writing right now must not commit after this does
            # (its fencing check read the old lease), nor this after a move that read the table before it.
            await Guard(tuple(t for t in open_ids if t not in mine))
            await Many(
                "INSERT INTO table_leases (table_id, owner, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at"
                " WHERE table_leases.owner = excluded.owner OR table_leases.expires_at <= ?",
                [(table_id, owner, now + span, now) for table_id in open_ids],
            )
            rows = await All("SELECT table_id FROM table_leases WHERE owner = ?", (owner,))
            return {int(r[0]) for r in rows} & set(open_ids)

        return await self._transaction(tx)

    async def renew_leases(self) -> set[int]:
        """Push back the end of every lease this process holds (one statement); returns the ids of the tables it
        still holds, so the caller can stop driving any other."""
        owner, span = self.owner, self.lease_seconds

        async def tx(now: float) -> set[int]:
            rows = await All(
                "UPDATE table_leases SET expires_at = ? WHERE owner = ? RETURNING table_id", (now + span, owner)
            )
            return {int(r[0]) for r in rows}

        return await self._transaction(tx)

    async def release_leases(self, table_ids: Iterable[int] | None = None) -> int:
        """Give back this process's leases (of these tables, or all of them), so that another process may take
        them at once; returns how many were given back."""
        owner = self.owner
        if table_ids is None:
            return await self._transaction(lambda now: Exec("DELETE FROM table_leases WHERE owner = ?", (owner,)))
        rows = [(owner, int(t)) for t in table_ids]
        if not rows:
            return 0
        return await self._transaction(
            lambda now: Many("DELETE FROM table_leases WHERE owner = ? AND table_id = ?", rows)
        )

    async def _give_back_leases(self) -> None:
        """At close: every lease of this process goes back (best effort: a database that cannot be reached keeps
        them until they run out)."""
        try:
            await self.release_leases()
        except Exception as exc:  # the connection may be gone already
            log.warning("could not give back the table leases of %s: %s", self.owner, exc)

    async def lease_of(self, table_id: int) -> tuple[str, float] | None:
        """The table's lease: its owner and when it runs out; None when nobody holds it."""
        row = await self._read(
            lambda: One("SELECT owner, expires_at FROM table_leases WHERE table_id = ?", (table_id,))
        )
        return None if row is None else (str(row["owner"]), float(row["expires_at"]))
