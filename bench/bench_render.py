"""Benchmark: the Oicho-Kabu table render against the encode of a blank frame of the same size.

    python bench/bench_render.py [--repeat N] [--format png|webp]

The views are :func:`bot.render.samples.busy_oicho_view`: ten seats, every child betting on every pile, drawn
while betting (cards face down) and at the showdown (every card and outcome shown).

"render" is what the bot pays per table update: compose the image from the view and encode it. The baseline is
``encode`` (same format and options) of a blank felt frame of the same size, timed in the same run, interleaved
round-robin with the renders (``bench/table_render.py``), so a burst of load on a shared machine hits both alike.
Only ratios are meant to be compared across machines; the per-round ratio's median is printed. The "alt" lines
time other encodings of the composed frame (an adaptive 64-colour PNG, lossless WebP, Pillow's default RGB PNG)
for comparison with the bot's encoder.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import table_render
from PIL import Image

from bot.render import encode
from bot.render.encode import Format
from bot.render.oicho import compose_oicho_table, render_oicho_table
from bot.render.samples import BUSY_NAMES, busy_oicho_view
from games.oicho.views import OichoPublicView

LANG = "ja"


def frames() -> dict[str, OichoPublicView]:
    return {
        "10 seats, betting (every child on every pile)": busy_oicho_view("betting"),
        "10 seats, showdown": busy_oicho_view("round_over"),
    }


def render(view: OichoPublicView, fmt: Format) -> bytes:
    return render_oicho_table(view, BUSY_NAMES, LANG, fmt)


def compose(view: OichoPublicView, fmt: Format) -> Image.Image:
    return compose_oicho_table(view, BUSY_NAMES, LANG, paletted=fmt == "png")


ALTERNATIVES = {
    "adaptive 64-colour PNG": lambda img: encode.encode_png(img, palette="adaptive"),
    "lossless WebP (method 0)": encode.encode_webp,
    "default RGB PNG save": table_render.bare_png,
}


if __name__ == "__main__":
    table_render.main("Oicho-Kabu table", __doc__.splitlines()[0], frames, render, compose, LANG, ALTERNATIVES)
