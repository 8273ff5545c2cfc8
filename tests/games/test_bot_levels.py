"""The bot levels: every game has an easy, a normal and a strong bot, and none of them peeks.

**No peeking.** For every game and level, games with random house rules and seat counts are played (seeded: the
game's bots and random legal moves); at a sample of decisions the level's policy decides once on the seat's real view
and once on the view of a copy of the engine in which every card the seat cannot see was dealt again
(:func:`games.core.redeal.redeal`: the stock, the other hands, anything face down, permuted), with the same random
seed both times. The two decisions must be the same move, and the two views the same view (a view that changes shows
something of the hidden cards). Each decision must also be legal.

What this proves of a policy: its move depends on nothing but its arguments (no engine reached by a back door, no
state kept between calls, no time budget that changes the result run to run), and its seat's view shows nothing the
seat cannot know. What a game's helper must still check by hand: the game's :data:`~games.core.redeal.PAST_FIELDS`
name every engine field that records an earlier deal as card objects (else the re-deal is refused: the public view
changes), and any new field of a seat view is built from what that seat saw.

Scale with ``FUDABA_BOT_LEVELS_DECISIONS`` (decisions per game and level; default below) and change the run with
``FUDABA_BOT_LEVELS_SEED``.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import random
import types
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

import pytest
from registered import real_games

from games.core.actions import Action, LegalAction, is_listed
from games.core.engine import Engine
from games.core.redeal import PAST_FIELDS, RedealError, redeal
from games.core.rng import Shuffler
from games.registry import DEFAULT_LEVEL, LEVELS, STRONG, GameSpec, Policy, decide, level_policies
from tests.games.test_conformance import random_legal, random_rules, random_stacks

DECISIONS = int(os.environ.get("FUDABA_BOT_LEVELS_DECISIONS", "200"))
BASE_SEED = os.environ.get("FUDABA_BOT_LEVELS_SEED", "fudaba")
SAMPLE = 0.35
"""The share of decisions checked: spread over more games, and more of each game's phases, than checking every one."""
RANDOM_MOVES = 0.25
"""The share of moves made at random while playing to the decisions: positions no bot would steer to."""

View = Callable[[Engine[Any], int], Any]


def seat_view(engine: Engine[Any], seat: int) -> Any:
    return engine.view(seat)


def positions(spec: GameSpec, seed: str) -> Iterator[tuple[Engine[Any], int]]:
    """(engine, seat to decide) at a sample of decisions of seeded games, played on by the normal bot and random
    moves after each is looked at."""
    rng = random.Random(seed)
    drive = spec.policies[DEFAULT_LEVEL]
    while True:
        seed_rng = random.Random(rng.random())
        rules = random_rules(spec, rng)
        engine = spec.engine(
            rules, random_stacks(spec, rules, rng), Shuffler(seed_source=lambda r=seed_rng: r.randbytes(32).hex())
        )
        for _ in range(3000):
            if engine.is_over:
                break
            seat = rng.choice(sorted(engine.to_act()))
            if rng.random() < SAMPLE:
                yield engine, seat
            legal = engine.legal_actions(seat)
            move = random_legal(legal, rng) if rng.random() < RANDOM_MOVES else drive(engine.view(seat), legal, rng)
            engine.apply(seat, move)


