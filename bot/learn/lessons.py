"""The lessons: for each game, a few coached hands, each a deal chosen to show one of its key rules.

A lesson is a **number**, not a stacked deck. Its seeds are derived from the game, the lesson and that number
(:func:`seeds`), and the table is started with them as its first shuffles (the seat draw, then the deal), exactly as
a live table's seeds are drawn: the record stores them, a restart replays them, and ``/verify`` shows them and
their commitments like any other. The number is the first one, counting from 0, whose deal has the property the
lesson teaches (:data:`Lesson.check`), found by :func:`find` (``python -m bot.learn.lessons``) and pinned here;
the tests replay each lesson with the bot playing every seat, under several bot choices, and check the property
again. A lesson's deal is thus fixed before the table opens, and anyone can confirm that its seeds are the ones
named here.

The learner sits in seat 0 (they open the table, the bots join after); the seat draw decides who deals.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core.engine import Engine
from games.core.rng import Shuffle, Shuffler
from games.registry import NORMAL, get_game

LEARNER = 0
"""The learner's seat."""
BOT_LEVEL = NORMAL
"""The level of a lesson's bots, at its table and in the search that pinned its number (the same bots, so the deal
found shows its rule at the table too). Normal: a lesson is a newcomer's first table, and its bots play the rules
of thumb the coach explains; the learner's own moves in the search are the coach's advice (the strong bot's)."""


@dataclass(frozen=True)
class Step:
    """One decision made in a simulated lesson: who, what they saw, what they could do, what they chose."""

    seat: int
    view: Any
    legal: Sequence[Any]
    action: Any
    deal: int


Check = Callable[[Sequence[Step], Engine[Any]], bool]
"""Whether a lesson played out (every decision of the deals it lasts, the engine at the end) shows its rule."""


@dataclass(frozen=True)
class Lesson:
    game: str
    id: str
    number: int
    """The pinned search result (see the module's docstring)."""
    bots: int
    """Bot players beside the learner."""
    emoji: str
    deals: int = 1
    """How many deals the lesson lasts (the table stops once they are settled)."""
    check: Check = field(default=lambda steps, engine: True, compare=False, repr=False)

    @property
    def key(self) -> str:
        return f"{self.game}.{self.id}"

    def seeds(self) -> list[str]:
        return seeds(self.game, self.id, self.number, self.deals)

    def shuffler(self) -> Shuffler:
        """The table's shuffler: this lesson's seeds first, then fresh ones (a deal after the lesson's, if any)."""
        return Shuffler(planned=[Shuffle(seed=s) for s in self.seeds()])


def seeds(game: str, lesson: str, number: int, deals: int = 1) -> list[str]:
    """The seeds of a lesson's first shuffles: the seat draw, then one per deal (each 32 bytes, as every seed)."""
    names = ["draw", *(f"deal{d}" for d in range(1, deals + 1))]
    return [hashlib.sha256(f"fudaba learn {game} {lesson} {number} {name}".encode()).hexdigest() for name in names]


# ---------------------------------------------------------------- playing a lesson offline


def simulate(
    lesson: Lesson, number: int | None = None, *, bot_seed: str = "", limit: int = 2000
) -> tuple[list[Step], Engine[Any]]:
    """The lesson's deals played through: the learner as the coach advises, the bots at :data:`BOT_LEVEL`
    (``bot_seed`` varies their random choices)."""
    from bot.learn.coach import pick as advice

    spec = get_game(lesson.game)
    bot = spec.policies[BOT_LEVEL]
    rules = spec.rules_model()
    n = lesson.number if number is None else number
    shuffler = Shuffler(planned=[Shuffle(seed=s) for s in seeds(lesson.game, lesson.id, n, lesson.deals)])
    seats = 1 + lesson.bots
    engine = spec.engine(rules, [spec.starting_chips(rules)] * seats, shuffler)
    steps: list[Step] = []
    for count in range(limit):
        if engine.is_over or engine.deal_no > lesson.deals:
            break
        seat = min(engine.to_act())
        view, legal = engine.view(seat), engine.legal_actions(seat)
        if seat == LEARNER:  # the learner as the coach advises; the bots as they play
            action = advice(lesson.game, view, legal, engine.decision_id(seat))
        else:
            action = bot(view, legal, random.Random(f"{bot_seed}:{count}:{seat}"))
        steps.append(Step(seat, view, legal, action, engine.deal_no))
        engine.apply(seat, action)
    return steps, engine


def mine(steps: Sequence[Step]) -> Iterator[Step]:
    return (s for s in steps if s.seat == LEARNER)


def find(lesson: Lesson, start: int = 0, tries: int = 2000, runs: int = 12) -> int:
    """The first number from ``start`` whose lesson shows its rule in ``runs`` plays with different bot choices."""
    for n in range(start, start + tries):
        if all(lesson.check(*simulate(lesson, n, bot_seed=f"find{r}")) for r in range(runs)):
            return n
    raise LookupError(f"no deal for {lesson.key} in {tries} tries")


# ---------------------------------------------------------------- what each lesson must show


