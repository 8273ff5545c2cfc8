"""Composed RGB image → upload bytes: paletted PNG by default, WebP as an option.

Measured on this machine (discord-notes.md, bench/bench_render.py): a paletted PNG of a flat table encodes
about twice as fast as a default RGB PNG at about a third of the bytes; ``optimize=True`` costs 4–6× the
time for ~3 % fewer bytes, so it is never used.

Tables are drawn only with the colours of :mod:`bot.render.palette`, so the default maps the image onto
that fixed palette (its colours plus the blends antialiased text makes): ~1.5 ms against ~11 ms for an
adaptive octree of 64 colours on a busy 1000×560 table, with a smaller error and file. An image drawn
with other colours should pass ``palette="adaptive"``. Dithering would only add noise (and bytes): off.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Literal

from PIL import Image

from bot.render.palette import table_palette

Format = Literal["png", "webp"]
PaletteMode = Literal["table", "adaptive"]

MAX_COLOURS = 64
PNG_COMPRESS_LEVEL = 3
"""zlib level 3: on a table picture about half the time of the default (6) for about a quarter more bytes
(measured: 1.5 ms and 28 KB against 3.3 ms and 22 KB on a busy Oicho table); 9 is slower still for a few
percent. Every table update draws one picture, so time matters more than a few kilobytes."""
WEBP_QUALITY = 80

MIME = {"png": "image/png", "webp": "image/webp"}


@lru_cache(maxsize=1)
def _palette_image() -> Image.Image:
    colours = table_palette()
    flat = [v for colour in colours for v in colour]
    img = Image.new("P", (1, 1))
    img.putpalette(flat)  # only the real entries: the PNG's PLTE then holds ~60 colours, not 256
    return img


def clear_caches() -> None:
    """Forget the palette image (and what was worked out from it), as after a restart."""
    _palette_image.cache_clear()


def quantize(img: Image.Image, palette: PaletteMode = "table") -> Image.Image:
    """The image as mode ``P``: mapped onto the table palette, or an adaptive one of ≤ 64 colours."""
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    if palette == "table":
        return rgb.quantize(palette=_palette_image(), dither=Image.Dither.NONE)
    return rgb.quantize(colors=MAX_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode_png(img: Image.Image, palette: PaletteMode = "table") -> bytes:
    """A paletted (mode ``P``) PNG of ``img``."""
    buf = io.BytesIO()
    quantize(img, palette).save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def encode_webp(img: Image.Image, lossless: bool = True, quality: int = WEBP_QUALITY) -> bytes:
    """A WebP of ``img``: lossless by default (flat art compresses well and text stays crisp)."""
    buf = io.BytesIO()
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    # method 0 is the fastest encoder setting; higher methods cost much more time for little gain here
    rgb.save(buf, format="WEBP", lossless=lossless, quality=quality, method=0)
    return buf.getvalue()


def encode(img: Image.Image, fmt: Format = "png") -> bytes:
    """``img`` as upload bytes in ``fmt``."""
    if fmt == "png":
        return encode_png(img)
    if fmt == "webp":
        return encode_webp(img)
    raise ValueError(f"unknown image format {fmt!r}")
