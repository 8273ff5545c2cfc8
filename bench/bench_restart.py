"""Restart with many open tables: how soon a button answers, how long the rebuild takes, how fast images flow.

    python bench/bench_restart.py [tables]        (default 1000; 200 for a quick run)

Each run builds two worlds in SimCord's in-memory Discord, one after the other, each on a fresh database file:
the baseline with 1 open Oicho table, then ``tables`` open Oicho tables, each in its own channel. Every figure
is printed with its ratio to the baseline measured in the same run; nothing is asserted about timings (the
machine is shared and noisy). The run checks what it relies on instead (see "Setting up").

Setting up. The first table of each world is made exactly as members make one: ``/play``, Join, Start, then
each move through "My hand" and a panel button. The others go through the same code without the Discord round
trips (``Database.open_table``/``join_table``, the lobby message, ``Lobby._start``, ``TableSession.commit``
then the play path's follow-up, as ``Lobby.open``/``on_button`` and ``Play.move`` run them), which is
what makes 1,000 tables affordable. Every table plays its first deal to the end (so its restart point is a
settled deal's snapshot, its results are posted and its message reposted below them) and 3 moves of the next
(so a restart replays a log). The run checks that a directly made table's rows have the same shape as the
clicked one's (status, rules, seats, message, opening, snapshot, checkpoint inside a dense log, no result
owed), and after the restart plays the last table on through real clicks ("My hand", then a move). The one
difference left: direct tables have no stored private panel (as if their players' panels had expired), so
the restart edits no panel of theirs. While setting up, table images are not drawn, no lobby expiry or turn
timer is armed and the edit budget is off (none of it reaches the database; see ``setup_shortcuts``). The
server's turn timer is set to its maximum (3600 s), see ``TURN_TIMER``.

The restart. ``env.restart_bot(create_bot(<the same database file>, ...))`` with the settings ``python -m bot``
uses (one render worker process, ``tune_process``), the production edit window (1 s) and edit budget (40 channel
requests a second, a burst of 5; see ``EditBudget``). Before it the render cache is emptied and the set-up world
is frozen out of the cycle collector's sight (``gc.freeze``), as a new process would have neither. Times are
wall seconds (``time.perf_counter``) from the moment the new bot's ``setup_hook`` starts (SimCord's draining of
the old bot before that is not start-up). Each rebuilt table is redrawn "just to be sure" in the budget's low
lane (``Play.restored``); a table that changes meanwhile, like the first table's move
below, goes in the live lane, ahead of every redraw still queued.

Why the first button is measured from a watcher. SimCord's ``restart_bot`` returns only once all bot work has
settled: the whole background rebuild and every table message refresh. A ``member.click`` after it (every
actor verb settles too) would find every table rebuilt long ago and would say nothing about start-up. So a
watcher task (not bot-owned: SimCord does not wait for it) emits the click on "My hand" (``fdb:<id>:t:hand``
on the table message) of the LAST table, the one the background rebuild reaches last, the moment the new bot
can receive it (tables registered by ``Restorer.restore``, guild received), as ``member.click`` does but
without the settle, and notes when the interaction's response reaches SimCord's backend. That is the real
path (gateway event, router, ``TableManager.ready`` -> ``Restorer.ensure``, the panel) while the background
rebuild and the refreshes compete with it for the event loop and the database, as after a real restart.
(Timing a direct ``bot.tables.ready(session)`` call would leave out the router and the answer.)

Two SimCord limits, and what the bench does about them:

* Its settle cannot carry a request queued on the edit budget. Inside the bot, ``loop.time()`` is SimCord's
  virtual clock and ``asyncio.sleep`` a virtual timer; with no ``advance_time`` call, a timer fires when its
  real-time fallback does, and SimCord then advances its clock only after waiting for all other bot work to
  settle. Once the burst is spent, ``EditBudget.take`` parks its caller on a plain future that only the
  budget's pump task resolves, after its own sleep; SimCord does not know that future waits on a timer, so
  it counts the caller as running work and waits for it, while the pump's timer can fire only after that
  wait: nothing moves until the settle deadline (``SETTLE_TIMEOUT``). It takes a single queued request (one
  move's redraw after the restart's refresh emptied the bucket), and it is SimCord's alone: on a real loop the
  pump's sleep ends on time. From the restart to the end of the scenario (``_budgeted``), the bench therefore
  lets those clock advances fire their due timers without the full settle, so every settle, ``restart_bot``'s
  and the clicks' after it, sees the pump serve its waiters. It also holds ``restart_bot``'s own settle until
  the watcher has seen everything done (settling a thousand pending tasks rescans all of them and every timer
  each round, which would take the loop from the bot).
* The virtual clock moves only as timers fire (mostly the pump's, one token's worth, 1/40 s, at a time), not
  while the bot renders and edits between two of them (a real clock would). So the budget is exact per
  SimCord second (the clock it reads), and the rate per wall second comes out lower than a real bot's (it
  paces the same number of virtual seconds plus the work done between sleeps: ~38/s at 200 tables, ~30/s at
  1,000 on a shared 2-core machine).

Printed: the start-up steps; "first button answered" (the last table's "My hand"); "all tables rebuilt"
(every playing table has its engine); "all table messages refreshed" (every table's message posted or edited
once); "table message edits per second during the refresh" (every request the budget paces: POST, PATCH and
DELETE on ``/channels/<id>/messages[/<id>]`` in SimCord's HTTP log, stamped by the bench as they are recorded:
the average from the first to the last, the rate after the bucket's initial burst of 5, and the most in any
one second, wall and SimCord). The budget grants at most 45 tokens in any SimCord second (the burst plus a
second's 40); the requests can count one or two more, as each goes out only once its image is drawn, after
its token (a run that also stamped the grants: 44 grants and 45 requests at most in a SimCord second, 40
grants and 45 requests in the busiest). Last, how long after a move made on the first table once every table
is rebuilt its table message showed it. The baseline's figure is the 1 s edit window: the move comes while
the restart's redraw of its table is under way, and its own redraw waits the window after that one. The
move's redraw goes in the live lane, ahead of every restart redraw still queued, so with many tables it
stays close to the baseline (the old first-come budget made it wait behind all of them, ~30 s at 1,000
tables); printed with it is when the table's previous redraw had ended: with many tables the rebuild outlasts
the edit window, so the move shows sooner than the baseline's, after the live lane's wait alone.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import io
import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
import simcord.env
from PIL import Image
from simcord import actors as simcord_actors
from simcord import interactions as simcord_interactions
from simcord._settlement import _run_due_virtual_callbacks
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.tables.public as public_module
from bot.app import create_bot
from bot.render import runner
from bot.storage import Database
from bot.tables.autoplay import Autoplay
from bot.tables.components import lobby_view
from bot.tables.lobby import Lobby
from bot.tables.restore import Restorer
from bot.tables.session import TableSession
from games.core.actions import Action, AmountRange
from games.registry import get_game

simcord.env.Env._settle_internal.__kwdefaults__["idle"] = 0.001  # type: ignore[index]  # as the tests do

SETTLE_TIMEOUT = 300.0
"""SimCord waits at most 5 s for a restart to settle; a thousand tables' refresh takes longer on purpose. Kept
below the turn timer (see ``TURN_TIMER``) and the lobby timeout (900 s), which stay parked: only advance_time
fires a timer beyond the settle deadline."""
TURN_TIMER = 3600
"""The server's turn timer (its maximum): with the default 60 s, SimCord's long settle would run it out and
every seat would be marked away and played by the policy."""
BATCH = 50
"""Tables set up concurrently between two settles."""
MOVES_AFTER_DEAL = 3
"""Moves made in the second deal, after the first was settled (what a restart replays)."""
EDITS_PER_SECOND = 40.0
RENDER_PROCESSES = 1
BOT_PROCESSES = 1
"""The restarted bot is built as ``python -m bot`` builds it: one render worker process and one for the bots, the
collector tuned."""
EDIT_PATH = re.compile(r"^/channels/(\d+)/messages(/\d+)?$")

_original_settle = simcord.env.Env._settle_internal
_budgeted = False
"""While the restarted bot (the one with an edit budget) runs: SimCord's clock advances fire due timers without
the full settle first (see the docstring)."""
_hold: asyncio.Event | None = None
"""While set up, ``restart_bot``'s settle after attaching the new bot waits for it (see the docstring)."""


