"""rules.md §2.12 worked examples LF-1 … LF-10 (every line of LF-8), played through ``apply`` with stacked decks.

Three players unless stated: A (seat 0) deals and is the parent, B (seat 2) is A's right, C (seat 1) B's right.
"""

from __future__ import annotations

from typing import Any

import pytest
from lukfu_kit import A, B, C, act, deltas, low_discard, only, play, table, texts, trick

from games.core.errors import IllegalAction
from games.luk_fu.engine import LukFuEngine

# ------------------------------------------------------------------ LF-1


def test_lf1_single_lead_must_beat() -> None:
    e = table({A: "5S 1S 3S 4S", B: "2S 7S 8S", C: "6S 9S"})
    play(e, (A, "play"), (A, "lead 5S"))
    assert texts(e, B) == ["follow 7S", "follow 8S"]
    act(e, B, "follow 7S")
    assert texts(e, C) == ["follow 9S"]
    act(e, C, "follow 9S")
    assert e.tricks[C] == 1 and e.phase == "lead" and only(e) == C


# ------------------------------------------------------------------ LF-2


def test_lf2_run_beaten_by_a_higher_suit() -> None:
    e = table(
        {
            A: "3S 4S 5S 1C 2C 4C 5C 7C 8C 1S 2S 9S",
            B: "6S 7S 8S 3C 6C 9C 1M 5M 7M 9M 2T 4T",
            C: "2M 3M 4M 6M 8M 1T 3T 5T 6T 8T 9T LT",
        },
        extra="7T",
    )
    play(e, (A, "play"))
    assert "lead 3S 4S 5S" in texts(e, A)
    act(e, A, "lead 3S 4S 5S")
    assert texts(e, B) == ["follow 6S 7S 8S"]
    act(e, B, "follow 6S 7S 8S")
    assert texts(e, C) == ["follow 2M 3M 4M"]
    act(e, C, "follow 2M 3M 4M")
    assert e.tricks[C] == 3 and only(e) == C


# ------------------------------------------------------------------ LF-3

LF3A = {A: "1C 1S 1M 2C 3C", B: "8S 8M 8T", C: "9C 9S 9T"}


@pytest.mark.parametrize("ones", ["led_only", "high"])
def test_lf3_led_ones_fall_only_to_nines(ones: str) -> None:
    e = table(LF3A, extra="9M", ones_set_rank=ones)
    play(e, (A, "play"), (A, "lead 1C 1S 1M"))
    assert e.beating(B) == ()
    assert all(t.startswith("discard") for t in texts(e, B))
    act(e, B, "discard 8S 8M 8T")
    assert texts(e, C) == ["follow 9C 9S 9T"]
    act(e, C, "follow 9C 9S 9T")
    assert e.tricks[C] == 3


LF3B = {A: "5C 5S 5T 2C 3S", B: "1C 1S 1M 2S 3C 4M 6T", C: "7S 7M 7T"}


def test_lf3_following_with_ones_led_only() -> None:
    e = table(LF3B)
    play(e, (A, "play"), (A, "lead 5C 5S 5T"))
    assert all(t.startswith("discard") for t in texts(e, B))
    act(e, B, low_discard(e, B, keep="1C 1S 1M"))
    assert texts(e, C) == ["follow 7S 7M 7T"]
    act(e, C, "follow 7S 7M 7T")
    assert e.tricks[C] == 3


def test_lf3_following_with_ones_high() -> None:
    e = table(LF3B, ones_set_rank="high")
    play(e, (A, "play"), (A, "lead 5C 5S 5T"))
    assert texts(e, B) == ["follow 1C 1S 1M"]
    act(e, B, "follow 1C 1S 1M")
    assert e.beating(C) == ()
    act(e, C, "discard 7S 7M 7T")
    assert e.tricks[B] == 3


# ------------------------------------------------------------------ LF-4


def test_lf4_unbeatable_single() -> None:
    e = table({A: "1T 2C", B: "9T 8T", C: "7T 6T"})
    play(e, (A, "play"), (A, "lead 1T"))
    assert e.beating(B) == () and all(t.startswith("discard") for t in texts(e, B))
    trick_winner = trick_rest(e)
    assert trick_winner == A and e.tricks[A] == 1


