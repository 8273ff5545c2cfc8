"""What a table's pictures share, drawn once: backdrops (panels, frames, fixed labels and empty card places of a
layout). Each is kept for its layout alone, is never drawn on by the pictures copied from it, and the cache holding
them is bounded; what is drawn over a backdrop gives the pixels it gave when everything was drawn afresh."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from typing import Any

import pytest
from PIL import Image

from bot.render import cards, encode, layers, ofc, oicho, text
from bot.render import hachi_hachi as hh
from bot.render import luk_fu as lf
from bot.render import palette as P
from bot.render.fonts import text_width
from bot.render.plan import RecordingCanvas
from bot.render.samples import BUSY_NAMES, busy_oicho_view
from games.core.cards import KabuCard, parse_french
from tests.bot.render import test_render_ofc
from tests.bot.render.samples import (
    HACHI_NAMES,
    LUKFU_NAMES,
    betting_oicho_view,
    busy_luk_fu_view,
    hachi_hachi_sample_views,
    luk_fu_sample_views,
)
from tests.bot.render.test_render_ofc import NAMES


@pytest.fixture(autouse=True)
def _fresh_backdrops() -> Iterator[None]:
    layers.backdrops.clear()
    yield
    layers.backdrops.clear()


def _same_as_rgb(view: object, lang: str = "ja") -> None:
    rgb = oicho.compose_oicho_table(view, BUSY_NAMES, lang)  # type: ignore[arg-type]
    pal = oicho.compose_oicho_table(view, BUSY_NAMES, lang, paletted=True)  # type: ignore[arg-type]
    assert pal.tobytes() == encode.quantize(rgb).tobytes()


def _oicho_backdrops() -> dict[int, Image.Image]:
    return {key[2][0]: frame for key, frame in _kept(oicho._backdrop)}


def _kept(draw: object) -> list[tuple[Any, Image.Image]]:
    """The backdrops kept for ``draw``: (their key, the frame)."""
    return [(key, frame) for key, frame in layers.backdrops.items() if isinstance(key, tuple) and key[0] is draw]


def test_each_seat_count_has_its_own_backdrop() -> None:
    ten, four = busy_oicho_view("round_over"), betting_oicho_view()
    assert (ten.seats, four.seats) == (10, 4)
    for view in (ten, four, ten, four):
        _same_as_rgb(view)
    kept = _oicho_backdrops()
    assert sorted(kept) == [4, 10]
    assert kept[4].tobytes() != kept[10].tobytes()  # six seat frames fewer


def test_a_picture_never_draws_on_the_backdrop_it_was_copied_from() -> None:
    showdown = busy_oicho_view("round_over")
    oicho.compose_oicho_table(showdown, BUSY_NAMES, "ja", paletted=True)
    kept = _oicho_backdrops()[10].tobytes()
    for phase in ("round_over", "deciding", "betting", "dealer", "game_over"):
        _same_as_rgb(busy_oicho_view(phase))
    assert _oicho_backdrops()[10].tobytes() == kept
    # what a showdown drew (cards, outcomes) is not on the next betting picture
    _same_as_rgb(busy_oicho_view("betting"), "en")


def test_a_backdrop_is_drawn_once_per_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[int] = []
    draw = oicho._backdrop

    def counting(c: text.Canvas, seats: int) -> None:
        drawn.append(seats)
        draw(c, seats)

    monkeypatch.setattr(oicho, "_backdrop", counting)
    view = busy_oicho_view("betting")
    for stake in (1, 10, 1):
        oicho.render_oicho_table(view, BUSY_NAMES, "ja", stake=stake)
    oicho.render_oicho_table(busy_oicho_view("round_over"), BUSY_NAMES, "en")
    oicho.render_oicho_table(betting_oicho_view(), BUSY_NAMES, "ja")
    assert drawn == [10, 4]
    oicho.compose_oicho_table(view, BUSY_NAMES, "ja")  # RGB, the reference: drawn afresh every time
    assert drawn == [10, 4, 10]


def test_the_backdrop_cache_is_bounded_and_keeps_the_most_recently_used() -> None:
    frame = Image.new("P", (100, 50))
    cache: layers.TileCache[Image.Image] = layers.TileCache(budget=12_000)
    cache.put("a", frame, 5_000)
    cache.put("b", frame.copy(), 5_000)
    assert cache.get("a") is frame  # "a" is now the most recently used
    cache.put("c", frame.copy(), 5_000)
    assert "b" not in cache and "a" in cache and "c" in cache
    assert cache.held == 10_000 <= cache.budget
    cache.put("huge", Image.new("RGB", (100, 50)), 15_000)  # more than the whole budget: never kept
    assert "huge" not in cache and len(cache) == 2
    cache.put("a", frame, 1_000)  # kept again under its key: counted once
    assert cache.held == 6_000
    for k in range(50):
        cache.put(k, frame.copy(), 5_000)
        assert cache.held <= cache.budget
    assert len(cache) == 2


def test_backdrops_stay_within_their_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layers.backdrops, "budget", 2 * 1000 * 560)  # two Oicho tables on the palette
    for seats in range(3, 11):  # seat 2 bets
        oicho.render_oicho_table(replace(betting_oicho_view(), seats=seats), BUSY_NAMES, "ja")
        assert layers.backdrops.held <= layers.backdrops.budget
    assert sorted(_oicho_backdrops()) == [9, 10]


@pytest.mark.parametrize("paletted", [False, True])
def test_a_card_in_an_empty_place_is_the_card_on_bare_panel(paletted: bool) -> None:
    face = cards.card_image(KabuCard(7, 0))
    placed, bare = (text.Canvas(text.table_frame((120, 140), paletted)) for _ in range(2))
    for c in (placed, bare):
        c.draw.rounded_rectangle((0, 0, 119, 139), radius=8, fill=P.FELT_DARK)
    placed.empty_place(20, 10, face.size, 6)
    placed.card_in_place(face, (20, 10))
    bare.paste_card(face, (20, 10))
    assert placed.img.tobytes() == bare.img.tobytes()


@pytest.mark.parametrize("paletted", [False, True])
def test_a_frame_drawn_over_a_panel_is_the_panel_drawn_with_its_frame(paletted: bool) -> None:
    """The current pile's gold frame is drawn over the backdrop's panel: the same pixels as a framed panel."""
    over, once = (text.Canvas(text.table_frame((260, 200), paletted)) for _ in range(2))
    for box in ((12, 10, 240, 180), (20.5, 30, 131, 97.5)):
        over.draw.rounded_rectangle(box, radius=8, fill=P.FELT_DARK)
        over.draw.rounded_rectangle(box, radius=8, outline=P.GOLD, width=3)
        once.draw.rounded_rectangle(box, radius=8, fill=P.FELT_DARK, outline=P.GOLD, width=3)
    assert over.img.tobytes() == once.img.tobytes()


def _framed_boards() -> ofc.OFCTableDrawing:
    def row(text: str, size: int, hidden: int = 0) -> ofc.OFCRowDrawing:
        return ofc.OFCRowDrawing(cards=tuple(parse_french(text)) + (None,) * hidden, size=size)

    awaiting = ofc.OFCBoardDrawing(0, (row("As", 3), row("Td 9d", 5), row("2c 3c 4c", 5)), 100, awaiting=True)
    fantasyland = ofc.OFCBoardDrawing(1, (row("", 3, 3), row("", 5, 5), row("", 5, 5)), 100, fantasyland=True)
    return ofc.OFCTableDrawing("c", 1, 2, 3, (awaiting, fantasyland), waiting=(0,))


@pytest.mark.parametrize("paletted", [False, True])
def test_a_framed_boards_back_row_lies_over_its_frame_as_on_a_framed_panel(paletted: bool) -> None:
    """The back row reaches into a board's frame: its cards show the frame in their corners and its empty places'
    outlines lie over it, as when the framed panel was drawn first and the row on it (not the backdrop's empty
    places under the frame)."""
    table = _framed_boards()
    img = ofc.compose_ofc_table(table, ["Ann", "Bob"], "en", paletted=paletted)
    reference = text.Canvas(text.table_frame(img.size, paletted))
    size = cards.card_size(ofc.CARD_W)
    for i, (board, colour) in enumerate(zip(table.boards, (P.GOLD, P.PURPLE), strict=True)):
        x, y = ofc._cell(i)
        box = (x, y, x + ofc.CELL_W, y + ofc.CELL_H)
        reference.draw.rounded_rectangle(box, radius=8, fill=P.FELT_DARK, outline=colour, width=3)
        back_y, xs = ofc._row_places(x, y)[2]
        assert back_y + size[1] > box[3] - 2  # the row does reach into the frame
        back_row = board.rows[2].cards
        for k, cx in enumerate(xs):
            if k < len(back_row):
                card = back_row[k]
                reference.paste_card(
                    cards.card_back("french", ofc.CARD_W) if card is None else cards.card_image(card, ofc.CARD_W),
                    (cx, back_y),
                )
            else:
                reference.empty_place(cx, back_y, size, 5)
        band = (xs[0] - 4, back_y, xs[-1] + size[0] + 4, box[3] + 1)  # the row's places and the frame under them
        assert img.crop(band).tobytes() == reference.img.crop(band).tobytes()


def test_ofc_backdrops_are_kept_per_board_count_pairs_and_language() -> None:
    for lang in ("ja", "en"):
        for seats in (2, 3, 4):
            for showdown in (False, True):
                table = test_render_ofc._busy(seats, showdown)
                rgb = ofc.compose_ofc_table(table, NAMES, lang)
                pal = ofc.compose_ofc_table(table, NAMES, lang, paletted=True)
                assert pal.tobytes() == encode.quantize(rgb).tobytes(), (lang, seats, showdown)
    kept = [key[2] for key, _ in _kept(ofc._backdrop)]
    assert sorted(kept) == sorted(
        (seats, pairs, lang) for lang in ("ja", "en") for seats in (2, 3, 4) for pairs in (0, seats * (seats - 1) // 2)
    )


# ---------------------------------------------------------------- reused frames


def _renders() -> list[tuple[str, Callable[[], bytes], Callable[[], Image.Image]]]:
    """Renders of several games and sizes, each with the picture composed afresh (on the palette)."""
    out: list[tuple[str, Callable[[], bytes], Callable[[], Image.Image]]] = []
    for phase in ("round_over", "betting"):
        busy = busy_oicho_view(phase)
        out.append(
            (
                f"oicho {phase}",
                partial(oicho.render_oicho_table, busy, BUSY_NAMES, "ja"),
                partial(oicho.compose_oicho_table, busy, BUSY_NAMES, "ja", paletted=True),
            )
        )
    four = betting_oicho_view()
    out.append(
        (
            "oicho 4 seats",
            partial(oicho.render_oicho_table, four, BUSY_NAMES, "en"),
            partial(oicho.compose_oicho_table, four, BUSY_NAMES, "en", paletted=True),
        )
    )
    for seats in (2, 3, 4):  # a showdown's strip of pairs, the spare cell, the tallest strip
        showdown = test_render_ofc._showdown_view(seats, seed=seats)
        out.append(
            (
                f"ofc {seats}",
                partial(ofc.render_ofc_table, showdown, NAMES, "ja"),
                partial(ofc.compose_ofc_table, ofc.ofc_drawing(showdown), NAMES, "ja", paletted=True),
            )
        )
    luk_fu_views = {f"busy {seats}": busy_luk_fu_view(seats) for seats in (3, 4)}
    luk_fu_views |= {f"{moment} 3": luk_fu_sample_views(3)[moment] for moment in ("call", "follow_face_down")}
    for name, luk_fu in luk_fu_views.items():  # three of one size, one after the other
        out.append(
            (
                f"luk fu {name}",
                partial(lf.render_luk_fu_table, luk_fu, LUKFU_NAMES, "ja", 10),
                partial(lf.compose_luk_fu_table, luk_fu, LUKFU_NAMES, "ja", 10, paletted=True),
            )
        )
    for moment, hachi in hachi_hachi_sample_views(7).items():
        out.append(
            (
                f"hachi-hachi {moment}",
                partial(hh.render_hachi_hachi_table, hachi, HACHI_NAMES, "ja", 10),
                partial(hh.compose_hachi_hachi_table, hachi, HACHI_NAMES, "ja", 10, paletted=True),
            )
        )
    return out


def test_pictures_drawn_in_reused_frames_are_the_pictures_drawn_afresh() -> None:
    """Each render draws in its thread's frame of that size, over whatever the last picture of that size left:
    renders of every game, of several sizes and several of one size, in turn and in other orders, are each the
    picture composed afresh."""
    renders = _renders()
    expected = {name: compose().tobytes() for name, _, compose in renders}
    sizes = {compose().size for _, _, compose in renders}
    assert len(sizes) > layers.REUSED_FRAMES  # more sizes than a thread keeps: frames are dropped and made again
    for order in (renders, renders[::-1], renders[::2] + renders[1::2]):
        for name, render, _ in order:
            png = Image.open(io.BytesIO(render()))
            assert png.mode == "P"
            assert png.tobytes() == expected[name], name


def test_a_composed_picture_is_never_a_reused_frame() -> None:
    """Only a render (which encodes its frame before drawing the next) draws in a reused frame: an image handed
    out is its own, and later renders do not draw on it."""
    view = busy_oicho_view("round_over")
    composed = oicho.compose_oicho_table(view, BUSY_NAMES, "ja", paletted=True)
    kept = composed.tobytes()
    oicho.render_oicho_table(busy_oicho_view("betting"), BUSY_NAMES, "ja")
    assert oicho.compose_oicho_table(view, BUSY_NAMES, "ja", paletted=True) is not composed
    assert composed.tobytes() == kept
    assert all(frame is not composed for frame in layers._local.frames.values())


def test_each_thread_keeps_a_few_frames_of_its_own() -> None:
    sizes = [(40 + k, 30) for k in range(layers.REUSED_FRAMES + 3)]
    mine = [layers.reused_frame(size) for size in sizes]
    assert len(layers._local.frames) == layers.REUSED_FRAMES
    assert layers.reused_frame(sizes[-1]) is mine[-1]  # kept, and drawn in again
    assert layers.reused_frame(sizes[0]) is not mine[0]  # dropped, made anew
    other: list[Image.Image] = []
    thread = threading.Thread(target=lambda: other.append(layers.reused_frame(sizes[-1])))
    thread.start()
    thread.join()
    assert other[0] is not mine[-1]
    assert encode.on_table_palette(other[0])


def test_a_blank_canvas_in_a_reused_frame_is_blank_felt_again() -> None:
    size = (60, 40)
    c = layers.blank_canvas(text.Canvas, size, paletted=True, reuse=True)
    c.draw.rectangle((0, 0, 59, 39), fill=P.GOLD)
    again = layers.blank_canvas(text.Canvas, size, paletted=True, reuse=True)
    assert again.img is c.img
    assert again.img.tobytes() == text.table_frame(size, paletted=True).tobytes()
    assert layers.blank_canvas(text.Canvas, size, paletted=True, reuse=False).img is not c.img
    assert layers.blank_canvas(text.Canvas, size, paletted=False, reuse=True).img.mode == "RGB"


# ---------------------------------------------------------------- runs


@pytest.fixture
def fresh_runs() -> Iterator[None]:
    layers.clear_caches()
    yield
    layers.clear_caches()


DRAWN: list[tuple[str, int]] = []


def _name_and_amount(c: text.Canvas, x: float, y: float, name: str, amount: int) -> float:
    """A run (counted when drawn): a badge, a name and an amount on the right, as a table's line."""
    DRAWN.append((name, amount))
    return _line(c, x, y, name, amount)


