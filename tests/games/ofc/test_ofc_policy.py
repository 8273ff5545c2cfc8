"""The bot never makes a foul certain while a clean finish is still possible (it also plays for timed-out seats)."""

from __future__ import annotations

import random

import pytest
from ofc_testkit import dealer_order, first, listed, pick, seeded, stacked

from games.core.cards import parse_french
from games.ofc import policy
from games.ofc.actions import Place
from games.ofc.aids import FoulStatus, foul_status, unseen_cards
from games.ofc.board import ROWS
from games.ofc.engine import OFCEngine
from games.ofc.policy import choose
from games.ofc.rules import OFCRules
from games.ofc.views import OFCSeatView


def status_after(view: OFCSeatView, place: Place) -> FoulStatus:
    """What the seat can know after ``place``: judged against every card it has not seen."""
    board = view.full_board().with_cards({r: place.to(r) for r in ROWS})
    pool = [c for c in unseen_cards(view) if c not in view.to_place]
    return foul_status(board, view.rules, pool)


def test_the_bot_does_not_walk_into_a_certain_foul(monkeypatch: pytest.MonkeyPatch) -> None:
    """From a play: K K / 2 / 8 3, then Js Ks (variant b). Ks in front makes trips, so the middle must beat trips
    kings (trips aces, a straight, a flush or better), and 8 3 J in the back, not all one suit and with no
    straight through 3 and J, never beats that. The old bound called it open (two rows missing two or more cards) and the bot's heuristic likes it
    best; the exact check steers away."""
    pack = "Kc Kd 2c 8s 3h 4c 5d 6h 9c Tc Js Ks"
    e = OFCEngine(OFCRules(variant="b"), [100, 100], stacked([dealer_order(1), pack]))
    e.apply(0, Place.of({"front": parse_french("Kc Kd"), "middle": parse_french("2c"), "back": parse_french("8s 3h")}))
    e.apply(1, first(e.legal_actions(1)))
    view, legal = e.view(0), e.legal_actions(0)
    trap = Place.of({"front": parse_french("Ks"), "back": parse_french("Js")})
    assert status_after(view, trap) == "unavoidable"
    assert any(status_after(view, p) == "ok" for p in listed(legal))
    for seed in range(3):
        assert status_after(view, choose(view, legal, random.Random(seed))) == "ok"  # type: ignore[arg-type]
    # Without the check the bot would play the trap: the test is about the check, not luck.
    monkeypatch.setattr(policy, "foul_status", lambda *args, **kw: "ok")
    assert choose(view, legal, random.Random(0)) == trap


@pytest.mark.parametrize(
    ("variant", "seats", "extra", "games"),
    [
        ("a", 2, {}, 4),
        ("b", 3, {}, 2),
        ("c", 4, {}, 1),
        ("c", 2, {"foul_on_equal": True}, 4),
        ("d", 3, {"d_pineapple_streets": True}, 2),
    ],
)
def test_the_bot_never_makes_a_foul_certain_when_it_can_avoid_it(
    variant: str, seats: int, extra: dict[str, object], games: int
) -> None:
    """At every decision of every seat, if some legal placement leaves a clean finish possible, the bot's choice
    does too (a complete board counts as clean when it does not foul). A third of the moves actually played are
    random, which steers boards into the tight spots where a placement can make the foul certain."""
    rules = OFCRules.model_validate({"variant": variant, "dealer_orbits": 1, **extra})
    decisions = tight = 0
    for game in range(games):
        e = OFCEngine(rules, [1000] * seats, seeded(game))
        rng = random.Random(game)
        while not e.is_over:
            seat = min(e.to_act())
            view, legal = e.view(seat), e.legal_actions(seat)
            action = choose(view, legal, rng)
            if not view.fantasyland_hand:
                clean = {p: status_after(view, p) == "ok" for p in listed(legal)}
                if any(clean.values()):
                    assert isinstance(action, Place)
                    assert clean[action], f"{view.full_board()} + {action.text} makes a foul certain"
                    tight += not all(clean.values())
                decisions += 1
                if rng.random() < 1 / 3:
                    action = pick(legal, rng)
            e.apply(seat, action)
    assert decisions > 0
    # The check bites: decisions where some placement would have made the foul certain.
    assert tight > 0


def test_the_normal_bot_sees_a_full_row_for_what_it_is() -> None:
    """Variant a: 9h 7h 5h 3h in the back, Kd in the middle, and the 2h comes. In the back it completes a flush;
    the heuristic used to read a full row by its pairs only (high card, nine high, weaker than the middle's king),
    and sent the 2h to the middle instead."""
    pack = "9h 7h 5h 3h Kd Ac Ad 8c 8d 4s 2h Qs"
    e = OFCEngine(OFCRules(variant="a"), [100, 100], stacked([dealer_order(1), pack]))
    e.apply(0, Place.of({"middle": parse_french("Kd"), "back": parse_french("9h 7h 5h 3h")}))
    e.apply(1, Place.of({"front": parse_french("Ac Ad"), "back": parse_french("8c 8d 4s")}))
    view = e.view(0)
    assert view.to_place == tuple(parse_french("2h"))
    for seed in range(3):
        assert choose(view, e.legal_actions(0), random.Random(seed)) == Place.of({"back": parse_french("2h")})
