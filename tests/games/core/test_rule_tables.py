"""Rule tables: rows of plain options read as a table and set a row at a time."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.core.house_rules import RuleError, changed_options
from games.core.rule_tables import (
    RuleTable,
    find_row,
    row_text,
    row_value,
    tables,
    with_row,
    without_row,
)
from games.oicho.rules import OichoRules

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class Row(BaseModel):
    model_config = _FROZEN
    enabled: bool = True
    normal: int = Field(4, ge=0, le=100)
    forced_out: int = Field(2, ge=0, le=100)

    @model_validator(mode="after")
    def _not_above(self) -> Row:
        if self.forced_out > self.normal:
            raise ValueError("forced_out above normal")
        return self


class Hands(BaseModel):
    model_config = _FROZEN
    flush: Row = Field(default_factory=Row)
    straight: Row = Field(default_factory=lambda: Row(normal=3, forced_out=2))
    sunashi: Row = Field(default_factory=lambda: Row(enabled=False, normal=6, forced_out=3))


class Inner(BaseModel):
    model_config = _FROZEN
    mode: Literal["a", "b"] = "a"


class Rules(BaseModel):
    model_config = _FROZEN
    rounds: int = Field(12, ge=1, le=100)
    hands: Hands = Field(default_factory=Hands)
    inner: Inner = Field(default_factory=Inner)  # a model of options, not a table of rows


def test_tables_are_found_with_their_rows_and_columns() -> None:
    assert tables(Rules) == [RuleTable("hands", ("flush", "straight", "sunashi"), ("enabled", "normal", "forced_out"))]
    [local] = tables(OichoRules)
    assert local.path == "local_yaku"
    assert local.rows[0] == "gogo" and "doshippin" in local.rows
    assert local.columns == ("enabled", "multiplier", "scope", "strict_order")  # the union, first-seen order
    assert find_row(Rules(), "hands.flush") == (tables(Rules)[0], "flush")
    assert find_row(Rules(), "hands") is None
    assert find_row(Rules(), "inner.mode") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("off 5 1", {"enabled": False, "normal": 5, "forced_out": 1}),
        ("on, 9, 3", {"enabled": True, "normal": 9, "forced_out": 3}),
        ("normal=7", {"enabled": True, "normal": 7, "forced_out": 2}),
        ("forced_out=0 enabled=off", {"enabled": False, "normal": 4, "forced_out": 0}),
        ("off", {"enabled": False, "normal": 4, "forced_out": 2}),
    ],
)
def test_a_row_is_set_by_position_or_by_name(text: str, expected: dict[str, object]) -> None:
    rules = with_row(Rules(), "hands.flush", text)
    assert row_value(rules, tables(Rules)[0], "flush") == expected
    assert rules.hands.straight == Rules().hands.straight  # nothing else moved


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "rules.row_empty"),
        ("on 5 2 9", "rules.row_too_many"),
        ("bonus=3", "rules.row_unknown_column"),
        ("5 normal=6", "rules.expected_bool"),  # the first positional cell is the yes/no one
        ("on 5 normal=6", "rules.row_twice"),
        ("on 101 2", "rules.out_of_range"),
        ("on -1 0", "rules.out_of_range"),
        ("on 2 3", "rules.invalid"),  # the row's own check, on the whole row
        ("maybe", "rules.expected_bool"),
    ],
)
def test_an_impossible_row_is_refused_whole(text: str, code: str) -> None:
    rules = Rules()
    with pytest.raises(RuleError) as err:
        with_row(rules, "hands.flush", text)
    assert err.value.code == code
    assert rules == Rules()


def test_unknown_rows_are_refused() -> None:
    for path in ("hands.royal", "hands", "rounds", "inner"):
        with pytest.raises(RuleError) as err:
            with_row(Rules(), path, "on 1 1")
        assert err.value.code == "rules.unknown_option"


def test_a_row_or_a_table_goes_back_to_its_defaults() -> None:
    edited = with_row(with_row(Rules(rounds=6), "hands.flush", "off 9 1"), "hands.sunashi", "on")
    assert len(changed_options(edited)) == 5
    one = without_row(edited, "hands.flush")
    assert one.hands.flush == Row() and one.hands.sunashi.enabled and one.rounds == 6
    whole = without_row(edited, "hands")
    assert whole.hands == Hands() and whole.rounds == 6
    with pytest.raises(RuleError):
        without_row(edited, "rounds")


def test_row_text_reads_back_as_it_sets() -> None:
    rules = with_row(Rules(), "hands.straight", "off 8 5")
    text = row_text(row_value(rules, tables(Rules)[0], "straight"))
    assert text == "off 8 5"
    assert with_row(Rules(), "hands.straight", text) == rules


def test_oicho_local_hands_are_set_a_row_at_a_time() -> None:
    rules = with_row(OichoRules(), "local_yaku.hifumi", "on 3 child on")
    assert rules.local_yaku.hifumi.enabled and rules.local_yaku.hifumi.multiplier == 3
    assert (rules.local_yaku.hifumi.scope, rules.local_yaku.hifumi.strict_order) == ("child", True)
    with pytest.raises(RuleError) as err:
        with_row(OichoRules(), "local_yaku.gogo", "on 2 both on")  # gogo has no strict_order column
    assert err.value.code == "rules.row_too_many"
