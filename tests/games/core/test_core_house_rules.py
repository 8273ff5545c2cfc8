"""House-rule models: listing options, setting one from text, resetting, and refusals (games/core/house_rules.py)."""

from __future__ import annotations

import enum
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.core.house_rules import (
    RuleError,
    changed_options,
    find_option,
    options,
    parse_value,
    to_data,
    with_option,
    without_option,
)


class Scope(enum.Enum):
    BOTH = "both"
    DEALER = "dealer"


class Yaku(BaseModel):
    model_config = ConfigDict(frozen=True)

    enabled: bool = False
    multiplier: int = Field(1, ge=1, le=5, description="payout multiple")
    scope: Scope = Scope.BOTH


class Rules(BaseModel):
    model_config = ConfigDict(frozen=True)

    starting_chips: int = Field(100, ge=1)
    bank_cap: int = Field(50, gt=0, lt=1000)
    variant: Literal["a", "b", "c"] = "c"
    middle_royal: Literal[30, 50] = 50
    fl_cards: dict[str, int] = Field(default_factory=lambda: {"QQ": 13, "KK": 14})
    gogo: Yaku = Yaku()
    penalty: int = -2

    @model_validator(mode="after")
    def _variant_a_has_no_royal_50(self) -> Rules:
        if self.variant == "a" and self.middle_royal == 50:
            raise ValueError("variant a pays 30 for a middle royal")
        return self


def test_options_lists_every_leaf_in_declaration_order() -> None:
    found = {o.path: o for o in options(Rules)}
    assert list(found) == [
        "starting_chips",
        "bank_cap",
        "variant",
        "middle_royal",
        "fl_cards.QQ",
        "fl_cards.KK",
        "gogo.enabled",
        "gogo.multiplier",
        "gogo.scope",
        "penalty",
    ]
    assert (found["starting_chips"].kind, found["starting_chips"].lo, found["starting_chips"].hi) == ("int", 1, None)
    assert (found["bank_cap"].lo, found["bank_cap"].hi) == (1, 999), "gt/lt become inclusive bounds"
    assert found["variant"].choices == ("a", "b", "c")
    assert found["middle_royal"].choices == ("30", "50")
    assert found["fl_cards.KK"].default == 14
    assert found["gogo.multiplier"].description == "payout multiple"
    assert (found["gogo.scope"].kind, found["gogo.scope"].default) == ("choice", "both")
    assert found["penalty"].allowed() == "any whole number"
    assert found["gogo.enabled"].allowed() == "true / false"
    assert found["gogo.multiplier"].allowed() == "1–5"
    assert found["starting_chips"].allowed() == "≥ 1"


def test_options_of_an_instance_report_its_current_values() -> None:
    rules = with_option(Rules(), "gogo.multiplier", "3")
    assert find_option(rules, "gogo.multiplier").default == 3
    assert find_option(Rules, "gogo.multiplier").default == 1


@pytest.mark.parametrize(
    ("path", "raw", "value"),
    [
        ("starting_chips", " 250 ", 250),
        ("bank_cap", "999", 999),
        ("variant", "B", "b"),
        ("middle_royal", "50", 50),
        ("fl_cards.KK", "15", 15),
        ("gogo.enabled", "on", True),
        ("gogo.enabled", "はい", True),
        ("gogo.enabled", "FALSE", False),
        ("gogo.multiplier", "5", 5),
        ("gogo.scope", "dealer", Scope.DEALER),
        ("penalty", "-7", -7),
        ("starting_chips", "1,000", 1000),
        ("starting_chips", "１００", 100),
    ],
)
def test_with_option_sets_one_value_and_keeps_the_rest(path: str, raw: str, value: object) -> None:
    before = Rules()
    after = with_option(before, path, raw)
    assert before == Rules(), "the original is not modified"
    node: object = after
    for key in path.split("."):
        node = node[key] if isinstance(node, dict) else getattr(node, key)
    assert node == value
    assert type(after) is Rules
    others = [o.path for o in options(Rules) if o.path != path]
    assert all(find_option(after, p).default == find_option(before, p).default for p in others)


@pytest.mark.parametrize(
    ("path", "raw", "code"),
    [
        ("no_such_thing", "1", "rules.unknown_option"),
        ("gogo", "1", "rules.unknown_option"),
        ("fl_cards.AA", "16", "rules.unknown_option"),
        ("starting_chips", "0", "rules.out_of_range"),
        ("bank_cap", "1000", "rules.out_of_range"),
        ("gogo.multiplier", "6", "rules.out_of_range"),
        ("starting_chips", "lots", "rules.expected_int"),
        ("starting_chips", "1.5", "rules.expected_int"),
        ("starting_chips", "1_000", "rules.expected_int"),
        ("starting_chips", "١٠", "rules.expected_int"),
        ("gogo.enabled", "maybe", "rules.expected_bool"),
        ("variant", "e", "rules.expected_choice"),
        ("middle_royal", "40", "rules.expected_choice"),
        ("gogo.scope", "child", "rules.expected_choice"),
        ("variant", "a", "rules.invalid"),
    ],
)
def test_with_option_refusals_carry_a_message_key(path: str, raw: str, code: str) -> None:
    with pytest.raises(RuleError) as caught:
        with_option(Rules(), path, raw)
    assert caught.value.code == code
    assert caught.value.params["option"] == path
    assert caught.value.reason == str(caught.value)


