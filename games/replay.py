"""Rebuilding an engine from a table record, summarising what a record did, and checking one exported deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.engine import Engine
from games.core.errors import GameError, RecordError
from games.core.record import TableRecord
from games.core.rng import Shuffler
from games.registry import GameSpec, get_game


def new_engine(spec: GameSpec, rules: Any, stacks: Sequence[int], shuffler: Shuffler) -> Engine[Any]:
    return spec.engine(rules, stacks, shuffler)


def start(record: TableRecord, *, fresh: bool = False, stub_missing: bool = False) -> Engine[Any]:
    """The engine as the record starts: the opening deal, or the record's snapshot."""
    try:
        spec = get_game(record.game)
    except KeyError as exc:
        raise RecordError(str(exc)) from exc
    shuffler = Shuffler(planned=list(record.shuffles), fresh=fresh, stub_missing=stub_missing)
    try:
        rules = spec.rules_model.model_validate(record.rules)
        if record.snapshot is not None:
            shuffler.used = list(record.shuffles[: record.snapshot["used"]])
            return spec.restore(rules, record.snapshot["state"], shuffler)
        return new_engine(spec, rules, record.stacks, shuffler)
    except (ValueError, GameError) as exc:  # pydantic's ValidationError is a ValueError
        raise RecordError(f"the record's rules or seats are refused (or its snapshot): {exc}") from exc


def replay(record: TableRecord, *, fresh: bool = False, open_end: bool = False) -> Engine[Any]:
    """The engine after every recorded action.

    ``fresh=False`` (verification, tests) refuses to invent a shuffle the record lacks;
    ``fresh=True`` (a live table restarting) draws new seeds once the recorded ones run out.
    ``open_end=True`` accepts a record whose last action ended a deal and so asked for the next deal's
    shuffle, which was never made: that deal is dealt from an unshuffled stub (see ``Shuffler.missing``)
    and must not be shown; everything before it is exact.
    """
    engine = start(record, fresh=fresh, stub_missing=open_end)
    spec = get_game(record.game)
    last = len(record.actions) - 1
    for index, (seat, text) in enumerate(record.actions):
        try:
            engine.apply(seat, spec.codec.parse(text))
        except GameError as exc:
            raise RecordError(f"action #{index + 1} ({seat}: {text!r}) does not replay: {exc}") from exc
        if engine.shuffler.missing and index < last:
            deal, purpose = engine.shuffler.missing[0]
            raise RecordError(f"the record has no shuffle for deal {deal} ({purpose}), which action #{index + 2} needs")
    return engine


def record_of(engine: Engine[Any], base: TableRecord) -> TableRecord:
    """``base`` (game, rules, seats, stacks, stake and any snapshot) with the engine's shuffles and actions."""
    return TableRecord(
        game=base.game,
        rules=base.rules,
        stacks=list(base.stacks),
        seats=list(base.seats),
        stake=base.stake,
        shuffles=list(engine.shuffler.used),
        actions=[(seat, action.text) for seat, action in engine.history],
        snapshot=base.snapshot,
    )


def snapshot_record(engine: Engine[Any], head: TableRecord) -> TableRecord:
    """A record starting from the engine's state now (the live table's record after a deal is settled).

    It keeps the shuffles of the deals not yet settled (the current deal's commitment and later reveal)."""
    kept = list(engine.shuffler.used)
    return TableRecord(
        game=head.game,
        rules=head.rules,
        stacks=list(head.stacks),
        seats=list(head.seats),
        stake=head.stake,
        shuffles=kept,
        snapshot={"state": engine.snapshot(), "used": len(kept)},
    )


def summary(record: TableRecord) -> dict[str, Any]:
    """What ``python -m games replay`` prints: each deal's chip deltas per seat, and the totals.

    A record that ends as a deal ends (the next deal's shuffle was never made) still shows every finished
    deal; ``awaiting_shuffle`` then names the deal that was about to start."""
    engine = replay(record, open_end=True)
    deals = [
        {
            "deal": r.deal,
            "deltas": [d * record.stake for d in r.deltas],
            **({"pot": r.pot * record.stake} if r.pot else {}),
            "summary": r.summary,
        }
        for r in engine.results
    ]
    totals = [sum(d["deltas"][i] for d in deals) for i in range(engine.seats)]  # type: ignore[index]
    return {
        "game": record.game,
        "seats": record.seats,
        "stake": record.stake,
        "deals": deals,
        "totals": totals,
        "stacks": [s * record.stake for s in engine.stacks],
        **({"pot": engine.pot_total() * record.stake} if engine.pot_total() else {}),
        "over": engine.is_over,
        "to_act": [] if engine.shuffler.missing else sorted(engine.to_act()),
        **({"awaiting_shuffle": engine.shuffler.missing[0][0]} if engine.shuffler.missing else {}),
    }


HAND_FORMAT = "fudaba.hand/1"
"""A line of ``/export hands``: one settled deal, its start record and actions, and its stored result."""
OWN_HAND_FORMAT = "fudaba.own_hand/1"
"""A line of ``/export mine``: one member's own view of a deal they played (not a record: it cannot be replayed)."""


def check_hand(line: Mapping[str, Any]) -> dict[str, Any]:
    """Replay one exported deal (a line of ``/export hands``, see ``docs/replay.md``) and check it against its stored
    result: ``record`` starts as the deal began and holds the deal's actions, the last of which ended it. Returns the
    table, the deal and its chip deltas; raises :class:`RecordError` when the line is not such a deal, does not
    replay, or replays to another result than the one stored with it."""
    kind = line.get("format")
    if kind == OWN_HAND_FORMAT:
        raise RecordError(
            "this line is one member's own view of a deal (/export mine), not the deal's record: it cannot be replayed"
        )
    if kind != HAND_FORMAT:
        raise RecordError(f"not a deal exported by /export hands (format {kind!r}, expected {HAND_FORMAT!r})")
    deal = line.get("deal")
    result = line.get("result")
    stored = result.get("deltas") if isinstance(result, Mapping) else None
    if isinstance(deal, bool) or not isinstance(deal, int) or not isinstance(stored, list):
        raise RecordError("malformed hand line: it needs a deal number and a result with deltas")
    record = TableRecord.from_json(line.get("record"))
    engine = replay(record, open_end=True)
    found = [r for r in engine.results if r.deal == deal]
    if not found:
        raise RecordError(f"the record does not reach the end of deal {deal}")
    deltas = [d * record.stake for d in found[-1].deltas]
    if deltas != stored:
        raise RecordError(f"deal {deal} replays to {deltas}, but its stored result is {stored}")
    return {"table": line.get("table"), "deal": deal, "deltas": deltas, "matches": True}
