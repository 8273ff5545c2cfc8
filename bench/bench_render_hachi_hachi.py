"""Benchmark: the Hachi-Hachi Trick table render at 7 seats against a bare encode of a blank frame of the same size.

    python bench/bench_render_hachi_hachi.py [--repeat N] [--format png|webp]

The public views are :func:`bot.render.samples.hachi_hachi_sample_views`: a real 7-seat game from fixed shuffles,
scripted declarations and the bot's policy in trick play, so every run draws the same frames. It times a trick in
progress (trick 4, Zetsuba 絶場, Mizuten 見ず転, three declarers and four forced-out hands revealed, the last
trick beside it) and the next round's declarations with the last round's result and last trick (round over).

"render" is what the bot pays per table update: compose the image from the view and encode it. The baseline is
``encode`` (same format) of a blank felt frame of the same size, timed in the same run, interleaved round-robin
with the renders (the helpers of ``bench_render_luk_fu``), so a burst of load on a shared machine hits both alike.
Only ratios are meant to be compared across machines; the per-round ratio's median is printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from bench_render import bare_png, clear_caches
from bench_render_luk_fu import interleaved, median_ratio
from PIL import Image

from bot.render import palette as P
from bot.render.encode import Format, encode
from bot.render.hachi_hachi import compose_hachi_hachi_table, render_hachi_hachi_table
from bot.render.samples import HACHI_NAMES, hachi_hachi_cards_on_table, hachi_hachi_sample_views
from games.hachi_hachi.views import HachiPublicView

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--format", choices=["png", "webp"], default="png")
    args = parser.parse_args()
    repeat = max(3, args.repeat)
    fmt: Format = args.format

    start = time.perf_counter()
    views = frames()
    setup_s = time.perf_counter() - start

    first = next(iter(views.values()))
    clear_caches()
    start = time.perf_counter()
    render(first, fmt)
    cold_ms = (time.perf_counter() - start) * 1000

    composed = {name: compose_hachi_hachi_table(v, HACHI_NAMES, LANG, STAKE) for name, v in views.items()}
    blanks = {name: Image.new("RGB", f.size, P.FELT) for name, f in composed.items()}
    cases: dict[str, Callable[[], Any]] = {}
    for name, view in views.items():
        cases[f"{name}/render"] = partial(render, view, fmt)
        cases[f"{name}/compose"] = partial(compose_hachi_hachi_table, view, HACHI_NAMES, LANG, STAKE)
        cases[f"{name}/encode"] = partial(encode, composed[name], fmt)
        cases[f"{name}/blank"] = partial(encode, blanks[name], fmt)
    samples = interleaved(cases, repeat)

    def ms(case: str) -> float:
        return statistics.median(samples[case])

    print(f"Hachi-Hachi Trick table, {fmt.upper()}, {LANG} (median of {repeat}; views played in {setup_s:.2f} s)")
    print(f"  first render after a restart (cold, {next(iter(views))}): {cold_ms:6.1f} ms")
    ratios: list[float] = []
    for name, view in views.items():
        frame = composed[name]
        data = render(view, fmt)
        blank_data = encode(blanks[name], fmt)
        ratio = median_ratio(samples[f"{name}/render"], samples[f"{name}/blank"])
        ratios.append(ratio)
        print(f"{name} ({frame.width}x{frame.height})")
        for label, case, size in (
            ("render (view to upload bytes)", "render", len(data)),
            ("  compose only", "compose", None),
            ("  encode only", "encode", None),
            ("baseline: encode of a blank frame", "blank", len(blank_data)),
        ):
            tail = f"  {size:7d} bytes" if size is not None else ""
            print(f"  {label:<36}: {ms(f'{name}/{case}'):6.1f} ms{tail}")
        print(
            f"  render/blank-encode time ratio {ratio:.1f}x, bytes ratio {len(data) / len(blank_data):.1f}x; "
            f"default PNG save of the frame: {len(bare_png(frame))} bytes"
        )
    print(
        f"{SEATS}-seat render/blank-encode time ratio: {min(ratios):.1f}x-{max(ratios):.1f}x over {len(ratios)} frames"
    )


if __name__ == "__main__":
    main()
