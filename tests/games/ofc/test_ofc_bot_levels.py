"""The three OFC bot levels: the choices that are clearly right, determinism, no peeking, and their order of strength."""

from __future__ import annotations

import copy
import functools
import random
import statistics

import pytest
from ofc_testkit import deal_order, dealer_order, listed, play_boards, seeded, stacked

from games.core.actions import is_listed
from games.core.cards import french_deck, parse_french
from games.ofc.actions import Place
from games.ofc.aids import foul_status, unseen_cards
from games.ofc.board import ROWS, Board
from games.ofc.bot_easy import easy
from games.ofc.bot_strong import future_streets, strong
from games.ofc.bot_value import Valuer
from games.ofc.engine import OFCEngine
from games.ofc.eval import card_index
from games.ofc.policy import POLICIES, choose, normal
from games.ofc.rules import OFCRules
from games.ofc.views import OFCSeatView
from games.registry import Policy

FAST_STRONG: Policy = functools.partial(strong, budget_ms=10)
"""The strong search on a small budget, where a test plays many hands."""


def test_the_levels() -> None:
    assert set(POLICIES) == {"easy", "normal", "strong"}
    assert POLICIES["normal"] is normal is choose
    assert POLICIES["easy"] is easy and POLICIES["strong"] is strong


def _board_after(view: OFCSeatView, place: Place) -> Board:
    return view.full_board().with_cards({r: place.to(r) for r in ROWS})


# ------------------------------------------------------------------ clearly right


def test_strong_does_not_walk_into_a_certain_foul() -> None:
    """From a play (variant b): K K / 2 / 8 3, then Js Ks. Ks up top makes trips kings, which 2 in the middle and
    8 3 in the back can never clear; every other placement can still finish clean."""
    pack = "Kc Kd 2c 8s 3h 4c 5d 6h 9c Tc Js Ks"
    e = OFCEngine(OFCRules(variant="b"), [100, 100], stacked([dealer_order(1), pack]))
    e.apply(0, Place.of({"front": parse_french("Kc Kd"), "middle": parse_french("2c"), "back": parse_french("8s 3h")}))
    e.apply(1, listed(e.legal_actions(1))[0])
    view, legal = e.view(0), e.legal_actions(0)
    pool = [c for c in unseen_cards(view) if c not in view.to_place]
    trap = Place.of({"front": parse_french("Ks"), "back": parse_french("Js")})
    assert foul_status(_board_after(view, trap), view.rules, pool) == "unavoidable"
    for seed in range(3):
        action = strong(view, legal, random.Random(seed))
        assert isinstance(action, Place)
        assert foul_status(_board_after(view, action), view.rules, pool) == "ok"


def _last_street_c(seat0: tuple[str, str], last: str) -> OFCEngine:
    """Variant c, two seats, seat 0 first: seat 0 is dealt ``seat0`` on streets 1 and 2 (placed by the caller)
    and ``last`` on street 3; seat 1 gets the lowest other cards, which it places anywhere."""
    mine = set(parse_french(" ".join([*seat0, last])))
    other = [c.notation for c in sorted(set(french_deck()) - mine)][:13]
    pack = " ".join([seat0[0], *other[:5], seat0[1], *other[5:9], last, *other[9:]])
    return OFCEngine(OFCRules(variant="c"), [100, 100], stacked([dealer_order(1), pack]))


def _other_seat_plays(e: OFCEngine) -> None:
    e.apply(1, listed(e.legal_actions(1))[0])


