"""Aids for the player panel: does a (partial) board foul or must it foul, what it holds, a hint.

"Must foul" is exact (:mod:`games.ofc.reach`): it is said exactly when no way of filling the empty
slots with cards the seat has not seen keeps the board clean, so it is never a false alarm and never
missed. The bot relies on it to keep a clean finish possible whenever one exists.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from games.core.cards import FrenchCard, french_deck
from games.ofc.board import ROWS, Board, Row
from games.ofc.eval import RoyaltyScheme, eval_row, is_foul
from games.ofc.fantasyland import entry_cards, stays
from games.ofc.reach import can_finish
from games.ofc.rules import OFCRules
from games.ofc.scoring import score_board

if TYPE_CHECKING:
    from games.ofc.actions import Place
    from games.ofc.views import OFCSeatView

FoulStatus = Literal["ok", "unavoidable", "fouled"]


def foul_status(
    board: Board, rules: OFCRules, unseen: Collection[FrenchCard], exact_upto: int | None = None
) -> FoulStatus:
    """``fouled`` (complete and fouled), ``unavoidable`` (no completion from ``unseen`` avoids a foul) or ``ok``.

    Exact whatever is missing; ``exact_upto`` is accepted for old callers and ignored."""
    del exact_upto
    if board.complete:
        f, m, b = (eval_row(board.row(r)) for r in ROWS)
        return "fouled" if is_foul(f, m, b, rules.foul_on_equal) else "ok"
    if can_finish(board.front, board.middle, board.back, unseen, rules.foul_on_equal):
        return "ok"
    return "unavoidable"


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
    if view.fantasyland_hand:
        # A Fantasyland board is filled from the seat's own cards, not from the pack.
        chosen = {c for r in ROWS for c in (placing or {}).get(r, ())}
        pool = [c for c in view.to_place if c not in chosen]
    else:
        pool = unseen_cards(view)
    foul = foul_status(board, rules, pool)
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
