"""The Oicho-Kabu pages' pictures show what their words say ("In the picture: …"), under the rules they name."""

from __future__ import annotations

from typing import Any

from bot import howto
from games.core.house_rules import with_option
from games.oicho.rules import OichoRules

DEALER, BEN, CHIKA, DAI = 0, 1, 2, 3


def view(topic: str, index: int = 0, rules: OichoRules | None = None) -> Any:
    picture = howto.page("oicho", topic, index, "en", rules or OichoRules()).picture()
    assert picture is not None
    return picture.view


def test_basics_betting_in_progress() -> None:
    v = view("basics")
    assert v.phase == "betting" and v.dealer == DEALER and v.to_act == (DAI,)
    assert v.dealer_hand.cards == (None,)  # the dealer's own card, face down
    assert {s for p in v.piles for s, _ in p.bets} == {BEN, CHIKA}


def test_totals_and_tenure_show_the_settled_plain_round() -> None:
    for v in (view("totals"), view("dealer")):
        assert v.phase == "round_over"
        assert [c.month for c in v.piles[0].cards] == [3, 2, 3] and v.piles[0].hand.points == 8
        assert v.piles[1].hand.points == 2
        assert v.dealer_hand.hand.points == 7 and v.dealer_hand.hand.kind == "plain"
        assert v.tenure.rounds_held == 1 and v.tenure.net == 5


def test_betting_shows_the_cap_the_server_sets() -> None:
    for cap in (50, 80, 7):
        v = view("betting", rules=with_option(OichoRules(), "bank_cap", str(cap)))
        assert v.cap == cap and v.to_act == (DAI,)
        assert v.cap_left < cap  # Ben and Chika have bet
    big = view("betting", rules=with_option(OichoRules(), "bank_cap", "1000"))
    assert big.cap == 1000 and big.cap_used == 200  # each child can bet no more than the 100 chips he has


def test_drawing_stops_at_the_unbet_pile_left_to_dai() -> None:
    v = view("drawing")
    assert v.phase == "deciding" and v.current_pile == 4 and v.to_act == (DAI,)
    assert [len(p.cards) for p in v.piles] == [3, 3, 3, 2]
    assert v.piles[3].bets == () and v.piles[2].decider == DAI
    assert [m.month for m in (v.piles[1].cards[0], v.piles[2].cards[0])] == [7, 10]


def test_the_dealers_turn() -> None:
    v = view("drawing", 1)
    assert v.phase == "dealer" and v.to_act == (DEALER,)
    assert v.dealer_hand.cards == (None, None)


def test_arashi_beats_kuppin_at_the_servers_multipliers() -> None:
    v = view("showdown")
    assert v.piles[0].hand.kind == "arashi" and v.piles[0].outcome == "pile"
    assert v.dealer_hand.hand.kind == "kuppin" and v.piles[1].outcome == "dealer"
    rules = with_option(with_option(OichoRules(), "arashi_multiplier", "3"), "kuppin_shippin_multiplier", "2")
    tripled = view("showdown", rules=rules)
    assert (tripled.piles[0].multiplier, tripled.piles[1].multiplier) == (3, 2)
    assert tripled.last_deltas == (-10, 30, -20)  # the dealer pays Ben's Arashi 3 × 10, takes 2 × 10 from Chika


def test_payments_show_a_push_or_the_dealers_tie() -> None:
    v = view("showdown", 1)
    assert [p.outcome for p in v.piles] == ["pile", "dealer", "dealer", "push"]
    assert v.piles[3].hand.points == v.dealer_hand.hand.points == 7
    dealer_ties = view("showdown", 1, with_option(OichoRules(), "tie_goes_to_dealer", "true"))
    assert [p.outcome for p in dealer_ties.piles] == ["pile", "dealer", "dealer", "dealer"]


def test_nobori_wins_only_where_it_is_played_for_children() -> None:
    off = view("local_hands")
    assert off.piles[0].hand.kind == "plain" and off.piles[0].outcome == "dealer"
    on = with_option(OichoRules(), "local_yaku.nobori.enabled", "true")
    assert view("local_hands", rules=on).piles[0].outcome == "pile"
    dealer_only = with_option(on, "local_yaku.nobori.scope", "dealer")
    assert view("local_hands", rules=dealer_only).piles[0].outcome == "dealer"


def test_the_local_hands_page_lists_this_servers_hands() -> None:
    rules = with_option(with_option(OichoRules(), "local_yaku.gogo.enabled", "true"), "local_yaku.gogo.multiplier", "3")
    body = howto.page("oicho", "local_hands", 0, "en", rules).body
    assert "**Gogo** ゴゴ (two 5s): **on**, ×3, for everyone" in body
    assert "**Tsuru** ツル (two 2s): off" in body
    [rule, _] = howto.page("oicho", "local_hands", 0, "en", rules).house_rules
    assert rule.path == "local_yaku" and rule.group and rule.changed and rule.value == "2"