def test_strong_takes_fantasyland_over_bigger_royalties() -> None:
    """Last street, Qh 8h 9h 2s to place into Qs 7d / Qc Qd 8c 8d / 5h 6h 7h. The queen in the middle makes a full
    house there (12 with the back's straight flush, 27 in all); up top it makes queens (7, 22 in all) and
    Fantasyland, worth far more than the 5 royalties given up."""
    e = _last_street_c(("Qs 7d Qc Qd 8c", "8d 5h 6h 7h"), "Qh 8h 9h 2s")
    e.apply(0, Place.of({"front": parse_french("Qs 7d"), "middle": parse_french("Qc Qd 8c")}))
    _other_seat_plays(e)
    e.apply(0, Place.of({"middle": parse_french("8d"), "back": parse_french("5h 6h 7h")}))
    _other_seat_plays(e)
    view, legal = e.view(0), e.legal_actions(0)
    fantasyland = Place.of({"front": parse_french("Qh"), "middle": parse_french("2s"), "back": parse_french("8h 9h")})
    royalties = Place.of({"front": parse_french("2s"), "middle": parse_french("Qh"), "back": parse_french("8h 9h")})
    assert fantasyland in listed(legal) and royalties in listed(legal)
    assert strong(view, legal, random.Random(0)) == fantasyland


def test_strong_does_not_trade_a_clean_board_for_royalties_on_the_last_street() -> None:
    """Kh 2h 3h 7s into Kc Kd / As Ah 5c 6d / Jc Jd Js: the king up top would make trips kings (21) over a pair of
    aces, a foul; every finished board is valued as it is, so the bot finishes clean."""
    e = _last_street_c(("Kc Kd As Ah 5c", "6d Jc Jd Js"), "Kh 2h 3h 7s")
    e.apply(0, Place.of({"front": parse_french("Kc Kd"), "middle": parse_french("As Ah 5c")}))
    _other_seat_plays(e)
    e.apply(0, Place.of({"middle": parse_french("6d"), "back": parse_french("Jc Jd Js")}))
    _other_seat_plays(e)
    view, legal = e.view(0), e.legal_actions(0)
    greedy = Place.of({"front": parse_french("Kh"), "middle": parse_french("7s"), "back": parse_french("2h 3h")})
    assert greedy in listed(legal)
    for seed in range(3):
        action = strong(view, legal, random.Random(seed))
        assert isinstance(action, Place)
        assert foul_status(_board_after(view, action), view.rules, []) == "ok"


def test_strong_plays_a_fantasyland_hand_of_fifteen_cards() -> None:
    """Variant d: aces up top earn 15 cards next hand. The strong bot keeps 13, throws 2, and does not foul."""
    aces = Board.parse("As Ad 4d / 9c 9d 9h 5s 2c / Kh Qh 8h 6h 3h")
    low = Board.parse("2d 3d 4s / 5c 6c 7h 8s Tc / Jc Jd Js Kc Kd")
    fifteen = "Ac Ah 2h Qc Qd Qs 7c 7d 7s 5d 6d 8d Td Jh Th"
    sizes = (5, 4, 4)
    hand1 = deal_order({0: aces, 1: low}, [0, 1], sizes)
    hand2 = fifteen + " " + deal_order({1: low}, [1], sizes)
    e = OFCEngine(OFCRules(variant="d"), [100, 100], stacked([dealer_order(1), hand1, hand2]))
    play_boards(e, {0: aces, 1: low}, sizes)
    view, legal = e.view(0), e.legal_actions(0)
    assert view.fantasyland_hand and len(view.to_place) == 15
    action = strong(view, legal, random.Random(0))
    assert isinstance(action, Place) and is_listed(action, legal)
    assert len(action.discards) == 2
    board = _board_after(view, action)
    assert foul_status(board, view.rules, []) == "ok"
    # Trips aces up top (staying, 22) is part of the best board here.
    assert sorted(board.front) == sorted(parse_french("Ac Ah As")) or len(set(c.rank for c in board.front)) < 3


