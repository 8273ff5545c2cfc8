"""Aids for the player panel: does a (partial) board foul or must it foul, what it holds, a hint.

"Must foul" is sound, never a false alarm: each row gets a lower and an upper bound on what it
can still become (exact when at most ``exact_upto`` cards are missing, otherwise the made part as
the lower bound and "anything" as the upper), and a foul is unavoidable when a lower row's lower
bound already beats a higher row's upper bound.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Literal

from games.core.cards import FrenchCard, french_deck
from games.ofc.board import ROW_SIZE, ROWS, Board, Row
from games.ofc.eval import RoyaltyScheme, eval_partial, eval_row, is_foul
from games.ofc.fantasyland import entry_cards, stays
from games.ofc.rules import OFCRules
from games.ofc.scoring import score_board

if TYPE_CHECKING:
    from games.ofc.actions import Place
    from games.ofc.views import OFCSeatView

FoulStatus = Literal["ok", "unavoidable", "fouled"]
_ANYTHING = 1 << 24


def row_bounds(
    cards: tuple[FrenchCard, ...], row: Row, unseen: Collection[FrenchCard], exact_upto: int = 1
) -> tuple[int, int]:
    """(lowest, highest) strength the row can still reach with cards from ``unseen``."""
    missing = ROW_SIZE[row] - len(cards)
    if missing == 0:
        v = eval_row(cards)
        return v, v
    if missing <= exact_upto and len(unseen) >= missing:
        values = [eval_row(cards + extra) for extra in combinations(unseen, missing)]
        return min(values), max(values)
    return eval_partial(cards), _ANYTHING


def foul_status(board: Board, rules: OFCRules, unseen: Collection[FrenchCard], exact_upto: int = 1) -> FoulStatus:
    """``fouled`` (complete and fouled), ``unavoidable`` (every completion fouls) or ``ok``."""
    if board.complete:
        f, m, b = (eval_row(board.row(r)) for r in ROWS)
        return "fouled" if is_foul(f, m, b, rules.foul_on_equal) else "ok"
    f_lo, _ = row_bounds(board.front, "front", unseen, exact_upto)
    m_lo, m_hi = row_bounds(board.middle, "middle", unseen, exact_upto)
    b_lo, b_hi = row_bounds(board.back, "back", unseen, exact_upto)
    strict = rules.foul_on_equal
    if f_lo > m_hi or m_lo > b_hi or f_lo > b_hi or (strict and m_lo == m_hi == b_lo == b_hi):
        return "unavoidable"
    return "ok"


def royalties_held(board: Board, rules: OFCRules) -> int:
    """Royalties of the complete rows (0 for a complete, fouled board)."""
    scheme = RoyaltyScheme.of(rules)
    if board.complete:
        f, m, b = (eval_row(board.row(r)) for r in ROWS)
        if is_foul(f, m, b, rules.foul_on_equal):
            return 0
        return scheme.front(f) + scheme.middle(m) + scheme.back(b)
    total = 0
    if len(board.front) == 3:
        total += scheme.front(eval_row(board.front))
    if len(board.middle) == 5:
        total += scheme.middle(eval_row(board.middle))
    if len(board.back) == 5:
        total += scheme.back(eval_row(board.back))
    return total


def unseen_cards(view: OFCSeatView) -> list[FrenchCard]:
    """Cards this seat has not seen this hand (still in the pack, face down, or others' discards)."""
    seen: set[FrenchCard] = set(view.to_place) | set(view.own_discards)
    seen.update(c for r in ROWS for c in view.board.row(r) if c is not None)
    for board in view.public.boards:
        seen.update(c for r in ROWS for c in board.row(r) if c is not None)
    for cards in view.public.face_up.values():
        seen.update(cards)
    return [c for c in french_deck() if c not in seen]


def visible_cards(cards: Iterable[FrenchCard | None]) -> list[FrenchCard]:
    return [c for c in cards if c is not None]


FantasylandStatus = Literal["enters", "stays"] | None


@dataclass(frozen=True)
class PanelAids:
    """What the player panel shows next to the board."""

    foul: FoulStatus
    royalties: int
    hint: Place | None
    fantasyland: FantasylandStatus = None
    """A complete, non-fouling board that enters Fantasyland (a normal hand) or stays in it (a Fantasyland hand)."""


def panel_aids(
    view: OFCSeatView, placing: Mapping[Row, Sequence[FrenchCard]] | None = None, *, hint: bool = True
) -> PanelAids:
    """The aids for the seat's board, with ``placing`` (cards of ``to_place`` given rows but not confirmed yet)
    added to it. ``hint=False`` skips the hint, a whole bot decision (tens of milliseconds)."""
    from games.ofc.policy import suggest

    rules = view.rules
    board = view.full_board()
    if placing:
        board = board.with_cards({r: list(placing.get(r, ())) for r in ROWS})
    foul = foul_status(board, rules, unseen_cards(view), exact_upto=2)
    fantasyland: FantasylandStatus = None
    if board.complete and foul != "fouled":
        score = score_board(board, rules)
        if view.fantasyland_hand:
            fantasyland = "stays" if stays(score, rules) else None
        elif entry_cards(score, rules) is not None:
            fantasyland = "enters"
    return PanelAids(
        foul=foul,
        royalties=royalties_held(board, rules),
        hint=suggest(view) if hint and view.to_place else None,
        fantasyland=fantasyland,
    )
