"""The public OFC table: boards from the generic drawing shape and from the engine's public view."""

from __future__ import annotations

import io
import random
import re
import typing
from dataclasses import replace

import pytest
from PIL import Image, ImageDraw

from bot.i18n import has, t
from bot.render import ofc
from bot.render import palette as P
from bot.render.text import Canvas, ink_box
from games.core.actions import ActionFamily, AmountRange
from games.core.cards import FrenchCard, parse_french
from games.ofc.board import ROWS, Board
from games.ofc.eval import CATEGORY_NAMES, ROYAL_FLUSH_NAME
from games.ofc.rules import Variant
from games.ofc.views import OFCPublicView

NAMES = ["たろう🎴", "A very long display name that never ends", "花子", "Bob"]


def _row(text: str, size: int, hidden: int = 0, hand: str | None = None, royalty: int = 0) -> ofc.OFCRowDrawing:
    cards: tuple[FrenchCard | None, ...] = tuple(parse_french(text)) + (None,) * hidden
    return ofc.OFCRowDrawing(cards=cards, size=size, hand=hand, royalty=royalty)


def _pairs(seats: int) -> tuple[ofc.OFCPairDrawing, ...]:
    """Every pair of ``seats`` with varied results: won and lost rows, ties, scoops either way, a push."""
    kinds = [
        ((-1, -1, -1), -3, -123),
        ((1, -1, 1), 0, 7),
        ((1, 1, 1), 3, 26),
        ((0, 1, -1), 0, 0),
        ((1, 1, 1), 3, -4),
        ((-1, 0, -1), 0, -2),
    ]
    pairs = [(a, b) for a in range(seats) for b in range(a + 1, seats)]
    return tuple(ofc.OFCPairDrawing(a, b, *kinds[k % len(kinds)]) for k, (a, b) in enumerate(pairs))


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
        variant="c",
        hand_no=3,
        street=2,
        streets=3,
        boards=tuple(boards),
        showdown=showdown,
        waiting=(3,),
        pairs=_pairs(seats) if showdown else (),
    )


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("showdown", [False, True])
def test_boards_compose_at_the_expected_size(seats: int, showdown: bool) -> None:
    table = _busy(seats, showdown)
    img = ofc.compose_ofc_table(table, NAMES, "ja")
    assert img.size == (ofc.WIDTH, ofc.table_height(seats, len(table.pairs)))
    assert img.mode == "RGB"
    boards_only = {2: 312, 3: 576, 4: 576}[seats]  # two boards a row, each 256 px, under a 40 px bar
    assert ofc.table_height(seats) == boards_only
    if not showdown or seats == 3:  # three boards leave a free cell for the three pairs' results
        assert img.height == boards_only
    else:  # a strip of pair results under the boards: one line for two players, three for four
        assert img.height == boards_only + {2: 1, 4: 3}[seats] * (ofc.PAIR_H + ofc.CELL_GAP)


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
        view = engine.public_view()
        data = ofc.render_ofc_table(view, NAMES, "ja")
        img = Image.open(io.BytesIO(data))
        assert img.mode == "P"
        assert img.size == (ofc.WIDTH, ofc.table_height(4, len(ofc.ofc_drawing(view).pairs)))
        assert len(data) <= 100 * 1024
        if engine.is_over:
            break
        seat = min(engine.to_act())
        choice = rng.choice(engine.legal_actions(seat))
        if isinstance(choice, AmountRange):
            engine.apply(seat, choice.make(choice.lo))
        elif isinstance(choice, ActionFamily):  # a street's placements, or a Fantasyland hand's arrangements
            engine.apply(seat, choice.sample(rng))
        else:
            engine.apply(seat, choice)


def test_every_key_the_renderer_builds_is_in_the_catalog() -> None:
    keys = [f"ofc.short_hand_{name}" for name in (*CATEGORY_NAMES, ROYAL_FLUSH_NAME)]
    keys += [f"ofc.short_variant_{v}" for v in typing.get_args(Variant)]
    keys += [f"ofc.table_row_{row}" for row in ROWS]
    keys += ["ofc.table_pairs", "ofc.table_scoop"]
    assert [k for k in keys if not has(k)] == []


