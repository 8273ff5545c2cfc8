"""Each house rule of rules.md §2.11 with a stacked deal that shows what it changes.

(The options already shown by the worked examples are tested there: ``ones_set_rank`` LF-3, ``old_card_mode``
LF-6/LF-7, ``dealer_repeats_on_win`` LF-8a, ``declarer_pays_double`` LF-8b, ``big_hand_multiplier`` LF-8c/d,
``red_bonus`` LF-8e, ``parent_pass_penalty`` LF-8f, ``stay_if_parent_declared_and_no_winner`` LF-8g,
``five_tigers_timing``/``five_tigers_tricks`` LF-8i/j/k, ``four_player_layout`` and ``dealer_bonus`` LF-9.)
"""

from __future__ import annotations

from typing import Any

import pytest
from lukfu_kit import A, B, C, act, deltas, only, play, summary, table, texts, trick

from games.core.errors import IllegalAction
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.rules import LukFuRules
from games.luk_fu.spec import SPEC

# ------------------------------------------------------------------ parent_pass_first_lead_max3

LIMIT = {A: "5C 5S 5M 5T 2S 3S 4S 6S 9T 1M 2M 8C"}


def test_first_lead_limit_blocks_four_card_leads_of_a_parent_who_passed() -> None:
    e = table(LIMIT)
    play(e, (A, "pass"), (B, "play"))
    leads = texts(e, A)
    assert "lead 5C 5S 5M" in leads and "lead 2S 3S 4S" in leads
    assert "lead 5C 5S 5M 5T" not in leads and "lead 2S 3S 4S 5S" not in leads
    assert e.public_view().first_lead_limited
    with pytest.raises(IllegalAction) as info:
        act(e, A, "lead 5C 5S 5M 5T")
    assert info.value.code == "luk_fu.first_lead_limit" and info.value.params["max"] == 3
    # Later leads are not limited.
    assert trick(e, "5C 5M 5T", "*", "*") == A
    assert "lead 2S 3S 4S 5S 6S" in texts(e, A)


@pytest.mark.parametrize(("options", "parent_calls"), [({"parent_pass_first_lead_max3": False}, "pass"), ({}, "play")])
def test_first_lead_limit_off_or_parent_declared(options: dict[str, Any], parent_calls: str) -> None:
    e = table(LIMIT, **options)
    act(e, A, parent_calls)
    if parent_calls == "pass":
        act(e, B, "play")
    assert "lead 5C 5S 5M 5T" in texts(e, A) and "lead 2S 3S 4S 5S 6S" in texts(e, A)
    assert not e.public_view().first_lead_limited


# ------------------------------------------------------------------ Five Tigers options

TIGERS = {A: "1C 1S 1M 1T LT 2C 3C 4C 5S 6S 7S 8M"}


def test_five_tigers_disabled() -> None:
    e = table(TIGERS, five_tigers_enabled=False)
    play(e, (A, "play"))
    assert "tigers" not in texts(e, A)
    with pytest.raises(IllegalAction) as info:
        act(e, A, "tigers")
    assert info.value.code == "luk_fu.five_tigers_off"


def test_tigers_refused_without_the_five() -> None:
    e = table({B: TIGERS[A]})
    play(e, (A, "play"))
    with pytest.raises(IllegalAction) as info:
        act(e, A, "tigers")
    assert info.value.code == "luk_fu.no_five_tigers"


def test_after_call_reveal_is_once_only() -> None:
    e = table(TIGERS, five_tigers_timing="after_call")
    play(e, (A, "play"), (A, "keep"), (B, "keep"), (C, "keep"))
    assert e.phase == "lead" and "tigers" not in texts(e, A)
    with pytest.raises(IllegalAction) as info:
        act(e, A, "tigers")
    assert info.value.code == "luk_fu.five_tigers_timing"


