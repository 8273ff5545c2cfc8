"""How a game's typed finished-deal result maps to the JSON the hand history stores, and back (games.core.results)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

from games.core.engine import DealResult
from games.core.errors import RecordError
from games.core.results import (
    OMIT_NONE,
    DealSummary,
    Payment,
    Recorded,
    Row,
    for_snapshot,
    named,
    read,
    upgraded,
    write,
)


@dataclass(frozen=True)
class Bet(Row):
    seat: int
    points: int


@dataclass(frozen=True)
class Pile:
    number: int
    cards: tuple[str, ...]
    bets: tuple[Bet, ...]
    decider: int | None
    outcome: Literal["won", "lost"]


@dataclass(frozen=True)
class Sample(DealSummary):
    deal: int
    void: bool
    rows: tuple[tuple[str, str], ...]
    piles: tuple[Pile, ...] | None = field(default=None, metadata=OMIT_NONE)
    payments: tuple[Payment, ...] = ()


PILE = Pile(1, ("3", "8"), (Bet(0, 10), Bet(2, 5)), None, "won")
SAMPLE = Sample(deal=2, void=False, rows=(("pair", "flush"),), piles=(PILE,), payments=(Payment(1, 0, 4, "share"),))
SAMPLE_JSON = {
    "deal": 2,
    "void": False,
    "rows": [["pair", "flush"]],
    "piles": [{"number": 1, "cards": ["3", "8"], "bets": [[0, 10], [2, 5]], "decider": None, "outcome": "won"}],
    "payments": [{"from": 1, "to": 0, "amount": 4, "kind": "share"}],
}


def text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def test_a_result_is_written_as_its_declaration_says() -> None:
    """Objects by field, in field order; a Row as an array; tuples as arrays; None as null; a renamed key."""
    assert text(SAMPLE.to_json()) == text(SAMPLE_JSON)


def test_an_omitted_field_is_left_out_when_none_and_read_back_as_none() -> None:
    void = Sample(deal=3, void=True, rows=())
    assert void.to_json() == {"deal": 3, "void": True, "rows": [], "payments": []}
    assert Sample.from_json(void.to_json()) == void


def test_a_summary_reads_back_to_an_equal_result_and_the_same_json() -> None:
    assert Sample.from_json(SAMPLE_JSON) == SAMPLE
    assert text(Sample.from_json(SAMPLE_JSON).to_json()) == text(SAMPLE_JSON)


def test_what_the_bot_stored_besides_the_game_keys_is_kept_and_written_back() -> None:
    """The runtime's seeds, commitments and events go to ``recorded``; a key an older engine wrote to ``extra``;
    both come back after the game's keys, so the stored summary is written back as it was."""
    events = [{"$o": "games.core.events:DealEnded", "v": [None, 2, {"$t": [4, -4]}]}]
    stored = {**SAMPLE_JSON, "ended": "rounds", "seeds": ["ab" * 32], "commitments": ["cd" * 32], "events": events}
    sample = Sample.from_json(stored)
    assert sample.recorded == Recorded(seeds=("ab" * 32,), commitments=("cd" * 32,), events=tuple(events))
    assert sample.extra == {"ended": "rounds"}
    assert text(sample.to_json()) == text(stored)
    # A result the engine just made has neither.
    assert SAMPLE.recorded == Recorded() and SAMPLE.extra == {}


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"deal": "2"}, "Sample.deal: expected int, got the string '2'"),
        ({"deal": True}, "Sample.deal: expected int, got a boolean"),
        ({"void": 0}, "Sample.void: expected bool, got the number 0"),
        ({"void": None}, "Sample.void: expected bool, got null"),
        ({"rows": [["pair"]]}, "Sample.rows[0]: expected 2 entries, got 1"),
        ({"rows": {}}, "Sample.rows: expected a JSON array, got an object"),
        (
            {"piles": [{**SAMPLE_JSON["piles"][0], "bets": [[0]]}]},
            "Sample.piles[0].bets[0]: expected a JSON array of 2",
        ),
        ({"piles": ["1"]}, "Sample.piles[0]: expected a JSON object, got the string '1'"),
        ({"payments": [{"to": 0, "amount": 4, "kind": "share"}]}, "Sample.payments[0]: the key 'from' is missing"),
    ],
)
def test_a_summary_that_does_not_fit_is_refused_saying_where(change: dict[str, Any], where: str) -> None:
    with pytest.raises(RecordError, match=rf"^{re.escape(where)}"):
        Sample.from_json({**SAMPLE_JSON, **change})


def test_a_missing_key_is_refused_and_an_outcome_another_engine_wrote_still_reads() -> None:
    with pytest.raises(RecordError, match="the key 'rows' is missing"):
        Sample.from_json({"deal": 1, "void": False})
    odd = {**SAMPLE_JSON["piles"][0], "outcome": "push"}  # Literal values are not checked
    assert read(Pile, odd).outcome == "push"


def test_read_takes_any_part_of_a_summary() -> None:
    assert read(Pile, SAMPLE_JSON["piles"][0]) == PILE
    assert read(Bet, [2, 5]) == Bet(2, 5)


def test_a_deal_results_summary_is_its_detail_as_json_afresh_each_time() -> None:
    result = DealResult(2, (4, -4), SAMPLE)
    assert result.summary == SAMPLE_JSON
    result.summary["deal"] = 99
    assert result.summary["deal"] == 2


def test_a_snapshot_keeps_a_result_as_json_and_restore_reads_it_typed() -> None:
    """An engine's snapshot holds a DealResult whose detail is the summary's JSON, as every snapshot did before
    results were typed: a result type may grow without making saved restart points unreadable."""
    typed = DealResult(2, (4, -4), SAMPLE)
    saved = for_snapshot(typed)
    assert saved is not None and saved.detail == SAMPLE_JSON and (saved.deal, saved.deltas) == (2, (4, -4))
    assert upgraded(saved, Sample) == typed
    assert for_snapshot(None) is None
    assert write(PILE) == SAMPLE_JSON["piles"][0]
    assert upgraded(typed, Sample) is typed
    assert upgraded(None, Sample) is None
    with pytest.raises(RecordError):
        upgraded(DealResult(2, (4, -4), ["not", "a", "summary"]), Sample)  # type: ignore[type-var]


def test_a_key_that_is_no_python_name_is_named_in_metadata() -> None:
    @dataclass(frozen=True)
    class Move:
        source: int = field(metadata=named("from"))

    assert read(Move, {"from": 3}) == Move(3)
