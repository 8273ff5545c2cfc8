"""The easy bot: plays like a newcomer who has learnt the rules but not yet the risks.

Its mistakes are the usual first-week ones, on purpose and always the same way:

* **Greedy for the front.** A pair of nines or better, or an ace or a king, goes to the top early, hoping for
  royalties and Fantasyland, whatever that leaves the rows below to beat.
* **Blind to fouls until late.** While most of the board is empty, a row stronger than the one below it counts
  for only half of what it will; only when the placement leaves :data:`LATE` empty slots or fewer does it steer
  clear of a certain foul (the exact check), and on the last street it never fouls when a clean board is
  possible.
* **Chases what it sees.** Pairs and trips are kept together; cards of one suit gather in the back for
  a flush; the straights and the opponents are not thought about.
* **Fantasyland:** the best five cards to the back, the best five of the rest to the middle, the best three
  left to the front (the exact solver's board only if that greedy board would foul).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from games.core.actions import Action, LegalAction
from games.core.cards import FrenchCard
from games.ofc.actions import Place, placements_in
from games.ofc.aids import foul_status, unseen_cards
from games.ofc.board import ROW_SIZE, ROWS, Board, Row
from games.ofc.eval import PAIR, TRIPS, RoyaltyScheme, eval_partial, eval_row, is_foul, top_rank
from games.ofc.fantasyland import solve_cached
from games.ofc.reach import Unseen
from games.ofc.views import OFCSeatView

LATE = 4
"""Empty slots left after a placement from which the easy bot starts to mind fouls."""


def easy(view: OFCSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """The easy bot's action for ``view``."""
    if view.fantasyland_hand:
        return greedy_fantasyland(view)
    places = placements_in(legal)
    if not places:
        raise ValueError("no legal action to choose from")
    board = view.full_board()
    scheme = RoyaltyScheme.of(view.rules)
    afters = [board.with_cards({r: p.to(r) for r in ROWS}) for p in places]
    late = 13 - len(afters[0].cards()) <= LATE
    scores = [_score(a, scheme, view.rules.foul_on_equal) + _order(a) * (1.0 if late else 0.5) for a in afters]
    if late:
        dealt = set(view.to_place)
        pool = Unseen([c for c in unseen_cards(view) if c not in dealt])
        ok = [foul_status(a, view.rules, pool) == "ok" for a in afters]
        if any(ok):
            scores = [s if good else s - 1000.0 for s, good in zip(scores, ok, strict=True)]
    top = max(scores)
    best = [p for p, s in zip(places, scores, strict=True) if s >= top - 1e-9]
    return best[0] if len(best) == 1 else rng.choice(best)


def _score(board: Board, scheme: RoyaltyScheme, strict: bool) -> float:
    if board.complete:
        f, m, b = (eval_row(board.row(r)) for r in ROWS)
        if is_foul(f, m, b, strict):
            return -100.0
        value = float(scheme.front(f) + scheme.middle(m) + scheme.back(b))
        if f >> 20 == TRIPS or (f >> 20 == PAIR and top_rank(f) >= 12):
            value += 10
        return value + 0.1 * ((m >> 20) + (b >> 20))
    score = 0.0
    front = eval_partial(board.front)
    if front >> 20 >= PAIR and top_rank(front) >= 9:
        # A high pair goes up top: the royalty, and a dream of Fantasyland.
        score += 4 + top_rank(front) / 2 + (6 if top_rank(front) >= 12 else 0)
    elif board.front:
        # An ace or a king up top, in case its partner comes.
        score += max(0, max(c.rank for c in board.front) - 12)
    rows: tuple[tuple[Row, float], ...] = (("middle", 1.0), ("back", 1.2))
    for row, weight in rows:
        cards = board.row(row)
        value = eval_row(cards) if len(cards) == 5 else eval_partial(cards)
        score += weight * 3 * (value >> 20)
        if row == "back" and 2 <= len(cards) < 5 and len({c.suit for c in cards}) == 1:
            score += weight * 1.5 * len(cards)
    return score


def _order(board: Board) -> float:
    """Late in the hand, the easy bot notices rows out of order (as the normal bot always does)."""
    if board.complete:
        return 0.0
    pf, pm, pb = (
        eval_row(board.row(r)) if len(board.row(r)) == ROW_SIZE[r] else eval_partial(board.row(r)) for r in ROWS
    )
    penalty = 0.0
    if pf > pm:
        penalty += 3 + 8 * len(board.middle) / 5
    if pm > pb:
        penalty += 3 + 8 * len(board.back) / 5
    return -penalty


def greedy_fantasyland(view: OFCSeatView) -> Place:
    """Back, then middle, then front, each the strongest the cards left allow."""
    cards = list(view.to_place)
    back = _best5(cards)
    rest = [c for c in cards if c not in back]
    middle = _best5(rest)
    rest = [c for c in rest if c not in middle]
    front = max(combinations(rest, 3), key=lambda t: (eval_row(t), tuple(sorted(c.rank for c in t))))
    discards = [c for c in rest if c not in front]
    if is_foul(eval_row(front), eval_row(middle), eval_row(back), view.rules.foul_on_equal):
        arr = solve_cached(view.to_place, view.rules)
        return Place.of({"front": arr.front, "middle": arr.middle, "back": arr.back}, arr.discards)
    return Place.of({"front": front, "middle": middle, "back": back}, discards)


def _best5(cards: Sequence[FrenchCard]) -> tuple[FrenchCard, ...]:
    return max(combinations(cards, 5), key=eval_row)