class RecordingCanvas(Canvas):
    """A canvas that also notes the box of every text's ink and of every badge it draws, and the box of every
    card: a face or back pasted on it (``cards``), or a card-coloured shape such as a card chip (``chips``)."""

    def __init__(self, img: Image.Image) -> None:
        super().__init__(img)
        self.boxes: list[tuple[str, tuple[float, float, float, float]]] = []
        self.colours: list[P.RGB] = []
        """The colour of each of ``boxes``: a text's, a badge's fill."""
        self.panels: list[tuple[float, float, float, float]] = []
        """Every dark panel (the title bar, a board, a pair's entry): the backgrounds text is drawn on."""
        self.cards: list[tuple[float, float, float, float]] = []
        self.chips: list[tuple[float, float, float, float]] = []
        self._in_badge = False
        paste = img.paste

        def recording_paste(im: typing.Any, box: typing.Any = None, mask: typing.Any = None) -> None:
            if isinstance(im, Image.Image) and isinstance(box, tuple) and len(box) == 2:  # not text's colour fill
                self.cards.append((box[0], box[1], box[0] + im.width, box[1] + im.height))
            paste(im, box, mask)

        setattr(img, "paste", recording_paste)  # noqa: B010 (mypy refuses assigning to a method)
        self.draw = _RecordingDraw(img, self.chips, self.panels)
        RecordingCanvas.last = self

    last: RecordingCanvas

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: P.RGB = P.TEXT,
        anchor: str = "ls",
        bold: bool = False,
    ) -> float:
        if text and not self._in_badge:
            self.boxes.append((text, ink_box(xy, text, size, anchor, bold)))
            self.colours.append(fill)
        return super().text(xy, text, size, fill, anchor, bold)

    def badge(self, x: float, baseline: float, text: str, size: int, bg: P.RGB, fg: P.RGB) -> float:
        self._in_badge = True
        try:
            w = super().badge(x, baseline, text, size, bg, fg)
        finally:
            self._in_badge = False
        self.boxes.append((text, (x, baseline - size * 0.95, x + w, baseline + size * 0.22)))  # Canvas.badge's box
        self.colours.append(bg)
        return w


class _RecordingDraw(ImageDraw.ImageDraw):
    """Notes the box of every paper-filled (card-coloured) rounded rectangle, and of every dark panel."""

    def __init__(
        self,
        img: Image.Image,
        chips: list[tuple[float, float, float, float]],
        panels: list[tuple[float, float, float, float]],
    ) -> None:
        super().__init__(img)
        self.chips = chips
        self.panels = panels

    def rounded_rectangle(self, xy: typing.Any, *args: typing.Any, **kwargs: typing.Any) -> None:
        x0, y0, x1, y1 = xy
        if kwargs.get("fill") == P.PAPER:
            self.chips.append((x0, y0, x1, y1))
        if kwargs.get("fill") == P.FELT_DARK:
            self.panels.append((x0, y0, x1, y1))
        super().rounded_rectangle(xy, *args, **kwargs)

    def rectangle(self, xy: typing.Any, *args: typing.Any, **kwargs: typing.Any) -> None:
        if kwargs.get("fill") == P.FELT_DARK:
            x0, y0, x1, y1 = xy
            self.panels.append((x0, y0, x1, y1))
        super().rectangle(xy, *args, **kwargs)


