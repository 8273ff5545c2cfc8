"""Panel aids: foul status (sound), royalties held, and the hint."""

from __future__ import annotations

from ofc_testkit import seeded

from games.core.cards import french_deck, parse_french
from games.ofc.aids import foul_status, panel_aids, royalties_held
from games.ofc.board import Board
from games.ofc.engine import OFCEngine
from games.ofc.rules import OFCRules


def board(front: str, middle: str, back: str) -> Board:
    return Board(tuple(parse_french(front)), tuple(parse_french(middle)), tuple(parse_french(back)))


def unseen(b: Board) -> list:  # type: ignore[type-arg]
    return [c for c in french_deck() if c not in b.cards()]


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
        assert aids.hint in e.legal_actions(seat)


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
    keeps = {"front": parse_french("2c 3c 4d"), "middle": parse_french("5h 5d 6s 6h 7c"),
             "back": parse_french("9s 9h 9d 9c Ks")}
    aids = panel_aids(view, keeps, hint=False)
    assert (aids.foul, aids.fantasyland) == ("ok", "stays")
    fouls = {"front": parse_french("9s 9h 9d"), "middle": parse_french("5h 5d 6s 6h 7c"),
             "back": parse_french("9c Ks 2c 3c 4d")}
    aids = panel_aids(view, fouls, hint=False)
    assert (aids.foul, aids.fantasyland) == ("fouled", None)
