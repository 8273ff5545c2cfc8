"""The strong bot: each placement judged by running the rest of the hand out many times, from its own view only.

* **Fantasyland hand:** the board worth the most in expected points (:mod:`games.ofc.bot_fantasyland`):
  royalties, staying at its expected worth, and each row's chances against a typical opponent.
* **Last street:** every legal placement is tried; the best finished board by :meth:`Valuer.final` wins (exact,
  nothing is left to chance).
* **Earlier streets:** the placements that leave a clean finish possible (the exact check of
  :mod:`games.ofc.reach`) are ranked by the quick partial-board score and the best :data:`CANDIDATES` are kept.
  Each is then run out over the same random draws of the cards the seat has not seen (the pack minus its own
  board, hand and discards and every card it can see on the table): the streets in between are placed by the
  quick score, the last one exactly, and the finished board valued. Successive halving spends the draws: after
  each round the worse half of the candidates is dropped, so the close calls get the most run-outs. When one
  card is all that is still to come (variant a), every unseen card is tried once instead: exact.

The search is bounded by a count of boards evaluated, never by the clock, so the same view, legal actions and
random state always give the same placement. :data:`UNITS_PER_MS` converts ``budget_ms`` into that count; it was
measured on the project's 2-core machine (``bench/bench_bots_ofc.py``), and the default budget keeps p99 under
200 ms there.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from games.core.actions import Action, LegalAction
from games.core.cards import FrenchCard
from games.ofc.actions import Place, placements_in
from games.ofc.aids import unseen_cards
from games.ofc.board import ROWS
from games.ofc.bot_fantasyland import best_board
from games.ofc.bot_value import Rows, Valuer
from games.ofc.eval import card_index, index_card
from games.ofc.reach import Unseen, can_finish
from games.ofc.views import OFCSeatView

DEFAULT_BUDGET_MS = 70.0
"""Search budget of one decision by default (the candidate preparation comes on top): p50 about 55 ms and p99
about 100 ms over every rule set on the reference machine lightly loaded (``bench/bench_bots_ofc.py``), leaving
room for a busy machine under the 200 ms allowed."""
UNITS_PER_MS = 600.0
"""Placements evaluated in run-outs per millisecond on the reference machine, lightly loaded (580 to 710 by
rule set)."""
CALL_UNITS = 6
"""What one street of a run-out costs beyond its placements, in placements."""
CANDIDATES = 16
"""Placements that go on to the run-outs."""


def strong(
    view: OFCSeatView,
    legal: Sequence[LegalAction],
    rng: random.Random,
    *,
    budget_ms: float = DEFAULT_BUDGET_MS,
    effort: float = 1.0,
) -> Action:
    """The strong bot's action for ``view``, searching ``effort`` times its budget (less when the bot is busy)."""
    if view.fantasyland_hand:
        return fantasyland_place(view)
    places = placements_in(legal)
    if not places:
        raise ValueError("no legal action to choose from")
    return _decide(view, places, rng, budget_ms * effort)


def fantasyland_place(view: OFCSeatView) -> Place:
    """The board worth the most in expected points (:func:`games.ofc.bot_fantasyland.best_board`)."""
    front, middle, back, thrown = best_board(view.to_place, Valuer(view.rules, in_fantasyland=True))
    return Place.of({"front": front, "middle": middle, "back": back}, thrown)


def future_streets(view: OFCSeatView) -> list[tuple[int, int]]:
    """(cards dealt, cards discarded) of the seat's streets after this one."""
    after = sum(1 for r in ROWS for c in view.board.row(r) if c is not None) + len(view.to_place) - view.discard
    out: list[tuple[int, int]] = []
    kept = 0
    for dealt, discard in view.rules.streets():
        if kept >= after:
            out.append((dealt, discard))
        kept += dealt - discard
    return out


def _rows_after(rows: Rows, place: Place) -> Rows:
    f, m, b = rows
    return (
        f + tuple(card_index(c) for c in place.to("front")),
        m + tuple(card_index(c) for c in place.to("middle")),
        b + tuple(card_index(c) for c in place.to("back")),
    )


