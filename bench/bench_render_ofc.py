"""Benchmark: the four-board OFC table render against a bare encode of a blank frame of the same size.

    python bench/bench_render_ofc.py [--repeat N] [--format png|webp]

The public views come from the real engine (Turbo, variant c, four players) played by the bot's own
policy from fixed seeds, so every run draws the same frames:

* mid-hand: street 2, two of the four seats have placed (their new cards face down, drawn as backs);
* showdown: the view right after a hand ends (boards empty, so the last hand is drawn with its results);
* Fantasyland: the next hand of a stacked game in which one seat made QQ up front and plays 14 cards face
  down (that seat's first board is scripted; everything else is the policy's choice).

"render" is what the bot pays per table update: build the drawing from the view, compose the image and
encode it. The baseline is ``encode`` (same format) of a blank felt frame of the same size, timed in the
same run, interleaved round-robin with the renders, so a burst of load on a shared machine hits both alike.
Only ratios are meant to be compared across machines; the per-round ratio's median is printed. "bare PNG"
is Pillow's default PNG save of the composed frame (RGB, zlib level 6), printed for comparison.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from PIL import Image
from table_render import bare_png, blank_frame, clear_caches, interleaved, median_ratio

from bot.render.encode import Format, encode
from bot.render.ofc import _row_value as ofc_row_values
from bot.render.ofc import compose_ofc_table, ofc_drawing, render_ofc_table
from bot.render.samples import BUSY_NAMES
from games.core.actions import Action
from games.core.cards import french_deck, notation
from games.core.rng import Shuffle, Shuffler
from games.ofc.actions import Place
from games.ofc.board import ROWS, Board
from games.ofc.engine import OFCEngine
from games.ofc.policy import choose
from games.ofc.rules import OFCRules
from games.ofc.views import OFCPublicView

NAMES = BUSY_NAMES[:4]
LANG = "ja"
SEED = 7
FL_SEAT = 1
"""With the dealer at seat 0 this seat acts first, so its cards lead each street of the stacked pack."""
FL_BOARD = Board.parse("Qh Qd 4c / 9s 9d 5c 5d 2h / Th Jh Kh 8h 3h")
"""QQ up front (Fantasyland, 7 royalties), two pair in the middle, a heart flush in the back."""


def shuffler(rng: random.Random, planned: tuple[str, ...] = ()) -> Shuffler:
    return Shuffler(planned=[Shuffle(order=o) for o in planned], seed_source=lambda: f"{rng.getrandbits(256):064x}")


def play_until(engine: OFCEngine, rng: random.Random, done: Callable[[OFCEngine], bool]) -> OFCPublicView:
    """Let the policy play (a random one of the seats to act each time) until ``done``; the public view then."""
    while not done(engine):
        if engine.is_over:
            raise RuntimeError("the game ended before the frame wanted")
        seat = rng.choice(sorted(engine.to_act()))
        engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), rng))
    return engine.public_view()


def street2_half_placed(engine: OFCEngine) -> bool:
    """Street 2 of the hand, with exactly two normal seats done with it (their cards still face down)."""
    normals = engine.normal_seats()
    placed = sum(engine.hands[s].streets_done == 2 for s in normals)
    return engine.street == 1 and placed == 2


def midhand_view() -> OFCPublicView:
    rng = random.Random(SEED)
    engine = OFCEngine(OFCRules(variant="c"), [1000] * 4, shuffler(rng))
    return play_until(engine, rng, street2_half_placed)


def showdown_view() -> OFCPublicView:
    rng = random.Random(SEED)
    engine = OFCEngine(OFCRules(variant="c"), [1000] * 4, shuffler(rng))
    return play_until(engine, rng, lambda e: e.hand_no == 2)


def fantasyland_views() -> tuple[OFCPublicView, OFCPublicView]:
    """The showdown sending ``FL_SEAT`` to Fantasyland, then that Fantasyland hand mid-way."""
    rng = random.Random(SEED)
    rules = OFCRules(variant="c")
    sizes = [n for n, _ in rules.streets()]
    order = [1, 2, 3, 0]  # turn order with the dealer at seat 0
    fl_cards = [c for r in ROWS for c in FL_BOARD.row(r)]
    rest = [c for c in french_deck() if c not in fl_cards]
    rng.shuffle(rest)
    pack, fl_pos, pos = [], 0, 0
    for n in sizes:
        for seat in order:
            if seat == FL_SEAT:
                pack += fl_cards[fl_pos : fl_pos + n]
                fl_pos += n
            else:
                pack += rest[pos : pos + n]
                pos += n
    # the dealer draw: seat 0 draws the ace of spades (the rest follows in canonical order)
    engine = OFCEngine(rules, [1000] * 4, shuffler(rng, ("As", notation(pack))))
    assert engine.dealer == 0

    scripted = {r: list(FL_BOARD.row(r)) for r in ROWS}
    while engine.hand_no == 1:
        seat = rng.choice(sorted(engine.to_act()))
        if seat == FL_SEAT:
            pending = engine.hands[seat].pending
            action: Action = Place.of({r: [c for c in scripted[r] if c in pending] for r in ROWS}, [])
        else:
            action = choose(engine.view(seat), engine.legal_actions(seat), rng)
        engine.apply(seat, action)
    showdown = engine.public_view()
    assert showdown.last_hand is not None and showdown.last_hand.fantasyland_next[FL_SEAT] > 0, "no Fantasyland"

    def fl_placed_and_street2(e: OFCEngine) -> bool:
        return e.hands[FL_SEAT].streets_done > 0 and street2_half_placed(e)

    return showdown, play_until(engine, rng, fl_placed_and_street2)


def compose(view: OFCPublicView, fmt: Format) -> Image.Image:
    """The drawing the render does before encoding (for a PNG: on the table palette)."""
    return compose_ofc_table(ofc_drawing(view), NAMES, LANG, paletted=fmt == "png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--format", choices=["png", "webp"], default="png")
    args = parser.parse_args()
    repeat = max(3, args.repeat)
    fmt: Format = args.format

    start = time.perf_counter()
    fl_showdown, fl_hand = fantasyland_views()
    views = {
        "mid-hand, street 2": midhand_view(),
        "showdown": showdown_view(),
        "showdown → Fantasyland": fl_showdown,
        "Fantasyland hand": fl_hand,
    }
    setup_s = time.perf_counter() - start

    first = next(iter(views.values()))
    clear_caches()
    ofc_row_values.cache_clear()
    start = time.perf_counter()
    render_ofc_table(first, NAMES, LANG, fmt)
    cold_ms = (time.perf_counter() - start) * 1000

    frames = {name: compose(v, fmt) for name, v in views.items()}
    blanks = {name: blank_frame(f.size) for name, f in frames.items()}
    cases: dict[str, Callable[[], Any]] = {}
    for name, view in views.items():
        frame, blank = frames[name], blanks[name]
        cases[f"{name}/render"] = partial(render_ofc_table, view, NAMES, LANG, fmt)
        cases[f"{name}/compose"] = partial(compose, view, fmt)
        cases[f"{name}/encode"] = partial(encode, frame, fmt)
        cases[f"{name}/blank"] = partial(encode, blank, fmt)
        cases[f"{name}/bare"] = partial(bare_png, frame.convert("RGB"))
    samples = interleaved(cases, repeat)

    def ms(case: str) -> float:
        return statistics.median(samples[case])

    print(
        f"OFC Turbo table, 4 seats, {first.rules.variant!r} rules, {fmt.upper()} "
        f"(median of {repeat}; views played in {setup_s:.1f} s)"
    )
    print(f"  first render after a restart (cold, {next(iter(views))}): {cold_ms:6.1f} ms")
    ratios, byte_ratios = [], []
    for name, view in views.items():
        frame = frames[name]
        data = render_ofc_table(view, NAMES, LANG, fmt)
        blank_data = encode(blanks[name], fmt)
        bare = bare_png(frame.convert("RGB"))
        ratio = median_ratio(samples[f"{name}/render"], samples[f"{name}/blank"])
        byte_ratio = len(data) / len(blank_data)
        ratios.append(ratio)
        byte_ratios.append(byte_ratio)
        print(f"{name} ({frame.width}x{frame.height})")
        for label, case, size in (
            ("render (view to upload bytes)", "render", len(data)),
            ("  compose only", "compose", None),
            ("  encode only", "encode", None),
            ("baseline: encode of a blank frame", "blank", len(blank_data)),
            ("alt: default PNG save of the frame", "bare", len(bare)),
        ):
            tail = f"  {size:7d} bytes" if size is not None else ""
            print(f"  {label:<36}: {ms(f'{name}/{case}'):6.1f} ms{tail}")
        print(
            f"  render/blank-encode time ratio {ratio:.2f}x, bytes ratio {byte_ratio:.1f}x; "
            f"render/bare-PNG time ratio {median_ratio(samples[f'{name}/render'], samples[f'{name}/bare']):.2f}x, "
            f"bytes ratio {len(data) / len(bare):.2f}x"
        )
    print(
        f"four-board render/blank-encode: time ratio {min(ratios):.2f}x-{max(ratios):.2f}x, "
        f"bytes ratio {min(byte_ratios):.1f}x-{max(byte_ratios):.1f}x over {len(views)} frames"
    )


if __name__ == "__main__":
    main()
