"""Capacity of one bot process: many tables at a human pace, against one table, in the same run.

Each table makes one move about every 10 seconds (a member clicking a move on their panel; the one-table baseline
is clicked about every 0.05 s, so that its p99 rests on some 800 clicks rather than a handful), with the
production edit window (a table's picture is drawn at most once a second) and real renders (one worker
process, as in production). The figure is the p99 time from a click reaching the bot until the clicker is
answered, with N tables, as a ratio to the same with one table (the goal: within 1.5× at 1,000 tables).
Also printed: actions and renders per second, renders per table per edit window (at most one), and how late
table pictures were at the end of the run.

Discord is replaced at its boundary only: the click enters through the bot's real router
(``TableManager.on_component``) as a ``discord.Interaction``-shaped object whose answer costs nothing, and the
table messages' sends and edits are recorded instead of sent. Everything between (ids, sessions, commits to
a real SQLite file, settlements, panels, the public updater, rendering in a worker process, bots and timers)
is the bot's own code running in real time. SimCord is not used here: its virtual clock and one-at-a-time
actors cannot carry a thousand tables clicking concurrently in real time.

    python bench/bench_capacity.py [tables] [seconds]     # defaults: 1000 tables, 40 s
"""

from __future__ import annotations

import asyncio
import itertools
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

from bot.render import runner
from bot.storage import Database
from bot.tables.manager import TableManager
from bot.tables.session import SeatInfo, TableSession
from bot.tuning import tune_gc
from games.core.actions import AmountRange
from games.registry import get_game

PACE = 10.0
EDIT_INTERVAL = 1.0
_ids = itertools.count(10_000)


@dataclass
class Sent:
    """What the fake Discord received."""

    edits: dict[int, list[float]] = field(default_factory=dict)
    posts: int = 0


class FakeMessage:
    def __init__(self, sent: Sent, message_id: int, table: int) -> None:
        self.sent, self.id, self.table = sent, message_id, table

    async def edit(self, **fields: Any) -> None:
        if fields.get("attachments"):  # a new picture of the table (the final message, with none, is not one)
            self.sent.edits.setdefault(self.table, []).append(time.perf_counter())

    async def delete(self) -> None:
        return None


class FakeChannel:
    def __init__(self, sent: Sent, table: int) -> None:
        self.sent, self.table = sent, table

    async def send(self, *args: Any, **fields: Any) -> FakeMessage:
        if "file" in fields:  # the table message posted again (results messages carry no picture)
            self.sent.posts += 1
            self.sent.edits.setdefault(self.table, []).append(time.perf_counter())
        return FakeMessage(self.sent, next(_ids), self.table)

    def get_partial_message(self, message_id: int) -> FakeMessage:
        return FakeMessage(self.sent, message_id, self.table)


class FakeBot:
    """What the table runtime needs of the bot: the database, channels by id, the moderator check."""

    def __init__(self, db: Database, sent: Sent) -> None:
        self.db, self.sent = db, sent
        self.channel_to_table: dict[int, int] = {}

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> FakeChannel:
        return FakeChannel(self.sent, self.channel_to_table.get(channel_id, 0))

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
    """A click on a member's private panel, as discord.py hands it to the bot."""

    locale = "en-US"
    guild_locale = "en-US"
    application_id = 1
    message = SimpleNamespace(flags=SimpleNamespace(ephemeral=True))
    type = discord.InteractionType.component

    def __init__(self, user_id: int, custom_id: str) -> None:
        self.id = next(_ids)
        self.user = SimpleNamespace(id=user_id, name="u", display_name="u")
        self.data = {"custom_id": custom_id, "component_type": 2}
        self.token = f"token{next(_ids)}"
        self.response = FakeResponse(self)
        self.answered: float | None = None

    async def edit_original_response(self, **fields: Any) -> None:
        return None

    @property
    def followup(self) -> Any:
        return self


async def open_tables(manager: TableManager, db: Database, count: int, first_channel: int) -> list[TableSession]:
    """Oicho tables of two members each, started as the lobby starts them (through the storage API)."""
    spec = get_game("oicho")
    rules = spec.rules_model.model_validate(
        {"dealer_cycles": 10, "dealer_rounds": 50, "starting_chips": 100_000, "bank_cap": 50}
    )
    sessions = []
    for i in range(count):
        channel = first_channel + i
        row = await db.open_table(
            1, channel, "oicho", 1000 + 2 * i, buy_in=100_000, practice=True, rules=rules.model_dump(mode="json")
        )
        for user in (1000 + 2 * i, 1001 + 2 * i):
            await db.join_table(row.id, user, display_name=f"m{user}")
        session = TableSession(
            id=row.id,
            guild_id=1,
            channel_id=channel,
            game="oicho",
            host_id=1000 + 2 * i,
            rules=rules,
            stake=1,
            buy_in=100_000,
            practice=True,
            lang="en",
            status="lobby",
            seats=[],
        )
        stored = await db.get_table(row.id)
        assert stored is not None
        await session.begin(db, [SeatInfo(s.user_id, s.name) for s in stored.seats], manager.new_shuffler())
        session.message_id, session.message_created_at = next(_ids), manager.clock()
        manager.tables[row.id] = session
        manager.bot.channel_to_table[channel] = row.id  # type: ignore[attr-defined]
        sessions.append(session)
    return sessions


