"""The Luk Fu pages' pictures show what their words say, under the rules they name."""

from __future__ import annotations

from typing import Any

from bot import howto
from games.core.cards import LukFuCard, parse_lukfu
from games.core.house_rules import with_option
from games.luk_fu.rules import LukFuRules

AKI, BEN, CHIKA, DAI = 0, 1, 2, 3


def view(topic: str, index: int = 0, rules: LukFuRules | None = None) -> Any:
    picture = howto.page("luk_fu", topic, index, "en", rules or LukFuRules()).picture()
    assert picture is not None
    return picture.view


def cards(text: str) -> tuple[LukFuCard, ...]:
    return tuple(parse_lukfu(text))


def test_play_goes_counter_clockwise_from_the_parent() -> None:
    v = view("call")
    assert v.dealer == v.parent == AKI and v.active == (AKI, CHIKA, BEN)
    assert v.phase == "call" and v.calls == ((AKI, False),) and v.to_act == (CHIKA,)


def test_a_run_is_led_and_beaten_in_a_higher_suit() -> None:
    lead = view("leads")
    assert lead.trick.kind == "run" and lead.trick.size == 3 and lead.declarer == AKI
    assert lead.trick.plays[0].cards == cards("1S 2S 3S")
    for v in (view("basics"), view("must_beat")):
        [_led, beat] = v.trick.plays
        assert beat.seat == CHIKA and beat.cards == cards("4M 5M 6M") and beat.winning
        assert v.to_act == (BEN,)


def test_a_triple_beaten_by_a_higher_triple() -> None:
    v = view("must_beat", 1)
    t = v.last_trick
    assert t.kind == "triple" and t.winner == BEN and v.to_act == (BEN,)
    assert [(p.seat, p.face_down) for p in t.plays] == [(CHIKA, False), (BEN, False), (AKI, True)]
    assert t.plays[1].cards == cards("5C 5S 5T")


def test_the_restricted_lead_of_3t() -> None:
    for value in ("true", "false"):
        v = view("old_cards", rules=with_option(LukFuRules(), "single_lead_highest_suit", value))
        assert v.parent == AKI and v.parent_passed and v.declarer == CHIKA
        assert v.trick.kind == "single" and v.trick.plays[0].cards == cards("3T")
        assert v.trick.plays[1].cards == cards("7T") and v.to_act == (BEN,)


def test_six_tricks_stop_or_continue() -> None:
    v = view("six_tricks")
    assert v.phase == "stop" and v.stop_seat == CHIKA and v.tricks[CHIKA] == 6


def test_the_played_out_hand_and_its_payments_follow_the_scoring_rules() -> None:
    v = view("pack")
    assert v.last_detail.winner == CHIKA and v.last_detail.tricks[CHIKA] == 6
    assert set(v.last_detail.winning_cards[CHIKA]) == {"4M", "5M", "6M", "7T", "8T", "9T"}
    assert view("scoring").last_deltas == (-2, 0, 2)  # Aki, the losing declarer, pays double
    reds = with_option(LukFuRules(), "red_bonus", "true")
    assert view("scoring", rules=reds).last_deltas == (-6, 0, 6)  # share 1 + the red 8T and 9T
    single = with_option(LukFuRules(), "declarer_pays_double", "false")
    assert view("scoring", rules=single).last_deltas == (-1, -1, 2)
    body = howto.page("luk_fu", "scoring", 0, "en", reds).body
    assert "a share of **3**. Aki, the declarer, paid **6** and Ben **0**" in body


def test_five_tigers_at_the_lead_after_the_call_or_not_at_all() -> None:
    at_lead = view("five_tigers")
    assert at_lead.last_detail.ended_by == "five_tigers" and at_lead.last_detail.winner == AKI
    assert at_lead.last_detail.five_tigers.credit == 6
    after_call = with_option(with_option(LukFuRules(), "five_tigers_timing", "after_call"), "five_tigers_tricks", "8")
    later = view("five_tigers", rules=after_call)
    assert later.last_detail.ended_by == "five_tigers" and later.last_detail.five_tigers.credit == 8
    off = view("five_tigers", rules=with_option(LukFuRules(), "five_tigers_enabled", "false"))
    assert off.phase == "lead" and off.to_act == (AKI,) and off.last_result is None
    body = howto.page("luk_fu", "five_tigers", 0, "en", with_option(LukFuRules(), "five_tigers_enabled", "false")).body
    assert "this server does not play Five Tigers" in body


def test_four_players_one_sits_out_as_the_layout_says() -> None:
    v = view("dealing")
    assert v.seats == 4 and v.dealer == AKI and v.sitter == AKI and v.parent == CHIKA
    opposite = with_option(LukFuRules(), "four_player_layout", "opposite_sits_out")
    o = view("dealing", rules=opposite)
    assert o.sitter == CHIKA and o.parent == AKI
    assert (
        "Chika sits out with one hidden card, and Aki, the parent"
        in howto.page("luk_fu", "dealing", 0, "en", opposite).body
    )
