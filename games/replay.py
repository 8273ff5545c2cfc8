"""Rebuilding an engine from a table record, and summarising what a record did."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core.engine import Engine
from games.core.errors import GameError, RecordError
from games.core.record import TableRecord
from games.core.rng import Shuffler
from games.registry import GameSpec, get_game


def new_engine(spec: GameSpec, rules: Any, stacks: Sequence[int], shuffler: Shuffler) -> Engine[Any]:
    return spec.engine(rules, stacks, shuffler)


def replay(record: TableRecord, *, fresh: bool = False) -> Engine[Any]:
    """The engine after every recorded action.

    ``fresh=False`` (verification, tests) refuses to invent a shuffle the record lacks;
    ``fresh=True`` (a live table restarting) draws new seeds once the recorded ones run out.
    """
    try:
        spec = get_game(record.game)
    except KeyError as exc:
        raise RecordError(str(exc)) from exc
    shuffler = Shuffler(planned=list(record.shuffles), fresh=fresh)
    try:
        rules = spec.rules_model.model_validate(record.rules)
        engine = new_engine(spec, rules, record.stacks, shuffler)
    except (ValueError, GameError) as exc:  # pydantic's ValidationError is a ValueError
        raise RecordError(f"the record's rules or seats are refused: {exc}") from exc
    for index, (seat, text) in enumerate(record.actions):
        try:
            engine.apply(seat, spec.codec.parse(text))
        except GameError as exc:
            raise RecordError(f"action #{index + 1} ({seat}: {text!r}) does not replay: {exc}") from exc
    return engine


def record_of(engine: Engine[Any], base: TableRecord) -> TableRecord:
    """``base`` (game, rules, seats, stacks, stake) with the engine's shuffles and actions."""
    return TableRecord(
        game=base.game,
        rules=base.rules,
        stacks=list(base.stacks),
        seats=list(base.seats),
        stake=base.stake,
        shuffles=list(engine.shuffler.used),
        actions=[(seat, action.text) for seat, action in engine.history],
    )


def summary(record: TableRecord) -> dict[str, Any]:
    """What ``python -m games replay`` prints: each deal's chip deltas per seat, and the totals."""
    engine = replay(record)
    deals = [
        {"deal": r.deal, "deltas": [d * record.stake for d in r.deltas], "summary": r.summary}
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
        "over": engine.is_over,
        "to_act": sorted(engine.to_act()),
    }
