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