def _line(c: text.Canvas, x: float, y: float, name: str, amount: int) -> float:
    lead = c.badge(x, y, "決", 15, P.GOLD, P.INK) + 3
    c.fitted((x + lead, y), name, 19, 120 - lead, P.TEXT)
    return c.text((x + 180, y), f"{amount:,}", 19, P.GOLD, anchor="rs")


EXTENT = (-4, -24, 184, 8)


def _panel(paletted: bool) -> text.Canvas:
    c = text.Canvas(text.table_frame((420, 160), paletted))
    c.draw.rounded_rectangle((4, 4, 415, 155), radius=8, fill=P.FELT_DARK)
    return c


def _direct(x: float, y: float, name: str, amount: int, before: Callable[[text.Canvas], None] | None = None) -> bytes:
    """The picture the run makes drawn as it is (on the palette, not kept)."""
    c = _panel(True)
    if before:
        before(c)
    _line(c, x, y, name, amount)
    return c.img.tobytes()


def _run(x: float, y: float, name: str, amount: int, before: Callable[[text.Canvas], None] | None = None) -> float:
    """The run drawn at ``(x, y)`` on a fresh panel (over ``before``), checked to be the picture drawing it makes."""
    c = _panel(True)
    if before:
        before(c)
    width = layers.run(c, _name_and_amount, x, y, EXTENT, name, amount)
    assert c.img.tobytes() == _direct(x, y, name, amount, before), (x, y, name, amount)
    return width


