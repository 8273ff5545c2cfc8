"""Capacity of one bot process at production settings: many busy tables against one table, in the same run.

Production settings, all on: the panel follower (every seated member holds an open panel, redrawn as the table
changes), the bot-wide budget of channel requests (40 a second), the 1-second edit window, bot players at the
servers' default pace (1.2 s), one render worker process and one for the bots (``bot.config``'s defaults). Half the
tables are Oicho-Kabu, half OFC (Turbo), each with two members and one bot, spread over many servers (one server per
five tables by default), so per-server reads are what they are in production.

Load, open loop: at each table a member acts about every 10 s (exponential gaps: arrivals do not wait for earlier
clicks to be answered); when a member is to act they click a move on their panel. The one-table baseline (two members, no
bot) is clicked about every 0.05 s, for three times as long, so that its p99 rests on more than a thousand clicks.

Printed, for the one table and for N tables:

* click: p50/p99 from a click reaching the bot until the clicker is answered (the goal: p99 at N tables within
  1.5× the one table's), with a 95% bootstrap interval of that ratio (its sampling error alone, not the machine's);
* panels: p99 time from a change of a table until each other open panel there is current again (goal ≤ 2 s);
* pictures: p50/p99 time from a change until the table message shows it, separately for tables awaiting a member
  (from the moment a member's turn began, by another seat's move; goal p99 ≤ 5 s), tables where a member has just
  acted (their own panel already shows it), and tables where only bots move;
* channel requests per second (mean, and the most in any 1-second window; the budget is 40) and event loop busy
  (its thread's CPU time over the wall time).

Discord is replaced at its boundary only: a click enters through the bot's real router as a
``discord.Interaction``-shaped object whose answer is recorded, panel edits through interaction tokens are
recorded, and channel requests (posts, edits, deletions) are recorded instead of sent (each costs nothing: what is
measured is the bot). Everything between (ids, sessions, commits to a real SQLite file, settlements, the follower,
the budget, rendering in a worker process, bots and timers) is the bot's own code running in real time. SimCord is
not used: its virtual clock and one-at-a-time actors cannot carry a thousand tables clicking concurrently.
To time the steps, :func:`instrument` wraps the follow-up of a change, the table message's refresh, the panels' build,
the mover's pace and move, the budget's requests, and the hand-off of pictures and decisions to the worker pools:
each wrapper notes a time and calls the bot's own code, which is neither replaced nor switched off.

With ``--bot-level strong`` the bots at the tables are strong ones (the default is the level a plain "Add bot" seats;
away members are played by the strong level either way), which search on the bots' worker process, with the share of
their budget the mover gives them (less when the queue there is long: ``bot.tables.autoplay.effort``). The bots'
decisions are timed three ways: from the mover handing one to the pool until its move is back (queueing behind other
searches included), the search alone (in the worker), and how long a bot's move waited for its decision once its pace
was over (what people see: the mover starts the search as its pace begins). Also printed: the share of a core the
searches took by game, the strong searches' effort, and how long a table picture took to come back from the render
worker (queueing included).

    python bench/bench_capacity.py [tables] [seconds] [--servers N] [--baseline-seconds S] [--bot-level L]
                                   [--settle S]
    # defaults: 1000 tables, 60 s measured after 30 s of members clicking unmeasured (the tables all open at once,
    # and their first deals would otherwise run in step); the one-table baseline runs three times as long (its p99
    # on ~1,400 clicks)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

import bot.tables.autoplay
import bot.tables.public
from bot.render import runner
from bot.storage import Database
from bot.tables.autoplay import Autoplay
from bot.tables.budget import BOTS, Ticket
from bot.tables.manager import TableManager
from bot.tables.panels import Panels
from bot.tables.play import Play
from bot.tables.public import PublicMessages
from bot.tables.session import SeatInfo, TableSession
from bot.tuning import tune_process
from games.core.actions import ActionFamily, AmountRange
from games.registry import DEFAULT_LEVEL, LEVELS, get_game

RENDER_PROCESSES = 1
BOT_PROCESSES = 1
"""The worker processes, as ``bot.config`` sets them by default."""
MEMBER_GAP = 10.0
"""Mean seconds between two member arrivals at one table."""
SETTLE = 30.0
"""Seconds members click before measuring starts, after the first pictures are out: every table opens at once
here, so without it the measurement would start with all of them at the same point of their first deal."""
EDIT_INTERVAL = 1.0
EDITS_PER_SECOND = 40.0
_ids = itertools.count(10_000)


def p(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1)))]


@dataclass
class Watch:
    """What the fake Discord saw, and when (perf_counter seconds)."""

    requests: list[float] = field(default_factory=list)
    clicks: list[float] = field(default_factory=list)
    panel_lag: list[float] = field(default_factory=list)
    picture_lag: dict[str, list[float]] = field(default_factory=lambda: {"awaiting": [], "acted": [], "bots": []})
    decisions: list[float] = field(default_factory=list)
    """Seconds from a bot's decision handed to the bots' worker pool until its move was back."""
    searches: list[float] = field(default_factory=list)
    renders: list[float] = field(default_factory=list)
    """Seconds from a table picture handed to the render pool until it was back (queueing included)."""
    efforts: list[float] = field(default_factory=list)
    """The share of its search budget each strong decision was given (``bot.tables.autoplay.effort``)."""
    policy_moves: int = 0
    """Moves made by bots (or for away members) while measured."""
    search_time: dict[str, float] = field(default_factory=dict)
    """Game → seconds its bots searched in all."""
    """Seconds a bot's decision took in the worker, without its wait in the queue."""
    late: list[float] = field(default_factory=list)
    """Seconds a bot's move waited for its decision once its pace was over (0: the decision was ready)."""
    paced: dict[asyncio.Task[Any] | None, float] = field(default_factory=dict)
    """A table's mover → when the pace before its next move was over."""
    changed: dict[int, list[tuple[int, float, str]]] = field(default_factory=dict)
    """Table → the changes its message does not show yet: (engine serial after it, when, which kind)."""
    panel_stale: dict[tuple[int, int], float] = field(default_factory=dict)
    """(table, seat) → when that open panel became stale, until it is drawn again."""
    by_message: dict[int, int] = field(default_factory=dict)
    """Message id → table."""
    measuring: bool = False
    kinds: dict[str, int] = field(default_factory=lambda: {"awaiting": 0, "acted": 0, "bots": 0})
    """Changes made while measuring, by kind."""
    lanes: dict[int, list[float]] = field(default_factory=dict)
    """Budget priority (as granted) → seconds each request waited for its token while measuring."""
    asked: dict[int, list[float]] = field(default_factory=dict)
    """Budget priority (as requested) → when each request was made while measuring."""
    withdrawn: int = 0
    """Pictures taken back from the queue while measuring (a member's turn began: drawn again)."""
    sent: dict[str, int] = field(default_factory=dict)
    """Channel requests while measuring, by what they were."""

    def note(self, what: str) -> None:
        self.requests.append(time.perf_counter())
        if self.measuring:
            self.sent[what] = self.sent.get(what, 0) + 1

    def shown(self, table: int, serial: int) -> None:
        """The table's message now shows the state of ``serial``: every change up to it is current."""
        pending = self.changed.get(table)
        if not pending:
            return
        now = time.perf_counter()
        for changed, at, kind in pending:
            if changed <= serial and self.measuring:
                self.picture_lag[kind].append(now - at)
        self.changed[table] = [entry for entry in pending if entry[0] > serial]


