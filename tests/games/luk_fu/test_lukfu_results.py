"""Luk Fu's finished-hand result, typed: summaries stored before it was typed read back to the same JSON."""

from __future__ import annotations

import random

from stored_kit import example_results, fixture, reads_back, restored

from games.core.results import Payment
from games.core.snapshot import decode
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.results import LoggedTrick, LukFuResult
from games.registry import get_game

STORED = fixture("luk_fu")


def test_summaries_written_before_read_back_to_the_same_json() -> None:
    hands = [reads_back(LukFuResult, s) for s in STORED["summaries"]]
    assert {h.ended_by for h in hands} == {"all_passed", "all_played", "stop", "five_tigers"}
    assert any(h.sitter is not None for h in hands) and any(h.five_tigers is not None for h in hands)
    shares = [h.share for h in hands if h.share is not None]
    # Red cards are listed only in the own-winning-cards scope: the key is absent otherwise.
    assert any(s.red_cards is not None for s in shares) and any(s.red_cards is None for s in shares)
    plays = [p for h in hands for t in h.trick_log for p in t.plays]
    assert any(p.cards is not None for p in plays) and any(p.face_down for p in plays)
    assert all(isinstance(p, Payment) for h in hands for p in h.payments)


def test_a_stored_summary_keeps_what_the_bot_added() -> None:
    (stored,) = STORED["stored"]
    hand = reads_back(LukFuResult, stored)
    assert hand.recorded.seeds == tuple(stored["seeds"]) and hand.recorded.commitments == tuple(stored["commitments"])
    assert hand.recorded.events is not None and len(hand.recorded.events) == len(stored["events"])


def test_the_docs_example_hands_are_typed_and_read_back() -> None:
    results = example_results("lukfu.json")
    assert [(r.detail.winner, r.detail.share and r.detail.share.share) for r in results] == [(0, 2), (0, 1)]
    for r in results:
        assert LukFuResult.from_json(r.summary) == r.detail
        reads_back(LukFuResult, r.summary)


def test_a_snapshot_saved_mid_hand_before_reads_its_last_hand_and_its_tricks_typed() -> None:
    """A snapshot taken before results were typed holds the last hand's summary and this hand's tricks so far as
    JSON: both are read typed, and the hand's result, once it ends, lists those tricks first."""
    snapshot = STORED["snapshot"]
    engine = restored("luk_fu", snapshot)
    # Saved again, the state is the very one saved before results were typed: results stay JSON in a snapshot.
    assert engine.snapshot() == snapshot["state"]
    assert isinstance(engine, LukFuEngine) and engine.last_result is not None
    assert engine.last_result.detail == LukFuResult.from_json(snapshot["last_summary"])
    assert engine.public_view().last_result == snapshot["last_summary"]
    assert engine.public_view().last_detail == engine.last_result.detail
    before = decode(snapshot["state"]["played"])
    assert len(before) == 2 and all(isinstance(t, LoggedTrick) for t in engine.played)
    spec, rng = get_game("luk_fu"), random.Random(5)
    while not engine.results:
        seat = min(engine.to_act())
        engine.apply(seat, spec.policies["normal"](engine.view(seat), engine.legal_actions(seat), rng))
    assert engine.results[0].summary["trick_log"][:2] == before
