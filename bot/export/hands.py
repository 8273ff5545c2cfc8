"""``/export hands`` and ``/export mine``: settled deals as JSON Lines, one deal per line.

A moderator's line (``format`` :data:`~games.replay.HAND_FORMAT`) is the deal's **full record**: ``record`` is a
version-2 table record that starts as the deal began (the engine's state then, every hand in it) and holds the
deal's actions, the last of which ended it, and the shuffles it used; ``result`` is what the bot stored when it
settled the deal (chips by seat, the deal's summary). ``python -m games replay`` replays ``record`` and checks it
against ``result``; so does the export itself, and a deal that does not replay to its stored result is left out and
counted (and logged).

A member's line (``format`` :data:`~games.replay.OWN_HAND_FORMAT`) is what that member could see of a deal they
played: the public result, the deal's events that were public or theirs (``events``, encoded as hand summaries
encode them, and ``story``, the table's words for them in the member's language), their own moves, and their own
view (their cards) as the deal began and before each of their moves. No other seat's hidden cards or moves: what
another seat did shows only as the public events it made.

Deals are read a run at a time per table (:meth:`~bot.storage.exports.ExportQueries.walk`) and replayed off the event
loop (:func:`build`, on the render pool), each from its kept start, or from the start of the deal before it found on
the way (kept for later replays, as a replay keeps the starts it finds). Deals whose details the server no longer
keeps (:mod:`bot.storage.retention`) are left out and counted.
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.export.period import Period, iso
from bot.storage.exports import ExportQueries, Walk
from bot.storage.models import HandRecord, Table
from bot.storage.replays import HistoryQueries
from games.core.errors import GameError
from games.core.record import TableRecord
from games.core.rng import Shuffle
from games.core.snapshot import encode
from games.registry import get_game
from games.replay import HAND_FORMAT, OWN_HAND_FORMAT, start
from games.tape import DealTape, cut

if TYPE_CHECKING:
    from bot.storage import Database

log = logging.getLogger(__name__)

TABLES_PAGE = 50
DEALS_PER_BATCH = 25
"""Deals replayed in one trip to the worker pool."""


@dataclass(frozen=True)
class Batch:
    """A run of one table's settled deals to write, and what replaying them reads. ``seat``: the member's seat
    (their own lines); None: full records."""

    table: Table
    walk: Walk
    hands: tuple[HandRecord, ...]
    seat: int | None = None
    lang: str = "en"


@dataclass
class Built:
    lines: list[str] = field(default_factory=list)
    starts: list[tuple[int, int, str]] = field(default_factory=list)
    """Deal starts found on the way ``(deal, seq, record JSON)``, to keep."""
    failed: list[tuple[int, str]] = field(default_factory=list)
    """Deals that did not replay, or not to their stored result, and why (logged by the caller: this runs in a
    worker process)."""


def _rows(walk: Walk, origin: TableRecord) -> tuple[TableRecord, list[tuple[int, str, Any]]]:
    """The record to walk from and the log rows as :func:`games.tape.cut` reads them (a table stored before the log:
    its whole record's shuffles and actions, numbered)."""
    if walk.legacy:
        rows: list[tuple[int, str, Any]] = [(i + 1, "shuffle", s) for i, s in enumerate(origin.shuffles)]
        rows += [(len(rows) + i + 1, "action", a) for i, a in enumerate(origin.actions)]
        return origin.head(), rows
    rows = []
    for entry in walk.rows:
        if entry.kind == "shuffle":
            rows.append((entry.seq, "shuffle", Shuffle.from_json(json.loads(entry.body))))
        elif entry.seat is not None:
            rows.append((entry.seq, "action", (entry.seat, entry.body)))
    return origin, rows


def deal_record(tape: DealTape) -> TableRecord:
    """The deal's record: its start, its actions, and the shuffles it used (none of a later deal's)."""
    begun = tape.start
    used = int((begun.snapshot or {}).get("used", 0))
    shuffles = [*begun.shuffles[:used], *(s for s in begun.shuffles[used:] if s.deal <= tape.deal)]
    return dataclasses.replace(begun, shuffles=shuffles, actions=list(tape.actions))


def full_line(table: Table, hand: HandRecord, tape: DealTape) -> str:
    return json.dumps(
        {
            "format": HAND_FORMAT,
            "guild": table.guild_id,
            "table": table.id,
            "deal": hand.deal_no,
            "game": table.game,
            "settled_at": iso(hand.created_at),
            "members": [s.user_id for s in table.seats],
            "result": {"deltas": list(hand.deltas), "summary": hand.summary},
            "record": deal_record(tape).to_json(),
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def own_line(table: Table, hand: HandRecord, tape: DealTape, seat: int, lang: str) -> str:
    """What ``seat`` could see of the deal (see the module's docstring)."""
    from bot.history.replay import context
    from bot.ui import ui_for

    ui = ui_for(table.game)
    ctx = context(table, lang)
    spec = get_game(table.game)
    events: list[Any] = []
    story: list[str] = []

    def note(made: Sequence[Any]) -> None:
        for event in made:
            if event.visible_to(seat):
                events.append(encode(event))
                if line := ui.describe(event, ctx):
                    story.append(line)

    engine = start(tape.start, stub_missing=True)
    views = [{"step": 0, "view": ui.panel(engine.view(seat), seat, [], ctx, {}).text}]
    moves: list[str] = []
    note(tape.told(0))
    for index, (actor, text) in enumerate(tape.actions, 1):
        if actor == seat:
            if views[-1]["step"] != index - 1:
                views.append({"step": index - 1, "view": ui.panel(engine.view(seat), seat, [], ctx, {}).text})
            moves.append(text)
        engine.apply(actor, spec.codec.parse(text))
        note(tape.told(index))
    summary = {k: v for k, v in hand.summary.items() if k != "events"}  # its public events: in "events" already
    return json.dumps(
        {
            "format": OWN_HAND_FORMAT,
            "guild": table.guild_id,
            "table": table.id,
            "deal": hand.deal_no,
            "game": table.game,
            "settled_at": iso(hand.created_at),
            "seat": seat,
            "seats": [s.name for s in table.seats],
            "stake": table.stake,
            "result": {"deltas": list(hand.deltas), "summary": summary},
            "events": events,
            "story": story,
            "own_moves": moves,
            "own_views": views,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def build(batch: Batch) -> Built:
    """The lines of a run of deals (run on the worker pool: each deal is replayed from its start)."""
    built = Built()
    table, walk = batch.table, batch.walk
    origin, rows = _rows(walk, TableRecord.loads(walk.origin))
    seqs = [row[0] for row in rows]
    here: tuple[TableRecord, int, int] = (origin, walk.origin_seq, walk.origin_deal)
    for hand in batch.hands:
        deal = hand.deal_no
        kept = walk.starts.get(deal)
        begin = (TableRecord.loads(kept[1]), kept[0], deal) if kept is not None else here
        try:
            tape, found = cut(begin[0], rows[bisect.bisect_right(seqs, begin[1]) :], deal, origin_seq=begin[1])
            stake = tape.start.stake
            replayed = None if tape.result is None else [d * stake for d in tape.result.deltas]
            if replayed != list(hand.deltas):
                raise GameError(f"replays to {replayed}, stored {list(hand.deltas)}")
            line = (
                full_line(table, hand, tape)
                if batch.seat is None
                else own_line(table, hand, tape, batch.seat, batch.lang)
            )
        except GameError as exc:
            built.failed.append((deal, str(exc)))
            continue
        built.lines.append(line)
        if not walk.legacy:
            built.starts += [
                (s.deal, s.seq, s.record.dumps()) for s in found if s.deal > begin[2] and s.deal not in walk.starts
            ]
        own = next((s for s in found if s.deal == deal), None)
        if own is not None:
            here = (own.record, own.seq, deal)
        elif begin[2] == deal:
            here = begin
    return built


@dataclass
class HandsTally:
    deals: int = 0
    purged: int = 0
    """Deals left out: the server no longer keeps their details."""
    failed: int = 0
    """Deals left out: they did not replay to their stored result (logged)."""


async def write_hands(
    db: Database,
    guild_id: int,
    when: Period,
    add: Callable[[str], None],
    *,
    member: int | None = None,
    lang: str = "en",
    off_loop: Callable[..., Any] | None = None,
) -> HandsTally:
    """Every settled deal of the server in ``when`` (``member``: only theirs, as they saw them), a line each, to
    ``add``; tables by id, each table's deals in order."""
    if off_loop is None:
        from bot.render.runner import off_loop as pool

        off_loop = pool
    queries = ExportQueries(db)
    tally = HandsTally()
    after = 0
    while tables := await queries.tables_page(guild_id, after=after, limit=TABLES_PAGE, member=member):
        for entry in tables:
            table = entry.table
            after = table.id
            seat = None
            if member is not None:
                mine = table.seat_of(member)
                if mine is None:
                    continue
                seat = mine.position
            dealt = 0
            while hands := await queries.hands_page(
                table.id, since=when.since, until=when.until, after_deal=dealt, limit=DEALS_PER_BATCH
            ):
                dealt = hands[-1].deal_no
                kept = tuple(h for h in hands if h.deal_no > entry.purged_to)
                tally.purged += len(hands) - len(kept)
                if not kept:
                    continue
                walk = await queries.walk(table, kept[0].deal_no, kept[-1].deal_no)
                built: Built = await off_loop(build, Batch(table, walk, kept, seat, lang))
                for line in built.lines:
                    add(line + "\n")
                tally.deals += len(built.lines)
                tally.failed += len(built.failed)
                for deal, why in built.failed:
                    log.error("table %s: deal %s cannot be exported (%s)", table.id, deal, why)
                if built.starts:
                    try:
                        await HistoryQueries(db).keep_starts(table.id, built.starts)
                    except Exception:  # an export written is worth more than the starts kept: found again next time
                        log.exception("table %s: could not keep %d deal starts", table.id, len(built.starts))
    return tally
