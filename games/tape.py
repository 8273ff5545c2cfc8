"""A finished deal as a tape: the engine as the deal began and the deal's actions, steppable to any point.

A replay shows a deal one step at a time: step 0 is the deal as dealt (the engine right after the move that began
it), step ``i`` the engine after the deal's ``i``-th action; the last step is the move that ended the deal. Every
step is rebuilt from the deal's start state plus its own actions, so reaching any step costs one deal's replay
whatever the table's age, given a start state (:class:`DealStart`). Where none is stored, :func:`cut` walks a
record from an earlier start (the table's opening at worst) and hands back the start of every deal it passes, so
the caller can keep them and never walk that far again.

Which steps are the deal's **key moments** (each trick, each street, each pile's decision) is the game's own
declaration: ``KEY_MOMENTS``, a set of event kinds, in the game's ``moments`` module (``games/<game>/moments.py``).
A step is a key moment when it made a public event of one of those kinds; the first and the last step always are.
This module names no game.

Privacy is the caller's: a step keeps every event its action made, private ones included, and the engine at any step
answers ``public_view()`` and ``view(seat)`` exactly as the live table did then.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from games.core.engine import DealResult, Engine
from games.core.errors import GameError, RecordError
from games.core.events import DealEnded, DealStarted, Event
from games.core.record import TableRecord
from games.core.snapshot import decode, encode
from games.registry import get_game
from games.replay import snapshot_record, start


@cache
def key_moments(game: str) -> frozenset[str]:
    """The event kinds ``game`` declares as key moments (none declared: none; the first and last steps still are)."""
    spec = get_game(game)
    package = spec.engine.__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.moments")
    except ModuleNotFoundError:
        return frozenset()
    kinds: frozenset[str] = getattr(module, "KEY_MOMENTS", frozenset())
    return frozenset(str(k) for k in kinds)


@dataclass(frozen=True)
class DealStart:
    """A deal as it began: a version-2 record (the engine's state right after the move that began the deal, with the
    shuffles made so far that belong to unfinished deals) and ``seq``, the last row of the table's log it includes
    (the log position to read on from). ``events`` are the deal's public events up to then."""

    deal: int
    record: TableRecord
    seq: int
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class Step:
    """One step of a replay: ``index`` 0 is the deal as dealt; step ``i`` follows the deal's ``i``-th action
    (``seat`` played ``action``) and made ``events`` (all of them: filter with :meth:`Event.visible_to`)."""

    index: int
    seat: int | None
    action: str | None
    events: tuple[Event, ...]
    key: bool


@dataclass
class DealTape:
    """Everything a replay of one finished deal needs: where it starts, its actions, and the shuffles drawn after
    its start (the next deal's, dealt by the move that ended this one). Plain data: it travels to a worker process."""

    game: str
    deal: int
    start: TableRecord
    """A version-2 record: the engine at the deal's start."""
    actions: list[tuple[int, str]]
    """The deal's actions, in order; the last one ended it."""
    opening_events: tuple[Event, ...] = ()
    """The deal's public events before its first action (it was dealt, a card was turned …)."""
    steps: list[Step] = field(default_factory=list)
    result: DealResult[Any] | None = None

    @property
    def last(self) -> int:
        return len(self.actions)

    def engine_at(self, index: int) -> Engine[Any]:
        """The engine after the deal's first ``index`` actions (0: as dealt). Costs ``index`` moves, never more."""
        if not 0 <= index <= self.last:
            raise RecordError(f"deal {self.deal} has no step {index} (0 to {self.last})")
        spec = get_game(self.game)
        engine = start(self.start, stub_missing=True)
        for seat, text in self.actions[:index]:
            engine.apply(seat, spec.codec.parse(text))
        return engine

    def next_deal_shown(self) -> bool:
        """Whether the last step's engine dealt the next deal from a real shuffle (False: the log lacked it, and
        nothing of that next deal may be drawn; only a record cut short can lack it)."""
        return not self.engine_at(self.last).shuffler.missing

    def told(self, index: int) -> tuple[Event, ...]:
        """The events step ``index`` tells of this deal: all its events, but at the last step only up to the deal's
        end (the same move may already have dealt the next deal, which is not this replay's to tell)."""
        events = self.steps[index].events
        end = next((i for i, e in enumerate(events) if isinstance(e, DealEnded) and e.deal == self.deal), None)
        return events if end is None else events[: end + 1]

    def key_steps(self) -> list[int]:
        """The indexes of the key moments, in order (the first and last step included)."""
        return [s.index for s in self.steps if s.key]


def start_record(engine: Engine[Any], head: TableRecord, deal: int, events: Sequence[Event]) -> TableRecord:
    """The engine now (right after the move that began ``deal``) as that deal's start record: the settled deals'
    shuffles left out, as a live table keeps them, and the deal's public ``events`` so far in the snapshot, as in a
    live table's restart point. The engine is not changed: a live table keeps each new deal's start with this as it
    writes the move (``deal_starts``), so a replay of any deal begins at its own start."""
    record = snapshot_record(engine, head)
    assert record.snapshot is not None
    settled = sum(1 for s in record.shuffles if s.deal < deal)  # the settled deals' shuffles lead
    snapshot = {**record.snapshot, "used": record.snapshot["used"] - settled, "events": [encode(e) for e in events]}
    return dataclasses.replace(record, shuffles=record.shuffles[settled:], snapshot=snapshot)


