"""Composed image → upload bytes: paletted PNG by default, WebP as an option.

Measured on this machine (discord-notes.md, bench/bench_render.py): a paletted PNG of a flat table encodes
about twice as fast as a default RGB PNG at about a third of the bytes; ``optimize=True`` costs 4–6× the
time for ~3 % fewer bytes, so it is never used.

Tables are drawn only with the colours of :mod:`bot.render.palette`, so the default maps the image onto
that fixed palette (its colours plus the blends antialiased text makes): ~1.5 ms against ~11 ms for an
adaptive octree of 64 colours on a busy 1000×560 table, with a smaller error and file. An image drawn
with other colours should pass ``palette="adaptive"``. Dithering would only add noise (and bytes): off.

A table drawn for a PNG skips even that mapping: it is drawn on the table palette from the start (mode ``P``,
:func:`paletted_frame`), each colour, card face and text edge taking the index the mapping would have given it
(:func:`palette_index`, :func:`blend_indices`, :func:`paletted`), so the PNG holds the same pixels as the RGB
frame's, and the encoder only deflates it.

The PNG is written here (:func:`png_bytes`), its image data deflated by ISA-L (the ``isal`` package) rather than
by Pillow's zlib: on a busy table 0.2–0.35 ms against 1.9–2.5 ms at zlib level 2, for a file within a few per cent
of the same size (measured on each game's busiest table, ``bench/bench_render*.py``). Every PNG the bot uploads,
a table's and the blank frame the benchmarks measure against alike, is written this way.
"""

from __future__ import annotations

import io
import struct
from functools import lru_cache
from typing import Literal

from isal import isal_zlib
from PIL import Image

from bot.render.palette import RGB, table_palette

Format = Literal["png", "webp"]
PaletteMode = Literal["table", "adaptive"]

MAX_COLOURS = 64
PNG_COMPRESS_LEVEL = 2
"""ISA-L's level 2 (of 0–3, its default): as fast as level 1 on a table picture for a few hundred bytes fewer; level 3
takes four to five times as long for no fewer bytes on these pictures, and level 0 saves no time for a fifth more
bytes. The files are within ±5 % of zlib level 2's (the level Pillow's zlib was used at, itself 10–15 % faster than
level 3 for about 5 % more bytes): 39.5 kB against 37.7 kB on the Oicho showdown, 49.7 kB against 49.3 kB on an OFC
showdown, 19.1 kB against 20.8 kB on a Luk Fu face-down follow."""
PNG_BLOCK = 64 * 1024
"""Rows are handed to the deflater this many bytes at a time: a table picture is 0.5–0.75 MB of pixels, and a buffer
that large, allocated afresh for each picture, costs up to 0.7 ms in page faults on these machines (as much as the
deflate); blocks of 64 kB come from memory the process already holds."""
WEBP_QUALITY = 80

MIME = {"png": "image/png", "webp": "image/webp"}


@lru_cache(maxsize=1)
def _palette_image() -> Image.Image:
    colours = table_palette()
    flat = [v for colour in colours for v in colour]
    img = Image.new("P", (1, 1))
    img.putpalette(flat)  # only the real entries: the PNG's PLTE then holds ~60 colours, not 256
    return img


@lru_cache(maxsize=1)
def _palette_values() -> list[int]:
    """The table palette as :meth:`Image.getpalette` lists it: r, g, b of each entry."""
    values = _palette_image().getpalette()
    assert values is not None
    return values


def clear_caches() -> None:
    """Forget the palette image and what was worked out from it, as after a restart."""
    for fn in (_palette_image, _palette_values, palette_index, blend_indices):
        fn.cache_clear()


def on_table_palette(img: Image.Image) -> bool:
    """Whether ``img`` is already drawn on the table palette (mode ``P`` with exactly its entries)."""
    return img.mode == "P" and img.getpalette() == _palette_values()


