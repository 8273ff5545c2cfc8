"""The baseline bot (also plays for a seat that times out), using only its own view.

* Fantasyland: the solver's best board.
* Last street: the best complete board that does not foul (royalties, then row strength).
* Earlier streets: never a placement that makes a foul unavoidable when another exists; otherwise a
  heuristic: keep rows in order (front ≤ middle ≤ back), value pairs/trips and flush or straight
  draws in the back and middle, high cards low on the board, and front pairs that pay royalties.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from itertools import combinations, product

from games.core.actions import Action, LegalAction
from games.core.cards import FrenchCard
from games.ofc.actions import Place
from games.ofc.aids import foul_status, royalties_held
from games.ofc.board import ROW_SIZE, ROWS, Board, Row
from games.ofc.eval import RoyaltyScheme, eval_partial, eval_row
from games.ofc.fantasyland import solve_cached
from games.ofc.rules import OFCRules
from games.ofc.views import OFCSeatView


def choose(view: OFCSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """The bot's action for ``view`` (one of ``legal`` on normal streets)."""
    places = [a for a in legal if isinstance(a, Place)]
    if view.fantasyland_hand:
        return suggest(view)
    if not places:
        raise ValueError("no legal action to choose from")
    board = view.full_board()
    unseen = _unseen(view)
    scored = [(_score(board, p, view.rules, unseen), i) for i, p in enumerate(places)]
    top = max(s for s, _ in scored)
    best = [places[i] for s, i in scored if s >= top - 1e-9]
    return rng.choice(best)


def suggest(view: OFCSeatView) -> Place:
    """The bot's placement for the seat's current cards (the panel's hint)."""
    rules = view.rules
    if view.fantasyland_hand:
        arr = solve_cached(view.to_place, rules)
        return Place.of({"front": arr.front, "middle": arr.middle, "back": arr.back}, arr.discards)
    board = view.full_board()
    unseen = _unseen(view)
    best: tuple[float, Place] | None = None
    for p in _placements(board, view.to_place, view.discard):
        s = _score(board, p, rules, unseen)
        if best is None or s > best[0]:
            best = (s, p)
    assert best is not None
    return best[1]


def _unseen(view: OFCSeatView) -> list[FrenchCard]:
    from games.ofc.aids import unseen_cards

    return unseen_cards(view)


def _placements(board: Board, cards: Sequence[FrenchCard], discard: int) -> list[Place]:
    out: list[Place] = []
    for discards in combinations(cards, discard):
        keep = [c for c in cards if c not in discards]
        for rows in product(ROWS, repeat=len(keep)):
            if all(rows.count(r) <= board.free(r) for r in ROWS):
                placement: dict[Row, list[FrenchCard]] = {r: [] for r in ROWS}
                for card, row in zip(keep, rows, strict=True):
                    placement[row].append(card)
                out.append(Place.of(placement, discards))
    return out


def _score(board: Board, place: Place, rules: OFCRules, unseen: Collection[FrenchCard]) -> float:
    after = board.with_cards({r: place.to(r) for r in ROWS})
    if after.complete:
        status = foul_status(after, rules, unseen)
        if status == "fouled":
            return -1000.0
        values = [eval_row(after.row(r)) for r in ROWS]
        # Royalties first; then stronger rows win more often against the other boards.
        return royalties_held(after, rules) + sum(v >> 20 for v in values) * 0.3 + sum(values) / (1 << 24)
    pool = [c for c in unseen if c not in place.cards]
    if foul_status(after, rules, pool) == "unavoidable":
        return -500.0
    return _heuristic(after, rules)


def _heuristic(board: Board, rules: OFCRules) -> float:
    scheme = RoyaltyScheme.of(rules)
    pf, pm, pb = (eval_partial(board.row(r)) for r in ROWS)
    score = 0.0
    # Order: a lower row stronger than a higher one is dangerous, more so the fuller the higher row is.
    if pf > pm:
        score -= 3 + 8 * len(board.middle) / 5
    if pm > pb:
        score -= 3 + 8 * len(board.back) / 5
    if pf > pb:
        score -= 4
    score += 1.2 * (pb >> 20) + 0.8 * (pm >> 20)
    score += _draws(board.back, 1.0) + _draws(board.middle, 0.6)
    if pf >> 20 >= 1:
        score += 0.6 * scheme.front(pf)
    # High singletons belong at the back; a crowded front with high cards blocks the middle.
    score += sum(c.rank for c in board.back) / 40 + sum(c.rank for c in board.middle) / 70
    score -= sum(max(0, c.rank - 9) for c in board.front if _single(c, board.front)) / 6
    # Fill the front last: an early front is hard to keep below the middle.
    score -= 0.3 * max(0, len(board.front) - len(board.middle) + 1)
    return score


def _single(card: FrenchCard, row: tuple[FrenchCard, ...]) -> bool:
    return sum(1 for c in row if c.rank == card.rank) == 1


def _draws(row: tuple[FrenchCard, ...], weight: float) -> float:
    """Credit for flush and straight draws still possible in a 5-card row."""
    if not row or len(row) == ROW_SIZE["back"]:
        return 0.0
    bonus = 0.0
    if len({c.suit for c in row}) == 1 and len(row) >= 2:
        bonus += 0.7 * len(row)
    ranks = {c.rank for c in row}
    if len(ranks) == len(row) >= 2:
        high = {14 if r == 1 else r for r in ranks}
        low = {1 if r == 14 else r for r in ranks}
        if max(high) - min(high) <= 4 or max(low) - min(low) <= 4:
            bonus += 0.4 * len(row)
    return weight * bonus