def trick_rest(e: LukFuEngine) -> int:
    while e.phase == "follow":
        seat = only(e)
        act(e, seat, low_discard(e, seat))
    assert e.last_trick is not None
    return e.last_trick[3]


# ------------------------------------------------------------------ LF-5

LF5 = {A: "9T 8T 3T 5M 6M 2S 1S 2C 4C 6C 7C LT"}


def test_lf5_lead_restriction_at_the_start() -> None:
    e = table(LF5)
    play(e, (A, "pass"), (B, "play"))
    assert {c.notation for c in e.old_cards(A)} == {"9T", "8T", "LT"}
    assert texts(e, A) == ["lead 3T"]
    view = e.view(A)
    assert view.lead_exempt is None and view.lead_suit == "T"
    reasons = {c.notation: r for c, r in view.forbidden_singles}
    assert reasons["9T"] == reasons["8T"] == reasons["LT"] == "old"
    assert reasons["5M"] == reasons["2C"] == "wrong_suit" and "3T" not in reasons
    with pytest.raises(IllegalAction) as info:
        act(e, A, "lead 9T")
    assert info.value.code == "luk_fu.old_card"
    with pytest.raises(IllegalAction) as info:
        act(e, A, "lead 5M")
    assert info.value.code == "luk_fu.wrong_suit" and info.value.params["suit"] == "T"


def test_lf5_the_declarer_may_lead_any_card() -> None:
    e = table(LF5)
    play(e, (A, "play"))
    assert sorted(texts(e, A)) == sorted(f"lead {c}" for c in LF5[A].split())
    assert e.view(A).lead_exempt == "declarer"


# ------------------------------------------------------------------ LF-6

LF6 = {
    A: "2T 9S 9M 7S 1S 1C 2C 3C 4C 6C 7C 8C",
    B: "3T 4T 5T 6T 7T 8T 9T 5C 5M 8S 8M 1M",
}


def lf6(mode: str) -> LukFuEngine:
    """A discards 9S face down, B plays 8S face up, then A wins a trick and leads holding 7S."""
    e = table(LF6, extra="LT", old_card_mode=mode)
    play(e, (A, "pass"), (B, "play"))
    assert trick(e, "2T", "follow 3T", "discard 2S") == B
    assert trick(e, "5C 5M 5T", "discard 3S 4S 5S", "discard 9S 8C 7C") == B
    assert trick(e, "8S", "discard 2M", "discard 6C") == B
    assert trick(e, "8M", "discard 3M", "follow 9M") == A
    assert only(e) == A and {c.notation for c in e.hands[A]} == {"7S", "1S", "1C", "2C", "3C", "4C"}
    return e


def test_lf6_knowledge_mode_makes_7s_old() -> None:
    e = lf6("knowledge")
    assert "7S" in {c.notation for c in e.old_cards(A)}
    assert "lead 7S" not in texts(e, A) and "lead 1S" in texts(e, A)
    with pytest.raises(IllegalAction) as info:
        act(e, A, "lead 7S")
    assert info.value.code == "luk_fu.old_card"


def test_lf6_public_sequence_mode_lets_7s_be_led() -> None:
    e = lf6("public_sequence")
    assert "7S" not in {c.notation for c in e.old_cards(A)}
    assert "lead 7S" in texts(e, A)
    act(e, A, "lead 7S")
    assert e.phase == "follow"


# ------------------------------------------------------------------ LF-7

LF7 = {A: "8C 8S 8T 9T 6M 5M 1C 2C 3C 4S 5S 6S", B: "7M", C: "8M"}


def lf7(mode: str) -> LukFuEngine:
    """B and C shed 7M and 8M face down; then A leads 6M and both play face down (9M is the dead card)."""
    e = table(LF7, extra="9M", old_card_mode=mode)
    play(e, (A, "pass"), (B, "play"))
    assert trick(e, "8C 8S 8T", "@7M", "@8M") == A
    assert "lead 6M" in texts(e, A)
    assert trick(e, "6M", "*", "*") == A
    assert e.caps[B][2] == 6 and e.caps[C][2] == 6  # neither can hold 7M, 8M or 9M
    return e


def test_lf7_knowledge_infers_5m_is_old() -> None:
    e = lf7("knowledge")
    assert "5M" in {c.notation for c in e.old_cards(A)}
    assert "lead 5M" not in texts(e, A)
    with pytest.raises(IllegalAction) as info:
        act(e, A, "lead 5M")
    assert info.value.code == "luk_fu.old_card"


