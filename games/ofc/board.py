"""A player's board: three rows of placed cards (rules.md §4.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.core.cards import FrenchCard, parse_french

Row = Literal["front", "middle", "back"]
ROWS: tuple[Row, ...] = ("front", "middle", "back")
ROW_SIZE: dict[Row, int] = {"front": 3, "middle": 5, "back": 5}


@dataclass(frozen=True)
class Board:
    """Cards placed in each row (complete or not)."""

    front: tuple[FrenchCard, ...] = ()
    middle: tuple[FrenchCard, ...] = ()
    back: tuple[FrenchCard, ...] = ()

    def row(self, name: Row) -> tuple[FrenchCard, ...]:
        return {"front": self.front, "middle": self.middle, "back": self.back}[name]

    @property
    def complete(self) -> bool:
        return len(self.front) == 3 and len(self.middle) == 5 and len(self.back) == 5

    def cards(self) -> tuple[FrenchCard, ...]:
        return self.front + self.middle + self.back

    def free(self, name: Row) -> int:
        return ROW_SIZE[name] - len(self.row(name))

    def with_cards(self, placements: dict[Row, list[FrenchCard]]) -> Board:
        return Board(
            self.front + tuple(placements.get("front", ())),
            self.middle + tuple(placements.get("middle", ())),
            self.back + tuple(placements.get("back", ())),
        )

    @classmethod
    def parse(cls, text: str) -> Board:
        """``"Qs Qh 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h"`` (Front / Middle / Back)."""
        parts = [p.strip() for p in text.split("/")]
        if len(parts) != 3:
            raise ValueError("a board is written Front / Middle / Back")
        return cls(*(tuple(parse_french(p)) for p in parts))

    def __str__(self) -> str:
        return " / ".join(" ".join(c.notation for c in self.row(r)) for r in ROWS)
