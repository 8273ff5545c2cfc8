"""What a table's pictures share, drawn once: backdrops (panels, frames, fixed labels and empty card places of a
layout). Each is kept for its layout alone, is never drawn on by the pictures copied from it, and the cache holding
them is bounded."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from PIL import Image

from bot.render import cards, encode, layers, oicho, text
from bot.render import palette as P
from bot.render.samples import BUSY_NAMES, busy_oicho_view
from games.core.cards import KabuCard
from tests.bot.render.samples import betting_oicho_view


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
    found = {}
    for (draw, _size, args), frame in layers.backdrops._items.items():  # type: ignore[misc]
        if draw is oicho._backdrop:
            found[args[0]] = frame
    return found


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
    frame = Image.new("P", (100, 50))  # 5,000 bytes
    cache = layers.FrameCache(budget=12_000)
    cache.put("a", frame)
    cache.put("b", frame.copy())
    assert cache.get("a") is frame  # "a" is now the most recently used
    cache.put("c", frame.copy())
    assert "b" not in cache and "a" in cache and "c" in cache
    assert cache.held == 10_000 <= cache.budget
    cache.put("huge", Image.new("RGB", (100, 50)))  # 15,000 bytes: more than the whole budget, never kept
    assert "huge" not in cache and len(cache) == 2
    for k in range(50):
        cache.put(k, frame.copy())
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