def a_move(session: TableSession, rng: random.Random) -> tuple[int, str] | None:
    """A member's move (user id, custom id), as the button on their panel would carry it."""
    engine = session.engine
    assert engine is not None
    acting = sorted(engine.to_act())
    if not acting:
        return None
    seat = acting[0]
    legal = engine.legal_actions(seat)
    item = rng.choice(legal)
    action = item.make(rng.randint(item.lo, min(item.hi, 5))) if isinstance(item, AmountRange) else item
    user = session.seats[seat].user_id
    assert user is not None
    return user, f"fdb:{session.id}:{engine.decision_id(seat)}:a:{action.text.replace(' ', '~')}"


async def run(tables: int, seconds: float, db_path: str, pace: float = PACE) -> dict[str, float]:
    sent = Sent()
    db = await Database.open(db_path)
    bot = FakeBot(db, sent)
    manager = TableManager(
        bot,
        clock=time.time,
        edit_interval=EDIT_INTERVAL,
        lobby_timeout=900,  # type: ignore[arg-type]
        bot_pace=0.0,
        edits_per_second=1e9,
    )
    manager.panels.follow = lambda session: None  # type: ignore[method-assign]  # no open panels to follow here
    sessions = await open_tables(manager, db, tables, first_channel=5_000_000 + tables * 10)
    tune_gc()  # as the bot does once its tables are restored
    rng = random.Random(tables)
    latencies: list[float] = []
    actions = 0
    renders_before = manager.public.renders

    async def member_of(session: TableSession, offset: float) -> None:
        nonlocal actions
        await asyncio.sleep(offset)
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while loop.time() < end:
            move = a_move(session, rng)
            if move is None:
                return
            click = FakeInteraction(*move)
            start = time.perf_counter()
            try:
                await manager.on_component(click, move[1], [])  # type: ignore[arg-type]
            except Exception as error:  # a refused move (none expected) still counts as answered
                print("refused:", type(error).__name__, error, file=sys.stderr)
            if click.answered is not None:
                latencies.append(click.answered - start)
                actions += 1
            await asyncio.sleep(pace * rng.uniform(0.5, 1.5))

    cpu = time.thread_time()
    started = time.perf_counter()
    await asyncio.gather(*(member_of(s, rng.uniform(0, pace)) for s in sessions))
    elapsed = time.perf_counter() - started
    busy = (time.thread_time() - cpu) / elapsed
    await asyncio.sleep(EDIT_INTERVAL * 3)  # let the last pictures be drawn
    renders = manager.public.renders - renders_before
    windows = [
        sum(1 for a, b in itertools.pairwise(stamps) if b - a < EDIT_INTERVAL * 0.95) for stamps in sent.edits.values()
    ]
    await manager.shutdown()
    await db.close()
    return {
        "p50": statistics.median(latencies),
        "p99": sorted(latencies)[int(0.99 * (len(latencies) - 1))],
        "actions_per_second": actions / elapsed,
        "renders_per_second": renders / elapsed,
        "edits_closer_than_the_window": float(sum(windows)),
        "loop_busy": busy,
    }


async def main(tables: int, seconds: float) -> None:
    runner.use_processes(1)
    await runner.warm_up()
    with tempfile.TemporaryDirectory() as tmp:
        # One table, clicked often enough for a p99 (an idle bot answers the same whatever the pace).
        one = await run(1, seconds, str(Path(tmp) / "one.db"), pace=0.05)
        many = await run(tables, seconds, str(Path(tmp) / "many.db"))
    runner.shutdown()
    for name, figures in (("1 table", one), (f"{tables} tables", many)):
        print(
            f"{name}: click answered p50 {figures['p50'] * 1000:.1f} ms, p99 {figures['p99'] * 1000:.1f} ms; "
            f"{figures['actions_per_second']:.1f} actions/s, {figures['renders_per_second']:.1f} renders/s; "
            f"two edits of one table inside an edit window: {figures['edits_closer_than_the_window']:.0f}; "
            f"event loop thread busy {figures['loop_busy']:.0%}"
        )
    print(f"capacity: click p99 with {tables} tables / with 1 table: {many['p99'] / one['p99']:.2f}x (goal <= 1.5x)")


if __name__ == "__main__":
    arguments = [float(a) for a in sys.argv[1:]]
    asyncio.run(main(int(arguments[0]) if arguments else 1000, arguments[1] if len(arguments) > 1 else 40.0))