def test_five_tigers_lead() -> None:
    e = table(TIGERS, five_tigers_lead=True)
    play(e, (A, "pass"), (B, "play"))
    # The first-lead limit does not block it, and the reveal stays available too.
    assert "lead 1C 1S 1M 1T LT" in texts(e, A) and "tigers" in texts(e, A)
    act(e, A, "lead 1C 1S 1M 1T LT")
    assert e.public_view().trick is not None and e.public_view().trick.unbeatable  # type: ignore[union-attr]
    assert only(e) == B and all(t.startswith("discard") and len(t.split()) == 6 for t in texts(e, B))
    assert len(texts(e, B)) == 792  # any 5 of 12 cards
    for _ in range(2):
        seat = only(e)
        act(e, seat, texts(e, seat)[0])
    assert e.tricks[A] == 5 and only(e) == A


def test_five_tigers_lead_off_by_default() -> None:
    e = table(TIGERS)
    play(e, (A, "play"))
    assert "lead 1C 1S 1M 1T LT" not in texts(e, A)
    with pytest.raises(IllegalAction) as info:
        act(e, A, "lead 1C 1S 1M 1T LT")
    assert info.value.code == "luk_fu.five_tigers_lead_off"


# ------------------------------------------------------------------ red_scope

RED = {A: "9T 9M 8M 7M 6M 5M 4M 1C 2C 3C 2S 3S", B: "9C 9S", C: "8T 1T LT"}


@pytest.mark.parametrize(
    ("scope", "reds", "expected"), [("own_winning_cards", 3, (12, -6, -6)), ("all_captured", 8, (22, -11, -11))]
)
def test_red_scope(scope: str, reds: int, expected: tuple[int, int, int]) -> None:
    e = table(RED, red_bonus=True, red_scope=scope)
    play(e, (A, "play"))
    # B and C throw their red cards into A's tricks face down.
    throw = {B: ["9C", "9S"], C: ["8T", "1T", "LT"]}
    for card in ["9T", "9M", "8M", "7M", "6M", "5M", "4M", "1C"]:
        act(e, A, f"lead {card}")
        for _ in range(2):
            seat = only(e)
            act(e, seat, f"discard {throw[seat].pop(0)}" if throw[seat] else texts(e, seat)[-1])
        if e.phase == "stop":
            act(e, A, "stop" if e.tricks[A] == 8 else "continue")
    assert summary(e)["share"]["reds"] == reds
    assert ("red_cards" in summary(e)["share"]) == (scope == "own_winning_cards")
    assert deltas(e) == expected


# ------------------------------------------------------------------ single-lead restriction options

LF5 = {A: "9T 8T 3T 5M 6M 2S 1S 2C 4C 6C 7C LT"}


def test_declarer_exemption_off() -> None:
    e = table(LF5, old_lead_exempt_declarer=False)
    play(e, (A, "play"))
    assert texts(e, A) == ["lead 3T"] and e.view(A).lead_exempt is None


def test_highest_suit_rule_off() -> None:
    e = table(LF5, single_lead_highest_suit=False)
    play(e, (A, "pass"), (B, "play"))
    assert sorted(texts(e, A)) == sorted(f"lead {c}" for c in ["3T", "5M", "6M", "2S", "1S", "2C", "4C", "6C", "7C"])
    assert e.view(A).lead_suit is None


ALL_OLD = {A: "9T 9M 1C LT 8C 8S 8T 2S 3S 4S 5S 6S", B: "1M 3M 5M 7M 2T 4T 6T", C: "2M 4M 6M 8M 1T 3T 5T 7T"}


def all_old(**options: Any) -> LukFuEngine:
    """A passes; leads 8C 8S 8T and 2S-6S, continues at 8, and holds only old cards: 9T 9M 1C LT."""
    e = table(ALL_OLD, **options)
    play(e, (A, "pass"), (B, "play"))
    assert trick(e, "8C 8S 8T", "*", "*") == A
    assert trick(e, "2S 3S 4S 5S 6S", "*", "*") == A
    act(e, A, "continue")
    assert {c.notation for c in e.old_cards(A)} == {"9T", "9M", "1C", "LT"}
    return e


def test_only_old_left_exemption() -> None:
    e = all_old()
    assert sorted(texts(e, A)) == ["lead 1C", "lead 9M", "lead 9T", "lead LT"]
    assert e.view(A).lead_exempt == "only_old"


