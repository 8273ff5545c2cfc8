"""Benchmark: the Hachi-Hachi Trick table render at 7 seats against a bare encode of a blank frame of the same size.

    python bench/bench_render_hachi_hachi.py [--repeat N] [--format png|webp]

The public views are :func:`tests.bot.render.samples.hachi_hachi_sample_views`: a real 7-seat game from fixed shuffles,
scripted declarations and the bot's policy in trick play, so every run draws the same frames. It times a trick in
progress (trick 4, Zetsuba 絶場, Mizuten 見ず転, three declarers and four forced-out hands revealed, the last
trick beside it) and the next round's declarations with the last round's result and last trick (round over).

"render" is what the bot pays per table update: compose the image from the view and encode it. The baseline is
``encode`` (same format) of a blank felt frame of the same size, timed in the same run, interleaved round-robin
with the renders (``bench/table_render.py``), so a burst of load on a shared machine hits both alike.
Only ratios are meant to be compared across machines; the per-round ratio's median is printed.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import table_render
from PIL import Image

from bot.render.encode import Format
from bot.render.hachi_hachi import compose_hachi_hachi_table, render_hachi_hachi_table
from games.hachi_hachi.views import HachiPublicView
from tests.bot.render.samples import HACHI_NAMES, hachi_hachi_cards_on_table, hachi_hachi_sample_views

LANG = "ja"
STAKE = 10
SEATS = 7


def frames() -> dict[str, HachiPublicView]:
    views = hachi_hachi_sample_views(SEATS)
    trick = views["trick"]
    return {
        f"{SEATS} seats, mid-trick ({hachi_hachi_cards_on_table(trick)} cards)": trick,
        f"{SEATS} seats, round over (next round's declarations)": views["round_over"],
    }


def render(view: HachiPublicView, fmt: Format) -> bytes:
    return render_hachi_hachi_table(view, HACHI_NAMES, LANG, STAKE, fmt=fmt)


def compose(view: HachiPublicView, fmt: Format) -> Image.Image:
    return compose_hachi_hachi_table(view, HACHI_NAMES, LANG, STAKE, paletted=fmt == "png")


if __name__ == "__main__":
    table_render.main("Hachi-Hachi Trick table", __doc__.splitlines()[0], frames, render, compose, LANG)
