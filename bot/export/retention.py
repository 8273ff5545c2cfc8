"""The retention setting's purge: once the bot is ready, then every day, each server that keeps hand details for a
limited time (``/config set keep_hands_days``) loses the details of its settled deals older than that on its finished
tables (what goes and what stays: :mod:`bot.storage.retention`).

A table whose older deals go while its later ones stay needs the start of its first deal kept before anything is
dropped: if the log never kept it (a table from before deal starts were kept as deals began), the deal is replayed
from the nearest earlier start, off the event loop, as a replay would, and its start kept. A process of a sharded bot
purges the servers of its own shards. A failure is logged and tried again the next day; nothing of a table is dropped
unless all that its purge drops goes in one transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from discord.ext import tasks

from bot.storage.errors import StorageUnavailable
from bot.storage.replays import HistoryQueries
from bot.storage.retention import DAY, Candidate, RetentionQueries
from games.core.errors import GameError
from games.core.record import TableRecord

if TYPE_CHECKING:
    from bot.storage import Database

log = logging.getLogger(__name__)

INTERVAL_HOURS = 24.0


@dataclass
class PurgeReport:
    tables: int = 0
    """Tables whose details were (partly) dropped."""
    rows: int = 0
    """Log rows dropped."""
    skipped: int = 0
    """Tables left for another day (a start that could not be kept, a deal settled meanwhile)."""


def kept_shuffles(whole: str) -> str | None:
    """A table stored before the log: the record it keeps once its details go (its opening and its shuffles)."""
    try:
        record = TableRecord.loads(whole)
    except GameError:
        return None
    if record.snapshot is not None:
        return None
    return TableRecord(
        game=record.game,
        rules=record.rules,
        stacks=list(record.stacks),
        seats=list(record.seats),
        stake=record.stake,
        shuffles=list(record.shuffles),
    ).dumps()


async def _keep_start(db: Database, table_id: int, deal: int, off_loop: Callable[..., Any]) -> None:
    """Keep the start of ``deal`` (replaying it from the nearest earlier start, as a replay would)."""
    from bot.history.replay import build

    history = HistoryQueries(db)
    source = await history.replay_source(table_id, deal)
    if source is None or source.table.opening is None:
        return
    _tape, found = await off_loop(build, source)
    await history.keep_starts(table_id, found)


async def purge_table(
    db: Database, candidate: Candidate, cutoff: float, report: PurgeReport, off_loop: Callable[..., Any]
) -> None:
    queries = RetentionQueries(db)
    table_id = candidate.table_id
    if candidate.whole:
        legacy = None
        if candidate.legacy:
            whole = await queries.legacy_record(table_id)
            legacy = kept_shuffles(whole) if whole is not None else None
        dropped = await queries.purge(table_id, through=candidate.last, cutoff=cutoff, whole=True, legacy_record=legacy)
    else:
        through = candidate.old_to
        if await queries.kept_start(table_id, through + 1) is None:
            try:
                await _keep_start(db, table_id, through + 1, off_loop)
            except GameError as exc:
                log.error(
                    "table %s: deal %s's start could not be kept (%s); its details stay", table_id, through + 1, exc
                )
        dropped = await queries.purge(table_id, through=through, cutoff=cutoff, whole=False)
    if dropped is None:
        report.skipped += 1
        return
    report.tables += 1
    report.rows += dropped


async def purge(
    db: Database,
    *,
    now: float,
    owns: Callable[[int], bool] = lambda guild_id: True,
    off_loop: Callable[..., Any] | None = None,
) -> PurgeReport:
    """Drop the details the servers' retention settings no longer keep (the servers ``owns`` says are this
    process's)."""
    if off_loop is None:
        from bot.render.runner import off_loop as pool

        off_loop = pool
    queries = RetentionQueries(db)
    report = PurgeReport()
    for guild_id, days in await queries.guilds():
        if not owns(guild_id):
            continue
        cutoff = now - days * DAY
        after = 0
        while page := await queries.candidates(guild_id, cutoff, after=after):
            after = page[-1].table_id
            for candidate in page:
                if candidate.due:
                    await purge_table(db, candidate, cutoff, report, off_loop)
    if report.tables or report.skipped:
        log.info(
            "retention: dropped %d log rows of %d tables (%d left for later)",
            report.rows,
            report.tables,
            report.skipped,
        )
    return report


class RetentionJob:
    """The daily purge of one bot, started with its ``/export`` cog (:mod:`bot.cogs.export`)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.runs = 0
        self.last: PurgeReport | None = None
        self._loop = tasks.loop(hours=INTERVAL_HOURS)(self._run)
        self._loop.before_loop(self._ready)

    def start(self) -> None:
        if not self._loop.is_running():
            self._loop.start()

    def stop(self) -> None:
        self._loop.cancel()

    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def _run(self) -> None:
        if self.bot.is_closed():  # a bot replaced by a restarted one: its job ends with it
            self._loop.stop()
            return
        tables = getattr(self.bot, "tables", None)
        owns = tables.owns if tables is not None else (lambda guild_id: True)
        try:
            self.last = await purge(self.bot.db, now=self.bot.clock(), owns=owns)
        except StorageUnavailable as exc:
            log.warning("retention: the database is away (%s); trying again tomorrow", exc)
        except Exception:
            log.exception("retention: the purge failed; trying again tomorrow")
        finally:
            self.runs += 1
