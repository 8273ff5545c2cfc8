"""Card faces and backs drawn from shapes and the CJK font (no downloaded art), cached per card and width.

Every card is drawn for a given width (height = width × :data:`CARD_RATIO`) and returned as an RGBA image
with rounded corners; paste it with itself as the mask. The images are cached and shared: never draw on one.

Sizes are chosen for Discord's preview: a 1000 px table is shown about 400–550 px wide on a phone, so a
72 px card shows about 30 px wide there. The month (or rank) numeral takes about a third of the card's
height so it stays legible at that size; the kanji and motif are there for the eye, not for reading.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from bot.render import palette as P
from bot.render.fonts import font
from games.core.cards import FrenchCard, KabuCard, LukFuCard

CARD_RATIO = 1.45
DEFAULT_WIDTH = 72

BackStyle = Literal["kabu", "french", "lukfu"]
Card = KabuCard | FrenchCard | LukFuCard
Box = tuple[float, float, float, float]

MONTH_KANJI = ("一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月")
# The plant (or scene) of each month, as on hanafuda; kabufuda have no fixed pictures, so this is our own.
MONTH_MOTIF = ("松", "梅", "桜", "藤", "菖蒲", "牡丹", "萩", "芒", "菊", "紅葉", "柳", "桐")

FRENCH_RED_SUITS = frozenset("dh")
FRENCH_SUIT_SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
# Luk Fu suits: Coins 銭, Strings 索, Myriads 貫, Tens 十 (rules §2.1). Red ink is kept for the eight red cards,
# so no suit is red: black, green, blue and purple, weakest to strongest.
LUKFU_SUIT_KANJI = {"C": "銭", "S": "索", "M": "貫", "T": "十"}
LUKFU_SUIT_COLOUR = {"C": P.INK, "S": P.GREEN, "M": P.BLUE, "T": P.PURPLE}
LUKFU_NUMERALS = "一二三四五六七八九"
LI_TYEN_FACE = "老千"
"""Li Tyen (``LT``) belongs to no suit; its face is 老千, the name the bot's Japanese text gives it."""
LUKFU_RED = frozenset({(9, "C"), (9, "S"), (9, "M"), (9, "T"), (8, "T"), (1, "C"), (1, "T"), (0, "")})
"""The eight red cards of rules §2.1 as (rank, suit): 9C 9S 9M 9T 8T 1C 1T and Li Tyen (rank 0)."""
LUKFU_INDEX_MIN_WIDTH = 56
"""Below this width a Luk Fu face drops its small ``7M`` index, leaving room for the numeral and the suit."""


