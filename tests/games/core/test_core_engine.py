"""The Engine base: refusals, unchanged state on refusal, history, commitments, iter_cards."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import pytest
from toy_highcard import Bet, Call, Check, Fold, HighCard, ToyRules

from games.core.actions import AmountRange
from games.core.cards import FrenchCard, KabuCard, LukFuCard, parse_french
from games.core.engine import DealResult, iter_cards
from games.core.errors import IllegalAction
from games.core.rng import Shuffle, Shuffler, commitment

SEED = "5a" * 32


def stacked(order: str, deals: int = 1, stacks: tuple[int, ...] = (10, 10)) -> HighCard:
    return HighCard(ToyRules(deals=deals), list(stacks), Shuffler(planned=[Shuffle(order=order)], fresh=False))


def refusal_code(engine: HighCard, seat: int, action: object) -> str:
    before = copy.deepcopy(vars(engine))
    with pytest.raises(IllegalAction) as caught:
        engine.apply(seat, action)  # type: ignore[arg-type]
    assert vars(engine) == before, "a refused action must leave the engine unchanged"
    return caught.value.code


def test_turn_order_and_legal_actions() -> None:
    engine = stacked("Qh Ks")
    assert engine.to_act() == frozenset({1}), "the seat left of dealer 0 opens"
    assert engine.legal_actions(0) == [], "no actions out of turn"
    assert engine.legal_actions(5) == []
    assert engine.legal_actions(1) == [Check(), AmountRange(Bet(1), 1, 5)]


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (2, Check(), "core.no_such_seat"),
        (-1, Check(), "core.no_such_seat"),
        (0, Check(), "core.not_your_turn"),
        (1, Call(), "core.not_allowed"),
        (1, Bet(0), "core.not_allowed"),
        (1, Bet(6), "toy.bet_too_big"),
    ],
)
def test_refusals_have_codes_and_change_nothing(seat: int, action: object, code: str) -> None:
    assert refusal_code(stacked("Qh Ks"), seat, action) == code


def test_refusal_reports_without_raising() -> None:
    engine = stacked("Qh Ks")
    assert engine.refusal(1, Bet(3)) is None
    problem = engine.refusal(1, Bet(9))
    assert problem is not None
    assert problem.params == {"most": 5}
    assert "largest bet is 5" in str(problem)


def test_apply_records_history_and_settles_at_the_end() -> None:
    engine = stacked("Qh Ks")
    engine.apply(1, Bet(4))
    assert engine.to_act() == frozenset({0})
    assert engine.legal_actions(0) == [Call(), Fold()]
    engine.apply(0, Call())
    assert engine.history == [(1, Bet(4)), (0, Call())]
    assert engine.results == [DealResult(1, (-5, 5), engine.results[0].detail)]
    assert engine.stacks == [5, 15]
    assert engine.is_over
    assert engine.to_act() == frozenset()
    assert refusal_code(engine, 0, Check()) == "core.game_over"


def test_a_fold_pays_the_ante_to_the_opener() -> None:
    engine = stacked("Ah 2c")
    engine.apply(1, Bet(5))
    engine.apply(0, Fold())
    assert engine.stacks == [9, 11]


def test_commitments_are_those_of_the_current_deal() -> None:
    seeds = iter(["01" * 32, "02" * 32])
    engine = HighCard(ToyRules(deals=2), [10, 10], Shuffler(seed_source=lambda: next(seeds)))
    assert engine.commitments() == [commitment("01" * 32)]
    engine.apply(1, Check())
    assert engine.deal_no == 2
    assert engine.commitments() == [commitment("02" * 32)]
    assert engine.shuffler.seeds(1) == ["01" * 32]


def test_stacked_engine_has_no_commitments() -> None:
    assert stacked("Qh Ks").commitments() == []


def test_negative_stacks_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        HighCard(ToyRules(), [5, -1], Shuffler())


def test_hidden_cards_stay_out_of_other_views() -> None:
    engine = stacked("Qh Ks")
    qh, ks = parse_french("Qh Ks")
    assert engine.view(0).my_card == qh
    assert ks in engine.hidden_from(0)
    assert qh not in engine.hidden_from(0)
    assert {qh, ks} <= engine.hidden_from(None)
    assert not set(iter_cards(engine.public_view())) & engine.hidden_from(None)


# ---------------------------------------------------------------- iter_cards


@dataclass(frozen=True)
class Inner:
    cards: tuple[FrenchCard, ...]
    label: str


@dataclass(frozen=True)
class Outer:
    inner: Inner
    piles: dict[int, list[KabuCard]]
    keyed: dict[LukFuCard, int]
    loose: frozenset[FrenchCard]
    nothing: None = None


def test_iter_cards_finds_cards_in_nested_containers() -> None:
    a, k = parse_french("As Kd")
    view = Outer(
        inner=Inner((a,), "x"),
        piles={1: [KabuCard(3, 1)], 2: []},
        keyed={LukFuCard(7, "M"): 1},
        loose=frozenset({k}),
    )
    assert sorted(map(str, iter_cards(view))) == sorted(["As", "3", "7M", "Kd"])
    assert list(iter_cards(Outer)) == [], "a class is not a view"
    assert list(iter_cards("As Kd")) == [], "text is not a card object"