def test_lf7_public_sequence_lets_5m_be_led() -> None:
    e = lf7("public_sequence")
    assert "5M" not in {c.notation for c in e.old_cards(A)}
    assert texts(e, A)[0] == "lead 5M"


# ------------------------------------------------------------------ LF-8


def singles(e: LukFuEngine, cards: str, *, keep: dict[int, str] | None = None, stop_at: int | None = None) -> None:
    """The leader leads each card singly and the others discard; at 6+ tricks it continues until ``stop_at``."""
    for card in cards.split():
        leader = only(e)
        trick(e, card, "*", "*", keep=keep)
        if e.phase == "stop":
            act(e, leader, "stop" if e.tricks[leader] == stop_at else "continue")


def test_lf8a_declarer_wins_seven() -> None:
    e = table({A: "9T 8T 7T 9M 8M 9S 9C 2C 3C 2S 3S 2M"})
    play(e, (A, "play"))
    singles(e, "9T 8T 7T 9M 8M 9S 9C", stop_at=7)
    assert e.results[-1].summary["share"]["share"] == 2
    assert deltas(e) == (4, -2, -2)
    assert e.dealer == A  # a dealer who won deals again


def test_lf8a_dealer_repeats_off() -> None:
    e = table({A: "9T 8T 7T 9M 8M 9S 9C 2C 3C 2S 3S 2M"}, dealer_repeats_on_win=False)
    play(e, (A, "play"))
    singles(e, "9T 8T 7T 9M 8M 9S 9C", stop_at=7)
    assert deltas(e) == (4, -2, -2) and e.dealer == B


LF8B = {A: "9C 9S 9M 8C 8S 8M 2C 4C 2S 4S 2M 4M"}


@pytest.mark.parametrize(("double", "expected"), [(True, (2, 0, -2)), (False, (2, -1, -1))])
def test_lf8b_declarer_pays_double(double: bool, expected: tuple[int, int, int]) -> None:
    e = table(LF8B, declarer_pays_double=double)
    play(e, (A, "pass"), (B, "play"))
    trick(e, "9C 9S 9M", "*", "*")
    trick(e, "8C 8S 8M", "*", "*")
    act(e, A, "stop")
    assert deltas(e) == expected  # seats 0 A, 1 C, 2 B


LF8C = "2T 3T 4T 5T 6T 7T 8T 9T 1T 1C LT"


@pytest.mark.parametrize(("big", "expected"), [(True, (24, -12, -12)), (False, (12, -6, -6))])
def test_lf8c_eleven_tricks(big: bool, expected: tuple[int, int, int]) -> None:
    e = table({A: LF8C + " 2C"}, big_hand_multiplier=big)
    play(e, (A, "play"))
    singles(e, "9T 8T 7T 6T 5T 4T 3T 2T 1T 1C LT", stop_at=11)
    assert e.results[-1].summary["tricks"][A] == 11 and deltas(e) == expected


def test_lf8d_twelve_tricks() -> None:
    e = table({A: LF8C + " 9M"}, big_hand_multiplier=True)
    play(e, (A, "play"))
    singles(e, "9T 8T 7T 6T 5T 4T 3T 2T 1T 1C LT 9M")
    assert e.results[-1].summary["ended_by"] == "all_played"
    assert e.results[-1].summary["share"] == {
        "tricks": 12,
        "base": 7,
        "multiplier": 3,
        "reds": 0,
        "share": 21,
        "red_scope": None,
    }
    assert deltas(e) == (42, -21, -21)


LF8E = {A: "1C 1S 1M 6M 7M 8M 9M 9T 8T 7T 1T LT", B: "2T 4T 6T", C: "3T 5T"}


def lf8e(declarer: int, **options: Any) -> LukFuEngine:
    """A wins 8 tricks: 1C 1S 1M, 7M 8M 9M, then 6M and 9T singly; his winning cards hold 1C, 9M, 9T (3 reds)."""
    e = table(LF8E, red_bonus=True, **options)
    for seat in (A, B, C):
        act(e, seat, "play" if seat == declarer else "pass")
        if seat == declarer:
            break
    trick(e, "1C 1S 1M", "*", "*")
    trick(e, "7M 8M 9M", "*", "*")
    act(e, A, "continue")
    if declarer != A:
        assert e.view(A).lead_exempt == "only_old"  # everything left is old: 6M is now the top Myriad
    trick(e, "6M", "*", "*")
    act(e, A, "continue")
    trick(e, "9T", "*", "*")
    act(e, A, "stop")
    return e


