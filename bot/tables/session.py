"""One table's session: its state in memory, its lock, and :meth:`TableSession.commit`, the one way in.

Every change of a playing table goes through ``commit`` (or ``mark_away``), under the table's lock:
validate (a stale decision, an illegal action: refused, nothing changes), apply, then write in **one**
transaction everything it did: the log rows (the action and the shuffles it made), away flags, the deals it
finished (stacks, ledger, hand history), a new restart point after each finished deal, and the closing of a
finished game. It returns an :class:`Outcome` saying what happened. Discord calls (the panel, the table
message, results) are made by the caller afterwards, from the outcome, never under the lock: a slow channel
never holds a table, and a failed Discord call never changes what happened to the chips.

If the write fails, the engine is rebuilt from the database, so memory never holds what was not saved, and
the player is told (truthfully) that nothing changed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.errors import UserError
from bot.storage import Closure, DealToSettle, LeaseLost, LogEntry, Seat, Settlement, StorageUnavailable, Table
from bot.storage.stats import result_facts
from bot.tables.state import TableRuntime
from bot.ui.base import TableContext
from bot.ui.bot_levels import seat_name
from games.core.actions import Action
from games.core.engine import DealResult, Engine
from games.core.errors import RecordError
from games.core.events import DealEnded, DealStarted, Event
from games.core.record import TableRecord
from games.core.rng import Shuffle, Shuffler
from games.core.snapshot import decode, encode
from games.registry import DEFAULT_LEVEL, GameSpec, get_game
from games.replay import new_engine, snapshot_record, start
from games.tape import start_record

if TYPE_CHECKING:
    from bot.storage import Database

log = logging.getLogger(__name__)

RECENT_EVENTS = 8
"""Public events kept for the table's narration ("recent moves")."""


def judge_decision(current: int, pressed: int) -> None:
    """Refuse a button made for another decision than the seat's current one: an earlier one is stale (a double
    click, an old panel); a later one was never offered (decision ids only grow), so the id was forged."""
    if pressed > current:
        raise UserError("table.future_decision")
    if pressed != current:
        raise UserError("table.stale_decision")


@dataclass
class SeatInfo:
    """Who sits in a seat (the engine's seat index is its position). Bot players have no user id."""

    user_id: int | None
    name: str
    bot: bool = False
    away: bool = False
    level: str = DEFAULT_LEVEL
    """The level a bot plays at (``games.registry.LEVELS``); an away member is played by the strong level."""

    @classmethod
    def of(cls, seat: Seat) -> SeatInfo:
        """A stored seat as the session holds it."""
        return cls(seat.user_id, seat.name, bot=seat.is_bot, away=seat.away, level=seat.bot_level or DEFAULT_LEVEL)

    @property
    def label(self) -> str:
        return f"bot:{self.name}" if self.bot else f"user:{self.user_id}:{self.name}"

    @property
    def autoplayed(self) -> bool:
        """Moved by the game's policy: a bot, or a member marked away."""
        return self.bot or self.away


@dataclass
class Settled:
    """A deal this commit finished and settled: the engine's result and what the database wrote."""

    result: DealResult
    settlement: Settlement
    summary: dict[str, Any]


@dataclass
class Outcome:
    """What one commit did."""

    seat: int | None
    action: Action | None
    events: list[Event] = field(default_factory=list)
    settled: list[Settled] = field(default_factory=list)
    closure: Closure | None = None
    away: dict[int, bool] = field(default_factory=dict)
    by_policy: bool = False
    began: frozenset[int] = frozenset()
    """Seats whose decision began with this change (they were not to act before it, or had acted meanwhile)."""

    @property
    def finished(self) -> bool:
        return self.closure is not None