def _intersect(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def _clip(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _face_up(seats: int) -> ofc.OFCTableDrawing:
    """Variant a: every normal board awaits with cards dealt face up: five on an empty board (the first
    street, beside the dealer button), one beside a complete front row with its hand and royalty."""
    boards = []
    for b in _busy(seats).boards:
        if b.fantasyland:  # a Fantasyland hand is dealt face down
            boards.append(replace(b, awaiting=True))
        elif b.seat == 0:
            empty = (_row("", 3), _row("", 5), _row("", 5))
            boards.append(replace(b, rows=empty, awaiting=True, to_place=tuple(parse_french("Th 9c Ad Qs 2h"))))
        else:
            boards.append(replace(b, awaiting=True, to_place=tuple(parse_french("Td"))))
    return ofc.OFCTableDrawing(
        variant="a", hand_no=1, street=3, streets=9, boards=tuple(boards), waiting=tuple(range(seats))
    )


def _showdown_extremes() -> ofc.OFCTableDrawing:
    """Showdown boards with the widest labels: long hands with big royalties, Fantasyland next, a foul."""
    strong = ofc.OFCBoardDrawing(
        seat=0,
        rows=(
            _row("Ah Ad As", 3, hand="trips", royalty=22),
            _row("9s Ts Js Qs Ks", 5, hand="straight_flush", royalty=30),
            _row("Th Jh Qh Kh Ah", 5, hand="royal_flush", royalty=25),
        ),
        stack=123456,
        royalties=77,
        fantasyland=True,
        fantasyland_next=True,
        is_dealer=True,
        result=-123,
    )
    weak = ofc.OFCBoardDrawing(
        seat=1,
        rows=(
            _row("2c 3d 7h", 3, hand="high_card"),
            _row("2s 2d 5c 9h Jd", 5, hand="pair"),
            _row("4c 4d 6s 6h 8c", 5, hand="two_pair"),
        ),
        stack=5,
        fouled=True,
        result=-10,
    )
    quads = replace(
        strong,
        seat=2,
        rows=(
            _row("Qh Qd 4c", 3, hand="pair", royalty=7),
            _row("8c 8d 8h 8s 2c", 5, hand="quads", royalty=20),
            _row("9c 9d 9h 9s Ac", 5, hand="quads", royalty=10),
        ),
        fantasyland=False,
        is_dealer=False,
    )
    full = replace(
        quads,
        seat=3,
        rows=(
            _row("Kh Kd 4s", 3, hand="pair", royalty=8),
            _row("5c 5d 5h 7s 7c", 5, hand="full_house", royalty=12),
            _row("3c 6c 9c Jc Kc", 5, hand="flush", royalty=4),
        ),
        fantasyland_next=False,
        royalties=24,
        result=133,
    )
    pairs = (
        ofc.OFCPairDrawing(0, 1, (1, 1, 1), 3, 83),
        ofc.OFCPairDrawing(0, 2, (1, 1, 1), 3, 50),
        ofc.OFCPairDrawing(0, 3, (1, 1, 1), 3, -10),
        ofc.OFCPairDrawing(1, 2, (-1, -1, -1), -3, -46),
        ofc.OFCPairDrawing(1, 3, (-1, -1, -1), -3, -33),
        ofc.OFCPairDrawing(2, 3, (1, 0, -1), 0, 0),
    )
    return ofc.OFCTableDrawing(
        variant="d",
        hand_no=12,
        street=0,
        streets=5,
        boards=(strong, weak, quads, full),
        showdown=True,
        waiting=(2,),
        pairs=pairs,
    )


SHORT_NAMES = ["Ann", "Bob", "花子", "たろう"]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    "table",
    [
        _busy(4, showdown=True),
        _busy(3, showdown=True),
        _busy(2, showdown=True),
        _busy(4, showdown=False),
        _showdown_extremes(),
        _face_up(2),
        _face_up(3),
        _face_up(4),
    ],
    ids=[
        "showdown",
        "showdown-3",
        "showdown-2",
        "mid-hand",
        "showdown-extremes",
        "face-up-2",
        "face-up-3",
        "face-up-4",
    ],
)
def test_no_label_overlaps_another_or_is_cut(
    monkeypatch: pytest.MonkeyPatch, table: ofc.OFCTableDrawing, lang: str
) -> None:
    _assert_nothing_covered(monkeypatch, table, lang)


def _assert_nothing_covered(monkeypatch: pytest.MonkeyPatch, table: ofc.OFCTableDrawing, lang: str) -> None:
    monkeypatch.setattr(ofc, "Canvas", RecordingCanvas)
    ofc.compose_ofc_table(table, SHORT_NAMES, lang)
    canvas = RecordingCanvas.last
    boxes = canvas.boxes
    overlaps = [(a, b) for i, (a, box_a) in enumerate(boxes) for b, box_b in boxes[i + 1 :] if _intersect(box_a, box_b)]
    assert overlaps == []
    assert [text for text, _ in boxes if text.endswith("…")] == []
    # every text lies whole on one panel (the title bar, a board, a pair's entry), inside the image
    image = (0, 0, *canvas.img.size)
    assert [text for text, box in boxes if not any(_inside(box, _clip(p, image)) for p in canvas.panels)] == []
    if any(p.scoop for p in table.pairs):
        assert t("ofc.table_scoop", lang) in [text for text, _ in boxes]
    if any(b.fantasyland_next for b in table.boards):
        assert t("ofc.table_fl_next", lang) in [text for text, _ in boxes]
    # every card, the ones dealt face up included, is on the canvas, clear of every text and of each other
    placed = sum(len(row.cards) for b in table.boards for row in b.rows)
    assert len(canvas.cards) + len(canvas.chips) == placed + sum(len(b.to_place) for b in table.boards)
    cards = canvas.cards + canvas.chips
    covered = [
        (text, card)
        for text, box in boxes
        for card in cards
        if _intersect(box, card) and not (card in canvas.chips and _inside(box, card))  # a chip's own label
    ]
    assert covered == []
    assert [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :] if _intersect(a, b)] == []
    assert all(_inside(card, (0, 0, *canvas.img.size)) for card in cards)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_real_one_by_one_hand_shows_the_card_to_place_clear_of_the_board(
    monkeypatch: pytest.MonkeyPatch, seats: int
) -> None:
    """Variant a from the engine, mid-hand: the player to act has a complete front row and a card face up."""
    from games.core.rng import Shuffler
    from games.ofc.engine import OFCEngine
    from games.ofc.policy import choose
    from games.ofc.rules import OFCRules

    rng = random.Random(seats)
    engine = OFCEngine(
        OFCRules(variant="a"), [100] * seats, Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}")
    )
    pick = random.Random(1)
    for _ in range(9 * seats):
        view = engine.public_view()
        (seat,) = engine.to_act()  # one player at a time in variant a
        if view.street > 1 and len(view.boards[seat].front) == 3:
            break
        engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), pick))
    else:
        pytest.fail("no player to act with a complete front row in the first hand")
    table = ofc.ofc_drawing(view)
    assert len(table.boards[seat].to_place) == 1
    assert table.boards[seat].rows[0].hand is not None
    for lang in ("en", "ja"):
        _assert_nothing_covered(monkeypatch, table, lang)


