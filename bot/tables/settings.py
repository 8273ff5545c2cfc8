"""Each server's settings as the tables read them (turn timer, bot pace …): cached, and read once at a time.

A table reads its server's settings at every turn timer and bot move; a busy bot would otherwise send the database a
read for each. A read is kept for ``CONFIG_SECONDS`` (a moderator's change through ``/config`` drops it at once),
and concurrent misses for one server share one read instead of queueing one each.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.storage import Database, GuildConfig

CONFIG_SECONDS = 30.0
"""How long a server's settings are taken as read."""


class ServerSettings:
    def __init__(self, db: Database, *, ttl: float = CONFIG_SECONDS) -> None:
        self.db = db
        self.ttl = ttl
        self._cache: dict[int, tuple[float, GuildConfig]] = {}
        self._reading: dict[int, asyncio.Future[GuildConfig]] = {}
        self.reads = 0
        """Database reads made (for the capacity benchmark and tests)."""

    async def get(self, guild_id: int) -> GuildConfig:
        loop = asyncio.get_running_loop()
        cached = self._cache.get(guild_id)
        if cached is not None and loop.time() - cached[0] < self.ttl:
            return cached[1]
        reading = self._reading.get(guild_id)
        if reading is None:
            reading = loop.create_future()
            self._reading[guild_id] = reading
            try:
                self.reads += 1
                config = await self.db.get_config(guild_id)
            except BaseException as exc:
                if self._reading.get(guild_id) is reading:
                    del self._reading[guild_id]
                if isinstance(exc, Exception):
                    reading.set_exception(exc)
                    reading.exception()  # retrieved here: the waiters (if any) get it too
                else:
                    reading.cancel()
                raise
            if self._reading.get(guild_id) is reading:  # not changed meanwhile
                del self._reading[guild_id]
                self._cache[guild_id] = (loop.time(), config)
            reading.set_result(config)
            return config
        return await asyncio.shield(reading)

    def changed(self, guild_id: int) -> None:
        """A moderator changed the server's settings: read them again next time (a read under way is not kept)."""
        self._cache.pop(guild_id, None)
        self._reading.pop(guild_id, None)
