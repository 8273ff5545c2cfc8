from __future__ import annotations

import pytest
from pydantic import ValidationError

from games.core.house_rules import RuleError, find_option, options, with_option
from games.oicho.rules import YAKU_KEYS, OichoRules


def test_defaults_match_rules_md() -> None:
    r = OichoRules()
    assert (r.starting_chips, r.bank_cap, r.dealer_rounds, r.dealer_cycles) == (100, 50, 3, 1)
    assert not r.use_months_11_12 and not r.maki_fuda and not r.tie_goes_to_dealer
    assert r.first_extra_visibility == "all_children"
    assert (r.kuppin_shippin_multiplier, r.arashi_multiplier) == (1, 1)
    assert r.yaku_may_stand and r.dealer_bust_ends_tenure and r.dealer_may_resign
    assert all(not r.yaku(k).enabled and r.yaku(k).multiplier == 1 and r.yaku(k).scope == "both" for k in YAKU_KEYS)


def test_yaku_keys_in_table_order() -> None:
    assert YAKU_KEYS == ("gogo", "tsuru", "toichi", "nobori", "kudari", "hifumi", "shichigosan", "doshippin")


def test_strict_order_only_on_three_yaku() -> None:
    paths = {o.path for o in options(OichoRules)}
    strict = {p.split(".")[1] for p in paths if p.endswith(".strict_order")}
    assert strict == {"hifumi", "shichigosan", "doshippin"}


def test_house_rules_round_trip() -> None:
    r = with_option(OichoRules(), "local_yaku.nobori.multiplier", "3")
    assert r.yaku("nobori").multiplier == 3
    r = with_option(r, "first_extra_visibility", "pile_bettors")
    assert r.first_extra_visibility == "pile_bettors"
    assert find_option(OichoRules, "arashi_multiplier").hi == 5
    with pytest.raises(RuleError) as info:
        with_option(OichoRules(), "arashi_multiplier", "6")
    assert info.value.code == "rules.out_of_range"
    with pytest.raises(RuleError):
        with_option(OichoRules(), "local_yaku.gogo.scope", "everyone")


def test_frozen_and_validated() -> None:
    with pytest.raises(ValidationError):
        OichoRules(bank_cap=0)
    with pytest.raises(ValidationError):
        OichoRules.model_validate({"local_yaku": {"gogo": {"strict_order": True}}})
    r = OichoRules()
    with pytest.raises(ValidationError):
        r.bank_cap = 10  # type: ignore[misc]
