"""What the table-picture benchmarks share: a game's table render against the encode of a blank frame of the same
size, timed in the same run and interleaved round-robin, so a burst of load on a shared machine hits both alike.

The baseline is :func:`bot.render.encode.encode` (the bot's own encoder: same format, palette mapping and zlib
options as a table update uploads) of a flat felt RGB frame of the picture's size: what turning any picture of
that size into upload bytes costs at the least. The subject is the game's ``render_*`` function, from the public
view to the same upload bytes. Only ratios are meant to be compared across machines.

The figure against the goal is the render with every run new (:func:`forget_runs` before each, untimed): a worker
drawing hundreds of tables in turn rarely finds a table's runs still kept; the render with its runs kept is printed
beside it. Other encodings of the frame, printed for comparison, are timed in rounds of their own.

``bench_render.py`` (Oicho-Kabu), ``bench_render_luk_fu.py`` and ``bench_render_hachi_hachi.py`` give :func:`main`
their frames and drawing functions; ``bench_render_ofc.py`` uses the helpers.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from bot.render import cards, encode, layers, text
from bot.render import palette as P
from bot.render.encode import Format


def bare_png(img: Image.Image) -> bytes:
    """Pillow's default PNG save (RGB, zlib level 6): what the bot would pay without its encoder's choices."""
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def clear_caches() -> None:
    """Forget rasterised text, card images, backdrops, runs, reused frames and palette look-ups, as after a restart."""
    text.text_mask.cache_clear()
    text.text_tile.cache_clear()
    text.panel_text.cache_clear()
    for fn in (cards.kabu_face, cards.card_back, cards.french_face, cards.lukfu_face):
        fn.cache_clear()
    encode.clear_caches()
    layers.clear_caches()


def blank_frame(size: tuple[int, int]) -> Image.Image:
    """The baseline's frame: flat felt, RGB, the picture's size."""
    return Image.new("RGB", size, P.FELT)


def interleaved(
    cases: dict[str, Callable[[], Any]], repeat: int, setups: dict[str, Callable[[], Any]] | None = None
) -> dict[str, list[float]]:
    """Wall times in ms of each case, one of each per round (after a warm-up round); ``setups`` run before their
    case, untimed."""
    setups = setups or {}
    for name, fn in cases.items():
        setups.get(name, _nothing)()
        fn()
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, fn in cases.items():
            setups.get(name, _nothing)()
            start = time.perf_counter()
            fn()
            samples[name].append((time.perf_counter() - start) * 1000)
    return samples


def _nothing() -> None:
    return None


def forget_runs() -> None:
    """A worker drawing hundreds of tables in turn, whose tables' runs are gone by their next picture (the
    production case at a thousand tables): every run forgotten, backdrops and frames kept."""
    layers.forget_runs()


def median_ratio(num: list[float], den: list[float]) -> float:
    """Median of the per-round ratios (both measured in the same round)."""
    return statistics.median(a / b for a, b in zip(num, den, strict=True))


def main(
    title: str,
    description: str,
    frames: Callable[[], dict[str, Any]],
    render: Callable[[Any, Format], bytes],
    compose: Callable[[Any, Format], Image.Image],
    lang: str,
    alternatives: dict[str, Callable[[Image.Image], bytes]] | None = None,
) -> None:
    """Time ``render(view, fmt)``, ``compose(view, fmt)`` and the encode of each frame against a blank frame's
    encode; print each frame's figures and, per seat count, the range of the render/blank-encode ratio.

    ``compose`` is the drawing the render does before encoding (for a PNG, the frame on the table palette);
    ``alternatives`` are other encodings of the composed frame (as RGB), timed alike and printed for comparison."""
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

    composed = {name: compose(v, fmt) for name, v in views.items()}
    blanks = {name: blank_frame(f.size) for name, f in composed.items()}
    alternatives = alternatives or {}
    cases: dict[str, Callable[[], Any]] = {}
    for name, view in views.items():
        # The production case first in its round, right after the last round's other encodings (the slower spot).
        cases[f"{name}/render, runs new"] = partial(render, view, fmt)
        cases[f"{name}/render"] = partial(render, view, fmt)
        cases[f"{name}/compose"] = partial(compose, view, fmt)
        cases[f"{name}/encode"] = partial(encode.encode, composed[name], fmt)
        cases[f"{name}/blank"] = partial(encode.encode, blanks[name], fmt)
    others: dict[str, Callable[[], Any]] = {}
    for name in views:
        for label, alt in alternatives.items():
            others[f"{name}/alt {label}"] = partial(alt, composed[name].convert("RGB"))
    setups = {f"{name}/render, runs new": forget_runs for name in views}
    samples = interleaved(cases, repeat, setups)
    # The alternatives (4-20 ms each) are timed apart: between the render and its baseline they would leave the
    # render a cold processor cache that the baseline, a fraction of the code, hardly notices.
    samples.update(interleaved(others, repeat))

    def ms(case: str) -> float:
        return statistics.median(samples[case])

    print(f"{title}, {fmt.upper()}, {lang} (median of {repeat}; views played in {setup_s:.2f} s)")
    print(f"  first render after a restart (cold, {next(iter(views))}): {cold_ms:6.1f} ms")
    ratios: dict[int, list[float]] = {}
    for name, view in views.items():
        frame = composed[name]
        data = render(view, fmt)
        blank_data = encode.encode(blanks[name], fmt)
        kept = median_ratio(samples[f"{name}/render"], samples[f"{name}/blank"])
        ratio = median_ratio(samples[f"{name}/render, runs new"], samples[f"{name}/blank"])
        ratios.setdefault(view.seats, []).append(ratio)
        print(f"{name} ({frame.width}x{frame.height})")
        rows: list[tuple[str, str, int | None]] = [
            ("render, every run new (production)", "render, runs new", len(data)),
            ("render, its runs kept (redrawn soon)", "render", len(data)),
            ("  compose only", "compose", None),
            ("  encode only", "encode", None),
            ("baseline: encode of a blank frame", "blank", len(blank_data)),
        ]
        rows += [
            (f"alt: {label}", f"alt {label}", len(alt(frame.convert("RGB")))) for label, alt in alternatives.items()
        ]
        for label, case, size in rows:
            tail = f"  {size:7d} bytes" if size is not None else ""
            print(f"  {label:<36}: {ms(f'{name}/{case}'):6.1f} ms{tail}")
        print(
            f"  render/blank-encode time ratio {ratio:.2f}x (its runs kept: {kept:.2f}x), bytes ratio {len(data) / len(blank_data):.1f}x; "
            f"default PNG save of the frame: {len(bare_png(frame.convert('RGB')))} bytes"
        )
    for seats, found in ratios.items():
        print(
            f"{seats}-seat render/blank-encode time ratio: {min(found):.2f}x-{max(found):.2f}x over {len(found)} frames"
        )
