"""The preset file and the check of a preset's options against a game's rules model (no Discord)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from bot.presets.format import (
    FORMAT,
    MAX_FILE_BYTES,
    VERSION,
    PresetInvalid,
    build_rules,
    changes,
    clean_name,
    dump_file,
    option_values,
    read_file,
    rules_schema,
)
from games.core.house_rules import options, to_data
from games.registry import GameSpec, all_games

OICHO = all_games()["oicho"]
OFC = all_games()["ofc"]
HACHI = all_games()["hachi_hachi"]


def document(**fields: Any) -> bytes:
    base: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": "oicho", "options": {}}
    base.update(fields)
    return json.dumps({k: v for k, v in base.items() if v is not ...}).encode()


def problems(error: pytest.ExceptionInfo[PresetInvalid]) -> list[tuple[str, dict[str, Any]]]:
    return [(p.key, p.params) for p in error.value.problems]


def test_every_options_value_round_trips_through_a_file() -> None:
    for spec in all_games().values():
        rules = spec.rules_model()
        values = option_values(rules)
        assert list(values) == [o.path for o in options(spec.rules_model)]
        read = read_file(dump_file(spec.id, "all", values, rules_schema(spec.rules_model)))
        assert (read.game, read.name, read.rules_schema) == (spec.id, "all", rules_schema(spec.rules_model))
        built = build_rules(spec, read.options)
        assert built.rules == rules
        assert built.missing == ()


def test_values_are_json_as_the_model_dumps_them() -> None:
    values = option_values(HACHI.rules_model())
    assert values["oba_ranks"] == ["10", "J", "Q"]
    assert values["yaku_table.sunashi.enabled"] is False
    assert option_values(OFC.rules_model())["middle_royal"] == 50
    assert option_values(OFC.rules_model())["royalties.front.AA"] == 9


def test_options_left_out_take_their_defaults_and_are_named() -> None:
    built = build_rules(OICHO, {"bank_cap": 80, "local_yaku.gogo.enabled": True})
    assert built.rules == OICHO.rules_model.model_validate({"bank_cap": 80, "local_yaku": {"gogo": {"enabled": True}}})
    assert "maki_fuda" in built.missing
    assert "bank_cap" not in built.missing
    assert len(built.missing) == len(options(OICHO.rules_model)) - 2
    assert [(p, old, new) for p, old, new in changes(OICHO.rules_model(), built.rules)] == [
        ("bank_cap", 50, 80),
        ("local_yaku.gogo.enabled", False, True),
    ]


@pytest.mark.parametrize(
    ("spec", "values", "expected"),
    [
        (OICHO, {"bank_capp": 5}, [("presets.unknown_option", {"option": "bank_capp", "game": "oicho"})]),
        (OICHO, {"variant": "d"}, [("presets.unknown_option", {"option": "variant", "game": "oicho"})]),
        (
            OICHO,
            {"local_yaku.gogo": {"enabled": True}},
            [("presets.unknown_option", {"option": "local_yaku.gogo", "game": "oicho"})],
        ),
        (OICHO, {"maki_fuda": "yes"}, [("presets.expected_bool", {"option": "maki_fuda", "value": '"yes"'})]),
        (OICHO, {"bank_cap": "80"}, [("presets.expected_int", {"option": "bank_cap", "value": '"80"'})]),
        (OICHO, {"bank_cap": True}, [("presets.expected_int", {"option": "bank_cap", "value": "true"})]),
        (OICHO, {"bank_cap": 8.5}, [("presets.expected_int", {"option": "bank_cap", "value": "8.5"})]),
        (
            OICHO,
            {"arashi_multiplier": 9},
            [("presets.out_of_range", {"option": "arashi_multiplier", "value": "9", "allowed": "1–5"})],
        ),
        (
            OICHO,
            {"first_extra_visibility": "nobody"},
            [
                (
                    "presets.expected_choice",
                    {"option": "first_extra_visibility", "value": '"nobody"', "allowed": "all_children / pile_bettors"},
                )
            ],
        ),
        # A numeric choice is a number, as the model dumps it.
        (
            OFC,
            {"middle_royal": "50"},
            [("presets.expected_choice", {"option": "middle_royal", "value": '"50"', "allowed": "30 / 50"})],
        ),
        (
            OFC,
            {"middle_royal": 40},
            [("presets.expected_choice", {"option": "middle_royal", "value": "40", "allowed": "30 / 50"})],
        ),
        (
            HACHI,
            {"oba_ranks": "10,J"},
            [
                (
                    "presets.expected_set",
                    {"option": "oba_ranks", "value": '"10,J"', "allowed": "2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A"},
                )
            ],
        ),
        (
            HACHI,
            {"oba_ranks": ["10", "B"]},
            [
                (
                    "presets.not_in_set",
                    {
                        "option": "oba_ranks",
                        "value": '["10", "B"]',
                        "member": '"B"',
                        "allowed": "2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A",
                    },
                )
            ],
        ),
    ],
)
def test_each_refused_option_is_named_with_its_reason(
    spec: GameSpec, values: dict[str, Any], expected: list[tuple[str, dict[str, Any]]]
) -> None:
    with pytest.raises(PresetInvalid) as refused:
        build_rules(spec, values)
    assert problems(refused) == expected


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(PresetInvalid) as refused:
        build_rules(OICHO, {"bank_cap": 0, "nope": 1, "maki_fuda": 1, "dealer_rounds": 4})
    assert [(k, p["option"]) for k, p in problems(refused)] == [
        ("presets.out_of_range", "bank_cap"),
        ("presets.unknown_option", "nope"),
        ("presets.expected_bool", "maki_fuda"),
    ]


def test_the_models_own_checks_name_the_option_at_fault() -> None:
    # Each value alone is of the right type, but the model refuses it: the option is found by trying each alone.
    with pytest.raises(PresetInvalid) as refused:
        build_rules(OFC, {"fl_cards.QQ": 20, "variant": "d"})
    assert problems(refused) == [
        ("presets.invalid", {"option": "fl_cards.QQ", "detail": "fl_cards values must be 13-17"})
    ]
    with pytest.raises(PresetInvalid) as negative:
        build_rules(OFC, {"royalties.back.quads": -1})
    assert [(k, p["option"]) for k, p in problems(negative)] == [("presets.invalid", "royalties.back.quads")]
    # K in both fields: refused alone too (the default Zetsuba holds K).
    with pytest.raises(PresetInvalid) as both:
        build_rules(HACHI, {"oba_ranks": ["10", "K"]})
    assert [(k, p["option"]) for k, p in problems(both)] == [("presets.invalid", "oba_ranks")]
    assert "a rank cannot make both" in problems(both)[0][1]["detail"]


def test_options_that_only_fail_together_are_a_conflict() -> None:
    # A valid whole is taken even when one of its options alone would clash with a default (K leaves Zetsuba).
    build_rules(HACHI, {"oba_ranks": ["10", "J", "Q", "K"], "zetsuba_ranks": ["A"]})
    # Each alone fits the defaults; together 9 is in both fields: no option alone is at fault.
    with pytest.raises(PresetInvalid) as refused:
        build_rules(HACHI, {"oba_ranks": ["9", "10"], "zetsuba_ranks": ["9", "A"]})
    [(key, params)] = problems(refused)
    assert key == "presets.conflict"
    assert "9 is in oba_ranks and zetsuba_ranks" in params["detail"]


class _Before(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    rounds: int = Field(12, ge=1, le=200)


class _After(_Before):
    short: bool = False


def test_the_fingerprint_tells_another_set_of_options() -> None:
    assert rules_schema(OICHO.rules_model) == rules_schema(OICHO.rules_model)
    assert len({rules_schema(spec.rules_model) for spec in all_games().values()}) == 4
    assert rules_schema(_Before) != rules_schema(_After)  # a new option
    assert to_data(_After()) == {"rounds": 12, "short": False}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            b"{not json",
            (
                "presets.bad_json",
                {"line": 1, "column": 2, "detail": "Expecting property name enclosed in double quotes"},
            ),
        ),
        (b"[1, 2]", ("presets.not_object", {})),
        (b"\xff\xfe{}", ("presets.not_utf8", {})),
        (document(format="something-else"), ("presets.wrong_format", {"format": FORMAT, "found": '"something-else"'})),
        (document(format=...), ("presets.wrong_format", {"format": FORMAT, "found": "null"})),
        (document(version=0), ("presets.old_version", {"version": 0, "current": VERSION})),
        (document(version=VERSION + 1), ("presets.new_version", {"version": VERSION + 1, "current": VERSION})),
        (document(version="1"), ("presets.bad_version", {"value": '"1"', "current": VERSION})),
        (
            document(game="poker"),
            ("presets.unknown_game", {"game": '"poker"', "games": "oicho, ofc, luk_fu, hachi_hachi"}),
        ),
        (document(game=...), ("presets.unknown_game", {"game": "null", "games": "oicho, ofc, luk_fu, hachi_hachi"})),
        (document(options=[1]), ("presets.expected_options", {"value": "[1]"})),
        (document(name=5), ("presets.expected_text", {"field": "name", "value": "5"})),
        (document(extra=1), ("presets.unknown_field", {"field": "extra"})),
        (b'{"format": "x", "format": "y"}', ("presets.duplicate_key", {"key": "format"})),
        (b" " * (MAX_FILE_BYTES + 1), ("presets.too_large", {"size": MAX_FILE_BYTES + 1, "limit": MAX_FILE_BYTES})),
    ],
)
def test_a_file_is_refused_with_its_reason(raw: bytes, expected: tuple[str, dict[str, Any]]) -> None:
    with pytest.raises(PresetInvalid) as refused:
        read_file(raw)
    assert problems(refused)[0] == expected


def test_a_file_may_start_with_a_byte_order_mark_and_leave_out_its_name() -> None:
    read = read_file(b"\xef\xbb\xbf" + document(options={"bank_cap": 80}))
    assert (read.game, read.name, read.rules_schema, read.options) == ("oicho", None, None, {"bank_cap": 80})


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Short game", "Short game"),
        ("  two   spaces ", "two spaces"),
        ("短いゲーム", "短いゲーム"),
        ("ｆｕｌｌ", "full"),
        ("v1.2_b-3", "v1.2_b-3"),
    ],
)
def test_names_are_tidied(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("x" * 33, "presets.name_length"),
        ("   ", "presets.name_length"),
        ("-dash", "presets.name_characters"),
        ("_under", "presets.name_characters"),
        ("a/b", "presets.name_characters"),
        ("a`b", "presets.name_characters"),
        ("<@123>", "presets.name_characters"),
    ],
)
def test_bad_names_are_refused(raw: str, key: str) -> None:
    with pytest.raises(PresetInvalid) as refused:
        clean_name(raw)
    assert refused.value.problems[0].key == key