def _decide(view: OFCSeatView, places: Sequence[Place], rng: random.Random, budget_ms: float) -> Place:
    valuer = Valuer(view.rules)
    board = view.full_board()
    rows: Rows = (
        tuple(card_index(c) for c in board.front),
        tuple(card_index(c) for c in board.middle),
        tuple(card_index(c) for c in board.back),
    )
    after = [_rows_after(rows, p) for p in places]
    future = future_streets(view)
    if not future or all(len(a[0]) == 3 and len(a[1]) == 5 and len(a[2]) == 5 for a in after):
        values = [valuer.final_rows(a) for a in after]
        return _pick(places, values, rng)
    dealt = set(view.to_place)
    unseen = [c for c in unseen_cards(view) if c not in dealt]
    pool = [card_index(c) for c in unseen]
    candidates = _shortlist(places, after, valuer, unseen)
    if len(candidates) == 1:
        return places[candidates[0]]
    means = _run_outs([after[i] for i in candidates], future, pool, valuer, rng, budget_ms)
    return _pick([places[i] for i in candidates], means, rng)


def _pick(places: Sequence[Place], values: Sequence[float], rng: random.Random) -> Place:
    top = max(values)
    best = [p for p, v in zip(places, values, strict=True) if v >= top - 1e-9]
    return best[0] if len(best) == 1 else rng.choice(best)


def _shortlist(places: Sequence[Place], after: Sequence[Rows], valuer: Valuer, unseen: list[FrenchCard]) -> list[int]:
    """The best :data:`CANDIDATES` placements by the quick score among those that keep a clean finish possible
    (all of them, best first, when none does)."""
    memo: dict[tuple[int, tuple[int, ...]], tuple[int, float]] = {}
    scored = sorted(range(len(places)), key=lambda i: (-valuer.partial(after[i], memo), i))
    pool = Unseen(unseen)
    out: list[int] = []
    for i in scored:
        f, m, b = after[i]
        if can_finish(
            tuple(index_card(c) for c in f),
            tuple(index_card(c) for c in m),
            tuple(index_card(c) for c in b),
            pool,
            valuer.strict,
        ):
            out.append(i)
            if len(out) == CANDIDATES:
                break
    return out or scored[:CANDIDATES]


def _run_outs(
    starts: Sequence[Rows],
    future: Sequence[tuple[int, int]],
    pool: Sequence[int],
    valuer: Valuer,
    rng: random.Random,
    budget_ms: float,
) -> list[float]:
    """Mean run-out value of each start, by successive halving over common random draws."""
    need = sum(d for d, _ in future)
    budget = max(1.0, budget_ms * UNITS_PER_MS)
    alive = list(range(len(starts)))
    sums = [0.0] * len(starts)
    counts = [0] * len(starts)
    rounds = max(1, math.ceil(math.log2(len(starts))))
    per_round = budget / rounds
    spent = round_spent = 0.0
    exhaustive = list(_each_card(pool)) if future == [(1, 0)] else None
    draws = 0
    while True:
        if exhaustive is not None:
            if draws == len(exhaustive):
                break
            draw = exhaustive[draws]
        else:
            draw = rng.sample(pool, need)
        draws += 1
        used = 0
        for i in alive:
            value, units = _run_out(starts[i], future, draw, valuer)
            sums[i] += value
            counts[i] += 1
            used += units
        spent += used
        round_spent += used
        if exhaustive is not None:
            continue
        if spent >= budget:
            break
        if round_spent >= per_round and len(alive) > 2:
            alive.sort(key=lambda i: -sums[i])
            alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
            round_spent = 0.0
    return [sums[i] / counts[i] if i in alive else -1e9 for i in range(len(starts))]


def _each_card(pool: Sequence[int]) -> list[list[int]]:
    return [[c] for c in pool]


def _run_out(rows: Rows, future: Sequence[tuple[int, int]], draw: Sequence[int], valuer: Valuer) -> tuple[float, int]:
    """The finished board's value when ``draw`` comes street by street: streets in between placed by the quick
    score, the last one exactly; and the boards evaluated."""
    pos = 0
    units = 0
    last = len(future) - 1
    for k, (dealt, discard) in enumerate(future):
        cards = tuple(draw[pos : pos + dealt])
        pos += dealt
        if k == last:
            value, tried = valuer.best_finish(rows, cards, discard)
            return value, units + tried + CALL_UNITS
        rows, tried = valuer.best_partial(rows, cards, discard)
        units += tried + CALL_UNITS
    return valuer.final_rows(rows), units + 1