async def _patient_settle(
    self: Any,
    *,
    timeout: float | None = None,  # noqa: ASYNC109 (SimCord's signature)
    _deadline: float | None = None,
    **options: Any,
) -> None:
    if _budgeted and _deadline is not None:
        # SimCord advancing its clock to a bot timer that fell due (its real-time fallback fired): fire what is
        # due, without waiting for every other piece of bot work to settle first. Requests queued on the edit
        # budget wait on futures that only its pump's timer resolves, so that wait would last until the deadline.
        _run_due_virtual_callbacks(self._settlement_state(), _deadline)
        await asyncio.sleep(0)
        return
    if _hold is not None and not _hold.is_set() and timeout is not None:
        await _hold.wait()  # restart_bot's settle once the new bot is attached
    await _original_settle(
        self, timeout=None if timeout is None else max(timeout, SETTLE_TIMEOUT), _deadline=_deadline, **options
    )


simcord.env.Env._settle_internal = _patient_settle  # type: ignore[method-assign]


class StampedLog(list):  # type: ignore[type-arg]
    """SimCord's HTTP log, with the wall time and SimCord's virtual time of each request."""

    def __init__(self, env: Any, items: Any) -> None:
        super().__init__(items)
        self.env = env
        self.stamps: list[tuple[float, float]] = [(0.0, 0.0)] * len(self)

    def append(self, item: Any) -> None:
        super().append(item)
        self.stamps.append((time.perf_counter(), self.env._virtual_time))


