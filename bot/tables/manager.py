"""The table runtime's facade: builds the runtime's modules, each with what it needs, and is what the rest of the
bot (commands, the component router, start-up and shutdown) talks to.

The modules, each small enough to read in one sitting:

* :mod:`bot.tables.session` — one table's state, lock and ``commit`` (the one way a playing table changes);
* :mod:`bot.tables.play` — the one path every change takes: commit, then what follows it, written once;
* :mod:`bot.tables.presses` — component presses and modals, turned into lobby changes, panel steps and moves;
* :mod:`bot.tables.lobby` — opening, joining, bots, starting, cancelling, expiry;
* :mod:`bot.tables.autoplay` — bot players and away members, paced, and the turn timer;
* :mod:`bot.tables.results` — each deal's results message, owed until the channel has it;
* :mod:`bot.tables.public` — the public table message, within the bot-wide budget of channel requests;
* :mod:`bot.tables.panels` — the private panels;
* :mod:`bot.tables.ending` — a game over, or stopped;
* :mod:`bot.tables.restore` — rebuilding the tables after a restart (and after the database was away);
* :mod:`bot.tables.registry`, :mod:`bot.tables.state`, :mod:`bot.tables.settings` — the live tables, what the
  runtime keeps per table, each server's settings;
* :mod:`bot.tables.components` and :mod:`bot.tables.ids` — the components and the strict reading of their ids.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.errors import UserError
from bot.shards import owns
from bot.tables.autoplay import Autoplay
from bot.tables.background import Background
from bot.tables.budget import EditBudget
from bot.tables.ending import Ending
from bot.tables.lobby import Lobby
from bot.tables.mentions import Mentions
from bot.tables.panels import Panels
from bot.tables.places import Places
from bot.tables.play import Play
from bot.tables.presses import Presses
from bot.tables.public import PublicMessages
from bot.tables.registry import Registry
from bot.tables.restore import Restorer
from bot.tables.results import Results
from bot.tables.session import TableSession
from bot.tables.settings import ServerSettings
from games.core.rng import Shuffler

if TYPE_CHECKING:
    from bot.app import FudabaBot
    from bot.storage import Database, GuildConfig

log = logging.getLogger(__name__)


class TableManager:
    """All live tables of this process."""

    def __init__(
        self,
        bot: FudabaBot,
        *,
        clock: Callable[[], float],
        edit_interval: float,
        lobby_timeout: float,
        bot_pace: float | None = None,
        edits_per_second: float = 40.0,
    ) -> None:
        self.bot = bot
        self.clock = clock
        db: Database = bot.db
        self.db = db
        self.registry = Registry()
        self.tables = self.registry.tables
        self.new_shuffler: Callable[[], Shuffler] = Shuffler
        """Where a new table's randomness comes from (tests put a stacked deck here; restarts replay records)."""
        self.background = Background()
        self.settings = ServerSettings(db)
        budget = EditBudget(edits_per_second)
        self.public = PublicMessages(bot, db, clock=clock, edit_interval=edit_interval, budget=budget)
        self.results = Results(bot, db, self.registry, budget=budget, owns=self.owns, clock=clock)
        self.public.attach(self.results)
        self.panels = Panels(bot, db, clock=clock, background=self.background)
        self.autoplay = Autoplay(self.settings, bot_pace=bot_pace, clock=clock, shown=self.public.shown)
        self.places = Places(bot, budget)
        self.lobby = Lobby(
            bot,
            db,
            self.registry,
            self.public,
            self.places,
            clock=clock,
            lobby_timeout=lobby_timeout,
            new_shuffler=lambda: self.new_shuffler(),
            is_moderator=bot.is_moderator,
        )
        self.restorer = Restorer(
            db,
            self.registry,
            owns=self.owns,
            lobby=self.lobby,
            panels=self.panels,
            results=self.results,
            background=self.background,
        )
        self.mentions = Mentions(bot, db, budget=budget, background=self.background, deadline=self.autoplay.deadline)
        self.ending = Ending(db, self.registry, self.public, self.places, ready=self.ready)
        self.play = Play(
            db,
            self.registry,
            results=self.results,
            public=self.public,
            panels=self.panels,
            autoplay=self.autoplay,
            ending=self.ending,
            restorer=self.restorer,
            mentions=self.mentions,
        )
        for module in (self.autoplay, self.lobby, self.restorer):
            module.attach(self.play)
        self.presses = Presses(
            self.registry,
            self.play,
            self.panels,
            self.lobby,
            self.ending,
            ready=self.ready,
            is_moderator=bot.is_moderator,
        )

    # ------------------------------------------------------------------ settings and shards

    async def config(self, guild_id: int) -> GuildConfig:
        """The server's settings as tables read them (cached; see :mod:`bot.tables.settings`)."""
        return await self.settings.get(guild_id)

    def config_changed(self, guild_id: int) -> None:
        self.settings.changed(guild_id)

    def owns(self, guild_id: int) -> bool:
        """Whether the guild's tables are this process's to drive (a guild on one of its shards; every guild when
        the bot is not sharded), :mod:`bot.shards`."""
        return owns(getattr(self.bot, "shard_set", None), guild_id)

    # ------------------------------------------------------------------ lookups

    def get(self, table_id: int) -> TableSession:
        return self.registry.get(table_id)

    def in_channel(self, channel_id: int) -> TableSession | None:
        return self.registry.in_channel(channel_id)

    async def ready(self, session: TableSession) -> TableSession:
        """The session with its engine loaded (a table restored after a restart loads on first use)."""
        if session.status == "playing" and session.engine is None:
            await self.restorer.ensure(session)
        if session.status == "broken":
            raise UserError("table.broken")
        return session

    # ------------------------------------------------------------------ commands

    async def open(
        self,
        interaction: discord.Interaction,
        game_id: str,
        buy_in: int | None,
        stake: int | None,
        practice: bool = False,
        *,
        pace: str = "live",
        hours: int | None = None,
    ) -> None:
        await self.lobby.open(interaction, game_id, buy_in, stake, practice, pace=pace, hours=hours)

    def table_here(self, channel_id: int) -> TableSession:
        """The table a ``/table`` command used in ``channel_id`` is about: the table of that channel or thread, or the
        one table in the channel's threads; :class:`UserError` when there is none, or several to choose from."""
        live = self.registry.in_channel(channel_id)
        if live is not None:
            return live
        threads = self.registry.in_threads_of(channel_id)
        if len(threads) == 1:
            return threads[0]
        if threads:
            raise UserError("table.several_here", threads=" ".join(f"<#{s.channel_id}>" for s in threads[:20]))
        raise UserError("table.none_here")

    def seated(self, guild_id: int, user_id: int) -> list[TableSession]:
        """The live tables of a server where the member has a seat, oldest first."""
        return sorted(
            (s for s in self.tables.values() if s.guild_id == guild_id and s.seat_of(user_id) is not None),
            key=lambda s: s.id,
        )

    def repost(self, session: TableSession) -> None:
        """Post the table message again at the bottom of the channel (with the next update)."""
        self.public.mark(session, repost=True)

    async def stop(self, session: TableSession, by: int) -> str:
        """End a table at once (see :meth:`bot.tables.ending.Ending.stop`); returns what the stopper is told."""
        return await self.ending.stop(session, by)

    async def on_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        await self.presses.on_component(interaction, custom_id, values)

    async def on_modal(self, interaction: discord.Interaction, custom_id: str, values: dict[str, str]) -> None:
        await self.presses.on_modal(interaction, custom_id, values)

    # ------------------------------------------------------------------ restart and shutdown

    async def restore(self) -> None:
        await self.restorer.restore()

    async def release(self) -> None:
        """Give back this process's table leases (at shutdown), so another process may take the tables at once."""
        try:
            await self.db.release_leases()
        except Exception as exc:
            log.warning("could not give back the table leases (%s); they run out by themselves", exc)

    async def shutdown(self) -> None:
        self.restorer.cancel()
        self.results.cancel()
        for session in list(self.tables.values()):
            session.runtime.stop_all()
        self.background.cancel()
