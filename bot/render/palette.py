"""The colours every table image is drawn with.

A small, fixed set of flat colours keeps the paletted PNG small: the encoder maps the composed image
onto at most 64 colours, and antialiased text edges between two of these colours are all it has to add.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

# Table
FELT: RGB = (22, 84, 52)  # flat dark-green felt, no texture (noise makes PNG 7× slower and 9× bigger)
FELT_DARK: RGB = (14, 60, 37)  # panels and header strip
PANEL = FELT_DARK
"""What texts and cards stand on: first in the table palette (index 0)."""
FELT_LINE: RGB = (44, 112, 76)  # thin separators, empty card slots
TEXT: RGB = (240, 240, 232)
TEXT_DIM: RGB = (170, 196, 178)
GOLD: RGB = (242, 196, 64)  # dealer badge, current turn
WIN: RGB = (120, 220, 120)
LOSE: RGB = (240, 110, 100)
PUSH: RGB = (200, 200, 200)

# Cards
PAPER: RGB = (246, 240, 224)  # card face
INK: RGB = (24, 22, 20)  # black ink, kabufuda back
RED: RGB = (200, 32, 36)  # red ink
CARD_EDGE: RGB = (90, 84, 74)
FRENCH_BACK: RGB = (38, 64, 140)

# Month motifs (flat, one or two colours each)
GREEN: RGB = (46, 130, 70)
PINK: RGB = (236, 150, 170)
PURPLE: RGB = (128, 76, 160)
BLUE: RGB = (52, 96, 180)
YELLOW: RGB = (236, 190, 40)
ORANGE: RGB = (226, 110, 36)
BROWN: RGB = (120, 80, 44)


# Every pair of colours that antialiased text is drawn with (foreground on background). The fixed palette
# holds each base colour and three blends of each pair, so text edges keep their smoothness without an
# adaptive quantizer (which costs ~5× more time than mapping onto a known palette).
TEXT_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    (TEXT, FELT_DARK),
    (TEXT_DIM, FELT_DARK),
    (GOLD, FELT_DARK),
    (WIN, FELT_DARK),
    (LOSE, FELT_DARK),
    (INK, GOLD),
    (INK, WIN),
    (INK, LOSE),
    (INK, PUSH),
    (INK, PAPER),
    (RED, PAPER),
    (GREEN, PAPER),
    (BLUE, PAPER),
)
BLEND_STEPS = (0.25, 0.5, 0.75)


def base_colours() -> list[RGB]:
    """Every named colour of this module, in definition order."""
    return [value for name, value in globals().items() if name.isupper() and _is_rgb(value)]


def table_palette() -> list[RGB]:
    """The fixed palette the encoder maps table images onto (at most 256 colours, about 60 today).

    The panels' colour comes first: index 0 is what "nothing drawn yet" reads as to Pillow, so a table drawn on
    the palette can tell with a cheap bounding-box test that the place of a text or card is bare panel. (Which
    entry comes first changes no colour any pixel is mapped to.)"""
    colours: list[RGB] = [PANEL]
    for colour in base_colours():
        if colour not in colours:
            colours.append(colour)
    for fg, bg in TEXT_PAIRS:
        for t in BLEND_STEPS:
            blend = (
                round(fg[0] * t + bg[0] * (1 - t)),
                round(fg[1] * t + bg[1] * (1 - t)),
                round(fg[2] * t + bg[2] * (1 - t)),
            )
            if blend not in colours:
                colours.append(blend)
    return colours[:256]


def _is_rgb(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 3 and all(isinstance(v, int) for v in value)
