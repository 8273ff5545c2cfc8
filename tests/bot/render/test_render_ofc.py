"""The public OFC table: boards from the generic drawing shape and from the engine's public view."""

from __future__ import annotations

import io
import random
import typing
from dataclasses import replace

import pytest
from PIL import Image

from bot.render import ofc
from games.core.actions import AmountRange
from games.core.cards import FrenchCard, parse_french
from games.ofc.views import OFCPublicView

NAMES = ["たろう🎴", "A very long display name that never ends", "花子", "Bob"]


def _row(text: str, size: int, hidden: int = 0, hand: str | None = None, royalty: int = 0) -> ofc.OFCRowDrawing:
    cards: tuple[FrenchCard | None, ...] = tuple(parse_french(text)) + (None,) * hidden
    return ofc.OFCRowDrawing(cards=cards, size=size, hand=hand, royalty=royalty)


def _busy(seats: int, showdown: bool = False) -> ofc.OFCTableDrawing:
    boards = []
    for seat in range(seats):
        boards.append(
            ofc.OFCBoardDrawing(
                seat=seat,
                rows=(
                    _row("Qs Qh 4d", 3, hand="pair", royalty=7),
                    _row("9c 9d 9h 5s 2c", 5, hand="trips", royalty=2),
                    _row("Ah Kh 8h 6h 3h", 5, hand="flush", royalty=4),
                )
                if showdown or seat % 2
                else (_row("As", 3, hidden=2), _row("Td 9d", 5, hidden=3), _row("", 5, hidden=4)),
                stack=100 + seat * 1000,
                royalties=13 if showdown else 0,
                fouled=showdown and seat == 1,
                fantasyland=seat == 2,
                fantasyland_next=showdown and seat == 0,
                awaiting=not showdown and seat == 3,
                is_dealer=seat == 0,
                result=(12, -20, 5, 3)[seat] if showdown else None,
                to_place=tuple(parse_french("Kc 7s")) if seat == 3 and not showdown else (),
            )
        )
    return ofc.OFCTableDrawing(
        variant="c", hand_no=3, street=2, streets=3, boards=tuple(boards), showdown=showdown, waiting=(3,)
    )


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("showdown", [False, True])
def test_boards_compose_at_the_expected_size(seats: int, showdown: bool) -> None:
    img = ofc.compose_ofc_table(_busy(seats, showdown), NAMES, "ja")
    assert img.size == (ofc.WIDTH, ofc.table_height(seats))
    assert img.mode == "RGB"


def test_face_down_cards_are_backs_and_change_the_picture() -> None:
    table = _busy(4)
    hidden = ofc.compose_ofc_table(table, NAMES, "en").tobytes()
    board = table.boards[0]
    shown_row = _row("As Ks 2d", 3)
    revealed_board = replace(board, rows=(shown_row, board.rows[1], board.rows[2]))
    revealed = replace(table, boards=(revealed_board, *table.boards[1:]))
    assert ofc.compose_ofc_table(revealed, NAMES, "en").tobytes() != hidden


def test_renderer_takes_only_the_public_view() -> None:
    assert typing.get_type_hints(ofc.render_ofc_table)["view"] is OFCPublicView


def test_engine_views_render_as_small_paletted_pngs() -> None:
    from games.core.rng import Shuffler
    from games.ofc.engine import OFCEngine
    from games.ofc.rules import OFCRules

    rng = random.Random(5)
    engine = OFCEngine(OFCRules(variant="c"), [100] * 4, Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}"))
    for _ in range(13):  # through the first hand's streets (placed face down in Turbo) and into the showdown
        data = ofc.render_ofc_table(engine.public_view(), NAMES, "ja")
        img = Image.open(io.BytesIO(data))
        assert img.mode == "P"
        assert img.size == (ofc.WIDTH, ofc.table_height(4))
        assert len(data) <= 100 * 1024
        if engine.is_over:
            break
        seat = min(engine.to_act())
        choice = rng.choice(engine.legal_actions(seat))
        engine.apply(seat, choice.make(choice.lo) if isinstance(choice, AmountRange) else choice)


def test_every_label_has_a_fallback_in_both_languages() -> None:
    for key, texts in ofc.FALLBACK.items():
        assert texts.get("en"), key
        assert texts.get("ja"), key
