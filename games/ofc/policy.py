"""The OFC bots at their three levels, the normal bot itself, and the panel's 💡 hint (:func:`suggest`, the strong
bot's placement), each from its seat's view.

``POLICIES`` maps ``easy``, ``normal`` and ``strong`` to the policies of :mod:`games.ofc.bot_easy`, this module
and :mod:`games.ofc.bot_strong`; ``choose`` is the normal bot, the one every table used before there were levels.

The normal bot:

* Fantasyland: the solver's best board.
* Last street: the best complete board that does not foul (royalties, then row strength).
* Earlier streets: never a placement that makes a foul unavoidable when another exists; otherwise a
  heuristic: keep rows in order (front ≤ middle ≤ back), value pairs/trips and flush or straight
  draws in the back and middle, high cards low on the board, and front pairs that pay royalties.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from games.core.actions import Action, LegalAction
from games.core.cards import FrenchCard
from games.ofc.actions import Place, placements_in, street_placements
from games.ofc.aids import foul_status
from games.ofc.board import ROW_SIZE, ROWS, Board
from games.ofc.bot_easy import easy
from games.ofc.bot_strong import fantasyland_place, strong
from games.ofc.eval import (
    PAIR,
    TRIPS,
    RoyaltyScheme,
    card_index,
    eval3_idx,
    eval5_idx,
    eval_partial,
    eval_row,
    is_foul,
    top_rank,
)
from games.ofc.fantasyland import solve_cached
from games.ofc.reach import Unseen
from games.ofc.rules import OFCRules
from games.ofc.views import OFCSeatView
from games.registry import Policy

FOUL_VALUE = -8.0
"""What the bot counts for a fouled board (about three rows and the scoop lost to an opponent)."""
FL_ENTRY_VALUE = 8.0
"""What the bot counts for a board that enters Fantasyland."""
ROLLOUT_BUDGET = 20_000
"""Row evaluations the bot may spend on one decision's rollouts."""
SHORTLIST = 12