def first_difference(a: Any, b: Any, path: str = "view") -> str | None:
    """Where two views first differ (a field path), for a failure message."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} against {type(b).__name__}"
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        for f in dataclasses.fields(a):
            found = first_difference(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
            if found:
                return found
        return None
    if isinstance(a, (list, tuple)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {a!r:.120} against {b!r:.120}"


def peeks(policy: Policy, engine: Engine[Any], seat: int, seed: str, view_of: View) -> str | None:
    """What is wrong at this decision (None: nothing): the move changes when the hidden cards are dealt again, the
    view does, or the move is not legal."""
    legal = engine.legal_actions(seat)
    view = view_of(engine, seat)
    move = policy(view, legal, random.Random(seed))
    if not is_listed(move, legal):
        return f"chose {move.text!r}, which is not legal here"
    other = redeal(engine, seat, random.Random(f"{seed}:redeal"))
    other_view = view_of(other, seat)
    other_legal = other.legal_actions(seat)
    other_move = policy(other_view, other_legal, random.Random(seed))
    if other_legal != legal:
        return "the legal moves changed when the cards the seat cannot see were dealt again"
    if other_move != move:
        where = first_difference(view, other_view)
        seen = f"; the view changed too, first at {where}" if where else " (the view did not change)"
        return f"chose {move.text!r}, and {other_move.text!r} once the hidden cards were dealt again{seen}"
    if (where := first_difference(view, other_view)) is not None:
        return f"the view changed when the cards the seat cannot see were dealt again, first at {where}"
    return None


def check_level(
    spec: GameSpec, level: str, count: int, view_of: View = seat_view, policy: Policy | None = None
) -> tuple[int, list[str]]:
    """Check ``count`` decisions of ``spec``'s ``level`` bot (or of ``policy`` at the level's decisions); returns
    (decisions with a real choice, problems)."""
    policy = policy or spec.policies[level]
    problems: list[str] = []
    choices = 0
    for k, (engine, seat) in enumerate(positions(spec, f"{BASE_SEED}:{spec.id}:{level}")):
        if k >= count:
            break
        legal = engine.legal_actions(seat)
        choices += len(legal) > 1 or not all(isinstance(a, Action) for a in legal)
        problem = peeks(policy, engine, seat, f"{BASE_SEED}:{spec.id}:{level}:{k}", view_of)
        if problem is not None:
            problems.append(f"deal {engine.deal_no}, seat {seat}, decision {k}: {problem}")
    return choices, problems


GAMES = real_games()


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_level_peeks_at_the_cards_its_seat_cannot_see(game: str, level: str) -> None:
    choices, problems = check_level(GAMES[game], level, DECISIONS)
    assert not problems, f"{game} {level}: {len(problems)} of {DECISIONS} decisions:\n" + "\n".join(problems[:5])
    assert choices >= DECISIONS // 3, f"{game}: only {choices} of {DECISIONS} decisions had a choice to make"


def test_the_check_catches_a_policy_that_sees_the_hidden_cards() -> None:
    """A bot handed the whole engine's state beside its view (as a peeking one would read it) is caught at most
    decisions in every game."""

    def leaky(engine: Engine[Any], seat: int) -> Any:
        return (engine.view(seat), repr(engine.snapshot()))

    def cheat(view: Any, legal: Any, rng: random.Random) -> Action:
        return random_legal(list(legal), random.Random(view[1]))

    for game, spec in GAMES.items():
        choices, problems = check_level(spec, STRONG, 40, view_of=leaky, policy=cheat)
        assert len(problems) >= choices // 2, f"{game}: a peeking bot was caught at {len(problems)} of {choices}"


def test_the_re_deal_keeps_the_past_and_refuses_to_rewrite_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Oicho-Kabu keeps its dealer draw for the whole table: re-dealt as if it were the deal in play, the public view
    changes, which :func:`redeal` refuses."""
    engine, seat = next(positions(GAMES["oicho"], "past"))
    assert redeal(engine, seat, random.Random(1)).public_view() == engine.public_view()
    monkeypatch.setitem(PAST_FIELDS, "oicho", frozenset())
    refused = 0
    for k in range(20):  # a permutation may leave the drawn cards in place, but seldom
        try:
            redeal(engine, seat, random.Random(k))
        except RedealError:
            refused += 1
    assert refused >= 15


def test_a_re_deal_moves_hidden_cards() -> None:
    """The re-dealt engine really holds other cards where the seat cannot see (else the check proves nothing)."""
    for game, spec in GAMES.items():
        moved = 0
        for k, (engine, seat) in enumerate(positions(spec, f"moves:{game}")):
            if k >= 20:
                break
            moved += redeal(engine, seat, random.Random(k)).snapshot() != engine.snapshot()
        assert moved >= 18, f"{game}: only {moved} of 20 re-deals changed anything"


# ---------------------------------------------------------------- the registry


def test_every_game_has_the_three_levels_and_the_strong_one_is_spec_policy() -> None:
    for spec in GAMES.values():
        assert set(spec.policies) == set(LEVELS)
        assert spec.policy is spec.policies[STRONG]


