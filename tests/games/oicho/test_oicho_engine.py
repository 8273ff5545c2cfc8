"""Engine behaviour beyond the worked examples: refusals, deciders, visibility, rotation, game end."""

from __future__ import annotations

import copy

import pytest
from oicho_support import play, table

from games.core.actions import AmountRange
from games.core.engine import iter_cards
from games.core.errors import IllegalAction
from games.oicho import actions as act
from games.oicho.engine import OichoEngine

# A round where nothing needs a choice after betting except the dealer: every first extra gives 7-9.
# piles 1 2 3 4, own card 5, first extras 6 6 5 4 → 7 8 8 8; dealer extra 1 → 6.
QUIET = "1 2 3 4 5 6 6 5 4 1"


def snapshot(e: OichoEngine) -> dict[str, object]:
    return copy.deepcopy(vars(e))


@pytest.mark.parametrize(
    ("moves", "bad", "code", "params"),
    [
        ([], (1, "bet 5 10"), "oicho.no_such_pile", {"pile": 5}),
        ([], (1, "bet 1 0"), "oicho.bet_too_small", {"amount": 0}),
        ([], (1, "bet 1 51"), "oicho.bet_over_cap", {"amount": 51, "max": 50, "cap": 50, "cap_left": 50}),
        ([(1, "bet 2 45")], (1, "bet 1 6"), "oicho.bet_over_cap", {"max": 5, "cap_left": 5}),
        ([], (1, "clear"), "oicho.nothing_to_clear", {}),
        ([], (1, "draw"), "oicho.no_card_choice", {}),
        ([], (1, "continue"), "oicho.not_between_rounds", {}),
        ([], (2, "done"), "core.not_your_turn", {"seat": 2}),
        ([], (0, "bet 1 5"), "core.not_your_turn", {"seat": 0}),
        ([], (7, "done"), "core.no_such_seat", {"seat": 7}),
        ([(1, "bet 1 5"), (1, "done"), (2, "done"), (3, "done")], (0, "bet 1 5"), "oicho.not_betting", {}),
        ([(1, "bet 1 5"), (1, "done"), (2, "done"), (3, "done")], (0, "resign"), "oicho.not_between_rounds", {}),
        ([(1, "bet 1 5"), (1, "done"), (2, "done"), (3, "done")], (0, "done"), "oicho.not_betting", {}),
    ],
)
def test_refusals_have_codes_and_change_nothing(
    moves: list[tuple[int, str]], bad: tuple[int, str], code: str, params: dict[str, object]
) -> None:
    e = table([QUIET])
    play(e, *moves)
    before = snapshot(e)
    with pytest.raises(IllegalAction) as info:
        play(e, bad)
    assert info.value.code == code
    assert params.items() <= info.value.params.items()
    assert snapshot(e) == before


def test_bet_over_own_stack() -> None:
    e = table([QUIET], stacks=[100, 12, 100, 100])
    play(e, (1, "bet 1 10"))
    before = snapshot(e)
    with pytest.raises(IllegalAction) as info:
        play(e, (1, "bet 2 3"))
    assert info.value.code == "oicho.bet_over_stack"
    assert info.value.params["max"] == 2
    assert snapshot(e) == before
    assert e.legal_actions(1)[0] == AmountRange(act.Bet(1, 1), 1, 2)


def test_legal_actions_empty_off_turn_and_clear_listed() -> None:
    e = table([QUIET])
    assert e.legal_actions(0) == [] and e.legal_actions(2) == []
    assert act.Clear() not in e.legal_actions(1)
    play(e, (1, "bet 3 7"), (1, "bet 3 3"))
    assert act.Clear() in e.legal_actions(1)
    play(e, (1, "clear"))
    assert e.bets == [] and e.to_act() == {1}


def test_decider_largest_total_stake_then_earliest() -> None:
    e = table(["1 2 3 4 5 6 6 5 4 1"])
    # P2: seat 1 bets 5 first, seat 2 bets 4 + 4 = 8 → seat 2 decides. P1 unbet → next bet pile P2's decider.
    # P3: seats 2 and 3 tie at 5; seat 2 bet there first. P4 unbet, nothing later → nearest earlier (P3).
    play(e, (1, "bet 2 5"), (1, "done"), (2, "bet 2 4"), (2, "bet 3 5"), (2, "bet 2 4"), (2, "done"))
    play(e, (3, "bet 3 5"), (3, "done"))
    assert e.deciders == [2, 2, 2, 2]
    e = table(["1 2 3 4 5 6 6 5 4 1"])
    play(e, (1, "bet 4 5"), (1, "done"), (2, "bet 2 5"), (2, "done"), (3, "done"))
    assert e.deciders == [2, 2, 1, 1]


