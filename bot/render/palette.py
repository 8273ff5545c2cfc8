"""The colours every table image is drawn with.

A small, fixed set of flat colours keeps the paletted PNG small: the encoder maps the composed image
onto at most 64 colours, and antialiased text edges between two of these colours are all it has to add.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

# Table
FELT: RGB = (22, 84, 52)  # flat dark-green felt, no texture (noise makes PNG 7× slower and 9× bigger)
FELT_DARK: RGB = (14, 60, 37)  # panels and header strip
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
