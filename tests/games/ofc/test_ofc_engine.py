"""The OFC engine through apply(): stacked-deck scenarios of §4.10, Turbo simultaneity, refusals."""

from __future__ import annotations

import copy

import pytest
from ofc_testkit import deal_order, dealer_order, first, place, play_boards, stacked, streets_of

from games.core.cards import french_deck, parse_french
from games.core.errors import IllegalAction
from games.ofc.actions import CODEC, Place
from games.ofc.board import Board
from games.ofc.engine import OFCEngine
from games.ofc.fantasyland import solve
from games.ofc.rules import OFCRules

A = Board.parse("Qs Qh 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h")
A_PLAIN = Board.parse("Qs 4d 2c / 9c 9d 9h 5s Qh / Ah Kh 8h 6h 3h")
B = Board.parse("Kc 7s 6d / Js Jd 8s 8d 2d / Tc Td Th 4c 4s")
C = Board.parse("5d 5c Ac / 6s 7h 8c 9s Ts / 3c 6c 7c Jc Qc")
D = Board.parse("2h 3d 4h / 2s 3s 5h 7d Jh / Kd Ks Ad As Qd")
E_KK = Board.parse("Kd Ks 2h / Ad As 3d 3s 4h / Ah Kh 8h 6h 3h")
TURBO = (5, 4, 4)


def engine(
    variant: str, boards: dict[int, Board], dealer: int = 0, seats: int | None = None, **kw: object
) -> OFCEngine:
    n = seats or len(boards)
    order = [(dealer + 1 + k) % n for k in range(n)]
    sizes = [n_ for n_, _ in OFCRules(variant=variant).streets()]  # type: ignore[arg-type]
    shuffler = stacked([dealer_order(dealer), deal_order(boards, order, sizes)])
    return OFCEngine(OFCRules.model_validate({"variant": variant, **kw}), [100] * n, shuffler)


def test_ofc4_through_the_engine() -> None:
    # Seat 1 = A, seat 2 = B, seat 0 = C; seat 0 deals, so seat 1 acts first.
    e = engine("d", {1: A, 2: B, 0: C})
    assert e.dealer == 0
    assert e.to_act() == {0, 1, 2}
    play_boards(e, {1: A, 2: B, 0: C}, TURBO)
    assert e.results[0].deltas == (-3, 14, -11)
    assert e.stacks == [97, 114, 89]
    summary = e.results[0].summary
    assert summary["royalties"] == [8, 13, 6]
    assert summary["fantasyland_next"] == [0, 13, 0]
    # A's QQ earns Fantasyland with 13 cards; the dealer does not move.
    assert e.hand_no == 2
    assert e.dealer == 0
    assert e.hands[1].fantasyland
    assert len(e.hands[1].pending) == 13
    assert e.to_act() == {0, 1, 2}


@pytest.mark.parametrize("variant", ["a", "b", "c"])
def test_ofc1_through_the_engine(variant: str) -> None:
    e = engine(variant, {1: A, 0: B})
    play_boards(e, {1: A, 0: B}, [n for n, _ in OFCRules(variant=variant).streets()])  # type: ignore[arg-type]
    assert e.results[0].deltas == (-8, 8)


def test_ofc2_foul_through_the_engine_variant_a() -> None:
    b_foul = Board.parse("Kc 7s 6d / Js Jd 8s 8d 2d / Tc Td 7c 4c 4s")
    e = engine("a", {1: A, 0: b_foul})
    play_boards(e, {1: A, 0: b_foul}, [5] + [1] * 8)
    assert e.results[0].deltas == (-16, 16)


