"""Fonts for the table images: Noto Sans CJK JP from the ``noto-cjk-sans-jp-regular`` PyPI package.

The machine's own fonts (DejaVu) draw Japanese as empty boxes, and CI installs only what the project's
dependencies install, so the font is taken from the installed package and never from the system.
Text that reaches an image goes through :func:`displayable` first: a character the font has no glyph
for (emoji, most symbols outside CJK and Latin) is dropped instead of being drawn as a ``.notdef`` box.
"""

from __future__ import annotations

import re
import unicodedata
from contextlib import ExitStack
from functools import lru_cache
from importlib.resources import as_file, files
from pathlib import Path

from PIL import ImageFont

FONT_PACKAGE = "noto_cjk_sans_jp_regular"
FONT_FILE = "NotoSansCJKjp-Regular.otf"
ELLIPSIS = "…"

# Keeps a temporary copy alive if the package is ever installed zipped (as_file then extracts it).
_files = ExitStack()

# U+FFFF is a noncharacter: no font maps it, so it renders as the font's .notdef glyph.
_NOTDEF_PROBE = "\uffff"
_PROBE_SIZE = 20


@lru_cache(maxsize=1)
def font_path() -> Path:
    """Where the Noto Sans CJK JP ``.otf`` of the installed package is."""
    resource = files(FONT_PACKAGE).joinpath(FONT_FILE)
    path = _files.enter_context(as_file(resource))
    if not path.is_file():
        raise FileNotFoundError(f"{FONT_FILE} is missing from the {FONT_PACKAGE} package")
    return path


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The CJK font at ``size`` px, loaded once per size.

    The basic layout engine is enough for Japanese, English and digits, is faster than Raqm and does
    not depend on how the Pillow wheel was built, so images are the same on every machine.
    """
    return ImageFont.truetype(str(font_path()), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=1)
def _notdef_mask() -> bytes:
    return bytes(font(_PROBE_SIZE).getmask(_NOTDEF_PROBE))


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether the font draws ``char`` with a real glyph (not the .notdef box)."""
    if char.isspace():
        return True
    mask = font(_PROBE_SIZE).getmask(char)
    return bytes(mask) != _notdef_mask()


# Joiners, variation selectors and tag characters glue emoji together; they draw nothing by themselves.
_WIDTH_FOLD = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\uff61-\uff9f]+")
_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zl", "Zp"}


@lru_cache(maxsize=2048)
def displayable(text: str) -> str:
    """``text`` without the characters the font cannot draw; runs of whitespace become one space.

    Fullwidth letters and digits (ｆｕｌｌ) become plain ones and halfwidth katakana (ｶﾀｶﾅ) full ones, so
    names take less room; fullwidth punctuation (：、（）) is kept, as Japanese labels use it on purpose.
    """
    text = _WIDTH_FOLD.sub(lambda m: unicodedata.normalize("NFKC", m.group()), unicodedata.normalize("NFC", text))
    kept: list[str] = []
    for char in text:
        if char.isspace():
            if kept and kept[-1] != " ":
                kept.append(" ")
            continue
        if unicodedata.category(char) in _INVISIBLE_CATEGORIES:
            continue
        if has_glyph(char):
            kept.append(char)
    return "".join(kept).strip()


@lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> float:
    """Advance width of ``text`` in px (cached: tables measure the same strings on every redraw)."""
    return font(size).getlength(text)


def fit(text: str, size: int, max_width: float, placeholder: str = "?") -> str:
    """``text`` made drawable and cut with an ellipsis so that it is at most ``max_width`` px wide. A bot's name too
    wide for its place loses its level tag before any of its letters (``Tengu (strong)`` → ``Tengu``, not
    ``Tengu (s…``): the seat's own panel, which has the room, still shows the level."""
    clean = displayable(text) or placeholder
    if text_width(clean, size) > max_width:
        clean = _without_level(clean)
    return _fit_clean(clean, size, int(max_width))


@lru_cache(maxsize=1)
def _level_tags() -> tuple[str, ...]:
    from bot.ui.bot_levels import tag_suffixes

    return tag_suffixes()


def _without_level(text: str) -> str:
    for tag in _level_tags():
        if text.endswith(tag) and len(text) > len(tag):
            return text[: -len(tag)]
    return text


@lru_cache(maxsize=4096)
def _fit_clean(text: str, size: int, max_width: int) -> str:
    if text_width(text, size) <= max_width:
        return text
    f = font(size)
    # The longest prefix that still fits together with the ellipsis (binary search: widths grow with length).
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.getlength(text[:mid].rstrip() + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS
