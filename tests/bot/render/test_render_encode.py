"""Encoding: paletted PNG of at most 64 colours, WebP as an option."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from bot.render import encode, palette
from bot.render.fonts import font


def _frame() -> Image.Image:
    img = Image.new("RGB", (320, 180), (22, 84, 52))
    draw = ImageDraw.Draw(img)
    draw.rectangle((10, 10, 120, 90), fill=(246, 240, 224))
    draw.text((20, 120), "おいちょかぶ Oicho", font=font(24), fill=(240, 240, 232))
    return img


def test_png_is_paletted_and_decodes() -> None:
    data = encode.encode_png(_frame())
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    assert img.mode == "P"
    assert img.size == (320, 180)
    colours = img.getcolors()
    assert colours is not None
    assert len(colours) <= encode.MAX_COLOURS


def test_webp_option_decodes() -> None:
    data = encode.encode(_frame(), "webp")
    img = Image.open(io.BytesIO(data))
    assert img.format == "WEBP"
    assert img.size == (320, 180)


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown image format"):
        encode.encode(_frame(), "gif")  # type: ignore[arg-type]


def test_table_palette_is_small_and_holds_every_named_colour() -> None:
    colours = palette.table_palette()
    assert len(colours) <= encode.MAX_COLOURS
    assert set(palette.base_colours()) <= set(colours)


def test_adaptive_palette_option() -> None:
    img = Image.open(io.BytesIO(encode.encode_png(_frame(), palette="adaptive")))
    assert img.mode == "P"
    colours = img.getcolors()
    assert colours is not None
    assert len(colours) <= encode.MAX_COLOURS


def test_table_colours_survive_the_fixed_palette() -> None:
    frame = _frame()
    quantized = encode.quantize(frame).convert("RGB")
    assert quantized.getpixel((5, 5)) == frame.getpixel((5, 5))
    assert quantized.getpixel((50, 50)) == frame.getpixel((50, 50))