def test_ofc9_dealer_freezes_while_anyone_is_in_fantasyland() -> None:
    # Variant c, P1..P4 = seats 0..3, P1 deals; P3 (seat 2) makes QQ.
    first = {1: B, 2: A, 3: C, 0: D}
    hand2 = {1: A_PLAIN, 3: C, 0: D}
    fl_cards = " ".join(c.notation for c in B.cards())
    shuffler = stacked(
        [
            dealer_order(0),
            deal_order(first, [1, 2, 3, 0], TURBO),
            deal_order(hand2, [1, 2, 3, 0], TURBO, fl={2: fl_cards}),
        ]
    )
    e = OFCEngine(OFCRules(variant="c"), [100] * 4, shuffler)
    play_boards(e, first, TURBO)
    assert e.dealer == 0  # P1 deals again
    assert e.hands[2].fantasyland
    assert sorted(e.hands[2].pending) == sorted(B.cards())
    # The Fantasyland player may submit at any time; his board stays face down until the hand ends.
    e.apply(2, place([(c, r) for s in streets_of(B, [13]) for c, r in s]))
    assert all(c is None for c in e.public_view().boards[2].back)
    assert sorted(e.view(2).board.back) == sorted(B.back)  # type: ignore[type-var]
    play_boards(e, hand2, TURBO)
    assert e.results[1].summary["fantasyland_next"] == [0, 0, 0, 0]
    assert e.dealer == 1  # no one in Fantasyland: the deal passes to P2
    assert e.button_moves == 1


def test_no_freeze_option_moves_the_button() -> None:
    e = engine("c", {1: B, 2: A, 3: C, 0: D}, freeze_dealer_during_fl=False)
    play_boards(e, {1: B, 2: A, 3: C, 0: D}, TURBO)
    assert e.dealer == 1
    assert e.hands[2].fantasyland


def test_ofc7_kk_gives_14_cards_and_one_discard() -> None:
    e = engine("d", {1: E_KK, 0: B})
    play_boards(e, {1: E_KK, 0: B}, TURBO)
    assert e.results[0].summary["fantasyland_next"] == [0, 14]
    hand = e.hands[1]
    assert len(hand.pending) == 14
    assert hand.discard_due == 1
    arr = solve(hand.pending, e.rules)
    no_discard = Place.of({"front": arr.front, "middle": arr.middle, "back": arr.back})
    with pytest.raises(IllegalAction) as err:
        e.apply(1, no_discard)
    assert err.value.code == "ofc.wrong_discard_count"
    e.apply(1, Place.of({"front": arr.front, "middle": arr.middle, "back": arr.back}, arr.discards))
    assert 1 not in e.to_act()
    assert e.view(1).own_discards == arr.discards
    assert not set(arr.discards) & {
        c for b in e.public_view().boards for r in ("front", "middle", "back") for c in b.row(r)
    }


def test_a_fantasyland_hand_lists_every_arrangement_as_one_family() -> None:
    import random

    from games.core.actions import is_listed
    from games.ofc.actions import Arrangements

    e = engine("d", {1: E_KK, 0: B})
    play_boards(e, {1: E_KK, 0: B}, TURBO)
    (family,) = e.legal_actions(1)
    assert isinstance(family, Arrangements) and family.discard == 1 and family.free == (3, 5, 5)
    arr = solve(e.hands[1].pending, e.rules)
    assert family.example == Place.of({"front": arr.front, "middle": arr.middle, "back": arr.back}, arr.discards)
    rng = random.Random(5)
    for _ in range(200):  # random members, fouls included, are all accepted
        member = family.sample(rng)
        assert family.allows(member) and e.refusal(1, member) is None
    # Near misses are outside the family and refused: a card moved to a full row, the discard kept, a card twice.
    cards = list(family.example.items)
    moved = Place(tuple((c, "front" if i == 3 else t) for i, (c, t) in enumerate(cards)))
    kept = Place(tuple((c, "back" if t == "discard" else t) for c, t in cards))
    twice = Place((*cards[:-1], (cards[0][0], "discard")))
    for wrong in (moved, kept, twice):
        assert not is_listed(wrong, [family]) and e.refusal(1, wrong) is not None
    e.apply(1, family.sample(rng))
    assert 1 not in e.to_act()


