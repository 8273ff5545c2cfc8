"""One seat's part of the hand in progress: placed rows, cards to place, discards, what others see."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.cards import FrenchCard
from games.ofc.board import ROW_SIZE, ROWS, Board, Row


@dataclass
class SeatHand:
    """Mutable per-seat state of one hand (owned by the engine)."""

    rows: dict[Row, list[FrenchCard]] = field(default_factory=lambda: {r: [] for r in ROWS})
    pending: list[FrenchCard] = field(default_factory=list)
    """Dealt and not yet placed: this seat must act while this is non-empty."""
    discard_due: int = 0
    face_down: set[FrenchCard] = field(default_factory=set)
    """Placed cards the other seats cannot see yet (Turbo street not revealed, Fantasyland board)."""
    discards: list[FrenchCard] = field(default_factory=list)
    fantasyland: bool = False
    fl_cards: int = 0
    streets_done: int = 0
    """Streets submitted (a Fantasyland hand counts as one)."""

    def board(self) -> Board:
        return Board(tuple(self.rows["front"]), tuple(self.rows["middle"]), tuple(self.rows["back"]))

    def free(self, row: Row) -> int:
        return ROW_SIZE[row] - len(self.rows[row])

    @property
    def placed(self) -> int:
        return sum(len(v) for v in self.rows.values())