@pytest.mark.parametrize(
    ("rules", "placed", "expected"),
    [
        (OFCRules(variant="a"), 5, [(1, 0)] * 7),
        (OFCRules(variant="b"), 0, [(2, 0)] * 4),
        (OFCRules(variant="b"), 9, [(2, 0)]),
        (OFCRules(variant="c"), 5, [(4, 0)]),
        (OFCRules(variant="c"), 9, []),
        (OFCRules(variant="d", d_pineapple_streets=True), 7, [(3, 1)] * 2),
    ],
)
def test_future_streets(rules: OFCRules, placed: int, expected: list[tuple[int, int]]) -> None:
    """What the search runs out after the street being placed: the streets still to come."""
    e = OFCEngine(rules, [100, 100], seeded(1))
    rng = random.Random(0)
    while True:
        seat = min(e.to_act())
        view = e.view(seat)
        if len(view.full_board().cards()) == placed:
            break
        e.apply(seat, choose(view, e.legal_actions(seat), rng))
    assert future_streets(view) == expected


@pytest.mark.parametrize(
    ("rules", "seats"), [(OFCRules(variant="b"), 2), (OFCRules(variant="d", d_pineapple_streets=True), 3)]
)
def test_strong_never_makes_a_foul_certain_when_it_can_avoid_it(rules: OFCRules, seats: int) -> None:
    """At every decision, if some legal placement leaves a clean finish possible, the strong bot's does too. A third
    of the moves played are random, to reach the tight spots."""
    tight = 0
    for game in range(2):
        e = OFCEngine(rules.model_copy(update={"dealer_orbits": 1}), [1000] * seats, seeded(game))
        rng = random.Random(game)
        while not e.is_over:
            seat = min(e.to_act())
            view, legal = e.view(seat), e.legal_actions(seat)
            action = FAST_STRONG(view, legal, rng)
            if not view.fantasyland_hand:
                pool = [c for c in unseen_cards(view) if c not in view.to_place]
                clean = {p: foul_status(_board_after(view, p), view.rules, pool) == "ok" for p in listed(legal)}
                if any(clean.values()):
                    assert isinstance(action, Place) and clean[action]
                    tight += not all(clean.values())
                if rng.random() < 1 / 3:
                    action = listed(legal)[rng.randrange(len(listed(legal)))]
            e.apply(seat, action)
    assert tight > 0


def test_easy_puts_a_high_pair_up_top_at_once() -> None:
    """The newcomer's mistake: kings go straight to the front on the first street (for the royalty and the dream of
    Fantasyland), before anything below can hold them; the normal bot keeps them in the back."""
    e = OFCEngine(OFCRules(variant="c"), [100, 100], stacked([dealer_order(1), "Kc Kd 9h 6s 3c"]))
    view, legal = e.view(0), e.legal_actions(0)
    kings = parse_french("Kc Kd")
    easy_move = easy(view, legal, random.Random(0))
    normal_move = normal(view, legal, random.Random(0))
    assert isinstance(easy_move, Place) and isinstance(normal_move, Place)
    assert sorted(easy_move.to("front")) == sorted(kings)
    assert not set(normal_move.to("front")) & set(kings)


@pytest.mark.parametrize(("rules", "seats"), [(OFCRules(variant="a"), 2), (OFCRules(variant="c"), 3)])
def test_easy_minds_fouls_late(rules: OFCRules, seats: int) -> None:
    """Once the board is nearly full the easy bot never makes a foul certain while it can avoid it, and it finishes
    clean whenever a clean board is possible; earlier it does not look (its boards do foul)."""
    late = early_fouls = 0
    for game in range(6):
        e = OFCEngine(rules.model_copy(update={"dealer_orbits": 1}), [1000] * seats, seeded(game))
        rng = random.Random(game)
        while not e.is_over:
            seat = min(e.to_act())
            view, legal = e.view(seat), e.legal_actions(seat)
            action = easy(view, legal, rng)
            assert isinstance(action, Place)
            if not view.fantasyland_hand:
                after = _board_after(view, action)
                if 13 - len(after.cards()) <= 4:
                    pool = [c for c in unseen_cards(view) if c not in view.to_place]
                    clean = [p for p in listed(legal) if foul_status(_board_after(view, p), view.rules, pool) == "ok"]
                    if clean:
                        assert foul_status(after, view.rules, pool) == "ok"
                        late += 1
            last = e.last
            e.apply(seat, action)
            if e.last is not last:
                early_fouls += sum(s.fouled for s in e.last.scores)
    assert late > 0 and early_fouls > 0


