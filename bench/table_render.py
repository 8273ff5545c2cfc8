"""What the per-game table benchmarks share: a game's table render against the bare encode of a blank frame of the
same size, timed in the same run and interleaved round-robin, so a burst of load on a shared machine hits both
alike. ``bench_render_luk_fu.py`` and ``bench_render_hachi_hachi.py`` give it their frames and drawing functions."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from bench_render import bare_png, clear_caches
from PIL import Image

from bot.render import palette as P
from bot.render.encode import Format, encode


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


def main(
    title: str,
    description: str,
    frames: Callable[[], dict[str, Any]],
    render: Callable[[Any, Format], bytes],
    compose: Callable[[Any], Image.Image],
    lang: str,
) -> None:
    """Time ``render(view, fmt)``, ``compose(view)`` and the encode of each frame against a blank frame's encode;
    print each frame's figures and, per seat count, the range of the render/blank-encode ratio."""
    parser = argparse.ArgumentParser(description=description)
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

    composed = {name: compose(v) for name, v in views.items()}
    blanks = {name: Image.new("RGB", f.size, P.FELT) for name, f in composed.items()}
    cases: dict[str, Callable[[], Any]] = {}
    for name, view in views.items():
        cases[f"{name}/render"] = partial(render, view, fmt)
        cases[f"{name}/compose"] = partial(compose, view)
        cases[f"{name}/encode"] = partial(encode, composed[name], fmt)
        cases[f"{name}/blank"] = partial(encode, blanks[name], fmt)
    samples = interleaved(cases, repeat)

    def ms(case: str) -> float:
        return statistics.median(samples[case])

    print(f"{title}, {fmt.upper()}, {lang} (median of {repeat}; views played in {setup_s:.2f} s)")
    print(f"  first render after a restart (cold, {next(iter(views))}): {cold_ms:6.1f} ms")
    ratios: dict[int, list[float]] = {}
    for name, view in views.items():
        frame = composed[name]
        data = render(view, fmt)
        blank_data = encode(blanks[name], fmt)
        ratio = median_ratio(samples[f"{name}/render"], samples[f"{name}/blank"])
        ratios.setdefault(view.seats, []).append(ratio)
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
