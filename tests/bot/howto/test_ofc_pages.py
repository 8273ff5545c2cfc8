"""The OFC pages' pictures show what their words say, under the rules they name."""

from __future__ import annotations

from typing import Any

import pytest

from bot import howto
from games.core.house_rules import with_option
from games.ofc.board import Board
from games.ofc.rules import OFCRules

AKI, BEN = 0, 1


def view(topic: str, index: int = 0, rules: OFCRules | None = None) -> Any:
    picture = howto.page("ofc", topic, index, "en", rules or OFCRules()).picture()
    assert picture is not None
    return picture.view


def body(topic: str, index: int = 0, rules: OFCRules | None = None) -> str:
    return howto.page("ofc", topic, index, "en", rules or OFCRules()).body


def test_the_finished_hand_of_rules_md_ofc_1() -> None:
    v = view("basics")
    last = v.last_hand
    assert last.hand_no == 1 and last.deltas == (8, -8)
    assert Board.parse(last.boards[AKI]) == Board.parse("Qh Qs 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h")
    assert [s.royalties for s in last.scores] == [13, 6]


@pytest.mark.parametrize(
    ("variant", "pineapple", "street", "discarded"),
    [
        ("a", False, 2, 0),
        ("b", False, 2, 0),
        ("c", False, 2, 0),
        ("d", False, 2, 0),
        ("d", True, 2, 1),
    ],
)
def test_the_variants_page_deals_the_servers_variant(
    variant: str, pineapple: bool, street: int, discarded: int
) -> None:
    rules = with_option(with_option(OFCRules(), "variant", variant), "d_pineapple_streets", str(pineapple).lower())
    v = view("variants", rules=rules)
    assert v.rules.variant == variant and v.street == street and v.hand_no == 1
    assert v.awaiting == {BEN}
    assert v.boards[AKI].discarded == discarded
    placed = [c for c in v.boards[AKI].front + v.boards[AKI].middle + v.boards[AKI].back]
    assert len(placed) == 5 + (rules.streets()[1][0] - rules.streets()[1][1])
    hidden = sum(c is None for c in placed)
    assert hidden == (len(placed) - 5 if variant in ("c", "d") else 0)  # a Turbo street lies face down
    name = {"a": "one at a time", "b": "two at a time", "c": "Turbo", "d": "Turbo Pineapple"}[variant]
    assert f"This server plays **{variant}, {name}" in body("variants", rules=rules)


def test_four_players_when_the_server_starts_a_to_c_with_four_only() -> None:
    rules = with_option(OFCRules(), "allow_2_3_players", "false")
    v = view("variants", rules=rules)
    assert len(v.boards) == 4 and v.awaiting == {BEN, 2, 3}


def test_a_foul_pays_the_rows_the_scoop_and_the_royalties() -> None:
    v = view("fouls")
    assert v.boards[BEN].fouled is False  # the next hand's boards: the foul is in the last hand
    assert v.last_hand.scores[BEN].fouled and v.last_hand.deltas == (19, -19)
    assert "3 for the rows, 3 for the scoop and 13 for Aki's royalties: **19**" in body("fouls")
    one_at_a_time = with_option(OFCRules(), "variant", "a")
    assert view("fouls", rules=one_at_a_time).last_hand.deltas == (16, -16)
    assert "0 for the scoop and 13 for Aki's royalties: **16**" in body("fouls", rules=one_at_a_time)


def test_the_scoop_follows_the_scoop_bonus() -> None:
    assert view("scoring").last_hand.deltas == (11, -11)
    assert "3 + the scoop 3 + royalties 5 = **11**" in body("scoring")
    six = with_option(OFCRules(), "scoop_bonus", "6")
    assert view("scoring", rules=six).last_hand.deltas == (14, -14)
    assert "3 + the scoop 6 + royalties 5 = **14**" in body("scoring", rules=six)


def test_royalties_are_the_servers() -> None:
    rules = with_option(OFCRules(), "royalties.front.QQ", "12")
    assert "QQ 12" in body("royalties", rules=rules)
    assert view("royalties", rules=rules).last_hand.scores[AKI].royalties == 18
    assert "earn 12 + 2 + 4 = 18; Ben's rows earn 6. Between them the royalties net Aki **+12**" in body(
        "royalties", rules=rules
    )
    [table, royal] = howto.page("ofc", "royalties", 0, "en", rules).house_rules
    assert table.group and table.changed and table.value == "1" and not royal.changed


def test_fantasyland_follows_the_entry_rule_and_the_dealer_freeze() -> None:
    v = view("fantasyland")
    assert v.hand_no == 2 and v.boards[AKI].fantasyland and v.boards[AKI].fl_cards == 13 and v.dealer == BEN
    kings = with_option(OFCRules(), "fl_entry_min", "KK")
    k = view("fantasyland", rules=kings)
    assert not k.boards[AKI].fantasyland and k.dealer == AKI  # nobody in Fantasyland: the button moved on
    assert "is not enough here" in body("fantasyland", rules=kings)
    unfrozen = with_option(OFCRules(), "freeze_dealer_during_fl", "false")
    assert view("fantasyland", rules=unfrozen).dealer == AKI
    progressive = with_option(with_option(OFCRules(), "variant", "d"), "fl_cards.QQ", "15")
    assert view("fantasyland", rules=progressive).boards[AKI].fl_cards == 15
    assert "QQ 15" in body("fantasyland", rules=progressive)
