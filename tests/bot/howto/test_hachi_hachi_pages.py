"""The Hachi-Hachi Trick pages' pictures show what their words say, under the rules they name."""

from __future__ import annotations

from typing import Any

from bot import howto
from games.core.house_rules import with_option
from games.core.rule_tables import with_row
from games.hachi_hachi.rules import HachiHachiRules

AKI, BEN, CHIKA, DAI, EMI, FUMI = range(6)


def view(topic: str, index: int = 0, rules: HachiHachiRules | None = None) -> Any:
    picture = howto.page("hachi_hachi", topic, index, "en", rules or HachiHachiRules()).picture()
    assert picture is not None
    return picture.view


def body(topic: str, index: int = 0, rules: HachiHachiRules | None = None) -> str:
    return howto.page("hachi_hachi", topic, index, "en", rules or HachiHachiRules()).body


def test_declarations_in_progress() -> None:
    v = view("basics")
    assert v.sp == AKI and v.phase == "declare" and v.to_act == (DAI,)
    assert v.declarations == ((AKI, "fold"), (BEN, "play"), (CHIKA, "fold"))


def test_the_field_of_a_king_is_the_servers() -> None:
    v = view("field")
    assert v.indicator.notation == "Kh" and v.trump == "h" and (v.field, v.mult) == ("zetsuba", 4)
    assert "a King makes Zetsuba 絶場 here, M = **4**" in body("field")
    oba = with_option(with_option(HachiHachiRules(), "zetsuba_ranks", "A"), "oba_ranks", "10,J,Q,K")
    assert (view("field", rules=oba).field, view("field", rules=oba).mult) == ("oba", 2)
    assert "a King makes Ōba 大場 here, M = **2**" in body("field", rules=oba)


def test_fold_fees_and_the_forced_out_follow_the_declaration_rules() -> None:
    v = view("declare")
    assert v.fees[BEN] == 8 and v.declarers == (AKI, CHIKA, DAI) and v.forced_out == (EMI, FUMI)
    two = with_option(HachiHachiRules(), "max_declarers", "2")
    assert view("declare", rules=two).forced_out == (DAI, EMI, FUMI)
    assert "Aki played, Ben folded and paid 8, Chika played; Dai, Emi, Fumi were forced out" in body(
        "declare", rules=two
    )
    cheap = with_option(HachiHachiRules(), "mult_applies_to_fold_fees", "false")
    assert view("declare", rules=cheap).fees[BEN] == 2


def test_the_forced_out_hand_is_paid_by_each_declarer() -> None:
    [emi] = [r for r in view("declare", 1).reveals if r.seat == EMI]
    assert emi.role == "forced_out" and emi.aces == 2 and emi.forced_out == 4
    assert "each declarer pays Emi **16**: 48 in all" in body("declare", 1)
    rich = with_option(HachiHachiRules(), "forced_out_ace_value", "3")
    assert "worth **8**" in body("declare", 1, rich) and "pays Emi **32**: 96 in all" in body("declare", 1, rich)


def test_the_hand_table_page_is_this_servers_table() -> None:
    assert "  4   2  Karasu 空素 (seven pips)" in body("hands")
    changed = with_row(HachiHachiRules(), "yaku_table.karasu", "on 9 5")
    assert "  9   5  Karasu 空素 (seven pips)" in body("hands", rules=changed)
    [rule] = howto.page("hachi_hachi", "hands", 0, "en", changed).house_rules
    assert rule.path == "yaku_table" and rule.group and rule.changed


def test_declarers_settle_their_hands_by_the_table() -> None:
    v = view("hands", 1)
    assert [(r.seat, r.normal) for r in v.reveals] == [(AKI, 7), (BEN, 0), (CHIKA, 4)]
    assert (v.field, v.mult) == ("oba", 2)
    assert "• Ben pays Aki **14**\n• Ben pays Chika **8**\n• Chika pays Aki **6**" in body("hands", 1)
    richer = with_row(HachiHachiRules(), "yaku_table.haneken", "on 10 4")
    assert "Aki's hand is worth 10" in body("hands", 1, richer) and "Ben pays Aki **20**" in body("hands", 1, richer)


def test_two_declarers_choose_or_go_straight_to_the_tricks() -> None:
    v = view("split_or_fight")
    assert v.phase == "choose" and v.choosing == (BEN, DAI) and v.pot == 5
    no_split = with_option(HachiHachiRules(), "two_player_split_allowed", "false")
    assert view("split_or_fight", rules=no_split).phase == "trick"


def test_a_trick_in_play_in_either_direction() -> None:
    v = view("tricks")
    assert v.trick.leader == AKI and [p.card.notation for p in v.trick.plays] == ["3d"] and v.tricks[AKI] == 2
    assert v.to_act == (CHIKA,)
    ccw = view("tricks", rules=with_option(HachiHachiRules(), "trick_direction", "counterclockwise"))
    assert ccw.trick_order == (AKI, DAI, CHIKA) and ccw.to_act == (DAI,)


def test_the_round_settles_and_the_pot_taker_starts_the_next() -> None:
    v = view("tricks", 1)
    assert v.last_deltas == (-2, -2, -3, 9, -2) and v.sp == DAI
    assert "the tricks paid Dai +10, Ben -8, Emi -2. Dai took the pot of 5" in body("tricks", 1)
    tripled = with_option(HachiHachiRules(), "trick_rate", "3")
    assert "the tricks paid Dai +15, Ben -12, Emi -3" in body("tricks", 1, tripled)


def test_mizuten_paid_unpaid_or_not_played() -> None:
    v = view("mizuten")
    assert v.last_result["mizuten"] and v.last_result["mizuten_paid"]
    assert v.last_deltas == (9, -3, -3, -3)
    four = with_option(HachiHachiRules(), "mizuten_min_tricks", "4")
    assert not view("mizuten", rules=four).last_result["mizuten_paid"]
    assert "fewer than the 4 needed here: no bonus" in body("mizuten", rules=four)
    off = with_option(HachiHachiRules(), "mizuten_enabled", "false")
    assert not view("mizuten", rules=off).last_result["mizuten"]
    assert "This server does not play it" in body("mizuten", rules=off)
