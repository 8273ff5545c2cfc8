"""Oicho-Kabu's finished-round result, typed: summaries stored before it was typed read back to the same JSON."""

from __future__ import annotations

import random

from stored_kit import example_results, fixture, reads_back, restored

from games.core.events import DealEnded
from games.core.snapshot import decode
from games.oicho.engine import OichoEngine
from games.oicho.results import Bet, OichoResult
from games.registry import get_game

STORED = fixture("oicho")


def test_summaries_written_before_read_back_to_the_same_json() -> None:
    rounds = [reads_back(OichoResult, s) for s in STORED["summaries"]]
    void = [r for r in rounds if r.void]
    played = [r for r in rounds if not r.void]
    assert void and played and any(r.maki_fuda for r in played)
    # A void round has no piles, no dealer's hand and no ``owed``: absent, not null.
    assert all(r.piles is None and r.dealer_hand is None and r.owed is None for r in void)
    for r in played:
        assert r.piles is not None and len(r.piles) == 4 and r.dealer_hand is not None and r.owed is not None
        assert all(isinstance(b, Bet) for p in r.piles for b in p.bets)


def test_a_stored_summary_keeps_what_the_bot_added() -> None:
    (stored,) = STORED["stored"]
    result = reads_back(OichoResult, stored)
    assert result.recorded.seeds == tuple(stored["seeds"]) and result.recorded.seeds
    assert result.recorded.commitments == tuple(stored["commitments"])
    assert result.recorded.events is not None and isinstance(decode(result.recorded.events[-1]), DealEnded)
    assert result.extra == {}


def test_the_docs_example_rounds_are_typed_and_read_back() -> None:
    results = example_results("oicho.json")
    assert [r.detail.owed for r in results] == [(-5, 5), (-20, 20)]
    for r in results:
        assert OichoResult.from_json(r.summary) == r.detail
        reads_back(OichoResult, r.summary)


def test_a_snapshot_saved_before_reads_its_last_round_typed_and_plays_on() -> None:
    snapshot = STORED["snapshot"]
    engine = restored("oicho", snapshot)
    # Saved again, the state is the very one saved before results were typed: results stay JSON in a snapshot.
    assert engine.snapshot() == snapshot["state"]
    assert isinstance(engine, OichoEngine) and engine.last_result is not None
    assert engine.last_result.detail == OichoResult.from_json(snapshot["last_summary"])
    assert engine.public_view().last_result == snapshot["last_summary"]
    spec, rng = get_game("oicho"), random.Random(5)
    while not engine.results:
        seat = min(engine.to_act())
        engine.apply(seat, spec.policies["normal"](engine.view(seat), engine.legal_actions(seat), rng))
    assert isinstance(engine.results[0].detail, OichoResult)
    assert engine.results[0].detail.round == engine.last_result.detail.round == snapshot["last_summary"]["round"] + 1
