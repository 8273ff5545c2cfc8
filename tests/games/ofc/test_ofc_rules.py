"""The OFC house-rule model: every §4.9 option, defaults by variant, validation through the tooling."""

from __future__ import annotations

import pytest

from games.core.house_rules import RuleError, options, to_data, with_option, without_option
from games.ofc.rules import OFCRules
from games.ofc.spec import SPEC


def test_every_option_of_4_9_is_settable() -> None:
    paths = {o.path for o in options(OFCRules)}
    for name in (
        "variant",
        "allow_2_3_players",
        "starting_chips",
        "scoop_bonus",
        "foul_on_equal",
        "royalties.front.QQ",
        "royalties.front.AAA",
        "royalties.middle.trips",
        "royalties.back.royal_flush",
        "middle_royal",
        "fl_entry_min",
        "fl_cards.QQ",
        "fl_cards.trips",
        "fl_cards_continue",
        "fl_stay_front_trips",
        "fl_stay_middle_fh",
        "fl_stay_back_quads",
        "freeze_dealer_during_fl",
        "dealer_orbits",
        "bankruptcy_ends_game",
        "d_pineapple_streets",
    ):
        assert name in paths


@pytest.mark.parametrize(
    ("variant", "scoop", "front_trips", "middle_fh", "back_quads"),
    [("a", 0, True, True, False), ("b", 3, True, True, False), ("c", 3, True, True, True), ("d", 3, True, False, True)],
)
def test_defaults_by_variant(variant: str, scoop: int, front_trips: bool, middle_fh: bool, back_quads: bool) -> None:
    rules = with_option(OFCRules(), "variant", variant)
    assert rules.scoop() == scoop
    assert (rules.stay_front_trips(), rules.stay_middle_fh(), rules.stay_back_quads()) == (
        front_trips,
        middle_fh,
        back_quads,
    )


def test_set_and_reset_options_from_text() -> None:
    rules = with_option(OFCRules(variant="a"), "scoop_bonus", "5")
    assert rules.scoop() == 5
    assert without_option(rules, "scoop_bonus").scoop() == 0
    assert with_option(OFCRules(), "middle_royal", "30").middle_royal == 30
    assert with_option(OFCRules(), "royalties.back.quads", "12").royalties.back["quads"] == 12
    assert with_option(OFCRules(), "fl_cards.AA", "16").fl_cards["AA"] == 16
    assert with_option(OFCRules(), "fl_stay_back_quads", "off").stay_back_quads() is False
    assert OFCRules.model_validate(to_data(rules)) == rules


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("scoop_bonus", "7"),
        ("middle_royal", "40"),
        ("fl_cards.KK", "18"),
        ("fl_cards_continue", "12"),
        ("royalties.front.AA", "-1"),
        ("variant", "e"),
        ("dealer_orbits", "0"),
    ],
)
def test_bad_values_are_refused(path: str, value: str) -> None:
    with pytest.raises(RuleError):
        with_option(OFCRules(), path, value)


def test_seat_ranges() -> None:
    assert SPEC.seat_range(OFCRules()) == (2, 4)
    assert SPEC.seat_range(OFCRules(allow_2_3_players=False)) == (4, 4)
    assert SPEC.seat_range(OFCRules(variant="d")) == (2, 3)
    assert SPEC.starting_chips(OFCRules()) == 100


def test_streets_by_variant() -> None:
    assert OFCRules(variant="a").streets() == ((5, 0),) + ((1, 0),) * 8
    assert OFCRules(variant="b").streets() == ((5, 0),) + ((2, 0),) * 4
    assert OFCRules(variant="c").streets() == ((5, 0), (4, 0), (4, 0))
    assert OFCRules(variant="d").streets() == ((5, 0), (4, 0), (4, 0))
    assert OFCRules(variant="c", d_pineapple_streets=True).streets() == ((5, 0), (4, 0), (4, 0))