def test_a_policy_module_s_policies_are_picked_up_once_it_has_them() -> None:
    def one(view: Any, legal: Any, rng: random.Random) -> Action:
        raise NotImplementedError

    def other(view: Any, legal: Any, rng: random.Random) -> Action:
        raise NotImplementedError

    def searching(view: Any, legal: Any, rng: random.Random, *, effort: float = 1.0) -> Action:
        return one(view, legal, rng)

    before = types.ModuleType("before")
    before.choose = lambda view, legal, rng: ("one", view)  # type: ignore[attr-defined]
    found = level_policies(before)
    assert found["easy"] is found["normal"] is before.choose  # type: ignore[attr-defined]
    # at the strong level it takes the effort a busy process asks for, and does the same without a search to cut
    assert found["strong"]("v", [], random.Random(0), effort=0.2) == ("one", "v")  # type: ignore[call-arg]
    after = types.ModuleType("after")
    after.choose = one  # type: ignore[attr-defined]
    after.POLICIES = {"easy": other, "normal": one, "strong": searching}  # type: ignore[attr-defined]
    assert level_policies(after) == {"easy": other, "normal": one, "strong": searching}
    spec = GAMES["oicho"]
    with pytest.raises(ValueError, match="exactly easy, normal, strong"):
        dataclasses.replace(spec, policies={"easy": one, "strong": searching})
    with pytest.raises(ValueError, match="must take effort"):
        dataclasses.replace(spec, policies={"easy": one, "normal": one, "strong": other})
    assert dataclasses.replace(spec, policies={"easy": one, "normal": one, "strong": searching})


def _calls(fn: Callable[..., Any], *args: Any) -> tuple[Any, int]:
    """``fn(*args)`` and the Python function calls it made: work counted, not timed (the machine is shared)."""
    import sys

    count = 0

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        result = fn(*args)
    finally:
        sys.setprofile(None)
    return result, count


@pytest.mark.parametrize("game", ["ofc", "luk_fu", "hachi_hachi"])
def test_a_strong_bot_asked_for_less_effort_searches_less_and_still_plays_legally(game: str) -> None:
    """A busy bot process asks its strong bots for a share of their search budget (``bot.tables.autoplay.effort``):
    they then do less work, still choose a legal move, and the same arguments still give the same move."""
    spec = GAMES[game]
    whole = part = checked = 0
    for engine, seat in positions(spec, f"effort:{game}"):
        view, legal = engine.view(seat), engine.legal_actions(seat)
        if sum(1 if isinstance(item, Action) else 2 for item in legal) < 2:
            continue  # nothing to choose: nothing is searched
        _, calls = _calls(decide, game, STRONG, view, legal, random.Random(7), 1.0)
        less, fewer = _calls(decide, game, STRONG, view, legal, random.Random(7), 0.1)
        whole, part = whole + calls, part + fewer
        assert is_listed(less, legal)
        assert decide(game, STRONG, view, legal, random.Random(7), 0.1) == less
        checked += 1
        if checked == 4:
            break
    assert checked == 4 and part < 0.6 * whole, (game, part, whole)


# ---------------------------------------------------------------- off the loop


Call = tuple[str, str, Any, list[LegalAction], random.Random]


def _decisions(count: int) -> Iterator[Call]:
    """Decisions of every game, the levels in turn, each with a random source of its own."""
    for game, spec in sorted(GAMES.items()):
        for k, (engine, seat) in enumerate(positions(spec, f"pickle:{game}")):
            if k >= count:
                break
            yield game, LEVELS[k % len(LEVELS)], engine.view(seat), engine.legal_actions(seat), random.Random(k)


def test_a_decision_pickles_to_a_worker_process() -> None:
    """What the mover hands the worker pool (:func:`games.registry.decide` by game and level, the view, the legal
    moves, the random source) pickles, and gives the same move on the other side, at every level."""
    for call in _decisions(12):
        game, level, view, legal, rng = call
        sent = pickle.loads(pickle.dumps((decide, call)))
        expected = decide(game, level, view, legal, rng)
        assert sent[0](*sent[1]) == expected, f"{game} {level}"


def test_a_strong_decision_runs_in_a_spawned_worker_process() -> None:
    """The production worker pool is spawned processes: one strong decision of each game made there."""
    calls = [(game, STRONG, view, legal) for game, _level, view, legal, _rng in _decisions(1)]
    expected = [decide(*call, random.Random(0)) for call in calls]
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(decide, *call, random.Random(0)) for call in calls]
        assert [f.result(timeout=120) for f in futures] == expected