def tiny_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buffer, format="PNG")
    return buffer.getvalue()


@contextlib.contextmanager
def setup_shortcuts() -> Iterator[None]:
    """While setting up: table images are not drawn (a stub returns a tiny PNG), and no lobby expiry or turn
    timer is armed (they are minutes and an hour away, so they would never fire, and SimCord's bookkeeping of
    thousands of them would slow every step). None of it reaches the database."""
    png = tiny_png()

    async def no_image(fn: Any, *args: Any) -> bytes:
        return png

    def no_timer(self: Any, session: TableSession) -> None:
        return None

    saved = public_module.__dict__["render_in_thread"], Autoplay.arm_timer, Lobby.arm_expiry
    public_module.__dict__["render_in_thread"] = no_image  # public.py calls it by this module-level name
    Autoplay.arm_timer = no_timer  # type: ignore[method-assign]
    Lobby.arm_expiry = no_timer  # type: ignore[method-assign]
    try:
        yield
    finally:
        public_module.__dict__["render_in_thread"] = saved[0]
        Autoplay.arm_timer, Lobby.arm_expiry = saved[1:]  # type: ignore[method-assign]


# ---------------------------------------------------------------------------------------------- the moves


def choose(session: TableSession, seat: int, rng: random.Random) -> Action:
    """The move a member makes: bet 5 on pile 1 then Done (buttons of the panel); else the game's policy."""
    engine = session.engine
    assert engine is not None
    legal = engine.legal_actions(seat)
    view = engine.view(seat)
    if any(isinstance(item, AmountRange) for item in legal):
        if not view.my_bets:
            return next(
                item for item in legal if isinstance(item, AmountRange) and getattr(item.action, "pile", None) == 1
            ).make(5)
        return next(item for item in legal if isinstance(item, Action) and item.verb == "done")
    action: Action = session.spec.policy(view, legal, rng)
    return action


def to_play(session: TableSession, deals_settled: int, moves_after: int) -> bool:
    return deals_settled < 1 or moves_after < MOVES_AFTER_DEAL


# ---------------------------------------------------------------------------------------------- setting up