class FakeMessage:
    def __init__(self, watch: Watch, message_id: int, table: int) -> None:
        self.watch, self.id, self.table = watch, message_id, table

    async def edit(self, **fields: Any) -> None:
        self.watch.note("picture edit" if fields.get("attachments") else "results or final edit")

    async def delete(self) -> None:
        self.watch.note("deletion")


class FakeChannel:
    def __init__(self, watch: Watch, table: int) -> None:
        self.watch, self.table = watch, table

    async def send(self, *args: Any, **fields: Any) -> FakeMessage:
        self.watch.note("picture post" if "file" in fields else "results, final or mention post")
        message = FakeMessage(self.watch, next(_ids), self.table)
        self.watch.by_message[message.id] = self.table
        return message

    def get_partial_message(self, message_id: int) -> FakeMessage:
        return FakeMessage(self.watch, message_id, self.table)


class FakeBot:
    """What the table runtime needs of the bot: the database, channels by id, the moderator check."""

    def __init__(self, db: Database, watch: Watch) -> None:
        self.db, self.watch = db, watch
        self.channel_to_table: dict[int, int] = {}

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> FakeChannel:
        return FakeChannel(self.watch, self.channel_to_table.get(channel_id, 0))

    async def is_moderator(self, interaction: Any) -> bool:
        return False