def _oicho_draw(steps: Sequence[Step], engine: Engine[Any]) -> bool:
    """The learner is a child (not the dealer) and decides a pile on 4, 5 or 6, where drawing is a real choice."""
    decided = [s for s in mine(steps) if s.view.phase == "deciding" and not s.view.is_dealer]
    totals = [_pile_total(s.view) for s in decided]
    return bool(decided) and any(t in (4, 5, 6) for t in totals)


def _pile_total(view: Any) -> int | None:
    pile = view.piles[(view.current_pile or 1) - 1]
    if any(c is None for c in pile.cards):
        return None
    return int(sum(c.points for c in pile.cards) % 10)


def _oicho_dealer(steps: Sequence[Step], engine: Engine[Any]) -> bool:
    """The learner holds the bank and decides their own hand (draw or stand as dealer)."""
    return any(s.view.phase == "dealer" and s.view.is_dealer for s in mine(steps))


def _ofc_fouls(steps: Sequence[Step], engine: Engine[Any]) -> bool:
    """The learner's first five cards hold a high pair: tempting at the front, dangerous if the middle stays weak."""
    first = next((s for s in mine(steps)), None)
    if first is None:
        return False
    ranks = [c.rank for c in first.view.to_place]
    return any(ranks.count(r) >= 2 and r >= 10 for r in set(ranks))


def _ofc_fantasyland(steps: Sequence[Step], engine: Engine[Any]) -> bool:
    """Played as the bot plays, the learner's board enters Fantasyland."""
    result = engine.results[0].detail if engine.results else None
    return result is not None and result.fantasyland_next[LEARNER] > 0


def _luk_fu_must_beat(steps: Sequence[Step], engine: Engine[Any]) -> bool:
    """The learner follows at least once holding a beating play, and at least once holding none (face down)."""
    follows = [s for s in mine(steps) if s.view.phase == "follow"]
    return any(s.view.can_beat for s in follows) and any(not s.view.can_beat for s in follows)


def _luk_fu_old_cards(steps: Sequence[Step], engine: Engine[Any]) -> bool:
    """The learner leads, not exempt, with an old card among the singles the rule forbids."""
    return any(
        s.view.phase == "lead"
        and s.view.lead_exempt is None
        and any(reason == "old" for _card, reason in s.view.forbidden_singles)
        for s in mine(steps)
    )


def _hachi_play_or_fold(steps: Sequence[Step], engine: Engine[Any]) -> bool:
    """The learner declares Play and plays out the tricks (a choice with a fee on the other side)."""
    declared = [s for s in mine(steps) if s.view.phase == "declare" and s.action.verb in ("play", "fold")]
    tricks = [s for s in mine(steps) if s.view.phase == "trick"]
    return any(s.action.verb == "play" and s.view.fold_fee > 0 for s in declared) and len(tricks) >= 3


def _hachi_forced_out(steps: Sequence[Step], engine: Engine[Any]) -> bool:
    """The learner declares Play and their Play (the third) forces the players after them out."""
    return any(
        s.view.phase == "declare"
        and s.action.verb == "play"
        and len(s.view.declarers) == 2
        and len(s.view.declarations) < len(s.view.players) - 1
        for s in mine(steps)
    )


LESSONS: tuple[Lesson, ...] = (
    Lesson("oicho", "draw", 31, bots=2, emoji="🎴", check=_oicho_draw),
    Lesson("oicho", "dealer", 5, bots=2, emoji="🏦", check=_oicho_dealer),
    Lesson("ofc", "fouls", 8, bots=1, emoji="⚠️", check=_ofc_fouls),
    Lesson("ofc", "fantasyland", 73, bots=1, emoji="🌈", deals=2, check=_ofc_fantasyland),
    Lesson("luk_fu", "must_beat", 0, bots=2, emoji="⚔️", check=_luk_fu_must_beat),
    Lesson("luk_fu", "old_cards", 5, bots=2, emoji="🀄", check=_luk_fu_old_cards),
    Lesson("hachi_hachi", "play_or_fold", 0, bots=4, emoji="🃏", check=_hachi_play_or_fold),
    Lesson("hachi_hachi", "forced_out", 3, bots=4, emoji="🚪", check=_hachi_forced_out),
)


def lessons(game: str) -> list[Lesson]:
    return [lesson for lesson in LESSONS if lesson.game == game]


def lesson(game: str, lesson_id: str | None) -> Lesson | None:
    """A game's lesson by id (its first when ``lesson_id`` is None); None when it has no such lesson."""
    found = lessons(game)
    if lesson_id is None:
        return found[0] if found else None
    return next((item for item in found if item.id == lesson_id), None)


def by_seed(seed: str) -> Lesson | None:
    """The lesson whose seat draw ``seed`` is (how a table is known to be a lesson, after a restart too)."""
    return next((item for item in LESSONS if item.seeds()[0] == seed), None)


if __name__ == "__main__":  # python -m bot.learn.lessons: search each lesson's number afresh
    for item in LESSONS:
        print(item.key, find(item))