def test_easy_sets_a_fantasyland_hand_greedily() -> None:
    """Fantasyland: the best five to the back, the best five left to the middle, the rest's highest three up top;
    legal and clean, and short of the best board: here J 8 6 / T T 7 7 7 / A A Q Q Q (18 royalties) where the
    strong bot plays A A 2 / a diamond flush / Q Q Q 7 7 (23)."""
    aces = Board.parse("As Ad 4d / 9c 9d 9h 5s 2c / Kh Qh 8h 6h 3h")
    low = Board.parse("2d 3d 4s / 5c 6c 7h 8s Tc / Jc Jd Js Kc Kd")
    fifteen = "Ac Ah 2h Qc Qd Qs 7c 7d 7s 5d 6d 8d Td Jh Th"
    sizes = (5, 4, 4)
    hand2 = fifteen + " " + deal_order({1: low}, [1], sizes)
    e = OFCEngine(
        OFCRules(variant="d"),
        [100, 100],
        stacked([dealer_order(1), deal_order({0: aces, 1: low}, [0, 1], sizes), hand2]),
    )
    play_boards(e, {0: aces, 1: low}, sizes)
    view, legal = e.view(0), e.legal_actions(0)
    action = easy(view, legal, random.Random(0))
    assert isinstance(action, Place) and is_listed(action, legal)
    board = _board_after(view, action)
    assert foul_status(board, view.rules, []) == "ok"
    ours = strong(view, legal, random.Random(0))
    assert isinstance(ours, Place)
    value = Valuer(view.rules, in_fantasyland=True)
    assert value.final_rows(_ints(_board_after(view, ours))) > value.final_rows(_ints(board))


def _ints(board: Board) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    return (
        tuple(card_index(c) for c in board.front),
        tuple(card_index(c) for c in board.middle),
        tuple(card_index(c) for c in board.back),
    )


# ------------------------------------------------------------------ determinism and no peeking

SETUPS = [
    (OFCRules(variant="a"), 2),
    (OFCRules(variant="b"), 3),
    (OFCRules(variant="c"), 4),
    (OFCRules(variant="d"), 3),
    (OFCRules(variant="d", d_pineapple_streets=True), 2),
]


def _decision_points(rules: OFCRules, seats: int, seed: int, every: int) -> list[OFCEngine]:
    """Copies of one hand's engine at every ``every``-th decision, played by the normal bot."""
    e = OFCEngine(rules, [1000] * seats, seeded(seed))
    rng = random.Random(seed)
    out: list[OFCEngine] = []
    k = 0
    while e.hand_no == 1 and not e.is_over:
        seat = min(e.to_act())
        if k % every == 0:
            out.append(copy.deepcopy(e))
        k += 1
        e.apply(seat, normal(e.view(seat), e.legal_actions(seat), rng))
    return out


def _fantasyland_point() -> OFCEngine:
    """Seat 0 holds a Fantasyland hand of 15 cards (variant d) while seat 1 plays its first street."""
    aces = Board.parse("As Ad 4d / 9c 9d 9h 5s 2c / Kh Qh 8h 6h 3h")
    low = Board.parse("2d 3d 4s / 5c 6c 7h 8s Tc / Jc Jd Js Kc Kd")
    sizes = (5, 4, 4)
    hand1 = deal_order({0: aces, 1: low}, [0, 1], sizes)
    e = OFCEngine(OFCRules(variant="d"), [100, 100], stacked([dealer_order(1), hand1], seed=5))
    play_boards(e, {0: aces, 1: low}, sizes)
    assert e.view(0).fantasyland_hand
    return e