def test_lf8e_red_bonus() -> None:
    e = lf8e(A)
    share = e.results[-1].summary["share"]
    assert share["reds"] == 3 and share["share"] == 6 and sorted(share["red_cards"]) == ["1C", "9M", "9T"]
    assert deltas(e) == (12, -6, -6)


def test_lf8e_red_bonus_when_c_declared() -> None:
    # A passed holding four 1s and 6M-9M, so the parent-pass penalty (§2.9) is switched off for this line.
    e = lf8e(C, parent_pass_penalty=False)
    assert deltas(e) == (12, -12, 0)
    # With the penalty on, the declarer pays one share only.
    e = lf8e(C)
    assert e.results[-1].summary["parent_penalty"] is True
    assert deltas(e) == (6, -6, 0)


LF8F = {
    A: "3S 4S 5S 6S 9C 9M 9T 1C 2C 4C 1M 2M",
    B: "3M 5M 7M 1T 3T 5T 7T 1S 7S 3C 5C 7C",
    C: "4M 6M 8M 2T 4T 6T 8T 2S 8S 9S 6C 8C",
}


@pytest.mark.parametrize(("penalty", "expected"), [(True, (2, 0, -2)), (False, (4, 0, -4))])
def test_lf8f_parent_pass_penalty(penalty: bool, expected: tuple[int, int, int]) -> None:
    e = table(LF8F, extra="LT", parent_pass_penalty=penalty)
    play(e, (A, "pass"), (B, "play"))
    trick(e, "9C 9M 9T", "*", "*")
    trick(e, "3S 4S 5S 6S", "*", "*")
    assert e.tricks[A] == 7
    act(e, A, "stop")
    assert e.results[-1].summary["parent_penalty"] is penalty
    assert deltas(e) == expected


LF8G = {
    A: "9T 8T 7T 6T 5T 2C 1S 3S 5S 1M 3M 5M",
    B: "8C 9C 9S 9M 2S 2M 2T 1C 3C 5C 6C 7C",
    C: "4C 4S 4M 6S 7S 8S 6M 7M 8M 1T 3T 4T",
}
B_KEEP = {B: "8C 9C 9S 9M 2S 2M 2T", C: "4C 4S 4M"}


def lf8g(**options: Any) -> LukFuEngine:
    e = table(LF8G, extra="LT", **options)
    play(e, (A, "play"))
    singles(e, "9T 8T 7T 6T 5T", keep=B_KEEP)
    assert trick(e, "2C", "follow 8C", "*", keep=B_KEEP) == B
    assert trick(e, "9C 9S 9M", "*", "*", keep=B_KEEP) == B
    assert trick(e, "2S 2M 2T", "follow 4C 4S 4M", "*") == C
    return e


def test_lf8g_no_winner() -> None:
    e = lf8g()
    assert e.results[-1].summary["tricks"] == [5, 3, 4]
    assert e.results[-1].summary["winner"] is None
    assert deltas(e) == (0, 0, 0)
    assert e.dealer == B  # the deal moves right


def test_lf8g_stay_if_parent_declared() -> None:
    e = lf8g(stay_if_parent_declared_and_no_winner=True)
    assert deltas(e) == (0, 0, 0) and e.dealer == A


LF8H = {A: "9S 8S 7S 9M 8M 7M 2C 1C 3C 1S 2S 3S", B: "5T 6T 7T 8T 9T 9C"}


def test_lf8h_the_later_player_to_reach_six_wins() -> None:
    e = table(LF8H)
    play(e, (A, "play"))
    singles(e, "9S 8S 7S 9M 8M 7M", keep={B: "5T 6T 7T 8T 9T 9C"})
    assert e.tricks[A] == 6 and e.reached_six == [A]
    assert trick(e, "2C", "follow 9C", "*") == B
    assert trick(e, "5T 6T 7T 8T 9T", "*", "*") == B
    summary = e.results[-1].summary
    assert summary["winner"] == B and summary["tricks"] == [6, 0, 6] and summary["ended_by"] == "all_played"
    assert deltas(e) == (-2, 0, 2)


