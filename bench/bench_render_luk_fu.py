"""Benchmark: the Luk Fu table render against a bare encode of a blank frame of the same size.

    python bench/bench_render_luk_fu.py [--repeat N] [--format png|webp]

The public views are :func:`bot.render.samples.luk_fu_sample_views`: real 3- and 4-seat games played by the
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
from PIL import Image

from bot.render import palette as P
from bot.render.encode import Format, encode
from bot.render.luk_fu import compose_luk_fu_table, render_luk_fu_table
from bot.render.samples import LUKFU_NAMES, busy_luk_fu_view, luk_fu_cards_on_table, luk_fu_sample_views
from games.luk_fu.views import LukFuPublicView

LANG = "ja"
STAKE = 10


def interleaved(cases: dict[str, Callable[[], Any]], repeat: int) -> dict[str, list[float]]:
    """Wall times in ms of each case, one of each per round (after a warm-up round)."""
    for fn in cases.values():
        fn()
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, fn in cases.items():
            start = time.perf_counter()
            fn()
            samples[name].append((time.perf_counter() - start) * 1000)
    return samples


def median_ratio(num: list[float], den: list[float]) -> float:
    """Median of the per-round ratios (both measured in the same round)."""
    return statistics.median(a / b for a, b in zip(num, den, strict=True))


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

    composed = {name: compose_luk_fu_table(v, LUKFU_NAMES, LANG, STAKE) for name, v in views.items()}
    blanks = {name: Image.new("RGB", f.size, P.FELT) for name, f in composed.items()}
    cases: dict[str, Callable[[], Any]] = {}
    for name, view in views.items():
        cases[f"{name}/render"] = partial(render, view, fmt)
        cases[f"{name}/compose"] = partial(compose_luk_fu_table, view, LUKFU_NAMES, LANG, STAKE)
        cases[f"{name}/encode"] = partial(encode, composed[name], fmt)
        cases[f"{name}/blank"] = partial(encode, blanks[name], fmt)
    samples = interleaved(cases, repeat)

    def ms(case: str) -> float:
        return statistics.median(samples[case])

    print(f"Luk Fu table, {fmt.upper()}, {LANG} (median of {repeat}; views played in {setup_s:.2f} s)")
    print(f"  first render after a restart (cold, {next(iter(views))}): {cold_ms:6.1f} ms")
    ratios: dict[int, list[float]] = {3: [], 4: []}
    for name, view in views.items():
        frame = composed[name]
        data = render(view, fmt)
        blank_data = encode(blanks[name], fmt)
        ratio = median_ratio(samples[f"{name}/render"], samples[f"{name}/blank"])
        ratios[view.seats].append(ratio)
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
    for seats, found in ratios.items():
        print(
            f"{seats}-seat render/blank-encode time ratio: {min(found):.1f}x-{max(found):.1f}x over {len(found)} frames"
        )


if __name__ == "__main__":
    main()
