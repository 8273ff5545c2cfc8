"""Hachi-Hachi Trick's finished-round result, typed: summaries stored before it was typed read back to the same
JSON, a round's and a stopped table's alike."""

from __future__ import annotations

import random

from stored_kit import example_results, fixture, reads_back, restored

from games.core.snapshot import decode
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.results import HachiResult, LoggedTrick, PotShare, Refund, RoundResult, StoppedResult
from games.registry import get_game

STORED = fixture("hachi_hachi")


def test_summaries_written_before_read_back_to_the_same_json() -> None:
    read = [reads_back(HachiResult, s) for s in STORED["summaries"]]
    rounds = [r for r in read if isinstance(r, RoundResult)]
    assert {r.outcome for r in rounds} == {"void", "single", "split", "play"}
    assert any(r.choices is None for r in rounds) and any(r.choices for r in rounds)
    assert any(r.tricks is None for r in rounds) and any(r.tricks for r in rounds)
    assert all(isinstance(p, PotShare) for r in rounds for p in r.pot_to)
    (stopped,) = [r for r in read if isinstance(r, StoppedResult)]
    assert stopped.pot == sum(r.amount for r in stopped.end_refund) and isinstance(stopped.end_refund[0], Refund)


def test_a_stored_summary_keeps_what_the_bot_added() -> None:
    (stored,) = STORED["stored"]
    round_ = reads_back(HachiResult, stored)
    assert isinstance(round_, RoundResult) and round_.end_refund  # the game's last round gave the pot back
    assert round_.recorded.seeds == tuple(stored["seeds"])
    assert round_.recorded.commitments == tuple(stored["commitments"])
    assert round_.recorded.events is not None and len(round_.recorded.events) == len(stored["events"])


def test_a_summary_with_a_key_no_longer_written_keeps_it() -> None:
    """For two minutes the engine wrote an ``ended`` key (commit 39ae16e): a round stored then still reads, and
    writes the key back."""
    (stored,) = STORED["stored"]
    older = {**stored, "ended": "rounds"}
    round_ = HachiResult.from_json(older)
    assert round_.extra == {"ended": "rounds"} and round_.to_json() == older


def test_the_docs_example_rounds_are_typed_and_read_back() -> None:
    results = example_results("hachi.json")
    assert [r.detail.outcome for r in results] == ["play", "void", "split"]
    for r in results:
        assert HachiResult.from_json(r.summary) == r.detail
        reads_back(HachiResult, r.summary)


def test_a_snapshot_saved_mid_round_before_reads_its_last_round_and_its_tricks_typed() -> None:
    snapshot = STORED["snapshot"]
    engine = restored("hachi_hachi", snapshot)
    # Saved again, the state is the very one saved before results were typed: results stay JSON in a snapshot.
    assert engine.snapshot() == snapshot["state"]
    assert isinstance(engine, HachiHachiEngine) and engine.last_result is not None
    assert engine.last_result.detail == RoundResult.from_json(snapshot["last_summary"])
    assert engine.public_view().last_result == snapshot["last_summary"]
    assert engine.public_view().last_detail == engine.last_result.detail
    before = decode(snapshot["state"]["trick_log"])
    assert len(before) == 2 and all(isinstance(t, LoggedTrick) for t in engine.trick_log)
    spec, rng = get_game("hachi_hachi"), random.Random(5)
    while not engine.results:
        seat = min(engine.to_act())
        engine.apply(seat, spec.policies["normal"](engine.view(seat), engine.legal_actions(seat), rng))
    assert engine.results[0].summary["trick_log"][:2] == before
