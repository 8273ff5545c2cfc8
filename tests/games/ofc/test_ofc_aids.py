"""Panel aids: foul status (exact), royalties held, and the hint."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from ofc_testkit import seeded

from games.core.actions import is_listed
from games.core.cards import FrenchCard, french_deck, parse_french
from games.ofc.aids import foul_status, panel_aids, royalties_held, unseen_cards
from games.ofc.board import Board
from games.ofc.engine import OFCEngine
from games.ofc.eval import eval_row, is_foul
from games.ofc.rules import OFCRules


def board(front: str, middle: str, back: str) -> Board:
    return Board(tuple(parse_french(front)), tuple(parse_french(middle)), tuple(parse_french(back)))


def unseen(b: Board, but: str = "") -> list[FrenchCard]:
    """Every card not on the board (nor in ``but``)."""
    out = set(b.cards()) | set(parse_french(but))
    return [c for c in french_deck() if c not in out]


def test_complete_boards() -> None:
    rules = OFCRules()
    good = Board.parse("Qs Qh 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h")
    bad = Board.parse("Kc 7s 6d / Js Jd 8s 8d 2d / Tc Td 7c 4c 4s")
    assert foul_status(good, rules, unseen(good)) == "ok"
    assert foul_status(bad, rules, unseen(bad)) == "fouled"
    assert royalties_held(good, rules) == 13
    assert royalties_held(bad, rules) == 0


def test_unavoidable_foul_is_detected() -> None:
    rules = OFCRules()
    # Front trips aces: no middle can beat it once the middle is a made pair with one card to come.
    b = board("Ac Ad Ah", "2c 2d 3h 4s", "Kc Kd")
    assert foul_status(b, rules, unseen(b)) == "unavoidable"
    # A complete two-pair middle over a back of T 9 7 5 with one card to come: a pair at best.
    b2 = board("2c 3d", "Jc Jd 8h 8s 2d", "Tc 9d 7h 5s")
    assert foul_status(b2, rules, unseen(b2)) == "unavoidable"
    # T 9 8 7 can still become a straight, which beats the two pair.
    b3 = board("2c 3d", "Jc Jd 8h 8s 2d", "Tc 9d 7h 8c")
    assert foul_status(b3, rules, unseen(b3)) == "ok"


def test_trips_in_front_then_a_card_to_the_back() -> None:
    """The play report: 777 in front, so the middle needs trips kings or a full house (K K 2 plus two cards),
    and Q J 4 with two cards to come never beats that. The old bound took any row missing two or more cards
    for "anything" and said ok."""
    rules = OFCRules()
    back = board("7c 7d 7h", "Kc Kd 2s", "Qc Jd 4h")
    assert foul_status(back, rules, unseen(back)) == "unavoidable"
    # The same 4h in the middle keeps a clean finish: a king there, a straight behind.
    middle = board("7c 7d 7h", "Kc Kd 2s 4h", "Qc Jd")
    assert foul_status(middle, rules, unseen(middle)) == "ok"
    # ... but only while a king is unseen.
    assert foul_status(middle, rules, unseen(middle, but="Kh Ks")) == "unavoidable"


def test_a_flush_needs_enough_unseen_cards_of_its_suit() -> None:
    """The back must beat a made straight; 2 5 J of hearts beat it only as a flush, with two more hearts."""
    rules = OFCRules()
    b = board("Ac Kd", "5c 6d 7s 8c 9d", "2h 5h Jh")
    hearts = [c for c in french_deck() if c.suit == "h" and c not in b.cards()]
    one_heart = [c for c in unseen(b) if c.suit != "h"] + hearts[:1]
    assert foul_status(b, rules, one_heart) == "unavoidable"
    assert foul_status(b, rules, [*one_heart, hearts[1]]) == "ok"


def test_foul_on_equal_needs_a_back_strictly_stronger() -> None:
    """A K Q J 9 in the middle; the back A K Q J (or A K Q) can at best equal it with these cards."""
    equal = OFCRules(foul_on_equal=True)
    one = board("2c 3c 4c", "As Kd Qc Jh 9s", "Ah Kc Qd Js")
    two = board("2c 3c 4c", "As Kd Qc Jh 9s", "Ah Kc Qd")
    for b, cards in ((one, "9c 8h 2d"), (two, "Jd 9c 8h 2d")):
        assert foul_status(b, OFCRules(), parse_french(cards)) == "ok"
        assert foul_status(b, equal, parse_french(cards)) == "unavoidable"
    # With a ten the back makes a straight, strictly stronger.
    assert foul_status(two, equal, parse_french("Jd Tc 8h 2d")) == "ok"


def test_rows_competing_for_the_last_card() -> None:
    """Middle K Q 8 4 must pair up to beat the front's 2 2; the back A K Q J then needs a pair or a straight.
    Each row alone can use Kd, but not both: with Kd and 5c only, every board fouls."""
    rules = OFCRules()
    b = board("2c 2d 3h", "Kc Qd 8h 4s", "Ah Kh Qh Jh")
    assert foul_status(b, rules, parse_french("Kd 5c")) == "unavoidable"
    assert foul_status(b, rules, parse_french("Kd Td")) == "ok"


def test_a_row_forced_into_a_flush() -> None:
    """6 8 T of hearts in the middle must stay below a back of K K 7 5 plus one card. If every card left is a
    heart, the middle becomes a flush whatever it takes, and the board fouls; one other card saves it."""
    rules = OFCRules()
    b = board("2c 3d 4s", "6h 8h Th", "Kc Kd 7s 5c")
    assert foul_status(b, rules, parse_french("Jh Qh 2h")) == "unavoidable"
    assert foul_status(b, rules, parse_french("Jc Qh 2h")) == "ok"


def test_too_few_unseen_cards_means_no_clean_finish() -> None:
    b = board("2c 3d", "Jc Jd 8h 8s 2d", "Ac Ad Ah As")
    assert foul_status(b, OFCRules(), parse_french("Kc")) == "unavoidable"
    assert foul_status(b, OFCRules(), parse_french("Kc Qd")) == "ok"


def test_open_board_is_ok() -> None:
    b = board("Kc", "2c", "")
    assert foul_status(b, OFCRules(), unseen(b)) == "ok"


def test_partial_royalties() -> None:
    b = board("", "2h 2d 2c 7s 3h", "As Ks Qs Js Ts")
    assert royalties_held(b, OFCRules()) == 2 + 25


def test_panel_aids_hint_is_legal() -> None:
    e = OFCEngine(OFCRules(variant="c"), [100] * 3, seeded(1))
    for seat in sorted(e.to_act()):
        aids = panel_aids(e.view(seat))
        assert aids.foul == "ok"
        assert aids.royalties == 0
        assert aids.hint is not None
        assert is_listed(aids.hint, e.legal_actions(seat))


def test_panel_aids_judge_the_board_with_the_cards_being_placed() -> None:
    from ofc_testkit import dealer_order, stacked

    # Seat 0 (left of dealer 1) is dealt three aces and two low cards first.
    e = OFCEngine(OFCRules(variant="c"), [100, 100], stacked([dealer_order(1), "As Ah Ad 2c 3d"]))
    view = e.view(0)
    assert panel_aids(view, hint=False) == panel_aids(view, {}, hint=False)
    aces = parse_french("As Ah Ad")
    aids = panel_aids(view, {"front": aces, "middle": parse_french("2c 3d")}, hint=False)
    assert (aids.foul, aids.royalties, aids.hint, aids.fantasyland) == ("ok", 22, None, None)


def test_panel_aids_say_when_a_complete_board_enters_or_stays_in_fantasyland() -> None:
    from ofc_testkit import deal_order, dealer_order, place, stacked, streets_of

    qq = Board.parse("Qs Qh 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h")
    low = Board.parse("2d 3d 4s / 5c 6c 7h 8s Tc / Jc Jd Js Kc Kd")
    stay = "2c 3c 4d 5h 5d 6s 6h 7c 9s 9h 9d 9c Ks"  # seat 0's Fantasyland cards next hand: quads for the back
    sizes = (5, 4, 4)
    hand1 = deal_order({0: qq, 1: low}, [0, 1], sizes)
    hand2 = stay + " " + deal_order({1: low}, [1], sizes)
    e = OFCEngine(OFCRules(variant="c"), [100, 100], stacked([dealer_order(1), hand1, hand2]))
    for k in range(2):
        for seat, b in ((0, qq), (1, low)):
            e.apply(seat, place(streets_of(b, sizes)[k]))
    last = streets_of(qq, sizes)[2]
    rows = {r: [c for c, row in last if row == r] for r in ("front", "middle", "back")}
    assert panel_aids(e.view(0), rows, hint=False).fantasyland == "enters"
    assert panel_aids(e.view(0), hint=False).fantasyland is None  # not complete without them
    e.apply(0, place(last))
    e.apply(1, place(streets_of(low, sizes)[2]))
    view = e.view(0)
    assert view.fantasyland_hand
    keeps = {
        "front": parse_french("2c 3c 4d"),
        "middle": parse_french("5h 5d 6s 6h 7c"),
        "back": parse_french("9s 9h 9d 9c Ks"),
    }
    aids = panel_aids(view, keeps, hint=False)
    assert (aids.foul, aids.fantasyland) == ("ok", "stays")
    fouls = {
        "front": parse_french("9s 9h 9d"),
        "middle": parse_french("5h 5d 6s 6h 7c"),
        "back": parse_french("9c Ks 2c 3c 4d"),
    }
    aids = panel_aids(view, fouls, hint=False)
    assert (aids.foul, aids.fantasyland) == ("fouled", None)


# ------------------------------------------------------------------ against brute force


def brute_force_clean(b: Board, pool: list[FrenchCard], strict: bool) -> bool:
    """Some assignment of distinct pool cards to the empty slots does not foul (tries them all)."""
    kf, km, kb = (b.free(r) for r in ("front", "middle", "back"))
    for cf in combinations(pool, kf):
        fv = eval_row(b.front + cf)
        left = [c for c in pool if c not in cf]
        for cm in combinations(left, km):
            mv = eval_row(b.middle + cm)
            if fv > mv:
                continue
            rest = [c for c in left if c not in cm]
            if any(not is_foul(fv, mv, eval_row(b.back + cb), strict) for cb in combinations(rest, kb)):
                return True
    return False


@st.composite
def small_situations(draw: st.DrawFn) -> tuple[Board, list[FrenchCard]]:
    """A partial board missing 1-5 cards and a few unseen cards, from a pack of few ranks or suits, where
    pairs, flushes, straights and rows wanting the same card are common."""
    ranks = draw(st.lists(st.integers(2, 14), min_size=3, max_size=8, unique=True))
    suits = draw(st.lists(st.sampled_from("cdhs"), min_size=1, max_size=4, unique=True))
    pack = [c for c in french_deck() if c.rank in ranks or c.suit == suits[0]]
    pack = [c for c in pack if c.suit in suits or c.rank in ranks[:3]]
    missing = draw(
        st.tuples(st.integers(0, 3), st.integers(0, 5), st.integers(0, 5)).filter(lambda m: 1 <= sum(m) <= 5)
    )
    placed = 13 - sum(missing)
    cards = draw(st.permutations(pack))
    if len(cards) < placed + sum(missing):
        cards = cards + [c for c in french_deck() if c not in cards]
    sizes = (3 - missing[0], 5 - missing[1], 5 - missing[2])
    rows = (cards[: sizes[0]], cards[sizes[0] : sizes[0] + sizes[1]], cards[sizes[0] + sizes[1] : placed])
    extra = draw(st.integers(0, 4))
    pool = cards[placed : placed + sum(missing) + extra]
    return Board(*(tuple(r) for r in rows)), pool


@settings(max_examples=150, deadline=None)
@given(small_situations(), st.booleans())
def test_foul_status_matches_brute_force(situation: tuple[Board, list[FrenchCard]], strict: bool) -> None:
    b, pool = situation
    rules = OFCRules(foul_on_equal=strict)
    expected = "ok" if brute_force_clean(b, pool, strict) else "unavoidable"
    assert foul_status(b, rules, pool) == expected


def test_panel_aids_complete_a_fantasyland_board_from_the_seats_own_cards() -> None:
    """A Fantasyland board is filled from the cards the seat holds, so those decide whether a foul is certain."""
    from ofc_testkit import deal_order, dealer_order, place, stacked, streets_of

    qq = Board.parse("Qs Qh 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h")
    low = Board.parse("2d 3d 4s / 5c 6c 7h 8s Tc / Jc Jd Js Kc Kd")
    held = "2c 3c 4d 5h 5d 6s 6h 7c 9s 9h 9d 9c Ks"
    sizes = (5, 4, 4)
    hand2 = held + " " + deal_order({1: low}, [1], sizes)
    e = OFCEngine(
        OFCRules(variant="c"), [100, 100], stacked([dealer_order(1), deal_order({0: qq, 1: low}, [0, 1], sizes), hand2])
    )
    for k in range(3):
        for seat, b in ((0, qq), (1, low)):
            e.apply(seat, place(streets_of(b, sizes)[k]))
    view = e.view(0)
    assert view.fantasyland_hand
    # Trips nines in front: the middle 2 3 4 5 needs a six for a straight, and the back, from 5d 7c 9c Ks and the
    # other six, is then a high card. Cards from the pack could save it (an ace for the wheel and a strong back),
    # but none will come.
    placing = {"front": parse_french("9s 9h 9d"), "middle": parse_french("2c 3c 4d 5h")}
    assert panel_aids(view, placing, hint=False).foul == "unavoidable"
    partial = view.full_board().with_cards(placing)
    assert foul_status(partial, view.rules, unseen_cards(view)) == "ok"
    safe = {"front": parse_french("2c 3c 4d"), "middle": parse_french("5h 5d 6s 6h 7c")}
    assert panel_aids(view, safe, hint=False).foul == "ok"
