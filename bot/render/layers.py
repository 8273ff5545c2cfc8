"""A table's backdrop: what every picture of a table with the same layout draws alike, drawn once and copied.

The felt, the dark panels (top bar, seat frames, a game's boxes), their fixed labels and the empty places cards go
in depend only on a layout's few parameters (a game's seat count, the language of a fixed label), not on the
state of play. A PNG's table starts from a copy of that frame (on the table palette) instead of a blank one and
draws only what the state adds: on a busy Oicho-Kabu table that is 16 rounded panels, a badge, four labels and 15
card places fewer per picture (about a tenth of its drawing time), for the cost of the copy, which costs what
a fresh frame does.

Backdrops are kept by the function that draws them and its arguments (:func:`on_backdrop`), so two layouts never
share one; the cache is bounded by the bytes of its frames (:data:`BACKDROP_BUDGET`): a table is 0.5–0.75 MB on
the palette, and the few layouts a game has in play at once fit. An RGB table (the reference the render tests
read) is drawn afresh each time, by the same function, in the same order.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

from PIL import Image

from bot.render.encode import palette_index
from bot.render.palette import FELT
from bot.render.text import Canvas, table_frame

CanvasT = TypeVar("CanvasT", bound=Canvas)

BACKDROP_BUDGET = 12 * 1024 * 1024
"""Bytes of backdrop frames kept (least recently used dropped first): about 20 tables' layouts on the palette."""


class FrameCache:
    """A least-recently-used map of images bounded by the bytes they hold; safe to use from several threads."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0
        self._items: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Image.Image | None:
        with self._lock:
            img = self._items.get(key)
            if img is not None:
                self._items.move_to_end(key)
            return img

    def put(self, key: Hashable, img: Image.Image) -> None:
        size = _nbytes(img)
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.held -= _nbytes(old)
            if size > self.budget:
                return
            self._items[key] = img
            self.held += size
            while self.held > self.budget:
                _, dropped = self._items.popitem(last=False)
                self.held -= _nbytes(dropped)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.held = 0

    def items(self) -> list[tuple[Hashable, Image.Image]]:
        """What is kept, least recently used first."""
        with self._lock:
            return list(self._items.items())

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items


def _nbytes(img: Image.Image) -> int:
    return img.width * img.height * len(img.getbands())


backdrops = FrameCache(BACKDROP_BUDGET)


def on_backdrop(
    canvas: Callable[[Image.Image], CanvasT],
    size: tuple[int, int],
    paletted: bool,
    draw: Callable[..., None],
    *args: Hashable,
    reuse: bool = False,
) -> CanvasT:
    """A canvas (made by ``canvas``, a :class:`~bot.render.text.Canvas` class) on a frame of ``size`` that has
    ``draw(canvas, *args)`` drawn on blank felt, to draw the rest of a picture on.

    On the palette the frame is a copy of the one kept for ``(draw, size, args)`` (drawn on first use, on a plain
    canvas), into this thread's frame of that size when ``reuse`` (:func:`reused_frame`); in RGB ``draw`` draws
    on the returned canvas itself, afresh. ``draw`` must depend on nothing but its arguments (and constants): they
    are its key."""
    if not paletted:
        c = canvas(table_frame(size, False))
        draw(c, *args)
        return c
    key = (draw, size, args)
    frame = backdrops.get(key)
    if frame is None:
        first = Canvas(table_frame(size, True))
        draw(first, *args)
        frame = first.img
        backdrops.put(key, frame)
    if not reuse:
        return canvas(frame.copy())
    img = reused_frame(size)
    img.im.paste(frame.im, (0, 0, *size))
    return canvas(img)


def blank_canvas(
    canvas: Callable[[Image.Image], CanvasT], size: tuple[int, int], paletted: bool, reuse: bool
) -> CanvasT:
    """A canvas on blank felt (:func:`~bot.render.text.table_frame`); on the palette in this thread's frame of that
    size when ``reuse``."""
    if not (paletted and reuse):
        return canvas(table_frame(size, paletted))
    img = reused_frame(size)
    img.im.paste(palette_index(FELT), (0, 0, *size))
    return canvas(img)


REUSED_FRAMES = 4
"""Frames of different sizes each render thread keeps to draw in (the sizes of the tables it draws in turn)."""

_local = threading.local()


def reused_frame(size: tuple[int, int]) -> Image.Image:
    """This thread's frame of ``size`` on the table palette, to draw a picture that is encoded before the thread
    draws the next one (a render, never a composed image handed out): its content is whatever was drawn last.

    A fresh frame is 0.5–0.75 MB that the allocator often takes from the system anew, page by page: on these
    machines up to 150 page faults, 0.1–0.3 ms, as much as drawing a quarter of the picture. Each thread keeps its
    last :data:`REUSED_FRAMES` sizes (least recently used dropped first)."""
    frames: OrderedDict[tuple[int, int], Image.Image] | None = getattr(_local, "frames", None)
    if frames is None:
        frames = _local.frames = OrderedDict()
    img = frames.get(size)
    if img is None:
        img = frames[size] = table_frame(size, True)
        while len(frames) > REUSED_FRAMES:
            frames.popitem(last=False)
    else:
        frames.move_to_end(size)
    return img
