"""Text on the table images: fitted, ellipsised, never boxes, and rasterised once per string.

Rasterising glyphs from the 16 MB CFF font is most of a table's drawing time, and a table redraws the
same names, numbers and labels on every update; :class:`Canvas` keeps each string's antialiased mask
and pastes the colour through it, so a redraw only rasterises what changed.

A canvas draws on an RGB frame or, for a PNG, on a frame already on the table palette (:func:`table_frame`):
there every shape, card and text takes the palette index that mapping the RGB picture onto the palette would
give each of its pixels, so both make the same picture, and the paletted one needs no mapping of the whole frame
before it is encoded (about as costly as deflating it). Drawing on it is cheaper too (measured: a text on a
panel ~4 µs against ~20 µs, a panel ~6 µs against ~20 µs): a byte a pixel, each text an opaque tile made once
for the colour it stands on, each card laid on the panel once, rounded corners pasted from a cache.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, ClassVar

from PIL import Image, ImageDraw

from bot import i18n
from bot.render import palette as P
from bot.render.encode import blend_indices, palette_index, paletted, paletted_frame, paletted_on, quantize
from bot.render.fonts import fit, text_width
from bot.render.palette import PANEL

TEXT_CACHE_SIZE = 4096
TILE_CACHE_SIZE = 1024
"""Texts on the palette over another colour than the panels' (badges), kept as ready tiles (:func:`text_tile`)."""


def label(key: str, lang: str, fallback: dict[str, dict[str, str]], **params: Any) -> str:
    """``bot.i18n.t(key)`` when the catalog has ``key``, else the renderer's own ``fallback[key]``.

    The renderer must not break while catalogs are still being written, and must not show a raw key.
    """
    if i18n.has(key):  # looked up on the module at each call: tests replace them
        return i18n.t(key, lang, **params)
    entry = fallback.get(key)
    if entry is None:
        return key
    text = entry.get("ja" if lang.lower().startswith("ja") else "en") or entry.get("en") or key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def text_mask(text: str, size: int, anchor: str = "ls", stroke: int = 0) -> tuple[Image.Image, int, int]:
    """The antialiased coverage mask of ``text`` and its offset from the anchor point (cached: a mask averages
    about 3 kB on a table, so the cache holds about 12 MB when full)."""
    return _rasterise(text, size, anchor, stroke)


def _rasterise(text: str, size: int, anchor: str, stroke: int) -> tuple[Image.Image, int, int]:
    from bot.render.fonts import font

    f = font(size)
    box = f.getbbox(text, anchor=anchor, stroke_width=stroke)
    left, top, right, bottom = math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top), text, font=f, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255
    )
    return mask, left, top


@lru_cache(maxsize=TILE_CACHE_SIZE)
def text_tile(text: str, size: int, anchor: str, stroke: int, fill: P.RGB, under: int) -> Any:
    """``text`` in ``fill`` over the palette colour ``under``, as an opaque tile of palette indices the size of its
    mask (a Pillow core image, pasted as is): what its pixels become in an RGB frame once mapped to the palette."""
    mask = text_mask(text, size, anchor, stroke)[0]
    return mask.im.point(blend_indices(fill, under), "L")


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def panel_text(text: str, size: int, anchor: str, stroke: int, fill: P.RGB) -> tuple[Any, int, int, int, int, float]:
    """What drawing ``text`` in ``fill`` on a bare panel takes, in one look-up: its :func:`text_tile` over the panel
    colour (palette index 0), the tile's offset from the anchor and size, and the text's advance width.

    A PNG's table is drawn with these alone for most of its texts, so they do not go through :func:`text_mask`'s
    cache as well: the two hold about as much (a tile is as big as its mask, ~12 MB for 4096 when full), and a
    render worker, which only draws PNGs, fills this one."""
    mask, dx, dy = _rasterise(text, size, anchor, stroke)
    tile = mask.im.point(blend_indices(fill, 0), "L")
    return tile, dx, dy, mask.width, mask.height, text_width(text, size)


