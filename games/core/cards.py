"""Cards of the three packs Fudaba uses, each with a short text notation.

* French cards (OFC, Hachi-Hachi Trick): rank then suit, ``As Td 9h 2c``; ``10`` is accepted for ``T``.
* Kabufuda (Oicho-Kabu): the month alone, ``1`` … ``12``. A month has four copies; the copy
  number only gives each physical card an identity (for hidden-card checks), never a rule.
* Luk Fu money cards: rank then suit code, ``7M 1T``, and the suitless ``LT`` (Li Tyen).

Cards are immutable and hashable. ``str(card)`` gives the notation back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

from games.core.errors import NotationError

# ---------------------------------------------------------------- French cards

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"  # clubs < diamonds < hearts < spades (only for a stable sort order)
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}


@dataclass(frozen=True, order=True)
class FrenchCard:
    """A standard playing card; ``rank`` is 2..14 (ace high)."""

    rank: int
    suit: str
    kind: ClassVar[str] = "french"

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14 or self.suit not in SUIT_CHARS:
            raise NotationError(f"not a French card: rank={self.rank} suit={self.suit!r}")

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self.rank - 2]

    @property
    def notation(self) -> str:
        return self.rank_char + self.suit

    @property
    def pretty(self) -> str:
        """The notation with a suit symbol, ``A♠``."""
        return ("10" if self.rank == 10 else self.rank_char) + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.notation

    @classmethod
    def parse(cls, text: str) -> FrenchCard:
        t = text.strip()
        if len(t) >= 2 and t[-1] in _SYMBOL_TO_SUIT:
            t = t[:-1] + _SYMBOL_TO_SUIT[t[-1]]
        if t[:2] == "10":
            t = "T" + t[2:]
        if len(t) != 2 or t[0].upper() not in RANK_CHARS or t[1].lower() not in SUIT_CHARS:
            raise NotationError(f"not a French card: {text!r}")
        return cls(RANK_CHARS.index(t[0].upper()) + 2, t[1].lower())


def french_deck() -> list[FrenchCard]:
    """The 52-card pack in canonical order (2c 2d 2h 2s 3c … As)."""
    return [FrenchCard(r, s) for r in range(2, 15) for s in SUIT_CHARS]


# ---------------------------------------------------------------- kabufuda


@dataclass(frozen=True, order=True)
class KabuCard:
    """A kabufuda card: ``month`` 1..12, ``copy`` 0..3 tells the four cards of a month apart."""

    month: int
    copy: int = field(default=0, compare=True)
    kind: ClassVar[str] = "kabu"

    def __post_init__(self) -> None:
        if not 1 <= self.month <= 12 or not 0 <= self.copy <= 3:
            raise NotationError(f"not a kabufuda card: month={self.month} copy={self.copy}")

    @property
    def points(self) -> int:
        """Point value: month mod 10 (10 counts 0, 11 counts 1, 12 counts 2)."""
        return self.month % 10

    @property
    def notation(self) -> str:
        return str(self.month)

    def __str__(self) -> str:
        return self.notation

    @classmethod
    def parse(cls, text: str, copy: int = 0) -> KabuCard:
        t = text.strip()
        # isdigit() alone accepts "²" (int() then fails) and "٣" (int() reads 3): ASCII digits only.
        if not (t.isascii() and t.isdigit()):
            raise NotationError(f"not a kabufuda card: {text!r}")
        return cls(int(t), copy)


def kabu_deck(months: int = 10) -> list[KabuCard]:
    """40 cards (months 1..10) or 48 (with 11 and 12), canonical order 1 1 1 1 2 … ."""
    if months not in (10, 12):
        raise ValueError("a kabufuda deck has 10 or 12 months")
    return [KabuCard(m, c) for m in range(1, months + 1) for c in range(4)]


# ---------------------------------------------------------------- Luk Fu money cards

LUKFU_SUITS = "CSMT"  # Coins < Strings < Myriads < Tens


@dataclass(frozen=True, order=True)
class LukFuCard:
    """A Luk Fu card: ``rank`` 1..9 and ``suit`` in C S M T, or Li Tyen (rank 0, suit ``""``)."""

    rank: int
    suit: str
    kind: ClassVar[str] = "lukfu"

    def __post_init__(self) -> None:
        if self.is_li_tyen:
            return
        if not 1 <= self.rank <= 9 or self.suit not in LUKFU_SUITS or len(self.suit) != 1:
            raise NotationError(f"not a Luk Fu card: rank={self.rank} suit={self.suit!r}")

    @property
    def is_li_tyen(self) -> bool:
        return self.rank == 0 and self.suit == ""

    @property
    def suit_order(self) -> int:
        """0..3 for C S M T; -1 for Li Tyen, which belongs to no suit."""
        return -1 if self.is_li_tyen else LUKFU_SUITS.index(self.suit)

    @property
    def notation(self) -> str:
        return "LT" if self.is_li_tyen else f"{self.rank}{self.suit}"

    def __str__(self) -> str:
        return self.notation

    @classmethod
    def parse(cls, text: str) -> LukFuCard:
        t = text.strip().upper()
        if t == "LT":
            return LI_TYEN
        if len(t) != 2 or t[0] not in "123456789" or t[1] not in LUKFU_SUITS:
            raise NotationError(f"not a Luk Fu card: {text!r}")
        return cls(int(t[0]), t[1])


LI_TYEN = LukFuCard(0, "")


def lukfu_deck() -> list[LukFuCard]:
    """The 37-card pack: 1..9 in four suits plus Li Tyen, canonical order 1C … 9T LT."""
    return [LukFuCard(r, s) for s in LUKFU_SUITS for r in range(1, 10)] + [LI_TYEN]


# ---------------------------------------------------------------- parsing helpers

Card = FrenchCard | KabuCard | LukFuCard
C = TypeVar("C", FrenchCard, KabuCard, LukFuCard)


def parse_french(text: str) -> list[FrenchCard]:
    """``"As Td 9h"`` → three cards; duplicates are refused."""
    cards = [FrenchCard.parse(t) for t in text.split()]
    _refuse_duplicates(cards, text)
    return cards


def parse_lukfu(text: str) -> list[LukFuCard]:
    cards = [LukFuCard.parse(t) for t in text.split()]
    _refuse_duplicates(cards, text)
    return cards


def parse_kabu(text: str, months: int = 12) -> list[KabuCard]:
    """``"3 7 10"`` → kabufuda cards; repeated months get successive copy numbers (at most four)."""
    seen: Counter[int] = Counter()
    cards: list[KabuCard] = []
    for token in text.split():
        month = KabuCard.parse(token).month
        if month > months:
            raise NotationError(f"month {month} is not in this deck")
        if seen[month] >= 4:
            raise NotationError(f"more than four cards of month {month} in {text!r}")
        cards.append(KabuCard(month, seen[month]))
        seen[month] += 1
    return cards


def _refuse_duplicates(cards: Sequence[object], text: str) -> None:
    if len(set(cards)) != len(cards):
        raise NotationError(f"a card appears twice in {text!r}")


def notation(cards: Iterable[Card]) -> str:
    """Cards back to text, space separated."""
    return " ".join(c.notation for c in cards)


def complete_deck_order(prefix: Sequence[C], full_deck: Sequence[C]) -> list[C]:
    """A stacked deck: ``prefix`` on top, the rest of ``full_deck`` after it in canonical order.

    Kabufuda prefixes are matched by month, so a copy number in the prefix never matters.
    """
    remaining = list(full_deck)
    ordered: list[C] = []
    for card in prefix:
        match = next(
            (
                c
                for c in remaining
                if c == card or (isinstance(c, KabuCard) and isinstance(card, KabuCard) and c.month == card.month)
            ),
            None,
        )
        if match is None:
            raise NotationError(f"{card} is not (or no longer) in the deck")
        remaining.remove(match)
        ordered.append(match)
    return ordered + remaining
