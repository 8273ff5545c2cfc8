"""``python -m games replay`` on a line of ``/export hands``: one deal, from its start record, checked against the
result stored with it (games/replay.py ``check_hand``, games/__main__.py)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from games.__main__ import main
from games.core.errors import RecordError
from games.core.record import TableRecord
from games.replay import HAND_FORMAT, OWN_HAND_FORMAT, check_hand
from games.tape import cut

EXAMPLE = Path(__file__).resolve().parents[2] / "docs/examples/oicho.json"


def line_of(deal: int) -> dict[str, Any]:
    """Deal ``deal`` of docs/examples/oicho.json as /export hands writes it (Aki −5 then −20)."""
    whole = TableRecord.loads(EXAMPLE.read_text(encoding="utf-8"))
    rows: list[tuple[int, str, Any]] = [(i + 1, "shuffle", s) for i, s in enumerate(whole.shuffles)]
    rows += [(len(rows) + i + 1, "action", a) for i, a in enumerate(whole.actions)]
    tape, _ = cut(whole.head(), rows, deal)
    used = (tape.start.snapshot or {})["used"]
    shuffles = [*tape.start.shuffles[:used], *(s for s in tape.start.shuffles[used:] if s.deal <= deal)]
    record = dataclasses.replace(tape.start, shuffles=shuffles, actions=list(tape.actions))
    deltas = {1: [-5, 5], 2: [-20, 20]}[deal]
    return {"format": HAND_FORMAT, "table": 7, "deal": deal, "result": {"deltas": deltas}, "record": record.to_json()}


def test_each_deal_replays_from_its_start_to_its_stored_result() -> None:
    for deal, deltas in ((1, [-5, 5]), (2, [-20, 20])):
        line = line_of(deal)
        assert line["record"]["version"] == 2 and all(s["deal"] <= deal for s in line["record"]["shuffles"])
        assert check_hand(line) == {"table": 7, "deal": deal, "deltas": deltas, "matches": True}


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda x: x["result"].update(deltas=[5, -5]), r"stored result is \[5, -5\]"),
        (lambda x: x["record"]["actions"].pop(), "does not reach the end of deal 1"),
        (lambda x: x.update(format=OWN_HAND_FORMAT), "own view of a deal"),
        (lambda x: x.update(format="other"), "not a deal exported by /export hands"),
        (lambda x: x.pop("deal"), "needs a deal number"),
    ],
)
def test_a_line_that_does_not_hold_its_deal_is_refused(change: Any, said: str) -> None:
    line = line_of(1)
    change(line)
    with pytest.raises(RecordError, match=said):
        check_hand(line)


def test_the_command_checks_every_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(line_of(1)) + "\n\n" + json.dumps(line_of(2)) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    printed = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(p["deal"], p["deltas"]) for p in printed] == [(1, [-5, 5]), (2, [-20, 20])]
    # One line alone is read as a deal too; a broken line fails the run and is named.
    path.write_text(json.dumps(line_of(2)), encoding="utf-8")
    assert main(["replay", str(path)]) == 0 and json.loads(capsys.readouterr().out)["deal"] == 2
    bad = line_of(2)
    bad["result"]["deltas"] = [0, 0]
    path.write_text(json.dumps(line_of(1)) + "\n" + json.dumps(bad) + "\n{oops\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    errors = [json.loads(x)["error"] for x in captured.err.splitlines()]
    assert errors[0].startswith("line 2: deal 2 replays to [-20, 20]") and errors[1].startswith("line 3: not JSON")
    assert [json.loads(x)["deal"] for x in captured.out.splitlines()] == [1]
    # A table record still prints its summary, as before.
    assert main(["replay", str(EXAMPLE)]) == 0 and json.loads(capsys.readouterr().out)["totals"] == [-25, 25]