@dataclass
class World:
    env: Any
    guild: Any
    members: dict[int, Any]
    channels: list[Any] = field(default_factory=list)
    table_ids: list[int] = field(default_factory=list)


def table_message(world: World, session: TableSession) -> Any:
    channel = next(c for c in world.channels if c.id == session.channel_id)
    return next(m for m in channel.history() if m.id == session.message_id)


async def open_by_clicks(world: World, channel: Any) -> int:
    """A table exactly as members make one: /play, Join, Start, then "My hand" and a panel button per move."""
    alice, bob = world.members.values()
    bot = world.env.bot
    await alice.slash(channel, "play", game="oicho", practice=True)
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    session = next(s for s in bot.tables.tables.values() if s.channel_id == channel.id)
    rng = random.Random(session.id)
    settled = moves_after = 0
    while to_play(session, settled, moves_after):
        engine = session.engine
        assert engine is not None
        seat = min(engine.to_act())
        member = world.members[session.seats[seat].user_id]
        deal = engine.deal_no
        panel = await member.click(table_message(world, session), custom_id=f"fdb:{session.id}:t:hand")
        action = choose(session, seat, rng)
        custom_id = f"fdb:{session.id}:{engine.decision_id(seat)}:a:{action.text.replace(' ', '~')}"
        await member.click(panel.response, custom_id=custom_id)
        if settled:
            moves_after += 1
        if engine.deal_no != deal or (await bot.db.deal_settled(session.id, deal)):
            settled = max(settled, 1)
    return int(session.id)


async def open_directly(world: World, channel: Any, lang: str) -> int:
    """The same table through the same code, without the Discord round trips (see the module's docstring)."""
    bot = world.env.bot
    manager, db = bot.tables, bot.db
    alice, bob = world.members.values()
    spec = get_game("oicho")
    rules = spec.rules_model()
    stake = 1
    buy_in = spec.starting_chips(rules) * stake
    # Lobby.open
    row = await db.open_table(
        world.guild.id,
        channel.id,
        "oicho",
        alice.id,
        buy_in=buy_in,
        stake=stake,
        rules=rules.model_dump(mode="json"),
        practice=True,
        lang=lang,
    )
    await db.join_table(row.id, alice.id, display_name=alice.name)
    session = TableSession(
        id=row.id,
        guild_id=world.guild.id,
        channel_id=channel.id,
        game="oicho",
        host_id=alice.id,
        rules=rules,
        stake=stake,
        buy_in=buy_in,
        practice=True,
        lang=lang,
        status="lobby",
        seats=[],
    )
    await manager.lobby._reload_seats(session)
    manager.tables[session.id] = session
    api = bot.get_partial_messageable(channel.id, guild_id=world.guild.id)
    message = await api.send(embed=manager.lobby.embed(session), view=lobby_view(session))
    session.message_id, session.message_created_at = message.id, manager.clock()
    await db.set_message(session.id, message.id, session.message_created_at)
    manager.lobby.arm_expiry(session)
    # Lobby.on_button: join, then start
    async with session.lock:
        await db.join_table(session.id, bob.id, display_name=bob.name)
        await manager.lobby._reload_seats(session)
        manager.lobby.arm_expiry(session)
    await message.edit(embed=manager.lobby.embed(session), view=lobby_view(session))
    async with session.lock:
        outcome = await manager.lobby._start(session)
    await manager.play.started(session, outcome)
    # Play.move, as "My hand" and a panel button make each move
    rng = random.Random(session.id)
    settled = moves_after = 0
    while to_play(session, settled, moves_after):
        engine = session.engine
        assert engine is not None
        seat = min(engine.to_act())
        action = choose(session, seat, rng)
        outcome = await manager.play.move(session, seat, action, decision=engine.decision_id(seat))
        if settled:
            moves_after += 1
        if outcome.settled:
            settled += len(outcome.settled)
    return session.id


