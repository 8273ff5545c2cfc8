"""Text on the table images: fitted, ellipsised, never boxes, and rasterised once per string.

Rasterising glyphs from the 16 MB CFF font is most of a table's drawing time, and a table redraws the
same names, numbers and labels on every update; :class:`Canvas` keeps each string's antialiased mask
and pastes the colour through it, so a redraw only rasterises what changed.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render import palette as P
from bot.render.fonts import fit, text_width

TEXT_CACHE_SIZE = 4096


def label(key: str, lang: str, fallback: dict[str, dict[str, str]], **params: Any) -> str:
    """``bot.i18n.t(key)`` when the catalog has ``key``, else the renderer's own ``fallback[key]``.

    The renderer must not break while catalogs are still being written, and must not show a raw key.
    """
    from bot.i18n import has, t  # late: keeps the renderer importable on its own

    if has(key):
        return t(key, lang, **params)
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
    """The antialiased coverage mask of ``text`` and its offset from the anchor point."""
    from bot.render.fonts import font

    f = font(size)
    box = f.getbbox(text, anchor=anchor, stroke_width=stroke)
    left, top, right, bottom = math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top), text, font=f, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255
    )
    return mask, left, top


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


class Canvas:
    """An RGB image with cached-text drawing; ``draw`` is the plain ImageDraw for shapes."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.draw = ImageDraw.Draw(img)

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
        mask, dx, dy = text_mask(text, size, anchor, stroke)
        self.img.paste(fill, (round(xy[0]) + dx, round(xy[1]) + dy), mask)
        return text_width(text, size)

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
        self.draw.rounded_rectangle((x, top, x + w + 2 * pad, baseline + size * 0.22), radius=3, fill=bg)
        self.text((x + pad, baseline), text, size, fg)
        return w + 2 * pad
