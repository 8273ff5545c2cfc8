"""Table records: JSON round trip, malformed records, replay(), record_of() and the replay CLI."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from toy_highcard import SPEC, HighCard, ToyRules

from games.__main__ import main
from games.core.errors import RecordError
from games.core.house_rules import to_data
from games.core.record import RECORD_VERSION, TableRecord
from games.core.rng import Shuffle, Shuffler
from games.replay import record_of, replay, summary

SEED_A = "aa" * 32
SEED_B = "bb" * 32


def full_record() -> TableRecord:
    return TableRecord(
        game="toy_highcard",
        rules={"deals": 2},
        stacks=[20, 30],
        seats=["alice", "bob"],
        stake=10,
        shuffles=[Shuffle(seed=SEED_A, deal=1), Shuffle(order="As Kd", deal=2, purpose="deal")],
        actions=[(1, "bet 3"), (0, "call")],
    )


def test_json_round_trip() -> None:
    record = full_record()
    data = record.to_json()
    assert data == {
        "version": RECORD_VERSION,
        "game": "toy_highcard",
        "rules": {"deals": 2},
        "seats": ["alice", "bob"],
        "stacks": [20, 30],
        "stake": 10,
        "shuffles": [
            {"deal": 1, "purpose": "deal", "seed": SEED_A},
            {"deal": 2, "purpose": "deal", "order": "As Kd"},
        ],
        "actions": [[1, "bet 3"], [0, "call"]],
    }
    assert TableRecord.from_json(data) == record
    assert TableRecord.loads(record.dumps()) == record
    assert json.loads(record.dumps()) == data


def test_defaults_for_optional_fields() -> None:
    record = TableRecord.from_json({"game": "toy_highcard", "stacks": [5, 6, 7]})
    assert record.seats == ["seat1", "seat2", "seat3"]
    assert (record.stake, record.rules, record.shuffles, record.actions) == (1, {}, [], [])
    assert record.version == RECORD_VERSION


def test_dumps_keeps_non_ascii_names() -> None:
    record = TableRecord(game="toy_highcard", rules={}, stacks=[1, 1], seats=["花子", "太郎"])
    assert "花子" in record.dumps()


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '"record"',
        "{}",
        '{"stacks": [1, 2]}',
        '{"game": "toy_highcard"}',
        '{"game": "toy_highcard", "stacks": null}',
        '{"game": "toy_highcard", "stacks": ["x"]}',
        '{"game": "toy_highcard", "stacks": [1], "version": 2}',
        '{"game": "toy_highcard", "stacks": [1], "version": "one"}',
        '{"game": "toy_highcard", "stacks": [1], "seats": ["a", "b"]}',
        '{"game": "toy_highcard", "stacks": [1], "stake": 0}',
        '{"game": "toy_highcard", "stacks": [1], "rules": 5}',
        '{"game": "toy_highcard", "stacks": [1], "actions": [[0, "a", "b"]]}',
        '{"game": "toy_highcard", "stacks": [1], "actions": [["0", "bet 1"]]}',
        '{"game": "toy_highcard", "stacks": [1], "actions": [[0, 5]]}',
        '{"game": "toy_highcard", "stacks": [1], "actions": [7]}',
        '{"game": "toy_highcard", "stacks": [2, -1]}',
        '{"game": "toy_highcard", "stacks": "12"}',
        '{"game": "toy_highcard", "stacks": {"1": 2}}',
        '{"game": "toy_highcard", "stacks": [5.7, 3]}',
        '{"game": "toy_highcard", "stacks": [true, 3]}',
        '{"game": "toy_highcard", "stacks": [1, 1], "seats": "ab"}',
        '{"game": "toy_highcard", "stacks": [1], "actions": [[true, "call"]]}',
        '{"game": "toy_highcard", "stacks": [1], "shuffles": {"seed": "00"}}',
        '{"game": "toy_highcard", "stacks": [1], "shuffles": [5]}',
        '{"game": "toy_highcard", "stacks": [1], "shuffles": [{}]}',
        '{"game": "toy_highcard", "stacks": [1], "shuffles": [{"seed": "00"}]}',
        '{"game": "toy_highcard", "stacks": [1], "shuffles": [{"seed": "' + SEED_A + '", "order": "As"}]}',
    ],
)
def test_malformed_records_are_record_errors(text: str) -> None:
    with pytest.raises(RecordError):
        TableRecord.loads(text)


# ---------------------------------------------------------------- replay and record_of


def play_toy(seed: int, rules: ToyRules | None = None, stacks: list[int] | None = None) -> tuple[HighCard, TableRecord]:
    rng = random.Random(seed)
    rules = rules or ToyRules()
    stacks = stacks or [20, 20, 20]
    engine = HighCard(rules, stacks, Shuffler(seed_source=lambda: rng.randbytes(32).hex()))
    while not engine.is_over:
        seat = rng.choice(sorted(engine.to_act()))
        engine.apply(seat, SPEC.policies["normal"](engine.view(seat), engine.legal_actions(seat), rng))
    base = TableRecord(game=SPEC.id, rules=to_data(rules), stacks=stacks, stake=2)
    return engine, base


@pytest.mark.usefixtures("toy_registered")
def test_replay_of_record_of_rebuilds_the_same_state() -> None:
    engine, base = play_toy(1)
    record = record_of(engine, base)
    assert len(record.shuffles) == engine.deal_no == 3
    assert [(s.deal, s.purpose) for s in record.shuffles] == [(1, "deal"), (2, "deal"), (3, "deal")]
    again = replay(TableRecord.loads(record.dumps()))
    assert again.results == engine.results
    assert again.stacks == engine.stacks
    assert again.history == engine.history
    assert [again.view(s) for s in range(3)] == [engine.view(s) for s in range(3)]
    assert again.public_view() == engine.public_view()
    assert record_of(again, base) == record


@pytest.mark.usefixtures("toy_registered")
def test_replay_of_a_partial_record_stops_where_the_record_stops() -> None:
    engine, base = play_toy(2)
    record = record_of(engine, base)
    record.actions = record.actions[:1]
    partial = replay(record)
    assert len(partial.history) == 1
    assert not partial.is_over
    assert len(partial.shuffler.used) == 1


@pytest.mark.usefixtures("toy_registered")
def test_replay_refuses_missing_shuffles_unless_fresh() -> None:
    engine, base = play_toy(3)
    record = record_of(engine, base)
    record.shuffles = record.shuffles[:1]
    with pytest.raises(RecordError, match="does not replay"):
        replay(record)
    restarted = replay(record, fresh=True)
    assert len(restarted.shuffler.used) >= 1


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize(
    ("actions", "match"),
    [([(0, "bet 1")], "action #1"), ([(1, "fly")], "unknown action"), ([(1, "bet 99")], "largest bet")],
)
def test_replay_refuses_actions_that_do_not_replay(actions: list[tuple[int, str]], match: str) -> None:
    record = TableRecord(game=SPEC.id, rules={}, stacks=[5, 5], shuffles=[Shuffle(seed=SEED_A)], actions=actions)
    with pytest.raises(RecordError, match=match):
        replay(record)


@pytest.mark.usefixtures("toy_registered")
def test_replay_of_a_stacked_deck() -> None:
    # Seat 1 opens (left of dealer 0); Ks beats Qh, so seat 0's call loses 1 ante + 4.
    record = TableRecord(
        game=SPEC.id,
        rules={"deals": 1},
        stacks=[10, 10],
        shuffles=[Shuffle(order="Qh Ks")],
        actions=[(1, "bet 4"), (0, "call")],
    )
    engine = replay(record)
    assert engine.is_over
    assert [r.deltas for r in engine.results] == [(-5, 5)]


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize("rules", [{"deals": 0}, {"seats_max": 9}, {"ante": "lots"}])
def test_replay_refuses_rules_the_model_rejects(rules: dict[str, object]) -> None:
    with pytest.raises(RecordError, match="rules or seats are refused"):
        replay(TableRecord(game=SPEC.id, rules=rules, stacks=[5, 5]))


def test_replay_of_an_unknown_game() -> None:
    with pytest.raises(RecordError, match="unknown game"):
        replay(TableRecord(game="no_such_game", rules={}, stacks=[1, 1]))


# ---------------------------------------------------------------- summary and the CLI


@pytest.mark.usefixtures("toy_registered")
def test_summary_scales_by_stake() -> None:
    engine, base = play_toy(4)
    out = summary(record_of(engine, base))
    assert out["game"] == SPEC.id
    assert out["stake"] == 2
    assert [d["deltas"] for d in out["deals"]] == [[2 * x for x in r.deltas] for r in engine.results]
    assert out["totals"] == [2 * (s - 20) for s in engine.stacks]
    assert out["stacks"] == [2 * s for s in engine.stacks]
    assert out["over"] is True
    assert out["to_act"] == []


@pytest.mark.usefixtures("toy_registered")
def test_cli_prints_the_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine, base = play_toy(5)
    path = tmp_path / "table.json"
    path.write_text(record_of(engine, base).dumps(), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(summary(record_of(engine, base))))


@pytest.mark.usefixtures("toy_registered")
def test_cli_reads_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    engine, base = play_toy(6)
    monkeypatch.setattr("sys.stdin", io.StringIO(record_of(engine, base).dumps()))
    assert main(["replay", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["over"] is True


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize(
    "text",
    [
        "{",
        '{"game": "no_such_game", "stacks": [1, 1]}',
        '{"game": "toy_highcard", "stacks": [1, 1], "shuffles": [7]}',
        '{"game": "toy_highcard", "stacks": [1, -1]}',
        '{"game": "toy_highcard", "stacks": [1, 1], "rules": {"deals": 0}}',
        '{"game": "toy_highcard", "stacks": [5, 5], "actions": [[0, "call"]], "shuffles": [{"seed": "'
        + SEED_A
        + '"}]}',
    ],
)
def test_cli_reports_bad_records_as_json_on_stderr(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "error" in json.loads(captured.err)


def _oicho_example_cut_after_round_one() -> TableRecord:
    """docs/examples/oicho.json as it stood right after round 1's last action: round 2's shuffle not made yet."""
    record = TableRecord.loads((Path(__file__).parents[3] / "docs/examples/oicho.json").read_text(encoding="utf-8"))
    record.shuffles = [s for s in record.shuffles if s.deal == 1]
    record.actions = record.actions[:6]  # ... Ben stands on pile 4, Aki stands: round 1 is settled
    return record


def test_a_record_ending_as_a_deal_ends_prints_the_finished_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _oicho_example_cut_after_round_one()
    out = summary(record)
    assert [(d["deal"], d["deltas"]) for d in out["deals"]] == [(1, [-5, 5])]
    assert out["totals"] == [-5, 5] and out["stacks"] == [95, 105]
    assert out["awaiting_shuffle"] == 2 and out["to_act"] == [] and out["over"] is False
    path = tmp_path / "cut.json"
    path.write_text(record.dumps(), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["deals"][0]["deltas"] == [-5, 5] and printed["awaiting_shuffle"] == 2


def test_a_shuffle_missing_before_later_actions_is_still_refused() -> None:
    record = _oicho_example_cut_after_round_one()
    record.actions.append((0, "bet 1 20"))  # round 2's first bet, without round 2's shuffle
    with pytest.raises(RecordError, match="no shuffle for deal 2"):
        summary(record)
    with pytest.raises(RecordError):
        replay(record)  # a plain replay never deals from an unshuffled pack