def shape(row: Any, log: list[Any], owed: list[Any]) -> dict[str, Any]:
    """What a table leaves in the database, without what differs between any two tables (ids, cards, times)."""
    record = json.loads(row.record)
    kinds = [e.kind for e in log]
    return {
        "status": row.status,
        "game": row.game,
        "stake": row.stake,
        "buy_in": row.buy_in,
        "rules": row.rules,
        "practice": row.practice,
        "lang": row.lang,
        "has_message": row.message_id is not None,
        "message_time": row.message_created_at is not None,
        "has_opening": row.opening is not None,
        "seats": [(s.position, s.display_name, s.is_bot, s.away, s.buy_in) for s in row.seats],
        "chips": sum(s.stack for s in row.seats),
        "record_keys": sorted(record),
        "snapshot_keys": sorted(record.get("snapshot") or {}),
        "checkpoint_inside_log": 0 < row.checkpoint_seq < len(log),
        "log_is_dense": [e.seq for e in log] == list(range(1, len(log) + 1)),
        "log_kinds": sorted(set(kinds)),
        "results_owed": len(owed),
    }


async def check_same_shape(db: Database, clicked: int, direct: int) -> None:
    shapes = []
    for table_id in (clicked, direct):
        row = await db.get_table(table_id)
        assert row is not None
        shapes.append(shape(row, await db.table_log(table_id), await db.unposted_results(table_id)))
    if shapes[0] != shapes[1]:
        diff = {k: (shapes[0][k], shapes[1][k]) for k in shapes[0] if shapes[0][k] != shapes[1][k]}
        raise AssertionError(f"a directly made table differs from a clicked one: {diff}")


async def build(world: World, n: int) -> None:
    env = world.env
    world.channels = [world.guild.create_text_channel(f"table-{i}") for i in range(n)]
    world.table_ids.append(await open_by_clicks(world, world.channels[0]))
    lang = env.bot.tables.tables[world.table_ids[0]].lang
    for start in range(1, n, BATCH):
        with env._bot_scope():  # bot-owned work, as if a click had started it: SimCord tracks and settles it
            tasks = [
                asyncio.create_task(open_directly(world, channel, lang))
                for channel in world.channels[start : start + BATCH]
            ]
        world.table_ids.extend(await asyncio.gather(*tasks))
        await env.settle(timeout=SETTLE_TIMEOUT)
    if n > 1:
        await check_same_shape(env.bot.db, world.table_ids[0], world.table_ids[1])


# ---------------------------------------------------------------------------------------------- the restart


def emit_click(env: Any, member: Any, message: Any, custom_id: str) -> Any:
    """``member.click(message, custom_id=...)`` without waiting for the bot to settle; returns the record."""
    stored = simcord_actors._visible_message(member, message)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
    backend = env.backend
    record, payload = simcord_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=stored.channel_id,
        guild_id=member.guild.id,
        user_id=member.id,
        data=data,
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return record


@dataclass
class Timings:
    tables: int
    detach: float = 0.0
    before_restore: float = 0.0
    restore: float = 0.0
    setup_hook: float = 0.0
    connected: float = 0.0
    answered: float = 0.0
    rebuilt: float = 0.0
    moved: float = 0.0
    moved_drawn: float = 0.0
    since_redraw: float | None = None
    """SimCord seconds from the end of the table's previous redraw to the move (None: it was under way)."""
    refreshed: float = 0.0
    edits: int = 0
    deletions: int = 0
    burst: float = 0.0
    edit_span: float = 0.0
    steady_rate: float = 0.0
    virtual_span: float = 0.0
    peak_wall: int = 0
    peak_virtual: int = 0
    answer: str = ""

    @property
    def edits_per_second(self) -> float:
        return (self.edits - 1) / self.edit_span if self.edits > 1 and self.edit_span > 0 else 0.0


def table_edits(
    log: StampedLog, first: int, channel_id: int | None = None, methods: tuple[str, ...] = ("PATCH", "POST", "DELETE")
) -> list[tuple[float, float]]:
    """(wall, virtual) stamps of the channel message requests since ``first`` (in one channel, or all): posts,
    edits and deletions, every request the edit budget paces."""
    found = []
    for entry, stamp in zip(log[first:], log.stamps[first:], strict=True):
        match = EDIT_PATH.match(entry.path)
        if entry.method in methods and match and (channel_id is None or int(match[1]) == channel_id):
            found.append(stamp)
    return found


