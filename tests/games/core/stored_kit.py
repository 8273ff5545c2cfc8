"""Helpers for each game's results tests: summaries stored before results were typed must still read.

Each game's test folder holds ``stored_results.json``, written by the engines of commit 4ce556a (before results
were typed): ``summaries`` as the engine wrote them (one of each kind of deal met while playing many games),
``stored`` as the hand history stored one (with the seeds, commitments and events the bot adds), and ``snapshot``
an engine state saved after a finished deal (what a table's restart point holds), with that deal's summary.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.core.engine import DealResult, Engine
from games.core.record import TableRecord
from games.core.results import DealSummary
from games.core.rng import Shuffle
from games.replay import replay, start

TESTS = Path(__file__).resolve().parents[1]
EXAMPLES = TESTS.parents[1] / "docs" / "examples"


def fixture(game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((TESTS / game / "stored_results.json").read_text(encoding="utf-8"))
    return data


def text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def reads_back(kind: type[DealSummary], summary: dict[str, Any]) -> Any:
    """``summary`` read as ``kind``, checked to write back to exactly the same JSON (keys in the same order)."""
    detail = kind.from_json(summary)
    assert isinstance(detail, kind)
    assert text(detail.to_json()) == text(summary)
    return detail


def example_results(name: str) -> list[DealResult[Any]]:
    """The results of replaying ``docs/examples/<name>.json``."""
    return replay(TableRecord.loads((EXAMPLES / name).read_text(encoding="utf-8"))).results


def restored(game: str, snapshot: dict[str, Any]) -> Engine[Any]:
    """The engine a table restarts from the fixture's snapshot (drawing fresh shuffles after its own)."""
    record = TableRecord(
        game=game,
        rules=snapshot["rules"],
        stacks=list(snapshot["state"]["stacks"]),
        shuffles=[Shuffle.from_json(s) for s in snapshot["shuffles"]],
        snapshot={"state": snapshot["state"], "used": snapshot["used"]},
    )
    return start(TableRecord.loads(record.dumps()), fresh=True)