def ink_box(
    xy: tuple[float, float], text: str, size: int, anchor: str = "ls", bold: bool = False
) -> tuple[int, int, int, int]:
    """Where :meth:`Canvas.text` puts the ink of ``text`` drawn at ``xy``: (left, top, right, bottom)."""
    mask, dx, dy = text_mask(text, size, anchor, max(1, size // 22) if bold else 0)
    left, top = round(xy[0]) + dx, round(xy[1]) + dy
    return left, top, left + mask.width, top + mask.height


def compact_chips(n: int) -> str:
    """Chips in a narrow place: exact below 100,000, then ``123k`` / ``4.5M``."""
    if abs(n) < 100_000:
        return f"{n:,}"
    thousands = round(n / 1000)
    if abs(thousands) < 10_000:
        return f"{thousands}k"
    return f"{n / 1_000_000:.1f}M"


def table_frame(size: tuple[int, int], paletted: bool = False) -> Image.Image:
    """A blank table of flat felt to draw on: RGB, or (``paletted``, for a PNG) already on the table palette."""
    return paletted_frame(size, P.FELT) if paletted else Image.new("RGB", size, P.FELT)


class _PaletteDraw(ImageDraw.ImageDraw):
    """ImageDraw on a frame on the table palette: a colour given as RGB is drawn with the index the palette maps it
    to (plain ImageDraw would add it to the palette as a new entry when it is not there); rounded rectangles are
    drawn with their corners from a cache (:func:`_corners`)."""

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        return super()._getink(
            palette_index(ink) if isinstance(ink, tuple) else ink,
            palette_index(fill) if isinstance(fill, tuple) else fill,
        )

    def rounded_rectangle(
        self,
        xy: Any,
        radius: float = 0,
        fill: Any = None,
        outline: Any = None,
        width: int = 1,
        *,
        corners: tuple[bool, bool, bool, bool] | None = None,
    ) -> None:
        """Pillow's rounded rectangle, pixel for pixel: its straight parts drawn as Pillow draws them, its four
        corners pasted as Pillow drew them once (they are most of its time: a filled panel costs a third of
        Pillow's). Shapes whose corners are not apart (or given other than as four numbers, or some corners
        square) are left to Pillow."""
        if corners is None and isinstance(radius, int) and radius > 0 and isinstance(xy, tuple) and len(xy) == 4:
            d = 2 * radius
            x0, y0, x1, y1 = round(xy[0]), round(xy[1]), round(xy[2]), round(xy[3])
            # apart: Pillow's d (from the unrounded box) is the full 2 × radius, and the corners do not meet
            if xy[2] - xy[0] >= d and xy[3] - xy[1] >= d and x1 - x0 > 2 * d and y1 - y0 > 2 * d:
                shape = _rounded(radius, width, _ink_key(fill), _ink_key(outline))
                if shape is not None:
                    fill_ink, ink, pieces = shape
                    _straight_parts(self.draw, (x0, y0, x1, y1), radius, width, fill_ink, ink)
                    core = self._image.im
                    for (dx, dy), (tile, mask) in zip(_corner_places(x0, y0, x1, y1, d), pieces, strict=True):
                        core.paste(tile, (dx, dy, dx + d + 1, dy + d + 1), mask)
                    return
        super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)


def _ink_key(colour: Any) -> Any:
    """A colour as a cache key: an RGB tuple, a palette index or None (a list, as ImageDraw also takes, as a tuple)."""
    return tuple(colour) if isinstance(colour, list) else colour


@lru_cache(maxsize=256)
def _rounded(radius: int, width: int, fill: Any, outline: Any) -> tuple[int | None, int | None, Any] | None:
    """A rounded rectangle's inks (palette indices) and cached corners, or None to leave it to Pillow: when it has
    neither fill nor outline (Pillow then draws with its default ink), a colour that is not RGB or an index, or
    corners Pillow draws otherwise (:func:`_corners`)."""
    inks = [palette_index(c) if isinstance(c, tuple) and len(c) == 3 else c for c in (fill, outline)]
    if inks == [None, None] or any(c is not None and not isinstance(c, int) for c in inks):
        return None
    fill_ink, ink = inks
    pieces = _corners(radius, width, fill_ink, ink)
    return None if pieces is None else (fill_ink, ink, pieces)


def _corner_places(x0: int, y0: int, x1: int, y1: int, d: int) -> tuple[tuple[int, int], ...]:
    """Where the four (d + 1)-pixel corner squares of a rounded rectangle start: top left, top right, bottom right,
    bottom left."""
    return ((x0, y0), (x1 - d, y0), (x1 - d, y1 - d), (x0, y1 - d))


def _straight_parts(
    draw: Any, box: tuple[int, int, int, int], r: int, width: int, fill_ink: int | None, ink: int | None
) -> None:
    """The rectangles Pillow's ``rounded_rectangle`` draws for a shape whose four corners are apart (as Pillow 13
    does; :func:`_corners` notices a Pillow that draws otherwise): the fill's middle and sides, then the outline's
    four sides."""
    x0, y0, x1, y1 = box
    if fill_ink is not None:
        draw.draw_rectangle((x0 + r + 1, y0, x1 - r - 1, y1), fill_ink, 1)
        draw.draw_rectangle((x0, y0 + r + 1, x0 + r, y1 - r - 1), fill_ink, 1)
        draw.draw_rectangle((x1 - r, y0 + r + 1, x1, y1 - r - 1), fill_ink, 1)
    if ink is not None and ink != fill_ink and width != 0:
        draw.draw_rectangle((x0 + r + 1, y0, x1 - r - 1, y0 + width - 1), ink, 1)
        draw.draw_rectangle((x0 + r + 1, y1 - width + 1, x1 - r - 1, y1), ink, 1)
        draw.draw_rectangle((x0, y0 + r + 1, x0 + width - 1, y1 - r - 1), ink, 1)
        draw.draw_rectangle((x1 - width + 1, y0 + r + 1, x1, y1 - r - 1), ink, 1)


_UNPAINTED = 255
"""A grey level no palette index takes (the palette has fewer than 255 entries): a pixel no drawing touched."""


@lru_cache(maxsize=256)
def _corners(radius: int, width: int, fill_ink: int | None, ink: int | None) -> tuple[tuple[Any, Any], ...] | None:
    """The four corner squares of a rounded rectangle as Pillow draws it (palette indices, and a mask of the pixels
    drawn), or None when :func:`_straight_parts` and these corners do not give Pillow's very pixels (checked here on
    a few boxes; a later Pillow drawing it otherwise is then simply left to draw it). A few dozen shapes (radius,
    outline width and colours) are drawn: 256 entries of four squares of at most 17 × 17 px hold them all (~0.6 MB
    at most)."""
    d = 2 * radius

    def pillow(size: tuple[int, int], box: tuple[int, int, int, int]) -> Image.Image:
        img = Image.new("L", size, _UNPAINTED)
        ImageDraw.Draw(img).rounded_rectangle(box, radius, fill=fill_ink, outline=ink, width=width)
        return img

    side = 2 * d + 1
    proto = pillow((side + 1, side + 1), (0, 0, side, side))
    pieces = []
    for x, y in _corner_places(0, 0, side, side, d):
        square = proto.crop((x, y, x + d + 1, y + d + 1))
        mask = square.point([0 if v == _UNPAINTED else 255 for v in range(256)])
        pieces.append((square.im, mask.im))
    for box in ((3, 5, 3 + side, 5 + side), (2, 1, 2 + side + 7, 1 + side + 20)):
        size = (box[2] + 4, box[3] + 3)
        mine = Image.new("L", size, _UNPAINTED)
        _straight_parts(ImageDraw.Draw(mine).draw, box, radius, width, fill_ink, ink)
        for (x, y), (tile_core, mask_core) in zip(_corner_places(*box, d), pieces, strict=True):
            mine.im.paste(tile_core, (x, y, x + d + 1, y + d + 1), mask_core)
        if mine.tobytes() != pillow(size, box).tobytes():
            return None
    return tuple(pieces)


class Canvas:
    """An image with cached-text drawing; ``draw`` is an ImageDraw for shapes (given RGB colours either way).

    The image is RGB, or on the table palette (mode ``P``, :func:`table_frame`) when ``paletted`` is true."""

    pastes_runs: ClassVar[bool] = True
    """Whether a run (:func:`~bot.render.layers.run`) may be pasted whole on it: not on a canvas that notes each
    text it draws."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.paletted = img.mode == "P"
        self.draw: ImageDraw.ImageDraw = _PaletteDraw(img) if self.paletted else ImageDraw.Draw(img)
        self._core = img.im
        self._width, self._height = img.size
        self.last_ink: tuple[int, int, int, int] = (0, 0, 0, 0)
        """The box of the last text's ink (as :func:`ink_box` gives it)."""
        self.ink_log: list[tuple[int, int, int, int]] | None = None
        """While a list (:func:`~bot.render.layers.run` sets one): on the palette, the box every text, badge and card
        reads and writes is added to it."""

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: P.RGB = P.TEXT,
        anchor: str = "ls",
        bold: bool = False,
    ) -> float:
        """Draw ``text`` as is (callers pass text already made drawable); returns its advance width."""
        if not text:
            return 0.0
        stroke = max(1, size // 22) if bold else 0
        if self.paletted:
            return self._text_on_palette(xy, text, size, fill, anchor, stroke)
        mask, dx, dy = text_mask(text, size, anchor, stroke)
        x, y = round(xy[0]) + dx, round(xy[1]) + dy
        w, h = mask.size
        self.last_ink = (x, y, x + w, y + h)
        self.img.paste(fill, (x, y), mask)
        return text_width(text, size)

    def _text_on_palette(
        self, xy: tuple[float, float], text: str, size: int, fill: P.RGB, anchor: str, stroke: int
    ) -> float:
        """:meth:`text` on the palette: each pixel takes the index its RGB blend would be mapped to."""
        tile, dx, dy, w, h, advance = panel_text(text, size, anchor, stroke, fill)
        x, y = round(xy[0]) + dx, round(xy[1]) + dy
        box = self.last_ink = (x, y, x + w, y + h)
        if self.ink_log is not None:
            self.ink_log.append(box)
        core = self._core
        if x >= 0 and y >= 0 and x + w <= self._width and y + h <= self._height and core.crop(box).getbbox() is None:
            core.paste(tile, box)  # on bare panel (most texts): the tile made for it
            return advance
        under = self._under(box)
        if under >= 0:
            # on another single colour (a badge): each coverage level has its index, and where the mask is empty
            # the tile gives that colour back, so it is pasted whole, as an opaque tile
            self._core.paste(text_tile(text, size, anchor, stroke, fill, under), box)
        else:
            # over several colours (rare: across a line or a frame's edge): blend those pixels in RGB and map them
            # back; every palette colour maps onto itself, so the pixels the text leaves alone stay as they were.
            # Only over antialiased pixels (another text's edge, a card's numerals: no table draws a text there,
            # texts stand clear of each other and of cards) does this blend with the palette's shade of the pixel
            # rather than the pixel itself, and may come out a shade off.
            region = self.img.crop(box).convert("RGB")
            region.paste(fill, (0, 0), text_mask(text, size, anchor, stroke)[0])
            self.img.paste(quantize(region), (x, y))
        return advance

    def _under(self, box: tuple[int, int, int, int]) -> int:
        """On the palette: the one index all of ``box`` has, or -1 if it has several or reaches out of the image."""
        if box[0] < 0 or box[1] < 0 or box[2] > self._width or box[3] > self._height:
            return -1
        region = self._core.crop(box)
        if region.getbbox() is None:  # bare panel, index 0: the usual case, and the cheapest test
            return 0
        low, high = region.getextrema()
        return int(low) if low == high else -1

    def paste_card(self, face: Image.Image, xy: tuple[int, int]) -> None:
        """A card image (RGBA with rounded corners, its alpha 0 or 255 only) at ``xy``."""
        if not self.paletted:
            self.img.paste(face, xy, face)
            return
        x, y = xy
        width, height = face.size
        box = (x, y, x + width, y + height)
        if self.ink_log is not None:
            self.ink_log.append(box)
        tile, top, bottom = paletted_on(face, PANEL)
        core = self._core
        if (
            x >= 0
            and y >= 0
            and box[2] <= self._width
            and box[3] <= self._height
            and core.crop((x, y, box[2], y + top)).getbbox() is None
            and core.crop((x, box[3] - bottom, box[2], box[3])).getbbox() is None
        ):  # its transparent corners on bare panel: the face laid on the panel, pasted whole
            core.paste(tile.im, box)
        else:
            core.paste(paletted(face).im, box, face.im)

    def bar(self, box: tuple[float, float, float, float], fill: P.RGB) -> None:
        """A filled rectangle (its corners inclusive, as :meth:`ImageDraw.rectangle` takes them), such as a pile's
        outcome bar, noted like a text's ink while a run is drawn."""
        if self.ink_log is not None:
            self.ink_log.append((math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]) + 1, math.ceil(box[3]) + 1))
        self.draw.rectangle(box, fill=fill)

    def card_in_place(self, face: Image.Image, xy: tuple[int, int]) -> None:
        """A card image in an empty card place drawn on a panel (its outline, as :meth:`empty_place` draws it, at the
        card's very box): the face laid on the panel, its corners the panel's colour, as on bare panel."""
        x, y = xy
        box = (x, y, x + face.width, y + face.height)
        if self.paletted:
            if self.ink_log is not None:
                self.ink_log.append(box)
            self._core.paste(paletted_on(face, PANEL)[0].im, box)
        else:
            self.img.paste(PANEL, box)
            self.img.paste(face, xy, face)

    def empty_place(self, x: int, y: int, size: tuple[int, int], radius: int) -> None:
        """An empty place for a card of ``size`` at ``(x, y)``: a faint rounded outline on the card's box."""
        w, h = size
        self.draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=radius, outline=P.FELT_LINE, width=2)

    def fitted(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        max_width: float,
        fill: P.RGB = P.TEXT,
        anchor: str = "ls",
    ) -> float:
        """Draw ``text`` without undrawable characters, cut to ``max_width`` with an ellipsis.

        The default anchor is left/baseline, so texts of different scripts on one line share a baseline.
        """
        return self.text(xy, fit(text, size, max_width), size, fill, anchor)

    @staticmethod
    def text_width(text: str, size: int) -> float:
        return text_width(text, size)

    def badge(self, x: float, baseline: float, text: str, size: int, bg: P.RGB, fg: P.RGB) -> float:
        """A small filled tag (``親``, ``決``) whose text sits on ``baseline``; returns its width."""
        w = text_width(text, size)
        pad = max(2, size // 5)
        top = baseline - size * 0.95
        box = (x, top, x + w + 2 * pad, baseline + size * 0.22)
        if self.ink_log is not None:  # (a box round every pixel the tag may take, however Pillow rounds it)
            self.ink_log.append((math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]) + 1, math.ceil(box[3]) + 1))
        self.draw.rounded_rectangle(box, radius=3, fill=bg)
        self.text((x + pad, baseline), text, size, fg)
        return w + 2 * pad