def _runs_kept() -> int:
    return sum(1 for key, _ in layers.runs.items() if isinstance(key, tuple) and key[0] is _name_and_amount)


@pytest.mark.usefixtures("fresh_runs")
def test_a_run_drawn_again_is_kept_and_then_pasted_whole_as_the_same_picture() -> None:
    DRAWN.clear()
    assert _run(20.5, 40, "Hanako 花子", 1234) == text_width("1,234", 19)
    assert _runs_kept() == 0  # drawn once: only noted
    _run(22.5, 40.0, "Hanako 花子", 1234)  # drawn again (2 pixels further: between even pixels alike): kept
    assert _runs_kept() == 1
    for x, y in ((20.5, 42), (120.5, 100), (124.5, 44)):
        assert _run(x, y, "Hanako 花子", 1234) == text_width("1,234", 19)  # pasted
    # Python rounds 20.5 and 22.5 down to even alike (20, 22), so the pixels are the same 2 pixels apart
    assert DRAWN == [("Hanako 花子", 1234)] * 2


@pytest.mark.usefixtures("fresh_runs")
def test_runs_of_other_words_or_between_other_pixels_are_never_pasted_for_each_other() -> None:
    DRAWN.clear()
    places = [(20, 40), (21, 40), (20, 41), (20.5, 40), (20.25, 40)]
    words = [("Bob", 8), ("Bobby", 7), ("bob", 7)]
    for _ in range(3):  # noted, kept, pasted: each its own
        for x, y in places:
            _run(x, y, "Bob", 7)
        for name, amount in words:
            _run(20, 40, name, amount)
    assert len(DRAWN) == 2 * (len(places) + len(words))
    assert _runs_kept() == len(places) + len(words)