def quantize(img: Image.Image, palette: PaletteMode = "table") -> Image.Image:
    """The image as mode ``P``: mapped onto the table palette, or an adaptive one of ≤ 64 colours. An image
    already on the table palette is returned as it is."""
    if palette == "table" and on_table_palette(img):
        return img
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    if palette == "table":
        return rgb.quantize(palette=_palette_image(), dither=Image.Dither.NONE)
    return rgb.quantize(colors=MAX_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


@lru_cache(maxsize=256)
def palette_index(colour: RGB) -> int:
    """The table palette's index for ``colour``: the one :func:`quantize` gives a pixel of that colour (each
    palette colour keeps its own index). Colours are few (the palette's, and a game's own), so 256 entries
    (a few kB) hold them all."""
    index = quantize(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
    assert isinstance(index, int)
    return index


@lru_cache(maxsize=256)
def blend_indices(fill: RGB, under: int) -> list[int]:
    """For each coverage 0–255 of an antialiased text mask: the palette index of ``fill`` drawn at that coverage
    over the palette colour ``under``, as an RGB frame would blend it (Pillow's own paste) and :func:`quantize`
    would map it. A lookup table for :meth:`Image.point` (256 ints, about 2 kB each; the text colours and the
    backgrounds they stand on make a few dozen pairs, 256 entries at most hold 0.5 MB)."""
    values = _palette_values()
    strip = Image.new("RGB", (256, 1), tuple(values[3 * under : 3 * under + 3]))
    strip.paste(fill, (0, 0), Image.frombytes("L", (256, 1), bytes(range(256))))
    return list(quantize(strip).tobytes())


def paletted_frame(size: tuple[int, int], colour: RGB) -> Image.Image:
    """A blank frame of ``colour`` on the table palette (mode ``P``), ready to be drawn on and encoded."""
    img = Image.new("P", size, palette_index(colour))
    img.putpalette(_palette_values())
    return img


def paletted(img: Image.Image) -> Image.Image:
    """An RGBA image (a card face) mapped onto the table palette once and kept with it, as :func:`quantize` would
    map it once pasted on an RGB frame; its alpha is dropped (paste it with the original as the mask). It is
    cached and shared, and so is what this returns (do not draw on either)."""
    tile = img.info.get(_PALETTED)
    if not isinstance(tile, Image.Image):
        tile = img.info[_PALETTED] = quantize(img.convert("RGB"))
    return tile


def paletted_on(img: Image.Image, under: RGB) -> tuple[Image.Image, int, int]:
    """An RGBA image (a card face) laid on ``under`` and mapped onto the table palette: an opaque tile for a place
    of that colour, kept with the image like :func:`paletted`; and how many rows at its top and at its bottom hold
    its transparent pixels (where the place must be of that colour; all its rows if some lie between)."""
    key = _on_key(under)
    found = img.info.get(key)
    if not isinstance(found, tuple):
        flat = Image.new("RGB", img.size, under)
        flat.paste(img, (0, 0), img)
        found = img.info[key] = (quantize(flat), *_transparent_rows(img))
    return found


@lru_cache(maxsize=64)
def _on_key(under: RGB) -> str:
    """Where :func:`paletted_on` keeps an image laid on ``under`` (made once per colour: a table pastes dozens of
    cards)."""
    return f"{_PALETTED}.{under}"


def _transparent_rows(img: Image.Image) -> tuple[int, int]:
    clear = img.getchannel("A").point([255] + [0] * 255)  # 255 where the image is transparent
    width, height = img.size

    def clear_in(top: int, bottom: int) -> bool:
        return clear.crop((0, top, width, bottom)).getbbox() is not None

    top = 0
    while top < height and clear_in(top, top + 1):
        top += 1
    bottom = 0
    while bottom < height - top and clear_in(height - bottom - 1, height - bottom):
        bottom += 1
    return (height, 0) if clear_in(top, height - bottom) else (top, bottom)


_PALETTED = "fudaba.paletted"
"""Where :func:`paletted` keeps an image's paletted copies (in ``Image.info``: they live and die with the image)."""


def encode_png(img: Image.Image, palette: PaletteMode = "table") -> bytes:
    """A paletted (mode ``P``) PNG of ``img`` (an image already on the table palette is only deflated)."""
    return png_bytes(quantize(img, palette))


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_bytes(img: Image.Image) -> bytes:
    """The PNG of a mode ``P`` image: 8 bits an index, its palette (as many entries as it has), one IDAT of
    unfiltered rows (filter type 0 on every row, as Pillow writes a palette image) deflated by ISA-L. Only the
    pixels and the palette are written (no transparency, no other chunk: a table picture has none)."""
    if img.mode != "P":
        raise ValueError(f"a paletted PNG needs a mode P image, not {img.mode!r}")
    colours = img.getpalette()
    if not colours:
        raise ValueError("a paletted PNG needs a palette")
    width, height = img.size
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indices, colour type 3 (palette)
    return b"".join(
        (
            _PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(colours)),
            _chunk(b"IDAT", _deflated_rows(img)),
            _chunk(b"IEND", b""),
        )
    )


def _deflated_rows(img: Image.Image) -> bytes:
    """Each row of ``img`` after a 0 byte (PNG's filter type "none"), deflated as one zlib stream.

    Pillow's raw encoder with a stride one byte wider than a row writes each row followed by a 0 byte, a block of
    rows at a time (:data:`PNG_BLOCK`); the stream is the same bytes shifted by one: a 0 byte first, and the last
    block without its final 0."""
    width = img.width
    rows = Image._getencoder("P", "raw", ("P", width + 1))
    deflater = isal_zlib.compressobj(PNG_COMPRESS_LEVEL)
    parts = [deflater.compress(b"\0")]
    try:
        rows.setimage(img.im, (0, 0, *img.size))
        while True:
            _, status, block = rows.encode(max(PNG_BLOCK, width + 1))
            if status < 0:
                raise RuntimeError(f"Pillow's raw encoder failed ({status})")
            if status:  # the last block
                parts.append(deflater.compress(memoryview(block)[:-1]))
                break
            parts.append(deflater.compress(block))
    finally:
        rows.cleanup()
    parts.append(deflater.flush())
    return b"".join(parts)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return b"".join(
        (struct.pack(">I", len(data)), kind, data, struct.pack(">I", isal_zlib.crc32(data, isal_zlib.crc32(kind))))
    )


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
