"""Benchmark: the full Oicho-Kabu table render against a bare default-PNG encode of the same frame.

    python bench/bench_render.py [--repeat N]

Both sides are measured in the same run on the same machine, so the ratios hold even where absolute
times do not (a loaded CI box, a laptop). "render" is what the bot pays per table update: compose the
image from the view and encode it as the paletted PNG that is uploaded. "bare encode" is only
``Image.save(format="PNG")`` with Pillow's defaults on the already-composed RGB frame.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from PIL import Image

from bot.render import cards, encode, text
from bot.render.oicho import compose_oicho_table, render_oicho_table
from bot.render.samples import BUSY_NAMES, busy_oicho_view


def interleaved(cases: dict[str, Callable[[], Any]], repeat: int) -> dict[str, tuple[float, Any]]:
    """Median wall time in ms of each case and its last result.

    The cases run round-robin (one of each per round, after a warm-up round), so a burst of load on a
    shared machine hits every case alike and the ratios stay meaningful.
    """
    results = {name: fn() for name, fn in cases.items()}
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, fn in cases.items():
            start = time.perf_counter()
            results[name] = fn()
            samples[name].append((time.perf_counter() - start) * 1000)
    return {name: (statistics.median(samples[name]), results[name]) for name in cases}


def bare_png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def clear_caches() -> None:
    """Forget rasterised text and card images, as after a restart."""
    text.text_mask.cache_clear()
    for fn in (cards.kabu_face, cards.card_back, cards.french_face, cards.lukfu_face):
        fn.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    repeat = max(3, args.repeat)

    view, names, lang = busy_oicho_view(), BUSY_NAMES, "ja"

    clear_caches()
    start = time.perf_counter()
    cold_bytes = render_oicho_table(view, names, lang)
    cold_ms = (time.perf_counter() - start) * 1000

    frame = compose_oicho_table(view, names, lang)
    runs = interleaved(
        {
            "render": lambda: render_oicho_table(view, names, lang),
            "compose": lambda: compose_oicho_table(view, names, lang),
            "encode": lambda: encode.encode_png(frame),
            "bare": lambda: bare_png(frame),
            "adaptive": lambda: encode.encode_png(frame, palette="adaptive"),
            "webp": lambda: encode.encode_webp(frame),
        },
        repeat,
    )
    render_ms, data = runs["render"]
    compose_ms, _ = runs["compose"]
    encode_ms, _ = runs["encode"]
    bare_ms, bare = runs["bare"]
    adaptive_ms, adaptive = runs["adaptive"]
    webp_ms, webp = runs["webp"]

    print(
        f"busy Oicho-Kabu table {frame.width}x{frame.height}, 10 seats, every child on every pile (median of {repeat})"
    )
    print(f"  render (compose + paletted PNG): {render_ms:6.1f} ms  {len(data):7d} bytes")
    print(f"    compose only                 : {compose_ms:6.1f} ms")
    print(f"    encode only (table palette)  : {encode_ms:6.1f} ms")
    print(f"  render after a restart (cold)  : {cold_ms:6.1f} ms  {len(cold_bytes):7d} bytes")
    print(f"  bare encode (default PNG save) : {bare_ms:6.1f} ms  {len(bare):7d} bytes")
    print(f"  alt: adaptive 64-colour PNG    : {adaptive_ms:6.1f} ms  {len(adaptive):7d} bytes")
    print(f"  alt: lossless WebP (method 0)  : {webp_ms:6.1f} ms  {len(webp):7d} bytes")
    print(f"render/bare-encode time ratio: {render_ms / bare_ms:.2f}x; bytes ratio {len(data) / len(bare):.2f}x")


if __name__ == "__main__":
    main()
