"""What a table's pictures have in common, drawn once: backdrops, runs, and the frame a render draws in.

Once the PNG encoder was fast, drawing was most of a picture's cost: a busy table is about 120 texts, 20 rounded
panels and 16 cards, and its render cost 1.6–1.8× the encode of a blank frame of its size for Oicho-Kabu and
1.5–1.75× for OFC (``bench/bench_render*.py``). Most of that is the same from one picture of a table to the next:

* a **backdrop** (:func:`on_backdrop`): the felt, the dark panels (top bar, seat frames, a game's boxes), their
  fixed labels and the empty places cards go in depend only on a layout's few parameters (a game's seat count,
  the language of a fixed label), not on the state of play. A PNG's table starts from a copy of that frame (on the
  table palette) and draws only what the state adds. Backdrops are kept by the function that draws them and its
  arguments, so two layouts never share one, in a cache bounded by the bytes of its frames
  (:data:`BACKDROP_BUDGET`; a table is 0.5–0.75 MB on the palette).
* a **run** (:func:`run`): a piece of a table (a seat's cell, a pile's bettors, the top bar's words) drawn from its
  arguments alone; the second time it is drawn it is kept whole (:data:`RUN_BUDGET`), and afterwards pasted in
  one go where the place it took is bare panel again. A busy Oicho-Kabu picture is 22 runs instead of about 120
  texts each testing its own place.
* the **frame** a render draws in (:func:`reused_frame`): a fresh 0.5–0.75 MB frame often comes from the system
  anew, page by page; each render thread keeps one per size.

Measured on the benchmarks' busiest tables (three runs each), a picture now costs 1.05–1.2× the blank frame's
encode for Oicho-Kabu (backdrop, runs, frame), 1.1–1.3× for OFC (backdrop, frame), 0.75–1.05× for Luk Fu and
1.05–1.15× for Hachi-Hachi (frame). An RGB table (the reference the render tests read) is drawn afresh each time,
by the same functions, in the same order: the tests hold each PNG's picture to it.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from PIL import Image

from bot.render.encode import palette_index
from bot.render.palette import FELT
from bot.render.text import Canvas, table_frame

CanvasT = TypeVar("CanvasT", bound=Canvas)
V = TypeVar("V")

BACKDROP_BUDGET = 12 * 1024 * 1024
"""Bytes of backdrop frames kept (least recently used dropped first): about 20 tables' layouts on the palette."""