def _showdown_view(seats: int, seed: int) -> OFCPublicView:
    """The public view of a Turbo table right after its first hand: the view a showdown frame is drawn from."""
    from games.core.rng import Shuffler
    from games.ofc.engine import OFCEngine
    from games.ofc.policy import choose
    from games.ofc.rules import OFCRules

    rng = random.Random(seed)
    engine = OFCEngine(
        OFCRules(variant="c"), [100] * seats, Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}")
    )
    pick = random.Random(seed)
    while not engine.results:
        seat = min(engine.to_act())
        engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), pick))
    return engine.public_view()


_Ink = tuple[float, float, str, P.RGB]
"""A recorded text: the middle of its ink's height, its left edge, the text, its colour."""


def _lines(boxes: list[tuple[str, tuple[float, float, float, float]]], colours: list[P.RGB]) -> list[list[_Ink]]:
    """The recorded texts grouped into lines (by the middle of their ink), each line left to right."""
    items: list[_Ink] = sorted(
        ((box[1] + box[3]) / 2, box[0], text, colour) for (text, box), colour in zip(boxes, colours, strict=True)
    )
    lines: list[list[_Ink]] = []
    for item in items:
        if lines and item[0] - lines[-1][-1][0] <= 8:
            lines[-1].append(item)
        else:
            lines.append([item])
    return [sorted(line, key=lambda i: i[1]) for line in lines]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_showdown_shows_each_pairs_result(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """One entry per pair — "Ann 2–1 Bob [Scoop] +60" — with the chips the first named wins, coloured by sign."""
    monkeypatch.setattr(ofc, "Canvas", RecordingCanvas)
    signs = set()
    for seats in (2, 3, 4):
        view = _showdown_view(seats, seed=1)
        last = view.last_hand
        assert last is not None and len(last.pairs) == seats * (seats - 1) // 2
        ofc.compose_ofc_table(ofc.ofc_drawing(view), SHORT_NAMES[:seats], lang, stake=10)
        canvas = RecordingCanvas.last
        score = re.compile(r"^\d–\d$")
        scoop = t("ofc.table_scoop", lang)
        entries = []
        for line in _lines(canvas.boxes, canvas.colours):
            texts = [text for _, _, text, _ in line]
            for i in range(len(line) - 3):
                if texts[i] in SHORT_NAMES and score.match(texts[i + 1]) and texts[i + 2] in SHORT_NAMES:
                    rest = line[i + 3 :]
                    scooped = rest[0][2] == scoop
                    points = rest[1] if scooped else rest[0]
                    entries.append((texts[i], texts[i + 1], texts[i + 2], scooped, points[2], points[3]))
        expected = []
        for p in last.pairs:
            colour = P.WIN if p.points > 0 else P.LOSE if p.points < 0 else P.PUSH
            won, lost = sum(r > 0 for r in p.rows), sum(r < 0 for r in p.rows)
            expected.append(
                (SHORT_NAMES[p.a], f"{won}–{lost}", SHORT_NAMES[p.b], p.scoop != 0, f"{p.points * 10:+,}", colour)
            )
            signs.add((p.points > 0) - (p.points < 0))
        assert sorted(entries) == sorted(expected)
    assert {-1, 1} <= signs  # the hands played include a pair won and a pair lost by the first named


@pytest.mark.parametrize(
    "text",
    [
        "Qs Qh 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h",
        "Qs Qh 4d /  / Ah Kh",
        " /  / ",
        "10h Qh 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h",  # not the engine's notation: parsed as before
        "Q♠ Qh 4d / 9c / 2c",
    ],
)
def test_a_showdowns_boards_are_read_as_the_engine_reads_them(text: str) -> None:
    board = Board.parse(text)
    assert ofc._board_rows(text) == (board.front, board.middle, board.back)


def test_a_board_the_engine_would_refuse_is_refused() -> None:
    for text in ("Qs Qs 4d / 9c / 2c", "Qs / 9c", "Xx / 9c / 2c"):
        with pytest.raises(ValueError):
            Board.parse(text)
        with pytest.raises(ValueError):
            ofc._board_rows(text)


def test_every_engine_showdown_is_read_as_board_parse_reads_it() -> None:
    for seats in (2, 3, 4):
        view = _showdown_view(seats, seed=seats)
        assert view.last_hand is not None
        for text in view.last_hand.boards:
            board = Board.parse(text)
            assert ofc._board_rows(text) == (board.front, board.middle, board.back)
