"""Pairwise scoring (rules.md §4.4): rows, scoop bonus, royalties, fouls; multi-player totals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.ofc.board import Board
from games.ofc.eval import RoyaltyScheme, eval_row, is_foul
from games.ofc.rules import OFCRules


@dataclass(frozen=True)
class BoardScore:
    """A finished board: row strengths, whether it fouled, and its royalties (0 when fouled)."""

    front: int
    middle: int
    back: int
    fouled: bool
    row_royalties: tuple[int, int, int]

    @property
    def royalties(self) -> int:
        return sum(self.row_royalties)


@dataclass(frozen=True)
class PairResult:
    """What ``a`` wins from ``b`` (``points``; negative when ``a`` pays), and why."""

    a: int
    b: int
    rows: tuple[int, int, int]
    """+1 when a wins the row, -1 when b does, 0 for a tie (a fouled board loses every row)."""
    scoop: int
    royalties: int
    points: int


def score_values(front: int, middle: int, back: int, rules: OFCRules) -> BoardScore:
    """Foul check and royalties from the three row strengths."""
    if is_foul(front, middle, back, rules.foul_on_equal):
        return BoardScore(front, middle, back, True, (0, 0, 0))
    s = RoyaltyScheme.of(rules)
    return BoardScore(front, middle, back, False, (s.front(front), s.middle(middle), s.back(back)))


def score_board(board: Board, rules: OFCRules) -> BoardScore:
    if not board.complete:
        raise ValueError("only a complete board can be scored")
    return score_values(eval_row(board.front), eval_row(board.middle), eval_row(board.back), rules)


def _cmp(x: int, y: int) -> int:
    return (x > y) - (x < y)


def pairwise(x: BoardScore, y: BoardScore, scoop_bonus: int, a: int = 0, b: int = 1) -> PairResult:
    """X against Y (§4.4): both fouled 0; one fouled pays 3 + scoop + the other's royalties; else rows."""
    if x.fouled and y.fouled:
        return PairResult(a, b, (0, 0, 0), 0, 0, 0)
    if y.fouled:
        return PairResult(a, b, (1, 1, 1), scoop_bonus, x.royalties, 3 + scoop_bonus + x.royalties)
    if x.fouled:
        return PairResult(a, b, (-1, -1, -1), -scoop_bonus, -y.royalties, -(3 + scoop_bonus + y.royalties))
    rows = (_cmp(x.front, y.front), _cmp(x.middle, y.middle), _cmp(x.back, y.back))
    won = sum(rows)
    scoop = scoop_bonus if won == 3 else -scoop_bonus if won == -3 else 0
    royalties = x.royalties - y.royalties
    return PairResult(a, b, rows, scoop, royalties, won + scoop + royalties)


def all_pairs(scores: Sequence[BoardScore | None], scoop_bonus: int) -> list[PairResult]:
    """Every pair (a < b) of the players who played (``None``: no board this hand)."""
    out: list[PairResult] = []
    for a in range(len(scores)):
        for b in range(a + 1, len(scores)):
            sa, sb = scores[a], scores[b]
            if sa is not None and sb is not None:
                out.append(pairwise(sa, sb, scoop_bonus, a, b))
    return out


def totals(scores: Sequence[BoardScore | None], scoop_bonus: int) -> list[int]:
    """Each player's result for the hand: the sum over all opponents (sums to 0)."""
    out = [0] * len(scores)
    for r in all_pairs(scores, scoop_bonus):
        out[r.a] += r.points
        out[r.b] -= r.points
    return out