class FakeResponse:
    def __init__(self, owner: FakeInteraction) -> None:
        self.owner, self.done = owner, False

    def is_done(self) -> bool:
        return self.done

    async def edit_message(self, **fields: Any) -> None:
        self.done = True
        self.owner.answered = time.perf_counter()

    async def send_message(self, *args: Any, **fields: Any) -> None:
        self.done = True
        self.owner.answered = time.perf_counter()

    async def defer(self, **kwargs: Any) -> None:
        self.done = True


class FakeInteraction:
    """A click on a member's private panel (or "My hand"), as discord.py hands it to the bot."""

    locale = "en-US"
    guild_locale = "en-US"
    application_id = 1
    token = "t"
    message = SimpleNamespace(flags=SimpleNamespace(ephemeral=True))
    type = discord.InteractionType.component

    def __init__(self, user_id: int, custom_id: str, watch: Watch | None = None) -> None:
        self.id = next(_ids)
        self.user = SimpleNamespace(id=user_id, name="u", display_name="u")
        self.data = {"custom_id": custom_id, "component_type": 2}
        self.response = FakeResponse(self)
        self.answered: float | None = None
        self.watch = watch

    @property
    def followup(self) -> Any:
        return self

    async def send(self, *args: Any, **fields: Any) -> None:
        return None

    async def edit_original_response(self, **fields: Any) -> None:
        return None  # an open panel redrawn through its interaction token (outside the channel budget)


async def open_tables(
    manager: TableManager,
    db: Database,
    count: int,
    servers: int,
    first_channel: int,
    *,
    bots: int = 1,
    bot_level: str = DEFAULT_LEVEL,
) -> list[TableSession]:
    """Half Oicho, half OFC; two members and ``bots`` bots each, at chip tables (every deal's ledger, statistics and
    member rows written as in production); started as the lobby starts them; spread over servers. Stacks and the bank's cap are large and members never resign the bank (:func:`a_move`), so no game ends
    while it is measured: the one-table baseline makes about 16 moves a second, and its game used to end within half
    a minute, leaving the rest of its run without clicks."""
    rules = {
        "oicho": {"dealer_cycles": 10, "dealer_rounds": 50, "starting_chips": 100_000, "bank_cap": 100_000},
        "ofc": {"starting_chips": 100_000, "dealer_orbits": 50},
    }
    sessions = []
    for guild in range(1, max(1, servers) + 1):  # chip tables, bots at them funded by the house, as servers allow
        await db.set_config(guild, actor_id=1, bots_play_for_chips=True)
    for i in range(count):
        game = "oicho" if i % 2 == 0 else "ofc"
        spec = get_game(game)
        model = spec.rules_model.model_validate(rules[game])
        guild, channel = 1 + i % max(1, servers), first_channel + i
        host = 1000 + 2 * i
        for user in (host, host + 1):
            await db.grant(guild, user, 100_000, actor_id=1)
        row = await db.open_table(
            guild, channel, game, host, buy_in=100_000, practice=False, rules=model.model_dump(mode="json")
        )
        for user in (host, host + 1):
            await db.join_table(row.id, user, display_name=f"m{user}")
        for name in ("Tanuki", "Kitsune")[:bots]:
            await db.add_bot_seat(row.id, name, level=bot_level)
        session = TableSession(
            id=row.id,
            guild_id=guild,
            channel_id=channel,
            game=game,
            host_id=host,
            rules=model,
            stake=1,
            buy_in=100_000,
            practice=False,
            lang="en",
            status="lobby",
            seats=[],
        )
        stored = await db.get_table(row.id)
        assert stored is not None
        seats = [SeatInfo.of(s) for s in stored.seats]
        await session.begin(db, seats, manager.new_shuffler())
        session.message_id, session.message_created_at = next(_ids), manager.clock()
        manager.tables[row.id] = session
        manager.bot.channel_to_table[channel] = row.id  # type: ignore[attr-defined]
        sessions.append(session)
    return sessions