def test_turbo_streets_are_simultaneous_and_revealed_together() -> None:
    boards = {1: B, 2: A, 3: C, 0: D}
    e = engine("c", boards)
    assert e.to_act() == {0, 1, 2, 3}
    first = streets_of(A, TURBO)[0]
    e.apply(2, place(first))
    assert e.to_act() == {0, 1, 3}
    public = e.public_view()
    assert public.boards[2].front == (None, None, None)
    assert sorted(e.view(2).board.front) == sorted(A.front)  # type: ignore[type-var]
    assert e.view(1).board.front == ()
    assert set(e.hidden_from(1)) >= {c for c, _ in first}
    # A seat's view carries the onlookers' view unchanged: its own face-down cards only in ``board``.
    assert e.view(2).public == public
    assert e.view(2).public.boards[2].front == (None, None, None)
    with pytest.raises(IllegalAction) as err:
        e.apply(2, place(first))
    assert err.value.code == "ofc.already_submitted"
    for seat in (0, 1, 3):
        e.apply(seat, place(streets_of(boards[seat], TURBO)[0]))
    assert sorted(e.public_view().boards[2].front) == sorted(A.front)  # type: ignore[type-var]
    assert e.public_view().street == 2
    assert e.to_act() == {0, 1, 2, 3}


def test_variant_a_and_b_act_in_turn_from_the_dealers_left() -> None:
    for variant in "ab":
        e = engine(variant, {1: B, 2: A, 3: C, 0: D}, dealer=0)
        assert e.to_act() == {1}
        assert e.legal_actions(2) == []
        if variant == "a":
            assert e.public_view().face_up == {1: tuple(e.hands[1].pending)}
        else:
            assert e.public_view().face_up == {}
            assert set(e.hands[1].pending) <= e.hidden_from(None)


def test_pineapple_streets_keep_two_discard_one() -> None:
    e = OFCEngine(OFCRules(variant="d", d_pineapple_streets=True), [100, 100], stacked(["As"], seed=3))
    assert e.rules.streets() == ((5, 0), (3, 1), (3, 1), (3, 1), (3, 1))
    n = 0
    while e.hand_no == 1:
        seat = min(e.to_act())
        action = first(e.legal_actions(seat))
        assert isinstance(action, Place)
        if e.hands[seat].placed:
            assert len(action.discards) == 1
        e.apply(seat, action)
        n += 1
    assert n == 10
    assert len(e.results) == 1


# ------------------------------------------------------------------ refusals leave the state unchanged


def refused(e: OFCEngine, seat: int, text: str) -> str:
    before = copy.deepcopy(vars(e))
    with pytest.raises(IllegalAction) as err:
        e.apply(seat, CODEC.parse(text))
    assert vars(e) == before
    return err.value.code


def test_refusals_have_precise_codes_and_change_nothing() -> None:
    e = engine("c", {1: B, 2: A, 3: C, 0: D})
    hand = [c.notation for c in e.hands[2].pending]  # Qs Qh 4d 9c 9d
    assert refused(e, 2, f"place {hand[0]}:f {hand[1]}:f {hand[2]}:m {hand[3]}:m") == "ofc.wrong_card_count"
    assert refused(e, 2, f"place {hand[0]}:f {hand[1]}:f {hand[2]}:f {hand[3]}:f {hand[4]}:m") == "ofc.row_full"
    assert refused(e, 2, f"place Kc:f {hand[1]}:f {hand[2]}:m {hand[3]}:m {hand[4]}:m") == "ofc.card_not_yours"
    assert refused(e, 2, f"place {hand[0]}:f {hand[0]}:m {hand[2]}:m {hand[3]}:m {hand[4]}:m") == "ofc.duplicate_card"
    assert refused(e, 2, f"place {hand[0]}:x {hand[1]}:f {hand[2]}:m {hand[3]}:m {hand[4]}:m") == "ofc.no_discard"
    assert refused(e, 7, f"place {hand[0]}:f") == "core.no_such_seat"
    e.apply(2, CODEC.parse(f"place {' '.join(h + ':b' for h in hand)}"))
    assert refused(e, 2, "place 2c:f") == "ofc.already_submitted"


def test_refusals_in_turn_based_variants() -> None:
    e = engine("b", {1: B, 2: A, 3: C, 0: D})
    assert refused(e, 2, "place Qs:f Qh:f 4d:f 9c:m 9d:m") == "core.not_your_turn"


def test_refusal_after_the_game_is_over() -> None:
    e = OFCEngine(OFCRules(variant="c", dealer_orbits=1), [100, 100], stacked(["As"], seed=5))
    while not e.is_over:
        seat = min(e.to_act())
        e.apply(seat, first(e.legal_actions(seat)))
    assert e.button_moves >= 2 or any(s <= 0 for s in e.stacks)
    assert refused(e, 0, "place 2c:f") == "core.game_over"


