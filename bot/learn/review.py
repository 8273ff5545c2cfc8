"""The review after a lesson: the learner's decisions that cost the most, and the better move at each.

Worked out from the table's record alone (the full log, as ``/verify`` and the replay tool read it), so it is the
same after a restart. At each of the learner's decisions in the lesson's deals, the move they made is compared with
the move the coach recommended (:func:`bot.learn.coach.pick`). Where they differ, the rest of that deal is played
twice from the decision, once after each move, with **the same cards** (the deck as it was dealt) and every seat,
the learner's included, playing on as the normal bot would; the difference in the learner's chips at the end of the deal
is what the review calls that decision's cost. It says what the decision cost *in this deal*: a move can lose here
and be right on average, or the reverse, and the review says so rather than claim more.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import t
from bot.learn.coach import coached, pick, same_move
from bot.ui.base import TableContext
from games.core.actions import Action
from games.core.engine import Engine
from games.core.record import TableRecord
from games.core.rng import Shuffler
from games.registry import NORMAL, get_game
from games.replay import start

SHOWN = 3
"""Decisions the review names (the costliest)."""
ROLLOUT_LEVEL = NORMAL
"""The bot level every seat plays on with in the rollouts. Normal, not strong: the review plays two rollouts for
each decision that differed, and strong bots searching every move of every rollout would keep a learner waiting
for minutes; the move being judged is still the strong bot's."""
ROLLOUT_LIMIT = 2000


@dataclass(frozen=True)
class Decision:
    """One decision of the learner: where it was, what they did, what the coach recommended, and what the
    difference cost in this deal (chips, None when they made the coach's move)."""

    deal: int
    number: int
    """The learner's n-th decision of the lesson (1-based)."""
    about: str
    chosen: str
    better: str
    cost: int | None


@dataclass(frozen=True)
class Review:
    decisions: tuple[Decision, ...]
    result: int
    """The learner's chips over the lesson's settled deals."""

    @property
    def differed(self) -> list[Decision]:
        return [d for d in self.decisions if d.cost is not None]

    def costliest(self) -> list[Decision]:
        """The decisions whose move cost chips in this deal, the costliest first."""
        costly = [d for d in self.differed if d.cost is not None and d.cost > 0]
        return sorted(costly, key=lambda d: (-(d.cost or 0), d.number))[:SHOWN]


def _rollout(engine: Engine[Any], game: str, rules: Any, seat: int, first: Action) -> int:
    """The learner's points at the end of the current deal after ``first``, everyone then playing as the normal bot does."""
    spec = get_game(game)
    copy = spec.restore(rules, engine.snapshot(), Shuffler(seed_source=lambda: "00" * 32))
    copy.apply(seat, first)
    for count in range(ROLLOUT_LIMIT):
        if copy.results or copy.is_over:
            break
        s = min(copy.to_act())
        strong = spec.policies[ROLLOUT_LEVEL]
        copy.apply(s, strong(copy.view(s), copy.legal_actions(s), random.Random(f"review:{count}:{s}")))
    return copy.results[0].deltas[seat] if copy.results else 0


def review(record_text: str, seat: int, deals: int, names: Sequence[str], lang: str) -> Review:
    """The review of ``seat``'s decisions in the first ``deals`` deals of the table whose full record this is."""
    record = TableRecord.loads(record_text)
    spec = get_game(record.game)
    rules = spec.rules_model.model_validate(record.rules)
    ui = coached(record.game)
    ctx = TableContext(0, list(names), record.stake, True, lang, rules)
    engine = start(record, stub_missing=True)
    decisions: list[Decision] = []
    result = 0
    for who, text in record.actions:
        if engine.deal_no > deals or engine.is_over:
            break
        action = spec.codec.parse(text)
        if who == seat:
            view, legal = engine.view(seat), engine.legal_actions(seat)
            better = pick(record.game, view, legal, engine.decision_id(seat))
            about = ui.coach(view, seat, legal, ctx, {}, better).about if ui is not None else ""
            cost = None
            if not same_move(better, action):
                cost = (
                    _rollout(engine, record.game, rules, seat, better)
                    - _rollout(engine, record.game, rules, seat, action)
                ) * record.stake
            words = ui.move_words if ui is not None else (lambda v, s, a, lg: a.text)
            decisions.append(
                Decision(
                    engine.deal_no,
                    len(decisions) + 1,
                    about,
                    words(view, seat, action, lang),
                    words(view, seat, better, lang),
                    cost,
                )
            )
        before = len(engine.results)
        engine.apply(who, action)
        for finished in engine.results[before:]:
            if finished.deal <= deals:
                result += finished.deltas[seat] * record.stake
    return Review(tuple(decisions), result)


def review_text(found: Review, lang: str) -> str:
    """The review in words: the lesson's result, the costliest decisions and the better move at each, and what the
    measure is."""
    lines = [t("learn.review_result", lang, chips=f"{found.result:+,}", count=len(found.decisions))]
    if not found.decisions:
        lines.append(t("learn.review_no_decisions", lang))
        return "\n".join(lines)
    costly = found.costliest()
    for d in costly:
        lines.append(
            t(
                "learn.review_costly",
                lang,
                deal=d.deal,
                n=d.number,
                about=d.about,
                chosen=d.chosen,
                better=d.better,
                cost=f"{d.cost:,}",
            )
        )
    free = [d for d in found.differed if d not in costly]
    if not found.differed:
        lines.append(t("learn.review_all_followed", lang))
    elif free:
        listed = ", ".join(f"#{d.number}" for d in free[:10])
        lines.append(t("learn.review_other_differed", lang, count=len(free), which=listed))
    lines.append(t("learn.review_measure", lang))
    return "\n".join(lines)