def test_only_old_left_exemption_off_falls_back_to_any_single() -> None:
    e = all_old(old_lead_exempt_only_old_left=False)
    assert e.single_options(A).allowed == ()
    assert sorted(texts(e, A)) == ["lead 1C", "lead 9M", "lead 9T", "lead LT"]
    assert e.view(A).lead_exempt == "no_legal_lead" and e.view(A).forbidden_singles == ()


# ------------------------------------------------------------------ game length, busts, seats


def test_all_pass_deal_counts_and_moves_the_deal() -> None:
    e = table({}, hands_total=2)
    play(e, (A, "pass"), (B, "pass"), (C, "pass"))
    assert deltas(e) == (0, 0, 0) and summary(e)["ended_by"] == "all_passed"
    assert e.deal_no == 2 and e.dealer == B and e.parent == B and only(e) == B
    play(e, (B, "pass"), (C, "pass"), (A, "pass"))
    assert e.is_over and len(e.results) == 2
    assert e.public_view().winners == (0, 1, 2)  # equal stacks share first place


def test_hands_total_one() -> None:
    e = table({A: "9C 9S 9M 8C 8S 8M 2C 4C 2S 4S 2M 4M"}, hands_total=1)
    play(e, (A, "play"))
    trick(e, "9C 9S 9M", "*", "*")
    trick(e, "8C 8S 8M", "*", "*")
    act(e, A, "stop")
    assert e.is_over and e.phase == "over" and e.winners == [A]
    assert e.stacks == [102, 99, 99]


# Four seats: D = 0 deals and sits out, A = 2 is the parent, B = 1 declares, C = 3 has 1 chip left.
D4, A4, B4, C4 = 0, 2, 1, 3
BUST = {A4: "9C 9S 9M 7C 7S 7T 1C 2C 1S 2S 1M 3M"}


def bust_table(**options: Any) -> LukFuEngine:
    e = table(BUST, seats=4, extra="7M", stacks=[100, 100, 100, 1], players=4, declarer_pays_double=False, **options)
    play(e, (A4, "pass"), (B4, "play"))
    trick(e, "9C 9S 9M", "*", "*")
    trick(e, "7C 7S 7T", "*", "*")
    act(e, A4, "stop")
    # A's share and the sitter bonus: B pays 1 + 1; C owes 1 + 1 but has 1 chip, which goes to A (§0.4: the
    # rounding chip goes to the first creditor from the dealer's left).
    assert summary(e)["owed"] == [2, -2, 2, -2]
    assert deltas(e) == (1, -2, 2, -1)
    return e


def test_a_bust_at_four_seats_switches_to_three_player_rules() -> None:
    e = bust_table()
    # The deal would pass to D's right (seat 3), who is out: it goes on to seat 2, now dealer and parent.
    assert not e.is_over and e.stacks[C4] == 0
    assert (e.dealer, e.parent, e.sitter, e.active) == (A4, A4, None, [A4, B4, D4])
    assert e.public_view().dead_card and e.public_view().hand_sizes == (12, 12, 12, 0)
    assert e.legal_actions(C4) == [] and not e.view(C4).playing


def test_bust_ends_game() -> None:
    e = bust_table(bust_ends_game=True)
    assert e.is_over and e.winners == [A4]


def test_a_bust_at_three_seats_ends_the_game() -> None:
    e = table({A: "9C 9S 9M 8C 8S 8M 2C 4C 2S 4S 2M 4M"}, stacks=[100, 100, 2])
    play(e, (A, "pass"), (B, "play"))
    trick(e, "9C 9S 9M", "*", "*")
    trick(e, "8C 8S 8M", "*", "*")
    act(e, A, "stop")
    assert deltas(e) == (2, 0, -2) and e.is_over


def test_seat_counts() -> None:
    assert SPEC.seat_range(LukFuRules()) == (3, 3)
    assert SPEC.seat_range(LukFuRules(players=4)) == (3, 4)
    assert SPEC.starting_chips(LukFuRules(starting_chips=250)) == 250
    with pytest.raises(ValueError, match="3 to 3"):
        table({}, seats=4)
    # A 4-seat table with a seat already at 0 plays the 3-player rules from the first deal.
    e = table({}, seats=4, stacks=[100, 0, 100, 100], players=4)
    assert e.sitter is None and len(e.active) == 3 and 1 not in e.active