async def answered(record: Any) -> None:
    """Until SimCord's backend has the interaction's response (a plain attribute: nothing to wait on)."""
    while not record.responded:  # noqa: ASYNC110
        await asyncio.sleep(0.001)


async def live_move(env: Any, world: World, manager: Any, table_id: int, zero: float, out: Timings) -> None:
    """A member plays on a table once every table is rebuilt ("My hand", then a panel button); notes when the
    table's updater has drawn it on the table message."""
    session = manager.tables[table_id]
    engine = session.engine
    seat = min(engine.to_act())
    member = world.members[session.seats[seat].user_id]
    hand = emit_click(env, member, table_message(world, session), f"fdb:{table_id}:t:hand")
    await answered(hand)
    action = choose(session, seat, random.Random(1))
    custom_id = f"fdb:{table_id}:{engine.decision_id(seat)}:a:{action.text.replace(' ', '~')}"
    serial = engine.serial
    before = session.runtime.picture.updater
    busy = before is not None and not before.done()
    last_edit = session.runtime.picture.last_edit  # on the bot's loop.time(), SimCord's virtual clock
    out.since_redraw = None if busy or last_edit < 0 else env._virtual_time - last_edit
    out.moved = time.perf_counter() - zero
    moved = emit_click(env, member, InteractionResult(env, hand).response, custom_id)
    await answered(moved)
    if engine.serial == serial:
        raise AssertionError(f"the move {action.text!r} was not made")
    while True:
        updater = session.runtime.picture.updater
        if updater is not None and updater.done() and (updater is not before or busy):
            break
        await asyncio.sleep(0.002)
    out.moved_drawn = time.perf_counter() - zero


async def watch(
    env: Any, new_bot: Any, world: World, started: dict[str, float], out: Timings, hold: asyncio.Event
) -> None:
    """Press "My hand" on the last table as soon as the new bot can take a click; note when things happen;
    then let SimCord settle the restart (``hold``)."""
    try:
        last = world.table_ids[-1]
        while True:
            manager = getattr(new_bot, "tables", None)
            if (
                manager is not None
                and manager.restorer._task is not None
                and new_bot.get_guild(world.guild.id) is not None
            ):
                out.connected = time.perf_counter() - started["setup_hook"]
                break
            await asyncio.sleep(0.0005)
        zero = started["setup_hook"]
        session = manager.tables[last]
        record = emit_click(
            env, world.members[session.seats[0].user_id], table_message(world, session), f"fdb:{last}:t:hand"
        )
        playing = [s for s in manager.tables.values() if s.status == "playing"]
        done = 0  # the background rebuild goes in order: the tables before this one are rebuilt
        turn = 0
        mover: asyncio.Task[None] | None = None
        while True:
            now = time.perf_counter() - zero
            if not out.answered and record.responded:
                out.answered = now
            while done < len(playing) and playing[done].engine is not None:
                done += 1
            if not out.rebuilt and done == len(playing):
                out.rebuilt = now
                mover = asyncio.create_task(live_move(env, world, manager, world.table_ids[0], zero, out))
            turn += 1
            if (
                mover is not None
                and mover.done()
                and out.answered
                and turn % 10 == 0
                and manager.restorer._task.done()
                and all(s.runtime.picture.updater is None or s.runtime.picture.updater.done() for s in playing)
            ):
                break
            await asyncio.sleep(0.002)
        await mover
        response = InteractionResult(env, record).response
        out.answer = response.content if response is not None else ""
    finally:
        hold.set()


