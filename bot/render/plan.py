"""A canvas that keeps a plan of what it drew, and the wording a table picture needs, shared by the tables drawn
with laid-out panels (Luk Fu, Hachi-Hachi Trick).

:class:`RecordingCanvas` notes each text, badge, card and panel it draws (a list append each: the masks are cached)
in a :class:`Drawing`, so tests can check a layout (what is where, what overlaps, which cards show) without reading
pixels. :class:`Words` turns points into chips for a narrow place and fits a long name into a line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from PIL import Image

from bot.i18n import t
from bot.render import palette as P
from bot.render.cards import Box, card_back, card_size
from bot.render.fonts import fit, text_width
from bot.render.text import Canvas, compact_chips


@dataclass(frozen=True)
class PlacedCard:
    """A card drawn on the table: its box, the card (``None``: drawn as a back), where (a game's own area names),
    and whose."""

    box: Box
    card: Any
    area: str
    seat: int | None = None


@dataclass(frozen=True)
class PlacedText:
    text: str
    box: Box
    """The box of the text's ink (a badge's: its whole filled tag)."""
    size: int
    colour: P.RGB
    """The text's colour (a badge's: its fill)."""
    badge: bool = False


@dataclass
class Drawing:
    """The composed image and what was drawn on it, where (for tests and for looking at a layout)."""

    img: Image.Image
    cards: list[PlacedCard] = field(default_factory=list)
    texts: list[PlacedText] = field(default_factory=list)
    panels: list[Box] = field(default_factory=list)
    """The dark panels every text stands on."""


class RecordingCanvas(Canvas):
    """A canvas that notes each text, badge and card it draws. A game's canvas names its deck (for card backs) and
    how a face is drawn."""

    deck: ClassVar[str]
    """The deck whose back a hidden card shows (:func:`~bot.render.cards.card_back`)."""
    pastes_runs: ClassVar[bool] = False  # each text is noted, so each is drawn

    def __init__(self, img: Image.Image) -> None:
        super().__init__(img)
        self.plan = Drawing(img)
        self._in_badge = False

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: P.RGB = P.TEXT,
        anchor: str = "ls",
        bold: bool = False,
    ) -> float:
        advance = super().text(xy, text, size, fill, anchor, bold)
        if text and not self._in_badge:
            self.plan.texts.append(PlacedText(text, self.last_ink, size, fill))
        return advance

    def badge(self, x: float, baseline: float, text: str, size: int, bg: P.RGB, fg: P.RGB = P.INK) -> float:
        self._in_badge = True
        try:
            w = super().badge(x, baseline, text, size, bg, fg)
        finally:
            self._in_badge = False
        box = (x, baseline - size * 0.95, x + w, baseline + size * 0.22)  # Canvas.badge's tag
        self.plan.texts.append(PlacedText(text, box, size, bg, badge=True))
        return w

    def card(self, card: Any, x: float, y: float, width: int, area: str, seat: int | None = None) -> None:
        """A face, or a back for ``None``."""
        img = card_back(self.deck, width) if card is None else self.face(card, width)
        xy = (round(x), round(y))
        self.paste_card(img, xy)
        self.plan.cards.append(PlacedCard((xy[0], xy[1], xy[0] + img.width, xy[1] + img.height), card, area, seat))

    def face(self, card: Any, width: int) -> Image.Image:
        """The card's face image, ``width`` pixels wide (each game's canvas draws its own cards)."""
        raise NotImplementedError

    def panel(self, box: Box, outline: P.RGB | None = None) -> None:
        """A dark panel (text is drawn only on these: the palette has its antialiased blends)."""
        self.draw.rounded_rectangle(box, radius=8, fill=P.FELT_DARK, outline=outline, width=2 if outline else 1)
        self.plan.panels.append(box)

    def slot(self, x: float, y: float, width: int) -> None:
        """An empty place for a card still to come."""
        w, h = card_size(width)
        self.draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=6, outline=P.FELT_LINE, width=2)


@dataclass(frozen=True)
class Words:
    """Per-render wording: seat names, language, points shown as chips, and the game's catalog (``prefix``, such as
    ``"hachi_hachi_render."``; empty: keys are given whole)."""

    names: list[str]
    lang: str
    stake: int
    prefix: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "stake", max(1, self.stake))

    def chips(self, points: int) -> str:
        """Chips in a narrow place: exact below 100,000, then ``123k`` / ``4.5M``."""
        return compact_chips(points * self.stake)

    def signed(self, points: int) -> str:
        text = self.chips(abs(points))
        return f"+{text}" if points > 0 else f"−{text}" if points < 0 else "0"

    def name(self, seat: object) -> str:
        return self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else "?"

    def who(self, seats: Sequence[int]) -> str:
        return ", ".join(self.names[s] for s in seats if 0 <= s < len(self.names))

    def t(self, key: str, **params: Any) -> str:
        return t(self.prefix + key, self.lang, **params)

    def say(self, key: str, size: int, room: float, **params: Any) -> str:
        """``t(key)`` with its ``name`` (or ``names``) shortened first, so a long name is cut and the words around
        it still show whole within ``room``."""
        for param in ("name", "names"):
            value = params.get(param)
            if isinstance(value, str):
                rest = text_width(self.t(key, **{**params, param: ""}), size)
                params[param] = fit(value, size, max(room - rest, 3 * size))
        return self.t(key, **params)