class TileCache(Generic[V]):
    """A least-recently-used map of images (or what holds them) bounded by the bytes of their pixels; safe to use
    from several threads."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        """Keep ``value`` (``size`` bytes of pixels) under ``key``, dropping the least recently used to stay within
        the budget; what is larger than the whole budget is not kept."""
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.held -= old[1]
            if size > self.budget:
                return
            self._items[key] = (value, size)
            self.held += size
            while self.held > self.budget:
                _, (_, dropped) = self._items.popitem(last=False)
                self.held -= dropped

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.held = 0

    def items(self) -> list[tuple[Hashable, V]]:
        """What is kept, least recently used first."""
        with self._lock:
            return [(key, value) for key, (value, _) in self._items.items()]

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items


def _nbytes(img: Image.Image) -> int:
    return img.width * img.height * len(img.getbands())


backdrops: TileCache[Image.Image] = TileCache(BACKDROP_BUDGET)


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
        backdrops.put(key, frame, _nbytes(frame))
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


# ---------------------------------------------------------------- runs: a piece of a table, kept whole

RUN_BUDGET = 4 * 1024 * 1024
"""Bytes of runs kept (least recently used dropped first): a busy Oicho-Kabu picture's runs take about 300 kB, so
the runs of the dozen tables a worker last drew stay."""

RUNS_SEEN = 2048
"""Runs drawn once and not kept, remembered (by a hash) so that the second time one is drawn it is kept: a run is
kept only when it comes back while the ones drawn since still fit in :data:`RUN_BUDGET` (about as many runs as it
holds). A worker drawing hundreds of tables in turn, whose runs would be dropped before their table's next picture,
then spends nothing on keeping them."""

Run = tuple[Any, tuple[int, int, int, int], Any]
"""A kept run: its tile (a Pillow core image, or None when it draws nothing), its box from the run's even-rounded
origin, and what its function returned."""

runs: TileCache[Run] = TileCache(RUN_BUDGET)
_seen: dict[int, None] = {}
_seen_lock = threading.Lock()

R = TypeVar("R")


def run(
    c: Canvas,
    fn: Callable[..., R],
    x: float,
    y: float,
    extent: tuple[int, int, int, int],
    *args: Hashable,
) -> R:
    """``fn(c, x, y, *args)``: a run of a table picture (a line of texts, a seat's cell) drawn with the canvas's
    texts, badges, bars and cards, on the palette kept whole and pasted at once the next times (texts and cards are
    most of a picture's drawing, and a table's next picture has most of its runs unchanged).

    ``fn`` must draw from its arguments alone, within ``extent`` (left, top, right, bottom from ``(x, y)``), and
    return what depends on them alone. A run is kept by ``fn``, its arguments and where ``(x, y)`` falls between
    even pixels (Python rounds halves to even, so pixels come out alike only 2 pixels apart), with the box round
    everything its texts, badges, bars and cards read and wrote, and what that box held afterwards: when that box
    was bare panel before it was drawn, the second time it is drawn (:data:`RUNS_SEEN`). Pasted where that box is
    bare panel again, it is the very picture drawing it would make there (each text, badge, bar and card sees what
    it saw then); anywhere else it is drawn. In RGB (the tests' reference), or on a canvas that notes each text
    (:attr:`~bot.render.text.Canvas.pastes_runs`), it is always drawn."""
    if not (c.paletted and c.pastes_runs):
        return fn(c, x, y, *args)
    ox, oy = math.floor(x) & ~1, math.floor(y) & ~1
    key = (fn, x - ox, y - oy, args)
    core = c._core
    found = runs.get(key)
    if found is not None:
        tile, (left, top, right, bottom), value = found
        if tile is None:
            return value  # type: ignore[no-any-return]
        box = (ox + left, oy + top, ox + right, oy + bottom)
        if (
            box[0] >= 0
            and box[1] >= 0
            and box[2] <= c._width
            and box[3] <= c._height
            and core.crop(box).getbbox() is None
        ):
            core.paste(tile, box)
            return value  # type: ignore[no-any-return]
        return fn(c, x, y, *args)
    if not _seen_before(hash(key)):
        return fn(c, x, y, *args)
    return _drawn_and_kept(c, fn, x, y, ox, oy, extent, key, args)


def _seen_before(h: int) -> bool:
    """Whether a run of hash ``h`` was drawn (and not kept) lately; notes it if not."""
    with _seen_lock:
        if h in _seen:
            del _seen[h]
            return True
        _seen[h] = None
        if len(_seen) > RUNS_SEEN:
            del _seen[next(iter(_seen))]
        return False


def _drawn_and_kept(
    c: Canvas,
    fn: Callable[..., R],
    x: float,
    y: float,
    ox: int,
    oy: int,
    extent: tuple[int, int, int, int],
    key: Hashable,
    args: tuple[Hashable, ...],
) -> R:
    """:func:`run`'s drawing of a run seen before, kept when it was drawn wholly within its extent on bare panel."""
    core, width, height = c._core, c._width, c._height
    area = (max(0, ox + extent[0]), max(0, oy + extent[1]), min(width, ox + extent[2]), min(height, oy + extent[3]))
    before = core.crop(area) if area[0] < area[2] and area[1] < area[3] else None
    outer, c.ink_log = c.ink_log, []
    try:
        value = fn(c, x, y, *args)
        boxes = c.ink_log
    finally:
        c.ink_log = outer
    if outer is not None:
        outer.extend(boxes)
    if before is None:
        return value
    if not boxes:
        runs.put(key, (None, (0, 0, 0, 0), value), 0)
        return value
    left, top, right, bottom = boxes[0]
    for b in boxes:
        if b[0] < left:
            left = b[0]
        if b[1] < top:
            top = b[1]
        if b[2] > right:
            right = b[2]
        if b[3] > bottom:
            bottom = b[3]
    if left < area[0] or top < area[1] or right > area[2] or bottom > area[3]:
        return value  # out of its extent (or of the picture): drawn each time
    if before.crop((left - area[0], top - area[1], right - area[0], bottom - area[1])).getbbox() is None:
        runs.put(
            key,
            (core.crop((left, top, right, bottom)), (left - ox, top - oy, right - ox, bottom - oy), value),
            (right - left) * (bottom - top),
        )
    return value


def forget_runs() -> None:
    """Forget every kept run and every run seen, keeping backdrops and frames (as for a worker that has drawn
    hundreds of other tables since)."""
    runs.clear()
    with _seen_lock:
        _seen.clear()


def clear_caches() -> None:
    """Forget every backdrop and run, and this thread's frames, as after a restart."""
    backdrops.clear()
    forget_runs()
    _local.frames = OrderedDict()
