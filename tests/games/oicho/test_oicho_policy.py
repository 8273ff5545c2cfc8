"""The baseline policy only ever picks legal actions and keeps special hands."""

from __future__ import annotations

import random

from oicho_support import play, table

from games.core.actions import is_listed
from games.oicho import actions as act
from games.oicho.policy import choose


def test_policy_bets_modestly_then_ends_turn() -> None:
    e = table(["1 2 3 4 5 6 6 5 4 1"])
    rng = random.Random(3)
    seat = 1
    for _ in range(10):
        action = choose(e.view(seat), e.legal_actions(seat), rng)
        assert is_listed(action, e.legal_actions(seat))
        e.apply(seat, action)
        if isinstance(action, act.Done):
            break
    assert 1 <= e.my_bet_total(1) <= 20
    assert e.to_act() == {2}


def test_dealer_policy_keeps_kuppin() -> None:
    # piles 1 2 3 4, own 9, first extras 6 6 5 4 (all 7-8: no choices), dealer extra 1 → Kuppin.
    e = table(["1 2 3 4 9 6 6 5 4 1"])
    play(e, (1, "bet 1 5"), (1, "done"), (2, "done"), (3, "done"))
    assert e.phase == "dealer"
    for seed in range(20):
        assert choose(e.view(0), e.legal_actions(0), random.Random(seed)) == act.Stand()


def test_pile_policy_draws_low_and_stands_high() -> None:
    e = table(["4 2 3 4 5 10 6 5 4 1"])  # P1 4+10 = 4: optional
    play(e, (1, "bet 1 5"), (1, "done"), (2, "done"), (3, "done"))
    assert e.current_pile == 1
    assert choose(e.view(1), e.legal_actions(1), random.Random(0)) == act.Draw()
    e = table(["4 2 3 4 5 2 6 5 4 1"])  # P1 4+2 = 6: optional
    play(e, (1, "bet 1 5"), (1, "done"), (2, "done"), (3, "done"))
    assert choose(e.view(1), e.legal_actions(1), random.Random(0)) == act.Stand()


def test_dealer_policy_continues() -> None:
    e = table(["1 2 3 4 5 6 6 5 4 1"] * 2)
    play(e, (1, "bet 1 5"), (1, "done"), (2, "done"), (3, "done"), (0, "stand"))
    assert choose(e.view(0), e.legal_actions(0), random.Random(0)) == act.Continue()