def a_move(session: TableSession, rng: random.Random) -> tuple[int, str] | None:
    """A member to act and the custom id of a move of theirs, as a button on their panel carries it."""
    engine = session.engine
    if engine is None or session.status != "playing":
        return None
    members = [s for s in sorted(engine.to_act()) if not session.seats[s].autoplayed]
    if not members:
        return None
    seat = rng.choice(members)
    # Members keep the bank (an Oicho dealer who resigns at random ends a two-member game within seconds).
    legal = [a for a in engine.legal_actions(seat) if getattr(a, "text", None) != "resign"]
    if not legal:
        return None
    item = rng.choice(legal)
    if isinstance(item, AmountRange):
        action = item.make(rng.randint(item.lo, min(item.hi, 5)))
    elif isinstance(item, ActionFamily):  # an OFC street's placements, a Fantasyland hand's arrangements
        action = item.sample(rng)
    else:
        action = item
    user = session.seats[seat].user_id
    assert user is not None
    return user, f"fdb:{session.id}:{engine.decision_id(seat)}:a:{action.text.replace(' ', '~')}"


def timed_call(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """``fn(*args)`` and the seconds it took, where it ran (a worker process)."""
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def instrument(manager: TableManager, watch: Watch) -> Callable[[], None]:
    """Note when tables and panels become stale (a change was committed) and when they are current again, and how
    long the bots' decisions take; returns what puts the mover's hand-off back as it was."""
    follow_up = Play.follow_up

    async def noted(self: Play, session: TableSession, outcome: Any, **kwargs: Any) -> None:
        now = time.perf_counter()
        engine = session.engine
        if engine is not None and session.status == "playing":
            if any(not session.seats[s].autoplayed and s != outcome.seat for s in outcome.began):
                kind = "awaiting"  # a member's turn begins: from now until the picture shows it
            elif outcome.seat is not None and not outcome.by_policy:
                kind = "acted"
            else:
                kind = "bots"
            if outcome.action is not None:
                watch.changed.setdefault(session.id, []).append((engine.serial, now, kind))
                if watch.measuring:
                    watch.kinds[kind] += 1
            if outcome.action is not None:  # a move (an away mark changes no panel)
                for seat in session.runtime.panels.open:
                    if seat != outcome.seat:
                        watch.panel_stale.setdefault((session.id, seat), now)
        await follow_up(self, session, outcome, **kwargs)

    build = Panels.build

    async def built(self: Panels, session: TableSession, seat: int, lang: str) -> Any:
        rendered = await build(self, session, seat, lang)
        since = watch.panel_stale.pop((session.id, seat), None)
        if since is not None and watch.measuring:
            watch.panel_lag.append(time.perf_counter() - since)
        return rendered

    refresh = PublicMessages.refresh

    async def refreshed(self: PublicMessages, session: TableSession, *args: Any) -> bool:
        try:
            return await refresh(self, session, *args)
        finally:
            watch.shown(session.id, session.runtime.picture.shown_serial)

    think = bot.tables.autoplay.think  # type: ignore[attr-defined]

    async def timed(fn: Any, *args: Any) -> Any:
        start = time.perf_counter()
        result, took = await think(timed_call, fn, *args)
        if watch.measuring:
            watch.decisions.append(time.perf_counter() - start)
            watch.searches.append(took)
            watch.search_time[args[0]] = watch.search_time.get(args[0], 0.0) + took
            if args[1] == "strong":  # decide(game, level, view, legal, rng, effort)
                watch.efforts.append(args[5])
        return result

    wait_pace = Autoplay._wait_pace

    async def paced(self: Autoplay, session: TableSession, serial: int) -> None:
        await wait_pace(self, session, serial)
        watch.paced[asyncio.current_task()] = time.perf_counter()

    move = Play.move

    async def moved(self: Play, session: TableSession, seat: int, action: Any, **kwargs: Any) -> Any:
        over = watch.paced.pop(asyncio.current_task(), None)
        if over is not None and kwargs.get("by_policy") and watch.measuring:
            watch.late.append(time.perf_counter() - over)
        outcome = await move(self, session, seat, action, **kwargs)
        if kwargs.get("by_policy") and watch.measuring:
            watch.policy_moves += 1
        return outcome

    render = bot.tables.public.render_in_thread  # type: ignore[attr-defined]

    async def rendered(fn: Any, *args: Any) -> Any:
        start = time.perf_counter()
        try:
            return await render(fn, *args)
        finally:
            if watch.measuring:
                watch.renders.append(time.perf_counter() - start)

    budget = manager.public.budget
    request = budget.request

    def requested(priority: int = BOTS, **kwargs: Any) -> Ticket:
        ticket = request(priority, **kwargs)
        start = time.perf_counter()
        if watch.measuring:
            watch.asked.setdefault(priority, []).append(start)

        def granted(future: asyncio.Future[None]) -> None:
            if not watch.measuring or future.cancelled():
                return
            if future.exception() is not None:
                watch.withdrawn += 1
            else:
                watch.lanes.setdefault(ticket.priority, []).append(time.perf_counter() - start)

        ticket.granted.add_done_callback(granted)
        return ticket

    budget.request = requested  # type: ignore[method-assign]
    bot.tables.public.render_in_thread = rendered  # type: ignore[attr-defined]
    bot.tables.autoplay.think = timed  # type: ignore[attr-defined]
    manager.autoplay._wait_pace = paced.__get__(manager.autoplay)  # type: ignore[method-assign]
    manager.play.move = moved.__get__(manager.play)  # type: ignore[method-assign]
    manager.play.follow_up = noted.__get__(manager.play)  # type: ignore[method-assign]
    manager.public.refresh = refreshed.__get__(manager.public)  # type: ignore[method-assign]
    manager.panels.build = built.__get__(manager.panels)  # type: ignore[method-assign]

    def restore() -> None:
        bot.tables.autoplay.think = think  # type: ignore[attr-defined]
        bot.tables.public.render_in_thread = render  # type: ignore[attr-defined]

    return restore


async def run(
    tables: int,
    seconds: float,
    db_path: str,
    servers: int,
    gap: float = MEMBER_GAP,
    bots: int = 1,
    bot_level: str = DEFAULT_LEVEL,
    settle: float = SETTLE,
) -> dict[str, Any]:
    watch = Watch()
    db = await Database.open(db_path)
    bot = FakeBot(db, watch)
    manager = TableManager(
        bot,  # type: ignore[arg-type]
        clock=time.time,
        edit_interval=EDIT_INTERVAL,
        lobby_timeout=900,
        bot_pace=None,
        edits_per_second=EDITS_PER_SECOND,
    )
    restore = instrument(manager, watch)
    sessions = await open_tables(
        manager, db, tables, servers, first_channel=5_000_000 + tables * 10, bots=bots, bot_level=bot_level
    )
    # Every seated member opens their panel ("My hand"), which the follower then keeps current.
    for session in sessions:
        for info in session.seats:
            if not info.bot and info.user_id is not None:
                hand = FakeInteraction(info.user_id, f"fdb:{session.id}:t:hand")
                await manager.on_component(hand, hand.data["custom_id"], [])  # type: ignore[arg-type]
        manager.play.public.mark(session, low=True)  # as after a restart: after every live change
        manager.autoplay.wake(session)
    tune_process()  # as the bot does once its tables are restored
    # Every table's first picture (a thousand at 40 a second) and the first bot moves go out before measuring:
    # what is measured is the steady state of busy tables, not the start.
    await asyncio.sleep(max(5.0, 1.5 * tables / EDITS_PER_SECOND) if gap >= 1 else 2.0)
    rng = random.Random(tables)
    loop = asyncio.get_running_loop()
    clicks: set[asyncio.Task[None]] = set()

    async def click(session: TableSession) -> None:
        move = a_move(session, rng)
        if move is None:
            return
        interaction = FakeInteraction(move[0], move[1], watch)
        counted = watch.measuring  # a click of the settle period is not counted
        start = time.perf_counter()
        # A stale or refused move is answered by the router, not here: it is not counted.
        with contextlib.suppress(Exception):
            await manager.on_component(interaction, move[1], [])  # type: ignore[arg-type]
        if counted and interaction.answered is not None:
            watch.clicks.append(interaction.answered - start)

    end = loop.time() + settle + seconds

    async def arrivals(session: TableSession) -> None:
        while True:
            wait = rng.expovariate(1 / gap)
            if loop.time() + wait >= end:
                # Not asleep past the end: the longest of a thousand tables' gaps is about 7 of them (70 s), and
                # the measurement would run on that long with no member clicking.
                return
            await asyncio.sleep(wait)
            task = asyncio.create_task(click(session))
            clicks.add(task)
            task.add_done_callback(clicks.discard)

    arriving = asyncio.gather(*(arrivals(s) for s in sessions))
    # Members click for a while before measuring, so that the tables' deals are no longer in step (they all opened
    # at once) and what is measured is a steady state, not the first deal's common rhythm.
    await asyncio.sleep(settle)
    watch.measuring = True
    cpu, started = time.thread_time(), time.perf_counter()
    watch.requests.clear()
    await arriving
    await asyncio.sleep(max(0.0, end - loop.time()))  # the measurement is ``seconds`` long, to the end of arrivals
    elapsed = time.perf_counter() - started
    busy = (time.thread_time() - cpu) / elapsed
    watch.measuring = False
    if clicks:
        await asyncio.gather(*clicks, return_exceptions=True)
    for session in sessions:  # nothing may still be writing when the database closes
        session.runtime.stop_all()
        if session.runtime.results is not None:
            session.runtime.results.cancel()
    if not any(watch.picture_lag.values()):
        raise SystemExit("no table picture was shown while measuring: the run is broken (see the log above)")
    requests = [r for r in watch.requests if started <= r <= started + elapsed]
    per_window = [sum(1 for r in requests if w <= r < w + 1.0) for w in requests]
    await manager.shutdown()
    await db.close()
    restore()
    return {
        "decisions": watch.decisions,
        "searches": watch.searches,
        "efforts": watch.efforts,
        "renders": watch.renders,
        "renders_per_second": len(watch.renders) / elapsed,
        "search_share": {game: took / elapsed for game, took in sorted(watch.search_time.items())},
        "moves_per_decision": watch.policy_moves / len(watch.decisions) if watch.decisions else float("nan"),
        "late": watch.late,
        "clicks": watch.clicks,
        "panels": watch.panel_lag,
        "pictures": watch.picture_lag,
        "requests_per_second": len(requests) / elapsed,
        "changes_per_second": {kind: count / elapsed for kind, count in watch.kinds.items()},
        "requests_most_in_a_second": max(per_window, default=0),
        "loop_busy": busy,
        "lanes": {lane: waits for lane, waits in sorted(watch.lanes.items())},
        "lanes_per_second": {lane: len(waits) / elapsed for lane, waits in sorted(watch.lanes.items())},
        "lanes_most_asked": {
            lane: (most, began - started) for lane, (most, began) in sorted(most_asked(watch.asked).items())
        },
        "withdrawn_per_second": watch.withdrawn / elapsed,
        "sent_per_second": {what: count / elapsed for what, count in sorted(watch.sent.items())},
    }


LANE_NAMES = {0: "to act", 1: "member moved", 2: "bots", 3: "low"}


def most_asked(asked: dict[int, list[float]]) -> dict[int, tuple[int, float]]:
    return {lane: most_in_a_second(times) for lane, times in asked.items()}


def most_in_a_second(times: list[float]) -> tuple[int, float]:
    """The most of ``times`` (seconds) within any one-second window, and when that window began: how far a lane's
    demand bursts past the budget's rate (which its waits then pay for), and whether that is at the start of the
    measurement or in its steady state."""
    ordered, most, first, began = sorted(times), 0, 0, 0.0
    for last, at in enumerate(ordered):
        while at - ordered[first] >= 1.0:
            first += 1
        if last - first + 1 > most:
            most, began = last - first + 1, ordered[first]
    return most, began


def _peak(found: tuple[int, float] | None) -> str:
    return "0" if found is None else f"{found[0]} at {found[1]:.0f} s"


def describe(name: str, f: dict[str, Any]) -> str:
    pictures = f["pictures"]
    return (
        f"{name}: click p50 {p(f['clicks'], 0.5) * 1000:.1f} ms, p99 {p(f['clicks'], 0.99) * 1000:.1f} ms "
        f"({len(f['clicks'])} clicks); panels current again p99 {p(f['panels'], 0.99):.2f} s; "
        f"pictures p50/p99: awaiting a member {p(pictures['awaiting'], 0.5):.2f}/{p(pictures['awaiting'], 0.99):.2f} s, "
        f"a member just acted {p(pictures['acted'], 0.5):.2f}/{p(pictures['acted'], 0.99):.2f} s, "
        f"bots only {p(pictures['bots'], 0.5):.2f}/{p(pictures['bots'], 0.99):.2f} s; "
        f"channel requests {f['requests_per_second']:.1f}/s (most in a second: {f['requests_most_in_a_second']}); "
        f"changes per second: a member's turn beginning {f['changes_per_second']['awaiting']:.1f}, "
        f"a member's move {f['changes_per_second']['acted']:.1f}, bots' {f['changes_per_second']['bots']:.1f}; "
        f"budget's lanes (granted a second; wait p50/p99; most asked in a second, at what second of the run): "
        + ", ".join(
            f"{LANE_NAMES.get(lane, lane)} {f['lanes_per_second'][lane]:.1f} "
            f"({p(waits, 0.5):.2f}/{p(waits, 0.99):.2f} s; {_peak(f['lanes_most_asked'].get(lane))})"
            for lane, waits in f["lanes"].items()
        )
        + f", pictures taken back for a fresher one {f['withdrawn_per_second']:.1f}/s; requests a second by what: "
        + ", ".join(f"{what} {n:.1f}" for what, n in f["sent_per_second"].items())
        + "; "
        f"event loop busy {f['loop_busy']:.0%}; pictures drawn {f['renders_per_second']:.1f}/s, each back after"
        f" p50/p99 {p(f['renders'], 0.5) * 1000:.0f}/{p(f['renders'], 0.99) * 1000:.0f} ms (queueing included)"
        + (
            f"; bot decisions p50/p99 {p(f['decisions'], 0.5) * 1000:.0f}/{p(f['decisions'], 0.99) * 1000:.0f} ms"
            f" ({len(f['decisions'])}, queueing for a worker included; the search alone"
            f" {p(f['searches'], 0.5) * 1000:.0f}/{p(f['searches'], 0.99) * 1000:.0f} ms); bot moves late after"
            f" their pace p50/p99 {p(f['late'], 0.5) * 1000:.0f}/{p(f['late'], 0.99) * 1000:.0f} ms;"
            f" searching takes {sum(f['search_share'].values()):.0%} of a core ("
            + ", ".join(f"{game} {share:.0%}" for game, share in f["search_share"].items())
            + f"); moves a decision {f['moves_per_decision']:.2f}"
            + (
                f"; strong searches' effort: mean {statistics.fmean(f['efforts']):.0%},"
                f" whole budget {sum(e >= 1 for e in f['efforts']) / len(f['efforts']):.0%} of them,"
                f" least {min(f['efforts']):.0%}"
                if f["efforts"]
                else ""
            )
            if f["decisions"]
            else ""
        )
    )


def ratio_interval(many: list[float], one: list[float], q: float = 0.99, rounds: int = 1000) -> tuple[float, float]:
    """A 95% bootstrap interval of ``p(many, q) / p(one, q)``: how far the printed ratio can move on sampling alone
    (a p99 of a few hundred clicks rests on its few slowest)."""
    rng = random.Random(0)
    ratios = sorted(p(rng.choices(many, k=len(many)), q) / p(rng.choices(one, k=len(one)), q) for _ in range(rounds))
    return ratios[int(0.025 * rounds)], ratios[int(0.975 * rounds)]


async def main(
    tables: int, seconds: float, servers: int, baseline_seconds: float, bot_level: str, settle: float
) -> None:
    runner.use_processes(RENDER_PROCESSES, BOT_PROCESSES)
    await runner.warm_up()
    with tempfile.TemporaryDirectory() as tmp:
        # One table of two members (no bot to wait for), clicked every 0.05 s: a member can act only on their turn,
        # so about 8 clicks a second count, and the baseline runs longer to rest its p99 on more than a thousand.
        one = await run(1, baseline_seconds, str(Path(tmp) / "one.db"), servers=1, gap=0.05, bots=0, settle=2.0)
        many = await run(
            tables, seconds, str(Path(tmp) / "many.db"), servers=servers, bot_level=bot_level, settle=settle
        )
    runner.shutdown()
    print(describe("1 table", one))
    print(describe(f"{tables} tables over {servers} servers, {bot_level} bots", many))
    ratio = p(many["clicks"], 0.99) / p(one["clicks"], 0.99)
    low, high = ratio_interval(many["clicks"], one["clicks"])
    print(
        f"capacity: click p99 with {tables} tables / with 1 table: {ratio:.2f}x (95% interval {low:.2f}-{high:.2f}x;"
        " goal <= 1.5x); "
        f"panels p99 {p(many['panels'], 0.99):.2f} s (goal <= 2 s); "
        f"pictures of tables awaiting a member p99 {p(many['pictures']['awaiting'], 0.99):.2f} s (goal <= 5 s)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("tables", nargs="?", type=int, default=1000)
    parser.add_argument("seconds", nargs="?", type=float, default=60.0)
    parser.add_argument("--servers", type=int, default=None)
    parser.add_argument("--baseline-seconds", type=float, default=None, help="default: three times seconds")
    parser.add_argument(
        "--bot-level", choices=LEVELS, default=DEFAULT_LEVEL, help=f"the bots' level (default: {DEFAULT_LEVEL})"
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=SETTLE,
        help=f"seconds members click before measuring starts (default: {SETTLE:.0f})",
    )
    arguments = parser.parse_args()
    servers = arguments.servers or max(1, arguments.tables // 5)
    baseline = arguments.baseline_seconds or 3 * arguments.seconds
    asyncio.run(main(arguments.tables, arguments.seconds, servers, baseline, arguments.bot_level, arguments.settle))
