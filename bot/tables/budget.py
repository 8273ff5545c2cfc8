"""The bot-wide budget of channel requests (table pictures, results, mentions, thread upkeep), in priority order.

Discord allows one bot token about 50 requests a second in all, across every process that uses it; the budget keeps
this process under its share of ``per_second`` (40 by default, leaving room for commands and retries). It is a
token bucket that never lets more through in any one-second window than the rate: the ``burst`` a quiet spell
saves up is part of the rate, not added to it. With several processes (shards) the rate and the burst are split
between them by their share of the shards (:func:`share`), so all of them together stay within it too.

Requests wait in priority order, oldest first within a priority: a table where a member is to act (:data:`TO_ACT`),
then one where a member has just acted (:data:`MEMBER`), before a table where only bots move (:data:`BOTS`), before
redraws that only make sure a message is current after a restart (:data:`LOW`). A request's age is when it was made,
or the :meth:`EditBudget.age` it was given: a table picture counts from the change that made it that urgent, so the
time it spends drawing, or waiting for its deal's results to go first, does not send it to the back of its lane. A
waiting request can be promoted (a member moved meanwhile) without losing its place or its turn. A request takes its token just before it is sent, never before the work that
makes it (drawing a picture), so the requests themselves go out at the budget's pace.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from dataclasses import dataclass, field

TO_ACT = 0
"""A table where a member is to act and the picture does not show it yet; results, mentions, a final message."""
MEMBER = 1
"""A table where a member has just acted (their own panel already shows it; the others at the table look here)."""
BOTS = 2
"""A table where only bots (and away players) moved since its last picture; thread upkeep."""
LOW = 3
"""A redraw only to be sure a message is current (after a restart)."""

DISCORD_PER_SECOND = 40.0
"""This bot token's budget of channel requests per second, all processes together (Discord allows about 50)."""
BURST = 2.0


class Withdrawn(Exception):
    """The request was taken back before its turn (what it would have sent is out of date): it gave up its place."""


def share(per_second: float, shard_ids: int, shard_count: int) -> float:
    """This process's share of a token's budget: its shards over all shards (the whole when unsharded)."""
    if shard_count <= 0 or shard_ids <= 0:
        return per_second
    return per_second * min(shard_ids, shard_count) / shard_count


@dataclass(eq=False)
class Ticket:
    """One request's place in the queue; awaitable until its token is granted."""

    priority: int
    order: int
    granted: asyncio.Future[None] = field(repr=False)

    def __await__(self):  # type: ignore[no-untyped-def]
        return self.granted.__await__()

    @property
    def done(self) -> bool:
        return self.granted.done()


class EditBudget:
    def __init__(self, per_second: float, burst: float = BURST) -> None:
        self.per_second = per_second
        """The most requests in any one-second window (the burst included)."""
        self.burst = max(1.0, min(burst, per_second / 2)) if per_second > 0 else 1.0
        self.rate = max(per_second - self.burst, per_second / 2) if per_second > 0 else 0.0
        """Tokens refill at this rate, so that ``burst + rate`` never exceeds ``per_second`` in a second."""
        self.tokens = self.burst
        self.stamp: float | None = None
        self._heap: list[tuple[int, int, int, Ticket]] = []
        self._waiting = 0
        """Tickets not yet granted nor cancelled (entries superseded by a promotion are not counted)."""
        self._order = itertools.count()
        self._entries = itertools.count()
        """Breaks ties between heap entries of one age (a request given the age of another)."""
        self._pump: asyncio.Task[None] | None = None
        self.granted = 0

    def _refill(self, now: float) -> None:
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def age(self) -> int:
        """Now, as an age to give a request made later (:meth:`request`): it waits as if it had been made now."""
        return next(self._order)

    def request(self, priority: int = BOTS, *, age: int | None = None) -> Ticket:
        """A place in the queue; ``await`` it for the token (granted at once when nothing waits and a token is
        there). ``age``: from :meth:`age`, when what needs the request happened earlier (default: now). Cancelling
        the awaiting task gives the place up, as :meth:`withdraw` does."""
        loop = asyncio.get_running_loop()
        ticket = Ticket(priority, next(self._order) if age is None else age, loop.create_future())
        if self.per_second <= 0:
            ticket.granted.set_result(None)
            return ticket
        self._refill(loop.time())
        if self._waiting == 0 and self.tokens >= 1:
            self.tokens -= 1
            self.granted += 1
            ticket.granted.set_result(None)
            return ticket
        self._waiting += 1
        ticket.granted.add_done_callback(self._left)
        heapq.heappush(self._heap, (priority, ticket.order, next(self._entries), ticket))
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._serve())
        return ticket

    async def take(self, priority: int = BOTS) -> None:
        """Wait for a token (see :meth:`request`)."""
        ticket = self.request(priority)
        try:
            await ticket
        except asyncio.CancelledError:
            ticket.granted.cancel()
            raise

    def promote(self, ticket: Ticket | None, priority: int) -> None:
        """Move a waiting request up to ``priority`` (it keeps its age within the new priority)."""
        if ticket is None or ticket.done or priority >= ticket.priority:
            return
        ticket.priority = priority
        heapq.heappush(self._heap, (priority, ticket.order, next(self._entries), ticket))

    def withdraw(self, ticket: Ticket | None) -> bool:
        """Take back a request still waiting (its awaiter gets :class:`Withdrawn`); False if it was already granted
        (then it goes out as it is)."""
        if ticket is None or ticket.done:
            return False
        ticket.granted.set_exception(Withdrawn())
        return True

    def _left(self, future: asyncio.Future[None]) -> None:
        self._waiting -= 1

    async def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting > 0 and self._heap:
            self._refill(loop.time())
            if self.tokens < 1:
                await asyncio.sleep((1 - self.tokens) / self.rate)
                continue
            priority, _, _, ticket = heapq.heappop(self._heap)
            if ticket.done or priority != ticket.priority:
                continue  # cancelled, or an older entry of a ticket since promoted
            self.tokens -= 1
            self.granted += 1
            ticket.granted.set_result(None)
