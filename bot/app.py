"""The bot itself: a thin ``commands.Bot`` that wires storage, cogs, components and tables."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot.i18n.translator import CatalogTranslator
from bot.render import runner
from bot.shards import Shards
from bot.storage import Database, StorageUnavailable
from bot.tables.budget import share
from bot.tables.components import Router
from bot.tables.manager import TableManager
from bot.tuning import tune_process

log = logging.getLogger(__name__)

DB_WAIT_MAX_SECONDS = 30.0
"""The longest pause between two tries to reach a database that is not up yet."""


async def open_when_reachable(
    target: str, *, clock: Callable[[], float] = time.time, owner: str | None = None
) -> Database:
    """Open the database, waiting for it while it cannot be reached (a PostgreSQL server still starting, or
    restarting, as in a compose deployment where both start together). Any other failure stops the start.
    ``owner``: this process's lasting identity in table leases (:mod:`bot.instance`); None: a new one."""
    pause = 1.0
    while True:
        try:
            return await Database.open(target, clock=clock, owner=owner)
        except StorageUnavailable as exc:
            log.warning("the database cannot be reached yet (%s); trying again in %.0f s", exc, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, DB_WAIT_MAX_SECONDS)


class FudabaBot(commands.Bot):
    """Fudaba. Build it with :func:`create_bot`."""

    db: Database
    tables: TableManager

    def __init__(
        self,
        *,
        database: str | Database,
        clock: Callable[[], float] = time.time,
        edit_interval: float = 1.0,
        lobby_timeout: float = 900.0,
        bot_pace: float | None = None,
        edits_per_second: float = 40.0,
        render_processes: int = 0,
        bot_processes: int = 0,
        owner: str | None = None,
        tune_process: bool = False,
        sync_commands: bool = True,
        dev_guild_id: int | None = None,
        shards: Shards | None = None,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        # Nothing the bot says pings anyone unless that message names whom (a correspondence table's turn mention).
        client_options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **client_options)
        self.shard_set = shards
        """The shards this process connects and whose guilds' tables it drives (None: unsharded, all of them)."""
        self._database = database
        self._owner = owner
        self.clock = clock
        self._edit_interval = edit_interval
        self._lobby_timeout = lobby_timeout
        self._bot_pace = bot_pace
        self._edits_per_second = edits_per_second
        self._render_processes = render_processes
        self._bot_processes = bot_processes
        self._tune_process = tune_process
        self._component_classes: list[type[discord.ui.DynamicItem[Any]]] = []
        self._sync_commands = sync_commands
        self._dev_guild_id = dev_guild_id

    async def setup_hook(self) -> None:
        if isinstance(self._database, Database):
            self.db = self._database
        else:
            self.db = await open_when_reachable(self._database, clock=self.clock, owner=self._owner)
        await self.tree.set_translator(CatalogTranslator())
        from bot.cogs import COGS

        # The table runtime first: a cog may join it when it loads (/learn's teacher), before any table is restored.
        self.tables = TableManager(
            self,
            clock=self.clock,
            edit_interval=self._edit_interval,
            lobby_timeout=self._lobby_timeout,
            bot_pace=self._bot_pace,
            edits_per_second=self.channel_budget(),
        )
        for cog in COGS:
            await self.add_cog(cog(self))
        # Every table component press and modal is answered by one router, from its custom id.
        self.add_listener(Router(self.tables, lambda: self._component_classes).route, "on_interaction")
        if self._render_processes or self._bot_processes:
            runner.use_processes(self._render_processes, self._bot_processes)
        await runner.warm_up()  # fonts and card faces load once, not on the first player's click
        await self.tables.restore()
        if self._tune_process:
            tune_process()
        if self._sync_commands:
            await self.tree.sync()
            if self._dev_guild_id:
                guild = discord.Object(self._dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)

    def channel_budget(self) -> float:
        """This process's channel requests per second: the bot token's budget is shared by every process, each
        taking its shards' share (all of it when unsharded)."""
        if self.shard_set is None:
            return self._edits_per_second
        return share(self._edits_per_second, len(self.shard_set.ids), self.shard_set.count)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Components of other features (leaderboard and rules pages); the table router leaves their ids alone."""
        self._component_classes.extend(items)
        super().add_dynamic_items(*items)

    async def is_moderator(self, interaction: discord.Interaction) -> bool:
        """Manage Server, or the guild's configured moderator role."""
        perms = getattr(interaction, "permissions", None)
        if perms is not None and (perms.manage_guild or perms.administrator):
            return True
        if interaction.guild_id is None:
            return False
        config = await self.db.get_config(interaction.guild_id)
        role_id = config.moderator_role_id
        roles = getattr(interaction.user, "roles", [])
        return role_id is not None and any(r.id == role_id for r in roles)

    async def close(self) -> None:
        if hasattr(self, "tables"):
            await self.tables.shutdown()
            if hasattr(self, "db"):
                await self.tables.release()  # another process (or this one, restarted) takes the tables at once
        if hasattr(self, "db") and not isinstance(self._database, Database):
            await self.db.close()
        await super().close()


class ShardedFudabaBot(FudabaBot, commands.AutoShardedBot):
    """Fudaba connecting only some of the bot's shards (``SHARD_COUNT``/``SHARD_IDS``), one process among several
    over one database: it drives the tables of its shards' guilds only (:mod:`bot.shards`)."""

    def __init__(self, *, shards: Shards, **options: Any) -> None:
        super().__init__(shards=shards, shard_count=shards.count, shard_ids=list(shards.ids), **options)


def create_bot(database: str | Database = ":memory:", *, shards: Shards | None = None, **options: Any) -> FudabaBot:
    """A ready-to-run bot over a ``DATABASE_URL`` (a SQLite file path, or ``postgresql://…``) or an open
    :class:`Database`. With ``shards`` (:func:`bot.shards.configure`) it connects only those shards (discord.py's
    ``AutoShardedBot``); without, it is a plain ``commands.Bot``, unsharded, as a single process always was."""
    if shards is not None:
        return ShardedFudabaBot(database=database, shards=shards, **options)
    return FudabaBot(database=database, **options)
