"""Benchmark: the Luk Fu table render against a bare encode of a blank frame of the same size.

    python bench/bench_render_luk_fu.py [--repeat N] [--format png|webp]

The public views are :func:`tests.bot.render.samples.luk_fu_sample_views`: real 3- and 4-seat games played by the
bot's own policy from fixed seeds (and a few stacked deals), so every run draws the same frames. For each seat
count it times the busiest frame (the most cards on the table: a finished quad trick with face-down follows at
3 seats, a late trick and rows of winning cards at 4), the call with the last hand's result beside it, and a
trick in progress with a face-down follow.

"render" is what the bot pays per table update: compose the image from the view and encode it. The baseline
is ``encode`` (same format) of a blank felt frame of the same size, timed in the same run, interleaved
round-robin with the renders, so a burst of load on a shared machine hits both alike. Only ratios are meant to
be compared across machines; the per-round ratio's median is printed.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import table_render
from PIL import Image

from bot.render.encode import Format
from bot.render.luk_fu import compose_luk_fu_table, render_luk_fu_table
from games.luk_fu.views import LukFuPublicView
from tests.bot.render.samples import LUKFU_NAMES, busy_luk_fu_view, luk_fu_cards_on_table, luk_fu_sample_views

LANG = "ja"
STAKE = 10


def frames() -> dict[str, LukFuPublicView]:
    out: dict[str, LukFuPublicView] = {}
    for seats in (3, 4):
        views = luk_fu_sample_views(seats)
        busy = busy_luk_fu_view(seats)
        out[f"{seats} seats, busiest ({luk_fu_cards_on_table(busy)} cards)"] = busy
        out[f"{seats} seats, call + last hand"] = views["call"]
        out[f"{seats} seats, follow, face down"] = views["follow_face_down"]
    return out


def render(view: LukFuPublicView, fmt: Format) -> bytes:
    return render_luk_fu_table(view, LUKFU_NAMES, LANG, STAKE, fmt=fmt)


def compose(view: LukFuPublicView, fmt: Format) -> Image.Image:
    return compose_luk_fu_table(view, LUKFU_NAMES, LANG, STAKE, paletted=fmt == "png")


if __name__ == "__main__":
    table_render.main("Luk Fu table", __doc__.splitlines()[0], frames, render, compose, LANG)