async def restart(world: World, db_path: Path) -> Timings:
    global _hold, _budgeted
    env = world.env
    out = Timings(len(world.table_ids))
    log = env.backend.http_requests = StampedLog(env, env.backend.http_requests)
    first = len(log)
    runner.cache.clear()  # a new process starts with no images
    gc.collect()
    gc.freeze()  # the set-up world (SimCord's Discord, the old bot) out of the collector's sight, as in a new process
    # The same lasting process identity as before the restart (``python -m bot`` keeps it in data/instance.id), so
    # the new process takes its tables back at once instead of waiting for their leases to run out.
    new_bot = create_bot(
        str(db_path),
        edit_interval=1.0,
        bot_pace=0.0,
        edits_per_second=EDITS_PER_SECOND,
        render_processes=RENDER_PROCESSES,
        bot_processes=BOT_PROCESSES,
        tune_process=True,
        owner=env.bot.db.owner,
    )
    started: dict[str, float] = {}
    setup_hook = new_bot.setup_hook

    async def timed_setup_hook() -> None:
        started["setup_hook"] = time.perf_counter()
        await setup_hook()
        started["setup_hook_done"] = time.perf_counter()

    restore = Restorer.restore

    async def timed_restore(self: Restorer) -> None:
        started["restore"] = time.perf_counter()
        await restore(self)
        started["restore_done"] = time.perf_counter()

    new_bot.setup_hook = timed_setup_hook  # type: ignore[method-assign]
    Restorer.restore = timed_restore  # type: ignore[method-assign]
    hold = _hold = asyncio.Event()
    _budgeted = True  # until the end of the scenario (see the docstring)
    called = time.perf_counter()
    watcher = asyncio.create_task(watch(env, new_bot, world, started, out, hold))
    try:
        await env.restart_bot(new_bot)
    finally:
        _hold = None
        hold.set()
        Restorer.restore = restore  # type: ignore[method-assign]
    zero = started["setup_hook"]
    out.before_restore = started["restore"] - zero
    out.restore = started["restore_done"] - started["restore"]
    out.setup_hook = started["setup_hook_done"] - zero
    out.detach = started["setup_hook"] - called
    await watcher
    out.burst = new_bot.tables.public.budget.burst
    edits = table_edits(log, first)  # every request the budget paces: posts, edits and deletions
    out.edits = len(edits)
    out.deletions = len(edits) - len(table_edits(log, first, methods=("PATCH", "POST")))
    refreshed: dict[int, float] = {}  # each table's first edit after the restart
    for entry, (wall, _) in zip(log[first:], log.stamps[first:], strict=True):
        match = EDIT_PATH.match(entry.path)
        if entry.method in ("PATCH", "POST") and match:
            refreshed.setdefault(int(match[1]), wall)
    out.refreshed = max(refreshed.values()) - started["setup_hook"]
    if edits:
        walls = [w for w, _ in edits]
        virtuals = [v for _, v in edits]
        out.edit_span = walls[-1] - walls[0]
        out.virtual_span = virtuals[-1] - virtuals[0]
        out.peak_wall = max(bisect.bisect_left(walls, w + 1.0) - i for i, w in enumerate(walls))
        out.peak_virtual = max(bisect.bisect_left(virtuals, v + 1.0) - i for i, v in enumerate(virtuals))
        burst = int(out.burst)  # the bucket starts full
        if len(walls) > burst + 1:
            out.steady_rate = (len(walls) - burst - 1) / max(walls[-1] - walls[burst], 1e-9)
    return out


async def play_on(world: World) -> None:
    """The last table after the restart, through real clicks: "My hand", then a move from the panel."""
    bot = world.env.bot
    session = bot.tables.tables[world.table_ids[-1]]
    engine = session.engine
    assert engine is not None
    seat = min(engine.to_act())
    member = world.members[session.seats[seat].user_id]
    before = len(await bot.db.table_log(session.id))
    panel = await member.click(table_message(world, session), custom_id=f"fdb:{session.id}:t:hand")
    action = choose(session, seat, random.Random(0))
    custom_id = f"fdb:{session.id}:{engine.decision_id(seat)}:a:{action.text.replace(' ', '~')}"
    await member.click(panel.response, custom_id=custom_id)
    logged = await bot.db.table_log(session.id)
    if len(logged) <= before or logged[before].body != action.text:
        raise AssertionError(f"the restarted table did not take a real click's move {action.text!r}")


