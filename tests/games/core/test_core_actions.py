"""Actions: text form, the codec, amount ranges and is_listed (games/core/actions.py)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core.actions import Action, ActionCodec, AmountRange, is_listed
from games.core.errors import NotationError


@dataclass(frozen=True)
class Bet(Action):
    verb = "bet"
    pile: int
    amount: int


@dataclass(frozen=True)
class Draw(Action):
    verb = "draw"


@dataclass(frozen=True)
class Stand(Action):
    verb = "stand"
    reveal: bool


@dataclass(frozen=True)
class Name(Action):
    verb = "name"
    who: str


@dataclass(frozen=True)
class Raise(Action):
    verb = "raise"
    amount: int


@dataclass(frozen=True)
class Weird(Action):
    verb = "weird"
    ratio: float


CODEC = ActionCodec([Bet, Draw, Stand, Name, Raise, Weird])


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Bet(2, 15), "bet 2 15"),
        (Draw(), "draw"),
        (Stand(True), "stand 1"),
        (Stand(False), "stand 0"),
        (Name("kabu"), "name kabu"),
        (Raise(-3), "raise -3"),
    ],
)
def test_text_round_trip(action: Action, text: str) -> None:
    assert action.text == text == str(action)
    assert CODEC.parse(text) == action


@given(st.integers(0, 4), st.integers(-(10**12), 10**12))
def test_integer_arguments_round_trip(pile: int, amount: int) -> None:
    action = Bet(pile, amount)
    assert CODEC.parse(action.text) == action


def test_codec_ignores_extra_spaces_and_verb_case() -> None:
    assert CODEC.parse("  BET   1  2 ") == Bet(1, 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("fly", "unknown action"),
        ("bet 1", "takes 2 argument"),
        ("bet 1 2 3", "takes 2 argument"),
        ("draw now", "takes 0 argument"),
        ("bet one 2", "whole number"),
        ("bet 1 2.5", "whole number"),
        ("bet 1 1_000", "whole number"),
        ("bet 1 ٣", "whole number"),
        ("bet 1 +5", "whole number"),
        ("stand yes", "0 or 1"),
        ("stand 2", "0 or 1"),
        ("weird 0.5", "cannot read"),
    ],
)
def test_codec_errors_are_notation_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        CODEC.parse(text)


def test_codec_lists_verbs_and_refuses_repeated_or_missing_verbs() -> None:
    assert CODEC.verbs == ["bet", "draw", "name", "raise", "stand", "weird"]
    with pytest.raises(ValueError, match="repeated"):
        ActionCodec([Draw, Draw])
    with pytest.raises(ValueError, match="missing"):
        ActionCodec([Action])


@given(st.text(max_size=30))
def test_codec_garbage_raises_only_notation_errors(text: str) -> None:
    try:
        action = CODEC.parse(text)
    except NotationError:
        return
    assert CODEC.parse(action.text) == action


# ---------------------------------------------------------------- AmountRange and is_listed


def test_amount_range_allows_only_its_family_and_bounds() -> None:
    rng = AmountRange(Bet(2, 1), 1, 10)
    assert rng.make(7) == Bet(2, 7)
    assert rng.allows(Bet(2, 1))
    assert rng.allows(Bet(2, 10))
    assert not rng.allows(Bet(2, 0))
    assert not rng.allows(Bet(2, 11))
    assert not rng.allows(Bet(3, 5)), "other fields must match the template"
    assert not rng.allows(Raise(5)), "another action class never matches"
    assert not rng.allows(Draw())


def test_amount_range_lo_equal_hi() -> None:
    rng = AmountRange(Raise(4), 4, 4)
    assert rng.allows(Raise(4))
    assert not rng.allows(Raise(3))


def test_is_listed() -> None:
    legal = [Draw(), AmountRange(Bet(0, 1), 1, 5), Stand(True)]
    assert is_listed(Draw(), legal)
    assert is_listed(Bet(0, 3), legal)
    assert is_listed(Stand(True), legal)
    assert not is_listed(Stand(False), legal)
    assert not is_listed(Bet(0, 6), legal)
    assert not is_listed(Bet(1, 3), legal)
    assert not is_listed(Draw(), [])


@given(st.integers(-5, 15), st.integers(0, 10), st.integers(0, 10))
def test_is_listed_agrees_with_bounds(amount: int, lo: int, width: int) -> None:
    hi = lo + width
    assert is_listed(Raise(amount), [AmountRange(Raise(lo), lo, hi)]) == (lo <= amount <= hi)