def _redeal(e: OFCEngine, seat: int, rng: random.Random) -> OFCEngine:
    """The same table with the cards ``seat`` cannot see shuffled among themselves: the pack, the other seats'
    face-down cards, their unseen hands and their discards."""
    hidden = sorted(e.hidden_from(seat))
    moved = hidden[:]
    rng.shuffle(moved)
    swap = dict(zip(hidden, moved, strict=True))
    other = copy.deepcopy(e)
    other.deck = [swap.get(c, c) for c in other.deck]
    for hand in other.hands:
        hand.rows = {r: [swap.get(c, c) for c in cards] for r, cards in hand.rows.items()}
        hand.pending = [swap.get(c, c) for c in hand.pending]
        hand.discards = [swap.get(c, c) for c in hand.discards]
        hand.face_down = {swap.get(c, c) for c in hand.face_down}
    return other


def _points() -> list[tuple[OFCEngine, int]]:
    points = [(e, min(e.to_act())) for rules, seats in SETUPS for e in _decision_points(rules, seats, 7, 3)]
    return [*points, (_fantasyland_point(), 0), (_fantasyland_point(), 1)]


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_the_same_view_and_seed_give_the_same_decision(level: str) -> None:
    policy = POLICIES[level]
    for e, seat in _points():
        view, legal = e.view(seat), e.legal_actions(seat)
        first = policy(view, legal, random.Random(11))
        assert policy(view, legal, random.Random(11)) == first
        assert is_listed(first, legal)


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_no_peeking(level: str) -> None:
    """The seat's view with every card it cannot see dealt differently gives the same decision (same seed)."""
    policy = POLICIES[level]
    rng = random.Random(3)
    changed = 0
    for e, seat in _points():
        other = _redeal(e, seat, rng)
        assert other.view(seat) == e.view(seat)
        changed += other.deck != e.deck or any(
            a.pending != b.pending for a, b in zip(other.hands, e.hands, strict=True)
        )
        mine = policy(e.view(seat), e.legal_actions(seat), random.Random(5))
        assert policy(other.view(seat), other.legal_actions(seat), random.Random(5)) == mine
    assert changed >= 10  # the re-deals did move hidden cards


# ------------------------------------------------------------------ strength

MATCH_RULES = OFCRules(variant="c", dealer_orbits=1)
MATCH_GAMES = 50


def _game(players: tuple[Policy, Policy], seed: int) -> tuple[int, int]:
    """One two-seat game (two hands, more while anyone is in Fantasyland): seat 0's points, and the hands."""
    e = OFCEngine(MATCH_RULES, [100_000, 100_000], seeded(seed))
    rngs = [random.Random(seed * 2), random.Random(seed * 2 + 1)]
    while not e.is_over:
        seat = min(e.to_act())
        e.apply(seat, players[seat](e.view(seat), e.legal_actions(seat), rngs[seat]))
    return e.stacks[0] - 100_000, e.hand_no


def _head_to_head(a: Policy, b: Policy) -> tuple[float, float]:
    """A's points per hand against B over mirrored games (the same deals with the seats swapped), and the standard
    error of that figure."""
    per_pair: list[float] = []
    for seed in range(MATCH_GAMES):
        won_first, hands_first = _game((a, b), seed)
        lost_second, hands_second = _game((b, a), seed)
        per_pair.append((won_first - lost_second) / (hands_first + hands_second))
    return statistics.mean(per_pair), statistics.stdev(per_pair) / len(per_pair) ** 0.5


def test_each_level_beats_the_one_below() -> None:
    """Mirrored two-seat games of variant c, 50 deals each played both ways (about 200 hands per pairing). Normal
    beats easy by about 2.4 points a hand (5 standard errors); strong, on a seventh of its search budget here, beats
    normal by about 1.5 (3 standard errors). Seeded, so the figures are the same every run; a change that costs a
    level its edge shows here."""
    normal_over_easy, se_easy = _head_to_head(normal, easy)
    strong_over_normal, se_normal = _head_to_head(FAST_STRONG, normal)
    assert normal_over_easy > 3 * se_easy, (normal_over_easy, se_easy)
    assert strong_over_normal > 2 * se_normal, (strong_over_normal, se_normal)