@pytest.mark.usefixtures("fresh_runs")
def test_a_run_is_drawn_where_its_place_is_not_bare_and_not_kept_when_drawn_over_something() -> None:
    def line(c: text.Canvas) -> None:
        c.draw.line((60, 10, 60, 150), fill=P.FELT_LINE, width=2)  # across the run's texts

    DRAWN.clear()
    _run(20, 40, "Ann", 5)
    _run(20, 40, "Ann", 5)  # kept
    for _ in range(2):
        _run(20, 40, "Ann", 5, line)  # not bare: drawn
    assert len(DRAWN) == 4
    for _ in range(2):  # drawn over the line: noted, then drawn again but not kept (and forgotten)
        _run(20, 90, "Bea", 5, line)
    assert len(DRAWN) == 6 and _runs_kept() == 1
    for _ in range(3):  # on bare panel: noted, kept, then pasted (at any place between even pixels alike)
        _run(20, 90, "Bea", 5)
    assert len(DRAWN) == 8 and _runs_kept() == 2
    _run(40, 60, "Bea", 5)
    assert len(DRAWN) == 8


@pytest.mark.usefixtures("fresh_runs")
def test_a_run_reaching_out_of_its_extent_or_the_picture_is_never_kept() -> None:
    DRAWN.clear()
    for _ in range(3):
        layers.run(_panel(True), _name_and_amount, 20, 40, (-4, -24, 100, 8), "Ann", 123_456)  # the amount is out
        _run(300, 40, "Ann", 5)  # out of the picture on the right
    assert len(DRAWN) == 6 and _runs_kept() == 0


