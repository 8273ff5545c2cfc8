"""A PNG's table is drawn on the table palette from the start (mode ``P``), never mapped onto it whole: the same
picture as the RGB frame mapped onto the palette, pixel for pixel, in every game and every drawing primitive.

The RGB drawing is the reference every other render test reads; these tests hold the paletted drawing the bot
uploads to it: each game's sample tables and real engine views, then each primitive on its own (a text over one
colour or several, partly outside the picture; Pillow's rounded rectangles at fractional places; cards on panels,
on felt and over each other).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.render import cards, encode, ofc, oicho, text
from bot.render import hachi_hachi as hh
from bot.render import luk_fu as lf
from bot.render import palette as P
from bot.render.plan import Drawing
from bot.render.samples import BUSY_NAMES, busy_oicho_view
from games.core.cards import FrenchCard, KabuCard, LukFuCard
from games.core.rng import Shuffler
from tests.bot.render.samples import (
    HACHI_NAMES,
    LUKFU_NAMES,
    betting_oicho_view,
    busy_luk_fu_view,
    hachi_hachi_sample_views,
    luk_fu_sample_views,
    tenure_end_oicho_view,
)

LANGS = ("ja", "en")


def assert_same_picture(rgb: Image.Image, paletted: Image.Image) -> None:
    assert rgb.mode == "RGB" and paletted.mode == "P"
    assert encode.on_table_palette(paletted)
    assert paletted.size == rgb.size
    assert paletted.tobytes() == encode.quantize(rgb).tobytes()


def assert_same_plan(rgb: Drawing, paletted: Drawing) -> None:
    assert (rgb.texts, rgb.cards, rgb.panels) == (paletted.texts, paletted.cards, paletted.panels)
    assert_same_picture(rgb.img, paletted.img)


# ---------------------------------------------------------------- every game


@pytest.mark.parametrize("lang", LANGS)
def test_oicho_tables_are_the_same_picture_on_the_palette(lang: str) -> None:
    for view in (
        busy_oicho_view("betting"),
        busy_oicho_view("round_over"),
        betting_oicho_view(),
        tenure_end_oicho_view(maki_fuda=True),
    ):
        for stake in (1, 10):
            assert_same_picture(
                oicho.compose_oicho_table(view, BUSY_NAMES, lang, stake),
                oicho.compose_oicho_table(view, BUSY_NAMES, lang, stake, paletted=True),
            )


@pytest.mark.parametrize("lang", LANGS)
def test_ofc_tables_are_the_same_picture_on_the_palette(lang: str) -> None:
    from games.ofc.engine import OFCEngine
    from games.ofc.policy import choose
    from games.ofc.rules import OFCRules

    rng = random.Random(11)
    engine = OFCEngine(OFCRules(variant="c"), [500] * 4, Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}"))
    showdowns = 0
    while showdowns < 2:  # the first hand's streets, its showdown, and into the next hand's
        table = ofc.ofc_drawing(engine.public_view())
        showdowns += table.showdown
        assert_same_picture(
            ofc.compose_ofc_table(table, BUSY_NAMES, lang, 10),
            ofc.compose_ofc_table(table, BUSY_NAMES, lang, 10, paletted=True),
        )
        seat = min(engine.to_act())
        engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), rng))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("seats", [3, 4])
def test_luk_fu_tables_are_the_same_picture_and_plan_on_the_palette(seats: int, lang: str) -> None:
    for view in [*luk_fu_sample_views(seats).values(), busy_luk_fu_view(seats)]:
        assert_same_plan(
            lf.draw_luk_fu_table(view, LUKFU_NAMES, lang, 10),
            lf.draw_luk_fu_table(view, LUKFU_NAMES, lang, 10, paletted=True),
        )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("seats", [3, 5, 7])
def test_hachi_hachi_tables_are_the_same_picture_and_plan_on_the_palette(seats: int, lang: str) -> None:
    for view in hachi_hachi_sample_views(seats).values():
        assert_same_plan(
            hh.draw_hachi_hachi_table(view, HACHI_NAMES, lang, 10),
            hh.draw_hachi_hachi_table(view, HACHI_NAMES, lang, 10, paletted=True),
        )


RENDERS: list[tuple[str, Callable[[], bytes], Callable[[], Image.Image]]] = [
    (
        "oicho",
        lambda: oicho.render_oicho_table(busy_oicho_view(), BUSY_NAMES, "ja"),
        lambda: oicho.compose_oicho_table(busy_oicho_view(), BUSY_NAMES, "ja"),
    ),
    (
        "luk_fu",
        lambda: lf.render_luk_fu_table(busy_luk_fu_view(3), LUKFU_NAMES, "ja", 10),
        lambda: lf.compose_luk_fu_table(busy_luk_fu_view(3), LUKFU_NAMES, "ja", 10),
    ),
    (
        "hachi_hachi",
        lambda: hh.render_hachi_hachi_table(hachi_hachi_sample_views(7)["trick"], HACHI_NAMES, "ja", 10),
        lambda: hh.compose_hachi_hachi_table(hachi_hachi_sample_views(7)["trick"], HACHI_NAMES, "ja", 10),
    ),
]


@pytest.mark.parametrize(("game", "render", "compose"), RENDERS, ids=[r[0] for r in RENDERS])
def test_a_png_table_is_never_mapped_onto_the_palette_whole(
    monkeypatch: pytest.MonkeyPatch, game: str, render: Callable[[], bytes], compose: Callable[[], Image.Image]
) -> None:
    """Mapping a whole frame onto the palette costs about as much as deflating it: the PNG render draws on the
    palette instead, and uploads the same picture."""
    reference = compose()
    mapped: list[tuple[int, int]] = []
    quantize = Image.Image.quantize

    def counting(self: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        mapped.append(self.size)
        return quantize(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "quantize", counting)
    data = render()
    assert reference.size not in mapped
    png = Image.open(io.BytesIO(data))
    assert png.mode == "P"
    assert png.convert("RGB").tobytes() == encode.quantize(reference).convert("RGB").tobytes()


@pytest.mark.parametrize(("game", "render", "compose"), RENDERS, ids=[r[0] for r in RENDERS])
def test_every_rounded_rectangle_of_a_table_takes_the_cached_corners(
    monkeypatch: pytest.MonkeyPatch, game: str, render: Callable[[], bytes], compose: Callable[[], Image.Image]
) -> None:
    """Pillow's own rounded rectangle costs three times the cached corners: panels, badges, slots and frames of a
    table on the palette never fall back to it."""
    fallbacks: list[Any] = []
    pillows = ImageDraw.ImageDraw.rounded_rectangle

    def counting(self: ImageDraw.ImageDraw, xy: Any, *args: Any, **kwargs: Any) -> None:
        if self.mode == "P":
            fallbacks.append(xy)
        pillows(self, xy, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "rounded_rectangle", counting)
    render()
    assert fallbacks == []


def test_a_frame_already_on_the_palette_is_only_deflated() -> None:
    frame = text.table_frame((40, 30), paletted=True)
    assert encode.quantize(frame) is frame
    other = Image.new("P", (40, 30))  # mode P, but not the table palette: mapped as before
    assert encode.quantize(other) is not other


def test_the_palette_starts_with_the_panels_and_maps_each_of_its_colours_onto_itself() -> None:
    """A text over several colours is blended in RGB and mapped back: the pixels it leaves alone must come back as
    they were. And the panels' colour is index 0, which the canvas tests for cheaply."""
    colours = P.table_palette()
    assert colours[0] == P.PANEL == P.FELT_DARK
    assert [encode.palette_index(c) for c in colours] == list(range(len(colours)))