async def scenario(n: int, tmp: Path) -> Timings:
    global _budgeted
    db_path = tmp / f"restart-{n}.db"
    db = await Database.open(str(db_path))
    setup_bot = create_bot(db, edit_interval=0.0, bot_pace=0.0, edits_per_second=0)
    thresholds, switch_interval = gc.get_threshold(), sys.getswitchinterval()
    try:
        async with simcord.run(setup_bot, settle_timeout=SETTLE_TIMEOUT) as env:
            guild = env.create_guild()
            alice = guild.add_member(env.create_user("alice"))
            bob = guild.add_member(env.create_user("bob"))
            world = World(env, guild, {alice.id: alice, bob.id: bob})
            # Tables in channels (one per channel, as the bench builds them); a thread's table restarts the same way.
            await db.set_config(guild.id, actor_id=alice.id, turn_timer_seconds=TURN_TIMER, table_place="channel")
            began = time.perf_counter()
            with setup_shortcuts():
                await build(world, n)
            print(f"  {n} table(s) set up in {time.perf_counter() - began:.1f} s", flush=True)
            timings = await restart(world, db_path)
            await play_on(world)
            print(
                "  checked: the last table took a real click's move after the restart"
                + ("; a direct table's rows have the clicked one's shape" if n > 1 else ""),
                flush=True,
            )
            await env.bot.close()
    finally:
        _budgeted = False
        await db.close()
        gc.unfreeze()  # the restarted bot froze the heap and tuned the process (tune_process): undo it all
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(switch_interval)
        runner.use_processes(0)  # stop the restarted bot's worker processes
    return timings


def redraw(since: float | None) -> str:
    return "was under way at the move" if since is None else f"had ended {since:.2f} SimCord s before the move"


def line(label: str, value: float, base: float) -> str:
    return f"{label}: {value:.3f} s ({value / base:.2f}x)"


async def main(n: int) -> None:
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        print("baseline: 1 open table", flush=True)
        base = await scenario(1, Path(tmp))
        print(f"measured: {n} open tables", flush=True)
        big = await scenario(n, Path(tmp))
    print(f"open tables: {n} (baseline 1); wall seconds from the new bot's setup_hook, ratio to the baseline")
    print(line("restart, setup_hook until Restorer.restore", big.before_restore, base.before_restore))
    print(line("restart, Restorer.restore (reads and registers every table)", big.restore, base.restore))
    print(line("restart, whole setup_hook", big.setup_hook, base.setup_hook))
    print(line("restart, bot connected (tables registered, clicks delivered from here)", big.connected, base.connected))
    print(line("restart, first button answered", big.answered, base.answered))
    print(line("restart, all tables rebuilt", big.rebuilt, base.rebuilt))
    print(line("restart, all table messages refreshed", big.refreshed, base.refreshed))
    print(
        f"table message edits per second during the refresh: {big.edits_per_second:.1f} (budget"
        f" {EDITS_PER_SECOND:g}/s, burst {big.burst:g}): {big.edits} edits/posts/deletions ({big.deletions}"
        f" deletions) in {big.edit_span:.2f} wall s ({big.virtual_span:.2f} SimCord s), {big.steady_rate:.1f}/s"
        f" after the first {big.burst:g}; at most {big.peak_wall} in one wall second, {big.peak_virtual} in one"
        f" SimCord second"
    )
    print(
        line(
            "a move made once all tables were rebuilt, shown on its table message after",
            big.moved_drawn - big.moved,
            base.moved_drawn - base.moved,
        )
        + f"; the table's previous redraw {redraw(big.since_redraw)} (baseline: {redraw(base.since_redraw)})"
    )
    print(f"the last table's answer: {big.answer.splitlines()[0] if big.answer else '(none)'}")
    print(
        f"(SimCord's drain of the old bot, before the new one started, not counted: {big.detach:.2f} s;"
        f" whole run {time.perf_counter() - began:.0f} s)"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