@pytest.mark.usefixtures("fresh_runs")
def test_a_run_drawn_again_only_long_after_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker drawing many tables in turn would drop their runs before their next pictures: a run comes back
    too late to be kept when more runs than are remembered were drawn since."""
    monkeypatch.setattr(layers, "RUNS_SEEN", 10)
    DRAWN.clear()
    _run(20, 40, "Ann", 5)
    for amount in range(11):
        _run(20, 40, "Bob", amount)
    _run(20, 40, "Ann", 5)  # forgotten: noted again, not kept
    assert _runs_kept() == 0
    _run(20, 40, "Ann", 5)  # drawn again at once: kept
    assert _runs_kept() == 1
    assert len(layers._seen) <= 10


def test_in_rgb_a_run_is_always_drawn() -> None:
    DRAWN.clear()
    for _ in range(3):
        layers.run(_panel(False), _name_and_amount, 20, 40, EXTENT, "Ann", 5)
    assert len(DRAWN) == 3 and _runs_kept() == 0


@pytest.mark.usefixtures("fresh_runs")
def test_runs_stay_within_their_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layers.runs, "budget", 30_000)
    for amount in range(60):
        for _ in range(2):
            _run(20, 40, "A name", amount)
        assert layers.runs.held <= 30_000
    assert 0 < _runs_kept() < 60


@pytest.mark.usefixtures("fresh_runs")
def test_oicho_tables_in_turn_never_share_a_run_wrongly() -> None:
    """Runs of many states of a table (bets, turns, stacks, results, languages, stakes), drawn in turn on the
    palette, are each the RGB picture of that state."""
    views = [busy_oicho_view(phase) for phase in ("betting", "deciding", "dealer", "round_over", "game_over")]
    views += [betting_oicho_view(), replace(busy_oicho_view("betting"), stacks=(5, 6, 7, 8, 9, 10, 11, 12, 13, 14))]
    views += [replace(busy_oicho_view("round_over"), last_deltas=tuple(-d for d in busy_oicho_view().last_deltas))]  # type: ignore[union-attr]
    for lang, stake in (("ja", 1), ("en", 1), ("ja", 3)):
        for view in views + views[::-1]:
            rgb = oicho.compose_oicho_table(view, BUSY_NAMES, lang, stake)
            png = Image.open(io.BytesIO(oicho.render_oicho_table(view, BUSY_NAMES, lang, stake=stake)))
            assert png.tobytes() == encode.quantize(rgb).tobytes()
    assert len(layers.runs) > 0


@pytest.mark.usefixtures("fresh_runs")
def test_a_canvas_that_notes_its_texts_always_draws_a_run() -> None:
    class Noting(RecordingCanvas):
        deck = "french"

    DRAWN.clear()
    for _ in range(3):
        c = Noting(text.table_frame((420, 160), paletted=True))
        c.panel((4, 4, 415, 155))
        layers.run(c, _name_and_amount, 20, 40, EXTENT, "Ann", 5)
        assert [t.text for t in c.plan.texts] == ["決", "Ann", "5"]
    assert len(DRAWN) == 3 and _runs_kept() == 0
