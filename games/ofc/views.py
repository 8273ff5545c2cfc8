"""What a seat, or an onlooker, may see of an OFC table: frozen dataclasses built from the engine.

A face-down card (an unrevealed Turbo street, a Fantasyland board before the hand ends) shows as
``None`` to everyone but its owner; discards and undealt cards never appear outside their owner's view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.core.cards import FrenchCard
from games.ofc.board import ROW_SIZE, ROWS, Board, Row
from games.ofc.eval import RoyaltyScheme, category_name, eval_row, is_foul
from games.ofc.results import OFCResult
from games.ofc.rules import OFCRules
from games.ofc.scoring import BoardScore, PairResult

if TYPE_CHECKING:
    from games.ofc.engine import OFCEngine
    from games.ofc.hand import SeatHand


@dataclass(frozen=True)
class BoardView:
    """One player's board as the viewer sees it."""

    seat: int
    front: tuple[FrenchCard | None, ...]
    middle: tuple[FrenchCard | None, ...]
    back: tuple[FrenchCard | None, ...]
    royalties: int
    """Royalties of the rows that are complete and visible to the viewer (0 for a visibly fouled board)."""
    fouled: bool
    """The board is complete, visible and fouled."""
    fantasyland: bool
    fl_cards: int
    """Cards dealt to this player in Fantasyland this hand (0 when not in Fantasyland)."""
    discarded: int
    awaiting: bool
    """This seat's placement is awaited now."""

    def row(self, name: Row) -> tuple[FrenchCard | None, ...]:
        return {"front": self.front, "middle": self.middle, "back": self.back}[name]


@dataclass(frozen=True)
class LastHand:
    """The result of the last finished hand: every board revealed, pairwise results, chips moved."""

    hand_no: int
    dealer: int
    boards: tuple[str, ...]
    """Each finished board as text, ``Board.parse``-able. Text, not cards: the next hand deals the same
    physical cards again, and a card object here would look like a leak of the new hand's hidden cards."""
    fantasyland: tuple[bool, ...]
    scores: tuple[BoardScore, ...]
    pairs: tuple[PairResult, ...]
    points: tuple[int, ...]
    """Each player's result by the rules (sum over opponents)."""
    deltas: tuple[int, ...]
    """Stack changes actually made (``points`` limited by what each stack could pay, §0.4)."""
    fantasyland_next: tuple[int, ...]
    """Cards each seat receives in Fantasyland next hand (0: not in Fantasyland)."""
    fl_discards: tuple[str, ...] = ()
    """The cards each Fantasyland player left out, as text ("" for everyone else), shown once the hand is over
    so the results can compare the board played with the best one possible. Normal discards stay private."""

    def result(self) -> OFCResult:
        """The hand's result, for the results message and hand history."""
        return OFCResult(
            hand=self.hand_no,
            dealer=self.dealer,
            boards=self.boards,
            rows=tuple((category_name(s.front), category_name(s.middle), category_name(s.back)) for s in self.scores),
            fouled=tuple(s.fouled for s in self.scores),
            royalties=tuple(s.royalties for s in self.scores),
            fantasyland=self.fantasyland,
            pairs=self.pairs,
            points=self.points,
            deltas=self.deltas,
            fantasyland_next=self.fantasyland_next,
            fl_discards=self.fl_discards,
        )


@dataclass(frozen=True)
class OFCPublicView:
    """Everything an onlooker may see."""

    rules: OFCRules
    hand_no: int
    dealer: int
    street: int
    """1-based street of the normal players (0 once they have all finished)."""
    streets: int
    boards: tuple[BoardView, ...]
    stacks: tuple[int, ...]
    awaiting: frozenset[int]
    face_up: dict[int, tuple[FrenchCard, ...]]
    """Cards dealt face up and waiting to be placed (variant a only)."""
    last_hand: LastHand | None
    game_over: bool


@dataclass(frozen=True)
class OFCSeatView:
    """What one seat sees: the table as everyone sees it, plus its own board in full and its cards to place.

    ``public`` is exactly the onlookers' view (the seat's own face-down cards show there as ``None``), so it
    can be handed to anything public, such as the table renderer; the seat's private knowledge lives only in
    ``board``, ``to_place`` and ``own_discards``."""

    seat: int
    public: OFCPublicView
    board: BoardView
    """The seat's own board with every card visible to its owner."""
    to_place: tuple[FrenchCard, ...]
    discard: int
    """How many of ``to_place`` must be discarded."""
    fantasyland_hand: bool
    own_discards: tuple[FrenchCard, ...]

    @property
    def rules(self) -> OFCRules:
        return self.public.rules

    def full_board(self) -> Board:
        """The seat's own board (every card is visible to its owner)."""
        return Board(*(tuple(c for c in self.board.row(r) if c is not None) for r in ROWS))


def _board_view(engine: OFCEngine, seat: int, viewer: int | None) -> BoardView:
    hand: SeatHand = engine.hands[seat]
    own = viewer == seat
    rows = {r: tuple(c if own or c not in hand.face_down else None for c in hand.rows[r]) for r in ROWS}
    royalties, fouled = _visible_royalties(rows, engine.rules)
    return BoardView(
        seat=seat,
        front=rows["front"],
        middle=rows["middle"],
        back=rows["back"],
        royalties=royalties,
        fouled=fouled,
        fantasyland=hand.fantasyland,
        fl_cards=hand.fl_cards,
        discarded=len(hand.discards),
        awaiting=bool(hand.pending) and not engine.over,
    )


def _visible_royalties(rows: dict[Row, tuple[FrenchCard | None, ...]], rules: OFCRules) -> tuple[int, bool]:
    scheme = RoyaltyScheme.of(rules)
    values: dict[Row, int] = {}
    for r in ROWS:
        cards = rows[r]
        if len(cards) == ROW_SIZE[r] and all(c is not None for c in cards):
            values[r] = eval_row([c for c in cards if c is not None])
    if len(values) == 3 and is_foul(values["front"], values["middle"], values["back"], rules.foul_on_equal):
        return 0, True
    total = 0
    if "front" in values:
        total += scheme.front(values["front"])
    if "middle" in values:
        total += scheme.middle(values["middle"])
    if "back" in values:
        total += scheme.back(values["back"])
    return total, False


def public_view(engine: OFCEngine) -> OFCPublicView:
    streets = len(engine.rules.streets())
    return OFCPublicView(
        rules=engine.rules,
        hand_no=engine.hand_no,
        dealer=engine.dealer,
        street=0 if engine.normals_done() else engine.street + 1,
        streets=streets,
        boards=tuple(_board_view(engine, s, None) for s in range(engine.seats)),
        stacks=tuple(engine.stacks),
        awaiting=engine.to_act(),
        face_up={
            s: tuple(h.pending)
            for s, h in enumerate(engine.hands)
            if h.pending and engine.pending_face_up(s) and not engine.over
        },
        last_hand=engine.last,
        game_over=engine.over,
    )


def seat_view(engine: OFCEngine, seat: int) -> OFCSeatView:
    hand = engine.hands[seat]
    return OFCSeatView(
        seat=seat,
        public=public_view(engine),
        board=_board_view(engine, seat, seat),
        to_place=tuple(hand.pending) if not engine.over else (),
        discard=hand.discard_due,
        fantasyland_hand=hand.fantasyland,
        own_discards=tuple(hand.discards),
    )