def normal(view: OFCSeatView, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """The normal bot's action for ``view`` (one of ``legal`` on normal streets)."""
    if view.fantasyland_hand:
        return _solver_board(view)
    places = placements_in(legal)
    if not places:
        raise ValueError("no legal action to choose from")
    return _best(view, places, rng)


def suggest(view: OFCSeatView, rng: random.Random | None = None) -> Place:
    """The panel's 💡 hint: the strong bot's placement for the seat's current cards (issue 19: hints play at the
    strong level). Its random source is drawn from the cards the seat holds and sees unless one is given, so the
    same street always gets the same hint, however often it is asked for."""
    if view.fantasyland_hand:
        return fantasyland_place(view)
    places = _placements(view.full_board(), view.to_place, view.discard)
    pick = strong(view, places, rng or hint_rng(view))
    assert isinstance(pick, Place)
    return pick


def hint_rng(view: OFCSeatView) -> random.Random:
    """The hint's random source: a function of what the seat can see, so a repeated hint is the same hint."""
    seen = " ".join(c.notation for c in (*view.full_board().cards(), *view.to_place))
    return random.Random(f"hint:{view.seat}:{seen}")


def _solver_board(view: OFCSeatView) -> Place:
    """The normal bot's Fantasyland board: the solver's, the most royalties that stay in."""
    arr = solve_cached(view.to_place, view.rules)
    return Place.of({"front": arr.front, "middle": arr.middle, "back": arr.back}, arr.discards)


def _best(view: OFCSeatView, places: Sequence[Place], rng: random.Random) -> Place:
    board = view.full_board()
    rules = view.rules
    unseen = _unseen(view)
    in_fl = view.board.fantasyland
    # Every placement is judged against the same cards (none of them the seat's own), so they are prepared
    # once for the exact foul check rather than once per placement.
    dealt = set(view.to_place)
    pool = Unseen([c for c in unseen if c not in dealt])
    scored = sorted(
        ((_score(board, p, rules, pool, in_fl), i) for i, p in enumerate(places)), key=lambda x: (-x[0], x[1])
    )
    remaining = 13 - len(board.cards()) - len(places[0].cards) + len(places[0].discards)
    if 0 < remaining <= 5 and len(scored) > 1:
        shortlist = [places[i] for s, i in scored[:SHORTLIST] if s > -500]
        if len(shortlist) > 1:
            values = _rollouts(board, shortlist, rules, unseen, in_fl, remaining, rng)
            top = max(values)
            return shortlist[values.index(top)]
    top_score = scored[0][0]
    best = [places[i] for s, i in scored if s >= top_score - 1e-9]
    return rng.choice(best)


def _unseen(view: OFCSeatView) -> list[FrenchCard]:
    from games.ofc.aids import unseen_cards

    return unseen_cards(view)


def _placements(board: Board, cards: Sequence[FrenchCard], discard: int) -> list[Place]:
    return list(
        street_placements(tuple(cards), (board.free("front"), board.free("middle"), board.free("back")), discard)
    )


def _final_value(f: int, m: int, b: int, rules: OFCRules, in_fl: bool) -> float:
    """Worth of a complete board to the bot: royalties, Fantasyland entry, row strength; a foul is costly."""
    if is_foul(f, m, b, rules.foul_on_equal):
        return FOUL_VALUE
    scheme = RoyaltyScheme.of(rules)
    value = scheme.front(f) + scheme.middle(m) + scheme.back(b) + 0.3 * ((f >> 20) + (m >> 20) + (b >> 20))
    value += (f + m + b) / (1 << 26)
    if not in_fl and (f >> 20 == TRIPS or (f >> 20 == PAIR and top_rank(f) >= _FL_RANK[rules.fl_entry_min])):
        value += FL_ENTRY_VALUE
    return value


_FL_RANK = {"QQ": 12, "KK": 13, "AA": 14}


def _score(board: Board, place: Place, rules: OFCRules, pool: Unseen, in_fl: bool) -> float:
    """The placement's worth to the bot; -500 when it makes a foul certain (``pool``: cards the seat has not seen,
    none of them its own)."""
    after = board.with_cards({r: place.to(r) for r in ROWS})
    if after.complete:
        f, m, b = (eval_row(after.row(r)) for r in ROWS)
        return _final_value(f, m, b, rules, in_fl)
    if foul_status(after, rules, pool) == "unavoidable":
        return -500.0
    return _heuristic(after, rules)


def _rollouts(
    board: Board,
    places: Sequence[Place],
    rules: OFCRules,
    unseen: Sequence[FrenchCard],
    in_fl: bool,
    remaining: int,
    rng: random.Random,
) -> list[float]:
    """Mean value of each placement over the same random run-outs, each completed as well as possible."""
    pool = [card_index(c) for c in unseen]
    cost = 3**remaining * 2 * len(places)
    runs = max(4, min(32, ROLLOUT_BUDGET // cost))
    draws = [rng.sample(pool, min(len(pool), remaining + 8)) for _ in range(runs)]
    values: list[float] = []
    for p in places:
        after = board.with_cards({r: p.to(r) for r in ROWS})
        rows = [tuple(card_index(c) for c in after.row(r)) for r in ROWS]
        used = {card_index(c) for c in p.cards}
        total = 0.0
        for draw in draws:
            extra = [c for c in draw if c not in used][:remaining]
            total += _best_completion(rows[0], rows[1], rows[2], extra, rules, in_fl)
        values.append(total / runs)
    return values


def _best_completion(
    front: tuple[int, ...],
    middle: tuple[int, ...],
    back: tuple[int, ...],
    extra: list[int],
    rules: OFCRules,
    in_fl: bool,
) -> float:
    best = FOUL_VALUE
    for fc in combinations(extra, 3 - len(front)):
        rest = [x for x in extra if x not in fc]
        fv = eval3_idx(*(front + fc))
        for mc in combinations(rest, 5 - len(middle)):
            mv = eval5_idx(*(middle + mc))
            if fv > mv:
                continue
            bv = eval5_idx(*(back + tuple(x for x in rest if x not in mc)))
            value = _final_value(fv, mv, bv, rules, in_fl)
            if value > best:
                best = value
    return best


def _heuristic(board: Board, rules: OFCRules) -> float:
    scheme = RoyaltyScheme.of(rules)
    # A full row is what it is: a straight or a flush counts (the made-pairs view would call it high card).
    pf, pm, pb = (
        eval_row(board.row(r)) if len(board.row(r)) == ROW_SIZE[r] else eval_partial(board.row(r)) for r in ROWS
    )
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


choose = normal
"""The normal bot under its old name (the registry's policy until it picks a level)."""

POLICIES: dict[str, Policy] = {"easy": easy, "normal": normal, "strong": strong}
"""The bot levels (issue 19): each reads only its seat's view, the legal actions and the random source."""