LF8I = {A: "1C 1S 1M 1T LT 2C 3C 4C 5S 6S 7S 8M"}


@pytest.mark.parametrize(
    ("options", "expected"),
    [({}, (2, -1, -1)), ({"five_tigers_tricks": 8, "red_bonus": True}, (12, -6, -6))],
)
def test_lf8i_five_tigers_at_the_first_trick(options: dict[str, Any], expected: tuple[int, int, int]) -> None:
    e = table(LF8I, **options)
    play(e, (A, "play"))
    assert "tigers" in texts(e, A) and e.view(A).can_reveal_tigers
    events = act(e, A, "tigers")
    assert any(ev.kind == "five_tigers" for ev in events)
    summary = e.results[-1].summary
    assert summary["ended_by"] == "five_tigers" and summary["winner"] == A
    assert deltas(e) == expected


LF8J = {B: "1C 1S 1M 1T LT 2C 3C 4C 5S 6S 7S 8M"}


@pytest.mark.parametrize(
    ("options", "expected"),
    [({}, (-2, 0, 2)), ({"five_tigers_tricks": 8, "red_bonus": True}, (-12, 0, 12))],
)
def test_lf8j_five_tigers_after_the_call(options: dict[str, Any], expected: tuple[int, int, int]) -> None:
    e = table(LF8J, five_tigers_timing="after_call", **options)
    play(e, (A, "play"))
    # Every player answers at once, so being asked does not betray the holder.
    assert e.to_act() == {A, B, C} and e.phase == "tigers"
    assert texts(e, A) == ["keep"] and texts(e, B) == ["tigers", "keep"]
    play(e, (A, "keep"), (B, "tigers"))
    summary = e.results[-1].summary
    assert summary["five_tigers"] == {"seat": B, "credit": 6 + 2 * ("five_tigers_tricks" in options)}
    assert deltas(e) == expected


def test_lf8j_under_at_lead_the_holder_waits_for_his_own_lead() -> None:
    e = table(LF8J)
    play(e, (A, "play"))
    assert e.to_act() == {A} and e.legal_actions(B) == []
    with pytest.raises(IllegalAction) as info:
        act(e, B, "tigers")
    assert info.value.code == "core.not_your_turn"
    # A leads 2M... B wins a trick with 8M and may then reveal.
    e = table({A: "2M 9C 9S 9T", B: LF8J[B]}, extra="9M")
    play(e, (A, "play"))
    assert trick(e, "2M", "follow 8M", "*") == B
    assert "tigers" in texts(e, B)
    act(e, B, "tigers")
    assert e.results[-1].summary["five_tigers"] == {"seat": B, "credit": 7}


LF8K = {A: "9S 8S 7S 9M 8M 7M 2C 3C 4C 2S 3S 2M", B: "1C 1S 1M 1T LT 9C"}


@pytest.mark.parametrize(("tigers", "expected"), [(6, (-4, 0, 4)), (8, (-8, 0, 8))])
def test_lf8k_revealer_wins_over_a_player_who_continued(tigers: int, expected: tuple[int, int, int]) -> None:
    """LF-8 k as stated (A 6 tricks, B 2, and B still holding the five) cannot happen: 6 + 2 = 8 tricks played
    leaves every hand 4 cards. The closest deal: B leads holding 1 trick, so his credit is 1 + 6 = 7 (S = 2),
    or 1 + 8 = 9 (S = 4); A, the declarer who continued at 6, pays 2S."""
    e = table(LF8K, five_tigers_tricks=tigers)
    play(e, (A, "play"))
    singles(e, "9S 8S 7S 9M 8M 7M", keep={B: LF8K[B]})
    assert e.tricks[A] == 6
    assert trick(e, "2C", "follow 9C", "*") == B
    assert e.tricks[B] == 1 and "tigers" in texts(e, B)
    act(e, B, "tigers")
    summary = e.results[-1].summary
    assert summary["winner"] == B and summary["tricks"][B] == 1 + tigers
    assert deltas(e) == expected


# ------------------------------------------------------------------ LF-9

# Four seats: D = 0 deals and sits out; A = 2 (opposite) is the parent; B = 1 is A's right; C = 3.
D4, A4, B4, C4 = 0, 2, 1, 3
LF9 = {A4: "9C 9S 9M 7C 7S 7T 1C 2C 1S 2S 1M 3M"}