def test_forced_steps_advance_by_themselves() -> None:
    e = table([QUIET])
    play(e, (1, "bet 1 5"), (1, "done"), (2, "done"), (3, "done"))
    assert e.phase == "dealer" and e.to_act() == {0}
    assert [len(p) for p in e.piles] == [2, 2, 2, 2] and len(e.dealer_cards) == 2


def test_visibility_of_first_extras_and_dealer_cards() -> None:
    # P1 4+2 = 6 (choice) so the round stops in "deciding" with face-down cards still down.
    e = table(["4 2 3 4 5 2 6 5 4 1"])
    play(e, (1, "bet 1 5"), (1, "done"), (2, "bet 2 5"), (2, "done"), (3, "done"))
    assert e.phase == "deciding" and e.current_pile == 1
    dealer, child, onlooker = e.view(0), e.view(3), e.public_view()
    assert dealer.piles[0].cards[1] is None and dealer.piles[1].cards[1] is None
    assert dealer.piles[2].cards[1] is not None  # unbet pile: face up
    assert child.piles[0].cards[1] is not None and child.piles[0].hand is not None
    assert onlooker.piles[0].cards[1] is None and onlooker.piles[0].hand is None
    assert dealer.dealer_hand.cards[0] is not None and child.dealer_hand.cards == (None,)
    for seat in (0, 1, 2, 3, None):
        view = e.public_view() if seat is None else e.view(seat)
        assert not set(iter_cards(view)) & e.hidden_from(seat)


def test_visibility_pile_bettors_only() -> None:
    e = table(["4 2 3 4 5 2 6 5 4 1"], first_extra_visibility="pile_bettors")
    play(e, (1, "bet 1 5"), (1, "done"), (2, "bet 2 5"), (2, "done"), (3, "done"))
    assert e.view(1).piles[0].cards[1] is not None and e.view(1).piles[1].cards[1] is None
    assert e.view(2).piles[1].cards[1] is not None and e.view(2).piles[0].cards[1] is None
    assert e.view(3).piles[0].cards[1] is None
    for seat in (0, 1, 2, 3, None):
        view = e.public_view() if seat is None else e.view(seat)
        assert not set(iter_cards(view)) & e.hidden_from(seat)


def test_showdown_reveals_everything() -> None:
    e = table([QUIET, QUIET])
    play(e, (1, "bet 1 5"), (1, "done"), (2, "done"), (3, "done"), (0, "stand"))
    assert e.phase == "round_over"
    view = e.public_view()
    assert all(None not in p.cards for p in view.piles) and None not in view.dealer_hand.cards
    assert view.piles[0].outcome == "pile" and view.last_deltas == (-5, 5, 0, 0)


def test_void_round_same_dealer_not_counted() -> None:
    e = table([QUIET, QUIET])
    play(e, (1, "done"), (2, "done"), (3, "done"))
    assert e.deal_no == 2 and e.dealer == 0 and e.tenure_rounds == 0
    assert e.phase == "betting" and e.to_act() == {1}
    assert e.results[-1].deltas == (0, 0, 0, 0) and e.results[-1].summary["void"] is True
    assert [s.purpose for s in e.shuffler.used] == ["draw_dealer", "deal", "deal"]


def test_first_dealer_draw_with_tie() -> None:
    e = table([QUIET], draw="3 1 1 5 4 2")
    assert e.dealer == 2
    assert e.public_view().dealer_draw.passes == (((0, 3), (1, 1), (2, 1), (3, 5)), ((1, 4), (2, 2)))
    assert e.to_act() == {3}  # the dealer's left neighbour bets first


def test_maki_fuda_cards_come_first_and_are_public() -> None:
    e = table(["10 10 10 9 " + QUIET], maki_fuda=True)
    assert [c.month for c in e.public_view().maki_fuda] == [10, 10, 10, 9]
    assert [p[0].month for p in e.piles] == [1, 2, 3, 4]


def round_of(e: OichoEngine, bettor: int) -> None:
    """One quiet round where ``bettor`` bets 5 on P1 and everyone else passes; the dealer stands."""
    for seat in list(e.betting_order):
        play(e, *([(seat, "bet 1 5")] if seat == bettor else []), (seat, "done"))
    play(e, (e.dealer, "stand"))