def _start_here(engine: Engine[Any], head: TableRecord, deal: int, seq: int, events: Sequence[Event]) -> DealStart:
    """The engine now, as the start of ``deal`` (see :func:`start_record`); the walking engine forgets the settled
    deals' shuffles too, so a long walk does not copy them again at every start."""
    engine.shuffler.trim(deal)
    return DealStart(deal, start_record(engine, head, deal, events), seq, tuple(events))


def start_events(record: TableRecord) -> tuple[Event, ...]:
    """The public events a start record carries (a live table's restart point carries them too)."""
    stored = (record.snapshot or {}).get("events") or []
    return tuple(e for e in (decode(x) for x in stored) if isinstance(e, Event))


def cut(
    origin: TableRecord,
    rows: Sequence[tuple[int, str, Any]],
    deal: int,
    *,
    origin_seq: int = 0,
) -> tuple[DealTape, list[DealStart]]:
    """The tape of ``deal``, walking the table's log from ``origin``.

    ``origin`` is the table's opening record (version 1, no shuffles or actions: deal 1 begins as it is built) or the
    start record of this deal or an earlier one (:class:`DealStart`, or a live table's restart point taken at a deal's
    start); ``rows`` are the log rows after ``origin_seq``, in order, as ``(seq, kind, value)``: a ``"shuffle"`` row's
    value is a :class:`Shuffle`, an ``"action"`` row's ``(seat, text)``. They must reach the end of ``deal`` (the move
    that ended it, and the shuffles it made if the log has them).

    Returns the tape and the start of every deal begun on the way (this one's included), for the caller to keep.
    Raises :class:`RecordError` if the log does not replay or does not reach the end of the deal.
    """
    spec = get_game(origin.game)
    head = origin.head()
    record = TableRecord(
        game=origin.game,
        rules=origin.rules,
        stacks=list(origin.stacks),
        seats=list(origin.seats),
        stake=origin.stake,
        shuffles=[*origin.shuffles, *(value for _seq, kind, value in rows if kind == "shuffle")],
        snapshot=origin.snapshot,
    )
    engine = start(record, stub_missing=True)
    opening = [e for e in [*start_events(origin), *engine.drain_events()] if e.public]
    starts: list[DealStart] = []
    actions = [(seq, value) for seq, kind, value in rows if kind == "action"]
    if origin.snapshot is None:
        here = _deal_begun(opening, 0)
        if here:
            # The opening deal's shuffles are in: the deal starts at the last log row before the first move.
            first_seq = actions[0][0] - 1 if actions else rows[-1][0] if rows else origin_seq
            starts.append(_start_here(engine, head, here, first_seq, _since_start(opening)))
    else:
        here = engine.deal_no
        if engine.is_over or engine.results:
            raise RecordError("this record is not the start of a deal")
    tape: DealTape | None = None
    if here == deal:
        first = starts[-1] if starts else DealStart(deal, origin, origin_seq, tuple(opening))
        tape = _tape(origin.game, first, engine)
    elif here > deal:
        raise RecordError(f"the log from this start cannot reach the beginning of deal {deal}")
    kinds = key_moments(origin.game)
    for n, (seq, (seat, text)) in enumerate(actions):
        try:
            events = engine.apply(seat, spec.codec.parse(text))
        except GameError as exc:
            raise RecordError(f"log row {seq} ({seat}: {text!r}) does not replay: {exc}") from exc
        if tape is not None:
            tape.actions.append((seat, text))
            ended = any(isinstance(e, DealEnded) and e.deal == deal for e in events)
            key = ended or any(e.public and e.kind in kinds for e in events)
            tape.steps.append(Step(len(tape.actions), seat, text, tuple(events), key))
            if ended:
                tape.result = next((r for r in engine.results if r.deal == deal), None)
                return tape, starts
        elif engine.shuffler.missing:
            break
        else:
            public = [e for e in events if e.public]
            begun = _deal_begun(public, here)
            if begun != here:
                here = begun
                # The deal starts once this move's shuffles are in: the last log row before the next move.
                after = actions[n + 1][0] - 1 if n + 1 < len(actions) else rows[-1][0]
                started = _start_here(engine, head, here, max(after, seq), _since_start(public))
                starts.append(started)
                if here == deal:
                    tape = _tape(origin.game, started, engine)
                elif here > deal:
                    break
        if tape is not None and engine.shuffler.missing:
            break
    raise RecordError(f"the log does not reach the end of deal {deal}")


def _tape(game: str, first: DealStart, engine: Engine[Any]) -> DealTape:
    """A tape beginning at ``first`` (the walking ``engine`` is there now), able to draw the shuffles the log holds
    after it: those its shuffler has not handed out yet."""
    later = engine.shuffler.planned[engine.shuffler.made :]
    made = first.record.shuffles[: (first.record.snapshot or {}).get("used", len(first.record.shuffles))]
    record = dataclasses.replace(first.record, shuffles=[*made, *later])
    tape = DealTape(game, first.deal, record, [], first.events)
    tape.steps.append(Step(0, None, None, first.events, True))
    return tape


def _deal_begun(events: Sequence[Event], current: int) -> int:
    """The last deal these events began (``current`` if none)."""
    for event in events:
        if isinstance(event, DealStarted):
            current = event.deal
    return current


def _since_start(events: Sequence[Event]) -> list[Event]:
    """The events from the last :class:`DealStarted` on."""
    begin = max((i for i, e in enumerate(events) if isinstance(e, DealStarted)), default=0)
    return list(events[begin:])