def test_seat_counts_follow_the_variant() -> None:
    with pytest.raises(ValueError, match="2-3"):
        OFCEngine(OFCRules(variant="d"), [100] * 4, stacked(["As"]))
    with pytest.raises(ValueError, match="4-4"):
        OFCEngine(OFCRules(variant="c", allow_2_3_players=False), [100] * 3, stacked(["As"]))


def test_bankruptcy_ends_the_game_and_stacks_never_go_negative() -> None:
    b_foul = Board.parse("Kc 7s 6d / Js Jd 8s 8d 2d / Tc Td 7c 4c 4s")
    order = [1, 0]
    shuffler = stacked([dealer_order(0), deal_order({1: A, 0: b_foul}, order, TURBO)])
    e = OFCEngine(OFCRules(variant="c"), [10, 100], shuffler)
    play_boards(e, {1: A, 0: b_foul}, TURBO)
    assert e.results[0].deltas == (-10, 10)
    assert e.results[0].summary["points"] == [-19, 19]
    assert e.is_over
    assert e.stacks == [0, 110]


def test_card_notation_in_actions() -> None:
    action = CODEC.parse("place 10h:front As:b 2c:discard")
    assert action.text == "place Th:f As:b 2c:x"
    assert CODEC.parse(action.text) == action
    assert isinstance(action, Place)
    assert action.discards == parse_french("2c")


# ------------------------------------------------------------------ Fantasyland counts the pack cannot deal

STAYS_C = Board.parse("3c 4d 6s / 7c 7d 7h 5s 5d / Js Jh Jd 2s 2h")  # middle full house: stays in a, b and c


def others_from(rest: list[str], seats: list[int]) -> dict[int, Board]:
    """Boards for the normal seats from the cards left over (they may foul: only the count matters here)."""
    out = {}
    for k, seat in enumerate(seats):
        cards = rest[13 * k : 13 * k + 13]
        out[seat] = Board.parse(f"{' '.join(cards[:3])} / {' '.join(cards[3:8])} / {' '.join(cards[8:])}")
    return out


@pytest.mark.parametrize(("seats", "dealt"), [(4, 13), (3, 17)])
def test_fantasyland_count_announced_is_the_count_dealt(seats: int, dealt: int) -> None:
    """With fl_cards_continue 17, four Turbo players need 17 + 3 x 13 = 56 cards: the stayer gets 13, and the
    hand that earned it must announce 13, not 17. Three players fit (17 + 26), so nothing is trimmed."""
    first = {1: B, 2: A, 3: C, 0: D} if seats == 4 else {1: B, 2: A, 0: D}
    order = [(1 + k) % seats for k in range(seats)]
    normals = [s for s in order if s != 2]
    fl_cards = [c.notation for c in STAYS_C.cards()]
    rest = [c.notation for c in french_deck() if c.notation not in fl_cards]
    hand2 = others_from(rest, normals)
    shuffler = stacked(
        [
            dealer_order(0),
            deal_order(first, order, TURBO),
            deal_order(hand2, order, TURBO, fl={2: " ".join(fl_cards)}),
        ]
    )
    e = OFCEngine(OFCRules(variant="c", fl_cards_continue=17), [100] * seats, shuffler)
    play_boards(e, first, TURBO)
    assert e.results[0].summary["fantasyland_next"][2] == 13  # QQ entry: 13 in variant c
    assert len(e.hands[2].pending) == 13
    e.apply(2, place([(c, r) for s in streets_of(STAYS_C, [13]) for c, r in s]))
    play_boards(e, hand2, TURBO)
    assert e.hand_no == 3
    announced = e.results[1].summary["fantasyland_next"]
    assert e.last is not None and list(e.last.fantasyland_next) == announced
    assert announced[2] == dealt
    for seat in range(seats):
        hand = e.hands[seat]
        assert announced[seat] == (len(hand.pending) if hand.fantasyland else 0)
        assert announced[seat] == hand.fl_cards
    assert e.hands[2].discard_due == dealt - 13