def test_model_validators_run_on_each_change() -> None:
    rules = with_option(Rules(), "middle_royal", "30")
    rules = with_option(rules, "variant", "a")
    assert (rules.variant, rules.middle_royal) == ("a", 30)
    with pytest.raises(RuleError, match="variant a pays 30"):
        with_option(rules, "middle_royal", "50")


def test_without_option_restores_the_default() -> None:
    rules = with_option(with_option(Rules(), "gogo.multiplier", "4"), "fl_cards.QQ", "17")
    rules = without_option(rules, "gogo.multiplier")
    assert rules.gogo.multiplier == 1
    assert rules.fl_cards["QQ"] == 17
    assert without_option(rules, "fl_cards.QQ") == Rules()
    with pytest.raises(RuleError):
        without_option(rules, "nope")


def test_without_option_can_be_refused_by_a_validator() -> None:
    rules = with_option(with_option(Rules(), "middle_royal", "30"), "variant", "a")
    with pytest.raises(RuleError, match="variant a pays 30"):
        without_option(rules, "middle_royal")


def test_changed_options_lists_only_differences() -> None:
    assert changed_options(Rules()) == []
    rules = with_option(with_option(Rules(), "gogo.scope", "dealer"), "starting_chips", "7")
    assert [(o.path, value) for o, value in changed_options(rules)] == [("starting_chips", 7), ("gogo.scope", "dealer")]


def test_to_data_is_json_ready_and_validates_back() -> None:
    rules = with_option(Rules(), "gogo.scope", "dealer")
    data = to_data(rules)
    assert data["gogo"]["scope"] == "dealer"
    assert Rules.model_validate(data) == rules


def test_parse_value_of_int_choices_returns_ints() -> None:
    assert parse_value(find_option(Rules, "middle_royal"), "30") == 30
    assert parse_value(find_option(Rules, "variant"), "A") == "a"


def test_unsupported_option_types_are_reported() -> None:
    class Bad(BaseModel):
        ratio: float = 0.5

    with pytest.raises(TypeError, match="unsupported rule option type at ratio"):
        options(Bad)


# ---------------------------------------------------------------- set options

Rank = Literal["2", "10", "J", "Q", "K", "A"]


class Fields(BaseModel):
    model_config = ConfigDict(frozen=True)

    high: frozenset[Rank] = Field(frozenset({"10", "J", "Q"}), description="ranks that double")
    top: frozenset[Rank] = frozenset({"K", "A"})

    @model_validator(mode="after")
    def _apart(self) -> Fields:
        if self.high & self.top:
            raise ValueError("a rank cannot be in both sets")
        return self


def test_a_set_option_is_listed_with_its_text_form() -> None:
    found = {o.path: o for o in options(Fields)}
    high = found["high"]
    assert (high.kind, high.default, high.choices) == ("set", "10,J,Q", ("2", "10", "J", "Q", "K", "A"))
    assert high.description == "ranks that double"
    assert high.allowed() == "any of 2, 10, J, Q, K, A (comma-separated), or none"


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("10,J,Q", {"10", "J", "Q"}),
        (" q j ", {"J", "Q"}),
        ("2、10，j", {"2", "10", "J"}),
        ("Q,Q,J", {"J", "Q"}),
        ("none", set()),
        ("なし", set()),
        ("", set()),
    ],
)
def test_a_set_option_is_set_from_text(raw: str, value: set[str]) -> None:
    rules = with_option(Fields(), "high", raw)
    assert rules.high == frozenset(value)
    shown = find_option(rules, "high").default
    assert with_option(Fields(), "high", shown) == rules, "the text shown reads back to the same set"


def test_set_option_refusals() -> None:
    with pytest.raises(RuleError) as caught:
        with_option(Fields(), "high", "10,X")
    assert caught.value.code == "rules.expected_set" and caught.value.params["option"] == "high"
    assert (caught.value.params["value"], caught.value.params["text"]) == ("X", "10,X"), "the entry refused"
    with pytest.raises(RuleError, match="both sets"):
        with_option(Fields(), "high", "K")


def test_set_options_reset_compare_and_dump() -> None:
    rules = with_option(with_option(Fields(), "top", "A"), "high", "k")
    assert [(o.path, value) for o, value in changed_options(rules)] == [("high", "K"), ("top", "A")]
    assert without_option(without_option(rules, "high"), "top") == Fields()
    assert Fields.model_validate(to_data(rules)) == rules


def test_sets_of_other_kinds_are_unsupported() -> None:
    class Numbers(BaseModel):
        picks: frozenset[int] = frozenset({1})

    with pytest.raises(TypeError, match="unsupported rule option type at picks"):
        options(Numbers)