class TableSession:
    """A table in memory. The database row and log are its durable form; this is rebuilt from them."""

    def __init__(
        self,
        *,
        id: int,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        rules: Any,
        stake: int,
        buy_in: int,
        practice: bool,
        lang: str,
        status: str,
        seats: Sequence[SeatInfo],
        message_id: int | None = None,
        message_created_at: float = 0.0,
        parent_id: int | None = None,
        pace: str = "live",
        turn_seconds: int | None = None,
        turn_started_at: float | None = None,
        pinged: Mapping[int, int] | None = None,
        deal_limit: int | None = None,
    ) -> None:
        self.id = id
        self.guild_id = guild_id
        self.channel_id = channel_id
        """Where the table is played: its thread, or the channel itself."""
        self.parent_id = parent_id
        """The channel the table's thread hangs off (its lobby message is there); None for a table in a channel."""
        self.pace = pace
        """``live`` (the server's turn timer) or ``correspondence`` (``turn_seconds`` per decision, a mention each)."""
        self.turn_seconds = turn_seconds
        self.turn_started_at = turn_started_at
        """When the current decisions began (the database's clock): the turn timer counts from here."""
        self.pinged: dict[int, int] = dict(pinged or {})
        """Seat → the decision its member was last mentioned for (correspondence tables)."""
        self.deal_limit = deal_limit
        """The table ends by itself once this deal is settled, in the same write (None: when its game ends)."""
        self.game = game
        self.host_id = host_id
        self.rules = rules
        self.stake = stake
        self.buy_in = buy_in
        self.practice = practice
        self.lang = lang
        self.status = status
        self.seats: list[SeatInfo] = list(seats)
        self.message_id = message_id
        self.message_created_at = message_created_at
        self.lock = asyncio.Lock()
        self.engine: Engine[Any] | None = None
        self.head: TableRecord | None = None
        self.seq = 0
        """The last log row written."""
        self.shuffles_written = 0
        self.deal_events: list[Event] = []
        """The current deal's public events so far (its hand history when it ends)."""
        self.recent: deque[Event] = deque(maxlen=RECENT_EVENTS)
        self.deal_moves = 0
        """Moves made since the last deal was settled (a stopped table says whether a deal in progress was void)."""
        self.loading: asyncio.Task[None] | None = None
        # Runtime attachments, owned by the modules that use them.
        self.panel_state: dict[int, dict[str, str]] = {}
        """Each seat's unconfirmed panel choices (never in the engine: nobody else can see them)."""
        self.runtime = TableRuntime()

    @classmethod
    def from_row(cls, row: Table, rules: Any) -> TableSession:
        """The session of a stored table (its engine is loaded later, :meth:`load`)."""
        seats = [SeatInfo.of(s) for s in row.seats]
        return cls(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game=row.game,
            host_id=row.host_id,
            rules=rules,
            stake=row.stake,
            buy_in=row.buy_in,
            practice=row.practice,
            lang=row.lang,
            status=row.status,
            seats=seats,
            message_id=row.message_id,
            message_created_at=row.message_created_at or 0.0,
            parent_id=row.parent_id,
            pace=row.pace,
            turn_seconds=row.turn_seconds,
            turn_started_at=row.turn_started_at,
            pinged=row.pinged,
            deal_limit=row.deal_limit,
        )

    # ------------------------------------------------------------------ facts

    @property
    def in_thread(self) -> bool:
        return self.parent_id is not None

    @property
    def lobby_place(self) -> tuple[int, int]:
        """(channel, message) of the lobby message: in the parent channel for a table in a thread (the thread's
        starter message has the thread's id), else the table's own message."""
        if self.parent_id is not None:
            return self.parent_id, self.channel_id
        return self.channel_id, self.message_id or 0

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)

    @property
    def points_per_seat(self) -> int:
        return self.buy_in // self.stake

    @property
    def loaded(self) -> bool:
        return self.status != "playing" or self.engine is not None

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if not seat.bot and seat.user_id == user_id:
                return index
        return None

    def names(self, lang: str | None = None) -> list[str]:
        """Each seat's name as the table shows it (a bot's with its level, in ``lang``: the table's by default)."""
        return [seat_name(s.name, bot=s.bot, level=s.level, lang=lang or self.lang) for s in self.seats]

    def ctx(self, lang: str | None = None) -> TableContext:
        return TableContext(self.id, self.names(lang), self.stake, self.practice, lang or self.lang, self.rules)

    def playing_engine(self) -> Engine[Any]:
        if self.status != "playing":
            raise UserError("table.not_started" if self.status == "lobby" else "table.gone")
        if self.engine is None:
            raise UserError("table.loading")
        return self.engine

    # ------------------------------------------------------------------ starting and loading

    def start(self, db_seats: Sequence[SeatInfo], shuffler: Shuffler) -> list[LogEntry]:
        """Create the engine from the seats in position order; returns the log rows of its opening steps."""
        self.seats = list(db_seats)
        stacks = [self.points_per_seat] * len(self.seats)
        self.head = TableRecord(
            game=self.game,
            rules=self.rules.model_dump(mode="json"),
            stacks=stacks,
            seats=[s.label for s in self.seats],
            stake=self.stake,
        )
        engine = new_engine(self.spec, self.rules, stacks, shuffler)
        self.engine = engine
        self.status = "playing"
        self._note_events(engine.drain_events())
        return self._new_entries(engine)

    async def begin(self, db: Database, db_seats: Sequence[SeatInfo], shuffler: Shuffler) -> None:
        """Lobby → playing: :meth:`start`, and its opening written at once. If the write fails, the session is a
        lobby again (nothing of the game is kept in memory that the database does not have)."""
        entries = self.start(db_seats, shuffler)
        try:
            assert self.head is not None and self.engine is not None
            await db.start_table(self.id, record=self.head.dumps(), entries=entries)
        except Exception:
            self.status, self.engine, self.head = "lobby", None, None
            raise
        self.seq = entries[-1].seq if entries else 0
        self.shuffles_written = self.engine.shuffler.made
        self.engine.shuffler.trim(self.engine.deal_no)

    async def load(self, db: Database) -> list[Settled]:
        """Rebuild the engine from the restart point and the log after it (a restart, or a failed write).

        Returns deals that the log finished but the database had not settled (only a table stored before the
        log existed can have them); their settlement is idempotent."""
        record_text, checkpoint_seq, entries = await db.restart_point(self.id)
        if record_text is None:
            raise RecordError(f"table {self.id} has no record")
        record = TableRecord.loads(record_text)
        if record.snapshot is None and (record.actions or record.shuffles) and not entries:
            entries = await self._adopt(db, record)
            record = record.head()
        record.shuffles = [
            *record.shuffles,
            *(Shuffle.from_json(json.loads(e.body)) for e in entries if e.kind == "shuffle"),
        ]
        record.actions = [
            *record.actions,
            *((e.seat, e.body) for e in entries if e.kind == "action" and e.seat is not None),
        ]
        engine = start(record, fresh=True)
        self.head = record.head()
        self.deal_events = [decode(e) for e in (record.snapshot or {}).get("events", [])]
        self.recent.clear()
        self.recent.extend(self.deal_events)
        self._note_events(engine.drain_events())
        spec = self.spec
        self.deal_moves = 0
        for seat, text in record.actions:
            events = engine.apply(seat, spec.codec.parse(text))
            self.deal_moves += 1
            self._note_events(events)  # a deal that starts here starts with no moves
        self.engine = engine
        self.seq = max([e.seq for e in entries], default=checkpoint_seq)
        self.shuffles_written = engine.shuffler.made
        engine.history.clear()
        leftover = list(engine.results)
        engine.results.clear()
        settled: list[Settled] = []
        if leftover:
            step = await db.append_step(self.id, [], settle=[self._to_settle(r) for r in leftover])
            settled = [Settled(r, s, self._summary(r)) for r, s in zip(leftover, step.settlements, strict=True)]
        engine.shuffler.trim(engine.deal_no)
        return settled

    async def _adopt(self, db: Database, record: TableRecord) -> list[LogEntry]:
        """A table saved before the log existed: move its whole record into the log once."""
        entries: list[LogEntry] = []
        for shuffle in record.shuffles:
            entries.append(LogEntry(len(entries) + 1, "shuffle", json.dumps(shuffle.to_json()), deal=shuffle.deal))
        for seat, text in record.actions:
            entries.append(LogEntry(len(entries) + 1, "action", text, seat=seat))
        await db.adopt_record(self.id, record.head().dumps(), entries)
        return entries

    # ------------------------------------------------------------------ the one way in

    async def commit(
        self,
        db: Database,
        seat: int,
        action: Action,
        *,
        decision: int | None = None,
        by_policy: bool = False,
    ) -> Outcome:
        """Apply ``action`` for ``seat`` and write it; raises (changing nothing) if it is stale or illegal.

        ``decision``: the decision id the clicked button was made for (a button of an earlier decision is stale).
        A bot's move is made for its decision id too. ``by_policy``: played by the game's policy for a bot or an away
        member (an away member's own move brings them back; a member who came back while their move was being worked
        out is not moved for)."""
        async with self.lock:
            engine = self.playing_engine()
            if by_policy and not self.seats[seat].autoplayed:
                raise UserError("table.stale_decision")
            if decision is not None:
                judge_decision(engine.decision_id(seat), decision)
            problem = engine.refusal(seat, action)
            if problem is not None:
                raise problem
            before = {s: engine.decision_id(s) for s in engine.to_act()}
            events = engine.apply(seat, action)
            away: dict[int, bool] = {}
            if not by_policy and self.seats[seat].away:
                away[seat] = False
            began = frozenset(s for s in engine.to_act() if before.get(s) != engine.decision_id(s))
            outcome = Outcome(seat, action, events, away=away, by_policy=by_policy, began=began)
            await self._write(db, outcome)
            return outcome

    async def mark_away(
        self, db: Database, seats: Sequence[int], away: bool = True, *, expect_serial: int | None = None
    ) -> Outcome:
        """Mark members away (their turn timer ran out) or back; written like any change."""
        async with self.lock:
            engine = self.playing_engine()
            if expect_serial is not None and engine.serial != expect_serial:
                raise UserError("table.stale_decision")
            changes = {s: away for s in seats if not self.seats[s].bot and self.seats[s].away != away}
            outcome = Outcome(None, None, away=changes)
            if changes:
                await self._write(db, outcome)
            return outcome

    async def _write(self, db: Database, outcome: Outcome) -> None:
        engine = self.engine
        assert engine is not None
        entries = self._new_entries(engine)
        results = list(engine.results)
        checkpoint = deal_start = None
        seq = entries[-1].seq if entries else self.seq
        if results:
            record = snapshot_record(engine, self._head())
            assert record.snapshot is not None
            record.snapshot["events"] = [encode(e) for e in self._events_after(outcome.events)]
            checkpoint = (record.dumps(), seq)
        close, pot_back = engine.is_over, None
        if not close and self.deal_limit is not None and any(r.deal >= self.deal_limit for r in results):
            # The table's last deal is settled: it ends here, as a game that ended would, in the same write; a deal
            # the same move began is never played. A pot carried between deals goes back as a stop pays it back.
            close = True
            back = engine.stop_result()
            pot_back = [d * self.stake for d in back.deltas] if back is not None else None
        begun = next((e.deal for e in outcome.events if isinstance(e, DealStarted) and e.public), None)
        if begun is not None and begun == engine.deal_no and not close:
            # This move began a deal: keep its start, so the deal's replay begins there (games.tape).
            story = self._events_after(outcome.events)
            deal_start = (begun, seq, start_record(engine, self._head(), begun, story).dumps())
        try:
            step = await db.append_step(
                self.id,
                entries,
                away=outcome.away,
                settle=[self._to_settle(r, outcome.events) for r in results],
                checkpoint=checkpoint,
                deal_start=deal_start,
                close=close,
                pot_back=pot_back,
            )
        except LeaseLost:
            # Another bot process drives the table now (bot.storage.leases): nothing was written, and this process
            # stops driving it (its caller forgets the session). Never keep in memory what was not saved.
            log.warning("table %s: another bot process holds its lease; the move was not written", self.id)
            self.engine = None
            raise
        except StorageUnavailable as exc:
            # The database cannot be reached. Forget the engine: the table is rebuilt from the database once it
            # answers again (on the next click, or by ``Restorer.revive``), and then shows whether the move was
            # stored. It can only have been when the connection broke during the commit itself (in doubt).
            log.warning("table %s: the database is unavailable; the table waits for it (%s)", self.id, exc)
            self.engine = None
            raise UserError("table.maybe_saved" if exc.in_doubt else "storage.unavailable") from None
        except Exception:
            # The database is the truth: never keep in memory what was not saved.
            log.exception("table %s: writing a change failed; rebuilding from the database", self.id)
            await self._reload(db)
            raise UserError("table.not_saved") from None
        self.seq = entries[-1].seq if entries else self.seq
        self.turn_started_at = step.at
        self.shuffles_written = engine.shuffler.made
        for position, flag in outcome.away.items():
            self.seats[position].away = flag
        outcome.settled = [
            Settled(r, s, self._summary(r, outcome.events)) for r, s in zip(results, step.settlements, strict=True)
        ]
        outcome.closure = step.closure
        if outcome.action is not None:
            self.deal_moves += 1
        self._note_events(outcome.events)
        engine.history.clear()
        engine.results.clear()
        engine.shuffler.trim(engine.deal_no)
        if step.closure is not None:
            self.status = "ended"

    async def _reload(self, db: Database) -> None:
        self.engine = None
        try:
            await self.load(db)
        except StorageUnavailable:
            log.warning("table %s: the database is unavailable; the table is rebuilt once it answers", self.id)
        except Exception:
            log.exception("table %s: could not be rebuilt from the database", self.id)
            self.status = "broken"

    def _head(self) -> TableRecord:
        if self.head is None:
            raise RecordError(f"table {self.id} has no opening record")
        return self.head

    def _new_entries(self, engine: Engine[Any]) -> list[LogEntry]:
        """Log rows for what the engine did since the last write: its actions, then the shuffles they made."""
        entries: list[LogEntry] = []
        seq = self.seq
        for seat, action in engine.history:
            seq += 1
            entries.append(LogEntry(seq, "action", action.text, seat=seat))
        fresh = engine.shuffler.made - self.shuffles_written
        for shuffle in engine.shuffler.used[len(engine.shuffler.used) - fresh :] if fresh else []:
            seq += 1
            entries.append(
                LogEntry(seq, "shuffle", json.dumps(shuffle.to_json(), separators=(",", ":")), deal=shuffle.deal)
            )
        return entries

    # ------------------------------------------------------------------ events and summaries

    def _note_events(self, events: Sequence[Event]) -> None:
        for event in events:
            if not event.public:
                continue
            if isinstance(event, DealStarted):
                self.deal_events = []
                self.deal_moves = 0
            elif isinstance(event, DealEnded):
                self.deal_moves = 0  # settled: until the next move, no deal is in progress
            self.deal_events.append(event)
            self.recent.append(event)

    def _events_after(self, events: Sequence[Event]) -> list[Event]:
        """The current deal's public events once ``events`` are noted (what a restart point keeps)."""
        current = list(self.deal_events)
        for event in events:
            if not event.public:
                continue
            if isinstance(event, DealStarted):
                current = []
            current.append(event)
            if isinstance(event, DealEnded):
                current = []
        return current

    def _deal_story(self, deal: int, events: Sequence[Event]) -> list[Event]:
        """The public events of one deal that ``events`` finished (its earlier ones are in ``deal_events``)."""
        story = [e for e in self.deal_events if not isinstance(e, DealStarted) or e.deal == deal]
        for event in events:
            if not event.public:
                continue
            if isinstance(event, DealStarted):
                story = [event]
                continue
            story.append(event)
            if isinstance(event, DealEnded) and event.deal == deal:
                return story
        return story

    def _summary(self, result: DealResult, events: Sequence[Event] = ()) -> dict[str, Any]:
        engine = self.engine
        assert engine is not None
        summary = dict(result.summary)
        summary["seeds"] = engine.shuffler.seeds(result.deal)
        summary["commitments"] = engine.shuffler.commitments(result.deal)
        if events:
            summary["events"] = [encode(e) for e in self._deal_story(result.deal, events)]
        return summary

    def _to_settle(self, result: DealResult, events: Sequence[Event] = ()) -> DealToSettle:
        chips = dataclasses.replace(
            result, deltas=tuple(d * self.stake for d in result.deltas), pot=result.pot * self.stake
        )
        # The statistics' facts come from the typed result here, before the settling transaction (not read back
        # from the summary inside it); a practice deal has none.
        facts = None if self.practice else result_facts(self.game, chips)
        return DealToSettle(
            result.deal, chips.deltas, self._summary(result, events), chips.pot, None if facts is None else tuple(facts)
        )