# ---------------------------------------------------------------- each primitive


def _canvases(size: tuple[int, int] = (320, 200)) -> tuple[text.Canvas, text.Canvas]:
    return text.Canvas(text.table_frame(size)), text.Canvas(text.table_frame(size, paletted=True))


def _both(canvases: tuple[text.Canvas, text.Canvas], draw: Callable[[text.Canvas], Any]) -> None:
    for c in canvases:
        draw(c)


def test_texts_on_one_colour_on_several_and_partly_outside_are_the_same_picture() -> None:
    rgb, pal = _canvases()

    def draw(c: text.Canvas) -> None:
        c.draw.rounded_rectangle((10, 10, 300, 150), radius=8, fill=P.FELT_DARK)
        c.text((20, 40), "親 Dealer 12,345", 22, P.TEXT)  # on the bare panel
        c.badge(20, 80, "決め", 18, P.GOLD, P.INK)  # on a badge's colour
        c.draw.line((60, 95, 60, 140), fill=P.FELT_LINE, width=2)
        c.text((30, 125), "across a line 線", 20, P.LOSE, bold=True)  # over several colours
        c.text((250, 40), "edge of the panel", 20, P.WIN)  # over the panel's edge and the felt
        c.text((290, 196), "outside", 24, P.GOLD)  # partly outside the picture
        c.draw.rounded_rectangle((150, 60, 230, 110), radius=6, outline=P.WIN, width=3)
        c.text((190, 90), "枠 frame", 30, P.TEXT_DIM, anchor="ms")  # across a frame, inside and out

    _both((rgb, pal), draw)
    assert_same_picture(rgb.img, pal.img)
    assert rgb.last_ink == pal.last_ink == text.ink_box((190, 90), "枠 frame", 30, "ms")


def test_rounded_rectangles_are_pillows_pixels_at_any_place() -> None:
    rng = random.Random(3)
    colours = [None, P.FELT_DARK, P.GOLD, P.FELT_LINE, P.PAPER, P.WIN]
    rgb, pal = _canvases((400, 300))
    for _ in range(400):
        x0, y0 = rng.uniform(-20, 380), rng.uniform(-20, 280)
        box = (x0, y0, x0 + rng.choice([rng.uniform(0, 40), rng.uniform(0, 300)]), y0 + rng.uniform(0, 150))
        if rng.random() < 0.3:
            box = tuple(float(round(v)) for v in box)
        radius = rng.choice([3, 4, 5, 6, 8, 2.5])
        fill = rng.choice(colours)
        outline = rng.choice(colours[1:] if fill is None else colours)  # neither: Pillow's default ink, per mode
        width = rng.choice([1, 2, 3])
        for c in (rgb, pal):
            c.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        assert pal.img.tobytes() == encode.quantize(rgb.img).tobytes(), (box, radius, fill, outline, width)


def test_cards_on_a_panel_on_felt_and_over_each_other_are_the_same_picture() -> None:
    faces = [
        cards.card_image(KabuCard(3, 0)),
        cards.card_image(FrenchCard(12, "h"), 48),
        cards.card_image(LukFuCard(9, "C"), 84),
        cards.card_back("lukfu", 40),
        cards.card_back("french", 18),
    ]
    rgb, pal = _canvases((420, 260))

    def draw(c: text.Canvas) -> None:
        c.draw.rounded_rectangle((0, 0, 240, 259), radius=8, fill=P.FELT_DARK)
        x = 4
        for face in faces:  # on the bare panel
            c.paste_card(face, (x, 6))
            x += face.width + 2
        for k, face in enumerate(faces):  # overlapping, across the panel's edge onto the felt
            c.paste_card(face, (150 + 30 * k, 110 + 5 * k))
        c.paste_card(faces[2], (380, 200))  # partly outside the picture

    _both((rgb, pal), draw)
    assert_same_picture(rgb.img, pal.img)