def lf9(sitter_card: str = "7M", a_hand: str = LF9[A4], **options: Any) -> LukFuEngine:
    layout = options.get("four_player_layout", "dealer_sits_out")
    dealer = D4 if layout == "dealer_sits_out" else A4
    e = table({A4: a_hand}, seats=4, dealer=dealer, extra=sitter_card, players=4, **options)
    assert (e.parent, e.sitter, e.active) == (A4, D4, [A4, B4, C4])
    play(e, (A4, "pass"), (B4, "play"))
    return e


def test_lf9_sitter_bonus() -> None:
    e = lf9()
    assert e.view(D4).sitter_card is not None and e.view(D4).sitter_card.notation == "7M"  # type: ignore[union-attr]
    assert e.view(A4).sitter_card is None and e.public_view().sitter_has_card
    trick(e, "9C 9S 9M", "*", "*")
    trick(e, "7C 7S 7T", "*", "*")
    act(e, A4, "stop")
    summary = e.results[-1].summary
    assert (
        summary["sitter_bonus"] and summary["sitter_matches"] == ["7C", "7S", "7T"] and summary["sitter_card"] == "7M"
    )
    assert deltas(e) == (2, -4, 2, 0)  # D +2, B -4, A +2, C 0
    assert e.dealer == C4  # D never played: the deal passes to D's right


def test_lf9_sitter_holding_li_tyen_matches_a_one() -> None:
    e = lf9("LT", "9C 9S 9M 1S 1M 1T 2C 3C 2S 4S 2M 4M")
    trick(e, "9C 9S 9M", "*", "*")
    trick(e, "1S 1M 1T", "*", "*")
    act(e, A4, "stop")
    assert e.results[-1].summary["sitter_bonus"]
    assert deltas(e) == (2, -4, 2, 0)


def test_lf9_no_bonus_without_a_match_or_with_the_option_off() -> None:
    for card, options in (("8M", {}), ("7M", {"dealer_bonus": False})):
        e = lf9(card, **options)
        trick(e, "9C 9S 9M", "*", "*")
        trick(e, "7C 7S 7T", "*", "*")
        act(e, A4, "stop")
        assert deltas(e) == (0, -2, 2, 0)


def test_lf9_opposite_sits_out() -> None:
    e = lf9(four_player_layout="opposite_sits_out")
    assert e.dealer == A4
    trick(e, "9C 9S 9M", "*", "*")
    trick(e, "7C 7S 7T", "*", "*")
    act(e, A4, "stop")
    assert deltas(e) == (2, -4, 2, 0)
    assert e.dealer == A4  # a playing dealer who won deals again


# ------------------------------------------------------------------ LF-10


def test_lf10_must_beat_from_a_quad() -> None:
    e = table({A: "6C 6S 6M 1C", B: "8C 8S 8M 8T", C: "7S 7M 7T"})
    play(e, (A, "play"), (A, "lead 6C 6S 6M"))
    assert texts(e, B) == ["follow 8C 8S 8M", "follow 8C 8S 8T", "follow 8C 8M 8T", "follow 8S 8M 8T"]
    act(e, B, "follow 8C 8S 8M")
    assert "8T" in {c.notation for c in e.hands[B]}
    assert e.beating(C) == ()
    act(e, C, "discard 7S 7M 7T")
    assert e.tricks[B] == 3


def test_lf10_must_beat_from_a_longer_run() -> None:
    e = table(
        {
            A: "3S 4S 5S 1S 2C 3C 4C 5C 6C 7C 8C 9C",
            B: "6S 7S 8S 9S 1C 2S 5M 7M 9M 1T 3T 5T",
            C: "1M 2M 3M 4M 6M 8M 2T 4T 6T 8T 9T LT",
        },
        extra="7T",
    )
    play(e, (A, "play"), (A, "lead 3S 4S 5S"))
    assert texts(e, B) == ["follow 6S 7S 8S", "follow 7S 8S 9S"]
    act(e, B, "follow 7S 8S 9S")
    assert texts(e, C) == ["follow 1M 2M 3M", "follow 2M 3M 4M"]
    act(e, C, "follow 2M 3M 4M")
    assert e.tricks[C] == 3