def card_size(width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    return width, round(width * CARD_RATIO)


def card_image(card: Card, width: int = DEFAULT_WIDTH) -> Image.Image:
    """The face of ``card`` (a shared, cached RGBA image: do not draw on it)."""
    if isinstance(card, KabuCard):
        return kabu_face(card.month, width)  # the copy number is an identity, not a picture
    if isinstance(card, FrenchCard):
        return french_face(card.rank, card.suit, width)
    if isinstance(card, LukFuCard):
        return lukfu_face(card.rank, card.suit, width)
    raise TypeError(f"cannot draw {card!r}")


def back_style_of(card: Card) -> BackStyle:
    return "kabu" if isinstance(card, KabuCard) else "lukfu" if isinstance(card, LukFuCard) else "french"


# ---------------------------------------------------------------- shared drawing helpers


def _blank(width: int, fill: P.RGB, outline: P.RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    w, h = card_size(width)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = max(3, width // 12)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=fill, outline=outline, width=max(1, width // 36))
    return img, draw


def _centered_text(
    draw: ImageDraw.ImageDraw, text: str, cx: float, cy: float, size: int, fill: P.RGB, bold: bool = False
) -> None:
    # anchor "mm" centres on the glyphs' middle, so numerals of any width sit in the same place.
    stroke = max(1, size // 22) if bold else 0
    draw.text((cx, cy), text, font=font(size), fill=fill, anchor="mm", stroke_width=stroke, stroke_fill=fill)


def _fit_size(text: str, size: int, max_width: float) -> int:
    while size > 6 and font(size).getlength(text) > max_width:
        size -= 1
    return size


def _circle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: P.RGB) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def _flower(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, petal: P.RGB, centre: P.RGB) -> None:
    """Five round petals around a centre (plum, cherry)."""
    for k in range(5):
        a = -math.pi / 2 + k * 2 * math.pi / 5
        _circle(draw, cx + r * 0.55 * math.cos(a), cy + r * 0.55 * math.sin(a), r * 0.45, petal)
    _circle(draw, cx, cy, r * 0.25, centre)


# ---------------------------------------------------------------- kabufuda


def _motif(draw: ImageDraw.ImageDraw, month: int, box: Box) -> None:
    """A flat one- or two-colour picture of the month's plant, inside ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = min(w, h) / 2
    lw = max(1, round(r / 8))

    def px(fx: float, fy: float) -> tuple[float, float]:
        return (x0 + fx * w, y0 + fy * h)

    if month == 1:  # pine under the rising sun
        _circle(draw, *px(0.75, 0.28), r * 0.38, P.RED)
        for k, (top, bottom) in enumerate(((0.05, 0.45), (0.3, 0.72), (0.52, 0.95))):
            half = 0.18 + 0.1 * k
            draw.polygon([px(0.42, top), px(0.42 - half, bottom), px(0.42 + half, bottom)], fill=P.GREEN)
    elif month == 2:  # plum blossoms on a branch
        draw.line([px(0.1, 0.95), px(0.5, 0.55), px(0.9, 0.2)], fill=P.BROWN, width=lw * 2)
        for fx, fy, s in ((0.3, 0.62, 0.55), (0.62, 0.32, 0.7), (0.82, 0.78, 0.45)):
            _flower(draw, *px(fx, fy), r * s, P.RED, P.YELLOW)
    elif month == 3:  # one large cherry blossom
        _flower(draw, cx, cy, r * 1.05, P.PINK, P.RED)
    elif month == 4:  # hanging wisteria clusters
        draw.line([px(0.0, 0.06), px(1.0, 0.06)], fill=P.BROWN, width=lw * 2)
        for fx, length in ((0.2, 4), (0.5, 5), (0.8, 4)):
            for k in range(length):
                _circle(draw, *px(fx, 0.2 + k * 0.17), r * (0.26 - 0.03 * k), P.PURPLE)
    elif month == 5:  # iris: blades and blooms
        for fx in (0.2, 0.45, 0.7):
            draw.polygon([px(fx, 1.0), px(fx + 0.06, 0.35), px(fx + 0.12, 1.0)], fill=P.GREEN)
        for fx, fy in ((0.3, 0.3), (0.72, 0.22)):
            ax, ay = px(fx, fy)
            draw.polygon([(ax, ay - r * 0.4), (ax - r * 0.3, ay + r * 0.1), (ax + r * 0.3, ay + r * 0.1)], fill=P.BLUE)
            draw.polygon(
                [(ax - r * 0.35, ay - r * 0.2), (ax + r * 0.35, ay - r * 0.2), (ax, ay + r * 0.3)], fill=P.PURPLE
            )
    elif month == 6:  # peony between two leaves
        draw.polygon([px(0.0, 0.75), px(0.3, 0.45), px(0.45, 0.9)], fill=P.GREEN)
        draw.polygon([px(1.0, 0.75), px(0.7, 0.45), px(0.55, 0.9)], fill=P.GREEN)
        _circle(draw, cx, cy - h * 0.05, r * 0.72, P.RED)
        _circle(draw, cx, cy - h * 0.05, r * 0.42, P.PINK)
        _circle(draw, cx, cy - h * 0.05, r * 0.15, P.YELLOW)
    elif month == 7:  # bush clover: arching stems with small red flowers
        for k in range(3):
            pts = [px(0.1 + 0.3 * k + 0.25 * t, 0.95 - 0.8 * math.sin(t * math.pi / 2)) for t in (0, 0.5, 1)]
            draw.line(pts, fill=P.BROWN, width=lw)
            for x, y in pts[1:]:
                _circle(draw, x, y, r * 0.16, P.RED)
                _circle(draw, x + r * 0.2, y + r * 0.12, r * 0.1, P.RED)
    elif month == 8:  # full moon over the pampas hill
        _circle(draw, cx, y0 + h * 0.4, r * 0.62, P.YELLOW)
        draw.chord((x0 - w * 0.1, y0 + h * 0.62, x1 + w * 0.1, y0 + h * 1.38), 180, 360, fill=P.INK)
    elif month == 9:  # chrysanthemum
        for k in range(12):
            a = k * math.pi / 6
            ex, ey = cx + r * 0.62 * math.cos(a), cy + r * 0.62 * math.sin(a)
            _circle(draw, ex, ey, r * 0.3, P.YELLOW)
        _circle(draw, cx, cy, r * 0.4, P.ORANGE)
    elif month == 10:  # maple leaf
        pts = []
        for k in range(10):
            a = -math.pi / 2 + k * math.pi / 5
            rr = r * (0.95 if k % 2 == 0 else 0.42)
            pts.append((cx + rr * math.cos(a), cy - h * 0.04 + rr * math.sin(a)))
        draw.polygon(pts, fill=P.ORANGE)
        draw.line([(cx, cy), px(0.5, 1.0)], fill=P.BROWN, width=lw)
    elif month == 11:  # willow in the rain, a swallow
        for fx in (0.15, 0.35, 0.55):
            draw.line([px(fx, 0.0), px(fx + 0.05, 0.5), px(fx - 0.02, 1.0)], fill=P.GREEN, width=lw * 2)
        sx, sy = px(0.78, 0.4)
        draw.line(
            [(sx - r * 0.35, sy - r * 0.2), (sx, sy + r * 0.1), (sx + r * 0.35, sy - r * 0.25)],
            fill=P.INK,
            width=lw * 2,
        )
    elif month == 12:  # paulownia crest: three flower stems over leaves
        draw.chord((x0, y0 + h * 0.45, x1, y1 + h * 0.4), 180, 360, fill=P.GREEN)
        for fx, n in ((0.25, 3), (0.5, 4), (0.75, 3)):
            for k in range(n):
                _circle(draw, *px(fx, 0.42 - k * 0.13), r * 0.13, P.PURPLE)
    else:
        raise ValueError(f"no month {month}")


@lru_cache(maxsize=128)
def kabu_face(month: int, width: int = DEFAULT_WIDTH) -> Image.Image:
    """A kabufuda face: the month numeral on top, the month's motif, the kanji month at the foot."""
    if not 1 <= month <= 12:
        raise ValueError(f"no month {month}")
    img, draw = _blank(width, P.PAPER, P.INK)
    w, h = img.size
    numeral = str(month)
    size = _fit_size(numeral, round(h * 0.36), w * 0.8)
    _centered_text(draw, numeral, w / 2, h * 0.2, size, P.INK, bold=True)
    m = w * 0.16
    _motif(draw, month, (m, h * 0.4, w - m, h * 0.74))
    kanji = MONTH_KANJI[month - 1]
    _centered_text(draw, kanji, w / 2, h * 0.87, _fit_size(kanji, round(h * 0.15), w * 0.84), P.RED)
    return img


# ---------------------------------------------------------------- backs


@lru_cache(maxsize=16)
def card_back(style: BackStyle = "kabu", width: int = DEFAULT_WIDTH) -> Image.Image:
    """A face-down card. Kabufuda backs are black with a red frame; French and Luk Fu backs are blue."""
    if style == "lukfu":
        return _lukfu_back(width)
    fill, accent = (P.INK, P.RED) if style == "kabu" else (P.FRENCH_BACK, P.PAPER)
    img, draw = _blank(width, fill, P.CARD_EDGE)
    w, h = img.size
    inset = max(3, width // 10)
    draw.rectangle((inset, inset, w - 1 - inset, h - 1 - inset), outline=accent, width=max(1, width // 30))
    cx, cy, r = w / 2, h / 2, w * 0.22
    draw.polygon([(cx, cy - r * 1.3), (cx + r, cy), (cx, cy + r * 1.3), (cx - r, cy)], fill=accent)
    return img


def _lukfu_back(width: int) -> Image.Image:
    """A Luk Fu back: blue, a paper frame and a round coin with a square hole (銭), unlike the French diamond."""
    img, draw = _blank(width, P.FRENCH_BACK, P.CARD_EDGE)
    w, h = img.size
    inset = max(3, width // 10)
    draw.rectangle((inset, inset, w - 1 - inset, h - 1 - inset), outline=P.PAPER, width=max(1, width // 30))
    cx, cy, r = w / 2, h / 2, w * 0.27
    _circle(draw, cx, cy, r, P.PAPER)
    _circle(draw, cx, cy, r * 0.78, P.FRENCH_BACK)
    _circle(draw, cx, cy, r * 0.62, P.PAPER)
    hole = r * 0.3
    draw.rectangle((cx - hole, cy - hole, cx + hole, cy + hole), fill=P.FRENCH_BACK)
    return img


# ---------------------------------------------------------------- French cards (OFC)


@lru_cache(maxsize=64 * 3)
def french_face(rank: int, suit: str, width: int = DEFAULT_WIDTH) -> Image.Image:
    """Rank in the top-left corner and a large suit symbol, red (♦♥) or black (♣♠)."""
    card = FrenchCard(rank, suit)  # validates
    colour = P.RED if suit in FRENCH_RED_SUITS else P.INK
    img, draw = _blank(width, P.PAPER, P.CARD_EDGE)
    w, h = img.size
    rank_text = "10" if rank == 10 else card.rank_char
    size = _fit_size(rank_text, round(h * 0.34), w * 0.7)
    _centered_text(draw, rank_text, w * 0.36 if len(rank_text) == 1 else w * 0.42, h * 0.21, size, colour, bold=True)
    _centered_text(draw, FRENCH_SUIT_SYMBOL[suit], w * 0.56, h * 0.66, round(h * 0.48), colour)
    return img


# ---------------------------------------------------------------- Luk Fu money cards


def lukfu_is_red(rank: int, suit: str) -> bool:
    """One of the eight red cards (rules §2.1), drawn with a red numeral and a red frame."""
    return (rank, suit) in LUKFU_RED


@lru_cache(maxsize=64 * 3)
def lukfu_face(rank: int, suit: str, width: int = DEFAULT_WIDTH) -> Image.Image:
    """The Chinese numeral (一 … 九) over the suit kanji (銭 索 貫 十) in the suit's colour; Li Tyen is 老千.

    A red card (rules §2.1) has its numeral and an inner frame in red, so it stands out at a glance; no
    suit is drawn in red. Cards of at least :data:`LUKFU_INDEX_MIN_WIDTH` also carry the notation (``7M``,
    ``LT``) small at the foot, as players type it.
    """
    card = LukFuCard(rank, suit)  # validates
    img, draw = _blank(width, P.PAPER, P.CARD_EDGE)
    w, h = img.size
    red = lukfu_is_red(rank, suit)
    if red:
        inset = max(2, round(w * 0.07))
        draw.rounded_rectangle(
            (inset, inset, w - 1 - inset, h - 1 - inset), radius=max(2, w // 16), outline=P.RED, width=max(2, w // 24)
        )
    if card.is_li_tyen:
        top, bottom = LI_TYEN_FACE[0], LI_TYEN_FACE[1]
        colour = numeral_colour = P.RED
    else:
        top, bottom = LUKFU_NUMERALS[rank - 1], LUKFU_SUIT_KANJI[suit]
        colour = LUKFU_SUIT_COLOUR[suit]
        numeral_colour = P.RED if red else colour
    index = w >= LUKFU_INDEX_MIN_WIDTH
    _centered_text(draw, top, w / 2, h * 0.27, _fit_size(top, round(h * 0.38), w * 0.78), numeral_colour, bold=True)
    if index:
        size = _fit_size(bottom, round(h * 0.26), w * 0.7)
        _centered_text(draw, bottom, w / 2, h * 0.61, size, colour, bold=size >= 24)
        _centered_text(draw, card.notation, w / 2, h * 0.83, round(h * 0.12), colour, bold=True)
    else:  # small cards (rows of winning cards): numeral and suit only, the suit larger
        size = _fit_size(bottom, round(h * 0.31), w * 0.74)
        _centered_text(draw, bottom, w / 2, h * 0.68, size, colour, bold=size >= 24)
    return img
