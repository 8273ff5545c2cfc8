"""OFC's finished-hand result, typed: summaries stored before it was typed read back to the same JSON."""

from __future__ import annotations

import random

from stored_kit import example_results, fixture, reads_back, restored

from games.ofc.engine import OFCEngine
from games.ofc.results import OFCResult
from games.ofc.scoring import PairResult
from games.registry import get_game

STORED = fixture("ofc")


def test_summaries_written_before_read_back_to_the_same_json() -> None:
    hands = [reads_back(OFCResult, s) for s in STORED["summaries"]]
    assert any(any(h.fouled) for h in hands) and any(any(h.fantasyland) for h in hands)
    assert any(h.fl_discards is not None and any(h.fl_discards) for h in hands)  # a Fantasyland hand's discards
    assert all(isinstance(p, PairResult) and len(p.rows) == 3 for h in hands for p in h.pairs)


def test_a_summary_from_before_fantasyland_discards_were_kept_reads_without_them() -> None:
    """Summaries stored before the results compared a Fantasyland board with the best one lack ``fl_discards``."""
    older = {k: v for k, v in STORED["summaries"][0].items() if k != "fl_discards"}
    assert reads_back(OFCResult, older).fl_discards is None


def test_a_stored_summary_keeps_what_the_bot_added() -> None:
    (stored,) = STORED["stored"]
    hand = reads_back(OFCResult, stored)
    assert hand.recorded.seeds == tuple(stored["seeds"]) and hand.recorded.commitments == tuple(stored["commitments"])
    assert hand.recorded.events is not None and len(hand.recorded.events) == len(stored["events"])


def test_the_docs_example_hands_are_typed_and_read_back() -> None:
    results = example_results("ofc.json")
    assert [r.detail.fantasyland for r in results] == [(False, False), (False, True), (False, False)]
    for r in results:
        assert OFCResult.from_json(r.summary) == r.detail
        reads_back(OFCResult, r.summary)


def test_a_snapshot_saved_before_restores_and_plays_on() -> None:
    snapshot = STORED["snapshot"]
    engine = restored("ofc", snapshot)
    # Saved again, the state is the very one saved before results were typed: results stay JSON in a snapshot.
    assert engine.snapshot() == snapshot["state"]
    assert isinstance(engine, OFCEngine) and engine.last is not None
    assert engine.last.result().to_json() == snapshot["last_summary"]
    spec, rng = get_game("ofc"), random.Random(5)
    while not engine.results:
        seat = min(engine.to_act())
        engine.apply(seat, spec.policies["normal"](engine.view(seat), engine.legal_actions(seat), rng))
    assert engine.results[0].detail.hand == snapshot["last_summary"]["hand"] + 1