def test_tenure_of_dealer_rounds_then_left_neighbour() -> None:
    e = table([QUIET] * 3, seats=3, dealer_rounds=2, dealer_may_resign=False)
    round_of(e, 1)
    assert e.dealer == 0 and e.phase == "betting" and e.tenure_rounds == 1
    round_of(e, 1)
    assert e.dealer == 1 and e.tenures_held == [1, 0, 0]
    assert e.betting_order == [2, 0]


def test_dealer_continue_or_resign() -> None:
    e = table([QUIET] * 3, seats=3)
    round_of(e, 1)
    assert e.phase == "round_over" and e.legal_actions(0) == [act.Continue(), act.Resign()]
    play(e, (0, "continue"))
    assert e.dealer == 0 and e.deal_no == 2
    round_of(e, 1)
    play(e, (0, "resign"))
    assert e.dealer == 1 and e.tenure_rounds == 0 and e.tenures_held == [1, 0, 0]


def test_dealer_bust_ends_tenure() -> None:
    # Dealer net −50 = −cap after one round: the tenure ends although dealer_rounds is 3.
    e = table([QUIET] * 2, seats=2, dealer_bust_ends_tenure=True)
    play(e, (1, "bet 1 50"), (1, "done"), (0, "stand"))
    assert e.stacks == [50, 150] and e.dealer == 1
    e = table([QUIET] * 2, seats=2, dealer_bust_ends_tenure=False)
    play(e, (1, "bet 1 50"), (1, "done"), (0, "stand"))
    assert e.dealer == 0 and e.phase == "round_over"


def test_game_ends_after_every_seat_dealt() -> None:
    e = table([QUIET] * 2, seats=2, dealer_rounds=1)
    round_of(e, 1)
    assert e.dealer == 1
    round_of(e, 0)
    assert e.is_over and e.phase == "game_over" and e.to_act() == frozenset()
    assert e.stacks == [100, 100] and e.winners == [0, 1]
    assert e.public_view().game_over and e.legal_actions(0) == []
    with pytest.raises(IllegalAction) as info:
        play(e, (0, "continue"))
    assert info.value.code == "core.game_over"


def test_stack_never_negative_and_bust_seat_sits_out() -> None:
    # Seat 1 bets its whole 10 on P1 (1+6 = 7); the dealer's 5+1 … here make the dealer win ×2 by Shippin.
    # piles 1 2 3 9, own 4, first extras 6 6 5 10 → 7 8 8 9, dealer extra 1 → Shippin.
    e = table(["1 2 3 9 4 6 6 5 10 1"] * 2, seats=3, stacks=[100, 10, 100], kuppin_shippin_multiplier=2)
    play(e, (1, "bet 1 10"), (1, "done"), (2, "bet 2 5"), (2, "done"), (0, "stand"))
    assert e.results[-1].summary["owed"] == [30, -20, -10]
    assert e.results[-1].deltas == (20, -10, -10)
    assert e.stacks == [120, 0, 90]
    play(e, (0, "continue"))
    assert e.betting_order == [2]
    assert e.public_view().active == (True, False, True)


def test_two_seats_with_chips_needed() -> None:
    e = table(["1 2 3 9 4 6 6 5 10 1"], seats=2, stacks=[100, 10], kuppin_shippin_multiplier=2)
    play(e, (1, "bet 1 10"), (1, "done"), (0, "stand"))
    assert e.stacks == [110, 0] and e.is_over and e.winners == [0]


def test_seat_count_limits() -> None:
    with pytest.raises(ValueError, match="2 to 10"):
        table([QUIET], seats=1)
    with pytest.raises(ValueError, match="2 to 10"):
        table([QUIET], seats=11, draw="1 2 3 4 5 6 7 8 9 10 10")


def test_seat_view_fields() -> None:
    e = table([QUIET])
    play(e, (1, "bet 2 7"))
    v = e.view(1)
    assert v.seat == 1 and not v.is_dealer and v.my_bets == ((2, 7),) and v.my_bet_total == 7 and v.bet_max == 43
    assert v.cap == 50 and v.cap_used == 7 and v.cap_left == 43 and v.betting_seat == 1
    assert v.piles[1].bets == ((1, 7),) and v.piles[1].total == 7
    assert e.view(0).is_dealer and e.view(0).bet_max == 0
    assert v.tenure.dealer == 0 and v.tenure.rounds_limit == 3
