"""One conformance suite for every registered game (and the test toy), after OpenSpiel's random-play tests.

Each game is played many times with random house rules (drawn from its rules model), random seat counts and
stacks, fresh seeds from a seeded source, and random legal actions (or the game's own bot policy). After every
action the suite checks the engine contract:

* ``to_act`` is a set of real seats; a seat not in it has no legal actions; a seat in it has some;
* every listed action round-trips through the game's codec and is accepted by ``refusal``;
* random illegal actions (out of turn, amounts outside their range, other verbs, garbage text) raise
  ``IllegalAction`` and leave ``vars(engine)`` deep-equal to a copy taken before;
* each deal's deltas sum to 0; the stacks always sum to the same total, never go negative, and equal the
  opening stacks plus every deal's deltas;
* no card in ``hidden_from(seat)`` appears in ``view(seat)``, nor one in ``hidden_from(None)`` in ``public_view()``;
* the game ends within a step bound; replaying ``record_of`` (through JSON) rebuilds the same results, stacks
  and views, mid-game as well as at the end; fresh seeds replayed as a seed source give the same game;
* a snapshot taken mid-game (through JSON) restores an engine equal to the original in every attribute, view
  and legal action, and replaying the rest of the game from it gives the same results and final state;
* ``apply`` returns events: one ``DealEnded`` per finished deal with its deltas, ``GameEnded`` exactly when
  the game ends, and (full games, checked as each event is emitted) no event shows a card hidden from a seat
  that may see the event;
* a seat that acts and must act again, or comes to act, starts a new decision (``decision_id``).

* every shuffle is of ``spec.deck(rules)``, the deck ``/verify`` reshuffles to show players a seed's order;
* in games played by the game's normal bot, every action it picks is legal (every level's picks: ``test_bot_levels.py``).

One game in ``FULL_EVERY`` does all of that after every single action. The others, the quick games, check chips
and turns after every action, views when a deal ends and on a sample of steps, illegal actions once the game is
over, and replay one game in ``QUICK_REPLAY_EVERY``: the checks cost far more than the engines, and many cheaper
games cover more house rules and situations.

Scale with ``FUDABA_CONFORMANCE_GAMES`` (games per game id; defaults below) and
``FUDABA_CONFORMANCE_FULL_EVERY`` (1 makes every game a full one), change the run with
``FUDABA_CONFORMANCE_SEED``, and rerun one failing game with ``FUDABA_CONFORMANCE_ONLY=<game>:<index>``
(every failure message prints that, plus the table record so far, which ``python -m games replay`` reads).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import os
import random
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import toy_highcard
from registered import real_games, with_toy

import games.registry
from games.core.actions import Action, ActionFamily, AmountRange, LegalAction, is_listed
from games.core.cards import FrenchCard, KabuCard, LukFuCard
from games.core.engine import Engine, iter_cards
from games.core.errors import IllegalAction, NotationError
from games.core.events import DealEnded, Event, GameEnded
from games.core.house_rules import RuleError, RuleOption, options, to_data, with_option
from games.core.record import TableRecord
from games.core.rng import Shuffler
from games.registry import GameSpec
from games.replay import record_of, replay

# Games per game id when FUDABA_CONFORMANCE_GAMES is not set, tuned so the whole file runs in about a minute
# on a 2-core machine; the real games cost far more per game than the toy.
DEFAULT_GAMES = {"toy_highcard": 1000, "oicho": 240, "ofc": 160, "luk_fu": 110, "hachi_hachi": 200}
FALLBACK_GAMES = 200
CHUNKS = 4
STEP_BOUND = 20_000
PROBE_RATE = 0.1
# One game in FULL_EVERY checks everything after every action; the others are quick games (see check_state).
FULL_EVERY = int(os.environ.get("FUDABA_CONFORMANCE_FULL_EVERY", "8"))
QUICK_VIEW_EVERY = 20
QUICK_REPLAY_EVERY = 4
POLICY_RATE = 0.06
SNAPSHOT_RATE = 0.1

# Games whose refusal() accepts some actions legal_actions() does not list, and why. Everything else must list
# every action it accepts (the bot builds its buttons from the list).
ACCEPTS_UNLISTED: dict[str, str] = {}

BASE_SEED = os.environ.get("FUDABA_CONFORMANCE_SEED", "fudaba")
ONLY = os.environ.get("FUDABA_CONFORMANCE_ONLY", "")


def all_specs() -> list[GameSpec]:
    return list(with_toy().values())


def games_for(spec: GameSpec) -> int:
    raw = os.environ.get("FUDABA_CONFORMANCE_GAMES")
    return int(raw) if raw else DEFAULT_GAMES.get(spec.id, FALLBACK_GAMES)


@pytest.fixture
def registry_with_toy(monkeypatch: pytest.MonkeyPatch) -> None:
    specs = with_toy()
    monkeypatch.setattr(games.registry, "all_games", lambda: specs)


# ---------------------------------------------------------------- random set-up


def random_value(opt: RuleOption, rng: random.Random) -> str:
    """A value the option's own description allows (the model may still refuse the combination)."""
    if opt.kind == "bool":
        return rng.choice(["true", "false"])
    if opt.kind == "choice":
        return rng.choice(opt.choices)
    if opt.kind == "set":  # a few members, often none (Hachi-Hachi's Ōba and Zetsuba ranks)
        return ",".join(rng.sample(opt.choices, rng.randint(0, 3))) or "none"
    default = int(opt.default)
    lo = opt.lo if opt.lo is not None else min(0, default)
    # Unbounded (or widely bounded) numbers stay near the default, so games keep a sensible length.
    hi = max(lo, default * 2 + 1, lo + 5)
    if opt.hi is not None:
        hi = min(hi, opt.hi)
    roll = rng.random()
    if roll < 0.1:
        return str(lo)
    if roll < 0.2 and opt.hi is not None and opt.hi - lo <= 100:
        return str(opt.hi)  # the top of a narrow range (multipliers, card counts) is where edge cases live
    return str(rng.randint(lo, hi))


def random_rules(spec: GameSpec, rng: random.Random) -> Any:
    rules = spec.rules_model()
    if rng.random() < 0.2:
        return rules
    opts = options(spec.rules_model)
    rng.shuffle(opts)
    for opt in opts:
        if rng.random() < 0.5:
            # The model may refuse a combination (a validator, or a bound the option list cannot show).
            with contextlib.suppress(RuleError):
                rules = with_option(rules, opt.path, random_value(opt, rng))
    return rules


def random_stacks(spec: GameSpec, rules: Any, rng: random.Random) -> list[int]:
    lo, hi = spec.seat_range(rules)
    assert 1 <= lo <= hi, f"seat_range {lo, hi}"
    start = spec.starting_chips(rules)
    stacks = []
    for _ in range(rng.randint(lo, hi)):
        roll = rng.random()
        stacks.append(start if roll < 0.5 else rng.randint(1, 2 * start) if roll < 0.8 else rng.randint(1, 5))
    return stacks


def random_legal(legal: list[LegalAction], rng: random.Random) -> Action:
    item = rng.choice(legal)
    if isinstance(item, AmountRange):
        roll = rng.random()
        amount = item.lo if roll < 0.2 else item.hi if roll < 0.4 else rng.randint(item.lo, item.hi)
        return item.make(amount)
    if isinstance(item, ActionFamily):
        return item.example if rng.random() < 0.3 else item.sample(rng)
    return item


def _near_misses(example: Action, spec: GameSpec, rng: random.Random) -> Iterator[Action]:
    """Actions a few keystrokes away from a family's member: an argument dropped, one repeated, one argument's
    ``:suffix`` (an OFC row) changed to another's, the arguments reordered (which may well still be legal)."""
    verb, *args = example.text.split()
    variants: list[list[str]] = []
    if args:
        variants += [args[:-1], [*args, rng.choice(args)], rng.sample(args, len(args))]
        suffixed = [i for i, a in enumerate(args) if ":" in a]
        if len(suffixed) > 1:
            i, j = rng.sample(suffixed, 2)
            moved = list(args)
            moved[i] = moved[i].split(":")[0] + ":" + moved[j].split(":")[1]
            variants.append(moved)
    for words in variants:
        try:
            yield spec.codec.parse(" ".join([verb, *words]))
        except NotationError:
            continue


def illegal_candidates(engine: Engine[Any], spec: GameSpec, rng: random.Random) -> Iterator[tuple[int, Action]]:
    """Actions to try that are probably, but not certainly, illegal (the caller checks with is_listed)."""
    seats = engine.seats
    acting = sorted(engine.to_act())
    some_legal: list[Action] = []
    for seat in acting:
        for item in engine.legal_actions(seat):
            if isinstance(item, AmountRange):
                some_legal.append(item.make(item.lo))
                for amount in (item.lo - 1, item.hi + 1, item.hi + rng.randint(2, 10**6), -rng.randint(1, 10**6)):
                    yield seat, item.make(amount)
            elif isinstance(item, ActionFamily):
                some_legal.append(item.example)
                for action in _near_misses(item.example, spec, rng):
                    yield seat, action
            else:
                some_legal.append(item)
    waiting = [s for s in range(seats) if s not in acting]
    for action in rng.sample(some_legal, min(3, len(some_legal))):
        if waiting:
            yield rng.choice(waiting), action
        yield rng.choice([-1, seats, seats + 7]), action
    seat = rng.choice(acting) if acting else rng.randrange(seats)
    tokens = ["0", "1", "2", "4", "5", "-1", "99", "1000000", "x", "As", "7", "front", "1:2", "As:f", "2c:x", "Kd:b"]
    # Legal actions with one argument dropped, repeated or replaced: near misses an engine must still refuse.
    for action in rng.sample(some_legal, min(4, len(some_legal))):
        verb, *args = action.text.split()
        if args:
            k = rng.randrange(len(args))
            for mutated in (
                args[:k] + args[k + 1 :],
                [*args, args[k]],
                [*args[:k], rng.choice(tokens), *args[k + 1 :]],
            ):
                try:
                    parsed = spec.codec.parse(" ".join([verb, *mutated]))
                except NotationError:
                    continue
                yield (rng.choice(acting) if acting else 0), parsed
    texts = [
        " ".join([verb, *(rng.choice(tokens) for _ in range(arity))]) for verb in spec.codec.verbs for arity in range(4)
    ]
    for _ in range(3):
        texts.append(" ".join(rng.choice([*spec.codec.verbs, *tokens, "💥", "\x00"]) for _ in range(rng.randint(0, 4))))
    for text in texts:
        try:
            parsed = spec.codec.parse(text)
        except NotationError:
            continue  # the codec refuses garbage cleanly; anything else it raises fails the test
        yield seat, parsed


# ---------------------------------------------------------------- fast card collection

_CARD_TYPES = (FrenchCard, KabuCard, LukFuCard)
_LEAVES = frozenset({int, str, bool, float, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {}


def cards_in(view: object) -> list[Any]:
    """What ``games.core.engine.iter_cards`` yields, in the same order, without recursive generators.

    iter_cards dominated the run time; this is checked against it on a sample of views so the two cannot drift.
    """
    out: list[Any] = []
    stack = [view]
    pop, push = stack.pop, stack.append
    while stack:
        obj = pop()
        kind = type(obj)
        if kind in _LEAVES:
            continue
        if isinstance(obj, _CARD_TYPES):
            out.append(obj)
        elif kind is list or kind is tuple:
            stack.extend([x for x in reversed(obj) if type(x) not in _LEAVES])
        elif isinstance(obj, dict):
            for k, v in reversed(obj.items()):
                if type(v) not in _LEAVES:
                    push(v)
                if type(k) not in _LEAVES:
                    push(k)
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(reversed(list(obj)))
        else:
            names = _FIELDS.get(kind)
            if names is None:
                is_view = dataclasses.is_dataclass(obj) and not isinstance(obj, type)
                names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(obj)) if is_view else ()
            stack.extend([getattr(obj, n) for n in reversed(names)])
    return out


# ---------------------------------------------------------------- deep equality


def first_difference(a: Any, b: Any, path: str = "engine", seen: set[tuple[int, int]] | None = None) -> str | None:
    """Where ``a`` and ``b`` differ structurally, or ``None`` (objects without ``__eq__`` compared by their vars)."""
    seen = set() if seen is None else seen
    if (id(a), id(b)) in seen:
        return None
    seen.add((id(a), id(b)))
    if type(a) is not type(b):
        return f"{path}: type {type(a).__name__} != {type(b).__name__}"
    with contextlib.suppress(Exception):
        if a == b and not isinstance(a, random.Random):
            return None  # fast path; objects that only compare by identity fall through to a structural look
    if isinstance(a, random.Random):
        return None if a.getstate() == b.getstate() else f"{path}: random state"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path}: keys {list(a)} != {list(b)}"
        for key in a:
            if found := first_difference(a[key], b[key], f"{path}[{key!r}]", seen):
                return found
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if found := first_difference(x, y, f"{path}[{i}]", seen):
                return found
        return None
    if isinstance(a, types.MethodType):
        if a.__func__ is not b.__func__:
            return f"{path}: another method"
        return first_difference(a.__self__, b.__self__, f"{path}.__self__", seen)
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        for f in dataclasses.fields(a):
            if found := first_difference(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}", seen):
                return found
        return None
    if hasattr(a, "__dict__") and not isinstance(a, type) and not callable(a) and type(a).__eq__ is object.__eq__:
        return first_difference(vars(a), vars(b), path, seen)
    return None if a == b else f"{path}: {a!r} != {b!r}"


# ---------------------------------------------------------------- one game


@dataclass
class Stats:
    games: int = 0
    full_games: int = 0
    steps: int = 0
    deals: int = 0
    probes: int = 0
    refused: int = 0
    accepted_unlisted: int = 0
    policy_games: int = 0
    cards_seen_in_views: int = 0
    views_checked: int = 0
    hidden_checked: int = 0
    events: int = 0
    private_events: int = 0
    snapshots: int = 0
    round_tripped: set[Action] = field(default_factory=set, repr=False)


@dataclass
class Game:
    """One random game under test, with what is needed to explain a failure."""

    spec: GameSpec
    index: int
    rules: Any
    stacks: list[int]
    engine: Engine[Any]
    base: TableRecord
    seeds_given: list[str]
    decks: list[list[Any]]
    """The canonical deck the engine handed to each shuffle."""

    def describe(self) -> str:
        try:
            record = record_of(self.engine, self.base).dumps()
        except Exception as exc:  # the record itself may be what is broken
            record = f"<record_of failed: {exc!r}>"
        return (
            f"{self.spec.id} game #{self.index}: rerun with FUDABA_CONFORMANCE_SEED={BASE_SEED} "
            f"FUDABA_CONFORMANCE_ONLY={self.spec.id}:{self.index}\n"
            f"stacks={self.stacks} rules={to_data(self.rules)}\nrecord so far: {record}"
        )


def new_game(spec: GameSpec, index: int) -> tuple[Game, random.Random]:
    rng = random.Random(f"{BASE_SEED}:{spec.id}:{index}")
    seed_rng = random.Random(f"{BASE_SEED}:{spec.id}:{index}:seeds")
    seeds_given: list[str] = []

    def seed_source() -> str:
        seeds_given.append(seed_rng.randbytes(32).hex())
        return seeds_given[-1]

    rules = random_rules(spec, rng)
    assert spec.rules_model.model_validate(to_data(rules)) == rules, "rules must survive their JSON form"
    stacks = random_stacks(spec, rules, rng)
    shuffler = Shuffler(seed_source=seed_source)
    decks: list[list[Any]] = []
    plain_shuffle = shuffler.shuffle

    def shuffle_and_note(canonical: Any, parse: Any, *, deal: int, purpose: str = "deal") -> Any:
        decks.append(list(canonical))
        return plain_shuffle(canonical, parse, deal=deal, purpose=purpose)

    shuffler.shuffle = shuffle_and_note  # type: ignore[method-assign]
    engine = spec.engine(rules, stacks, shuffler)
    base = TableRecord(game=spec.id, rules=to_data(rules), stacks=list(stacks), stake=rng.randint(1, 3))
    return Game(spec, index, rules, stacks, engine, base, seeds_given, decks), rng


def check_state(game: Game, stats: Stats, seen_results: int, *, full: bool = True) -> int:
    """The per-step invariants; returns how many results have been checked.

    ``full=False`` (the quick games) skips re-checking every listed action and looks at the views only when a
    deal has just ended, and on a random sample of steps.
    """
    engine, spec = game.engine, game.spec
    seats = engine.seats
    acting = engine.to_act()
    assert isinstance(acting, frozenset), "to_act() returns a frozenset"
    assert acting <= set(range(seats)), f"to_act() names seats that do not exist: {acting}"
    for seat in range(seats):
        legal = engine.legal_actions(seat)
        if seat not in acting:
            assert legal == [], f"seat {seat} is not to act but has legal actions {legal}"
            continue
        assert legal, f"seat {seat} must act but has no legal action"
        if not full:
            continue
        for item in legal:
            if isinstance(item, AmountRange):
                assert item.lo <= item.hi, f"empty amount range {item}"
                samples = [item.make(item.lo), item.make(item.hi)]
            elif isinstance(item, ActionFamily):
                samples = [item.example, item.sample(random.Random(len(stats.round_tripped)))]
                assert all(item.allows(a) for a in samples), f"a family does not allow its own members {samples}"
            else:
                samples = [item]
            for action in samples:
                if action not in stats.round_tripped:
                    assert spec.codec.parse(action.text) == action, f"{action.text!r} does not round-trip"
                    stats.round_tripped.add(action)
                assert engine.refusal(seat, action) is None, f"listed action {action.text!r} is refused"
    # chips
    assert all(s >= 0 for s in engine.stacks), f"negative stack: {engine.stacks}"
    assert engine.pot_total() >= 0, f"negative pot: {engine.pot_total()}"
    assert sum(engine.stacks) + engine.pot_total() == sum(game.stacks), (
        f"chips appeared or vanished: {engine.stacks} + pot {engine.pot_total()}"
    )
    for result in engine.results[seen_results:]:
        assert len(result.deltas) == seats, f"deal {result.deal}: {len(result.deltas)} deltas for {seats} seats"
        assert sum(result.deltas) + result.pot == 0, f"deal {result.deal} does not sum to 0: {result}"
        assert 1 <= result.deal <= engine.deal_no
    stats.deals += len(engine.results) - seen_results
    expected = [s + sum(r.deltas[i] for r in engine.results) for i, s in enumerate(game.stacks)]
    assert engine.stacks == expected, f"stacks {engine.stacks} are not opening stacks + deltas {expected}"
    # hidden cards
    if not full and len(engine.results) == seen_results and len(engine.history) % QUICK_VIEW_EVERY:
        return len(engine.results)
    hidden_from_public = engine.hidden_from(None)
    public_cards: list[Any] = []
    for seat in [None, *range(seats)]:
        hidden = hidden_from_public if seat is None else engine.hidden_from(seat)
        view = engine.public_view() if seat is None else engine.view(seat)
        shown = cards_in(view)
        if stats.views_checked % 97 == 0:
            assert shown == list(iter_cards(view)), "cards_in() disagrees with iter_cards()"
        stats.views_checked += 1
        who = "the public view" if seat is None else f"seat {seat}"
        leaked = hidden.intersection(shown)
        assert not leaked, f"{who} shows hidden {sorted(leaked)}"
        if seat is None:
            public_cards = shown
        else:
            # An onlooker never knows more than a seated player.
            assert hidden <= hidden_from_public, f"{sorted(hidden - hidden_from_public)} hidden from {who} only"
            assert not hidden.intersection(public_cards), f"{who} is denied cards the public view shows"
        stats.cards_seen_in_views += len(shown)
        stats.hidden_checked += len(hidden)
    return len(engine.results)


def probe_illegal(game: Game, rng: random.Random, stats: Stats) -> None:
    engine = game.engine
    before = copy.deepcopy(vars(engine))
    for seat, action in illegal_candidates(engine, game.spec, rng):
        stats.probes += 1
        listed = 0 <= seat < engine.seats and seat in engine.to_act() and is_listed(action, engine.legal_actions(seat))
        problem = engine.refusal(seat, action)
        if listed:
            assert problem is None, f"listed action {seat}: {action.text!r} is refused: {problem}"
            continue  # it was legal after all
        if problem is None:
            assert game.spec.id in ACCEPTS_UNLISTED, f"{seat}: {action.text!r} is accepted but not listed as legal"
            stats.accepted_unlisted += 1
            copy.deepcopy(engine).apply(seat, action)  # refusal() said yes, so apply() must work
            continue
        assert isinstance(problem, IllegalAction)
        with pytest.raises(IllegalAction):
            engine.apply(seat, action)
        stats.refused += 1
        diff = first_difference(vars(engine), before)
        assert diff is None, f"refused {seat}: {action.text!r} but changed the engine at {diff}"
    seeds = game.engine.shuffler.seeds(engine.deal_no)
    if not engine.is_over and seeds:
        shown = repr(engine.public_view())
        assert not any(s in shown for s in seeds), "the public view shows the current deal's seed"


def check_replay(game: Game) -> None:
    """The record rebuilds the same engine (through JSON), and fresh seeds are reproducible."""
    engine, spec = game.engine, game.spec
    record = record_of(engine, game.base)
    again = replay(TableRecord.loads(record.dumps()))
    assert again.results == engine.results, "replayed results differ"
    assert again.stacks == engine.stacks, "replayed stacks differ"
    assert again.history == engine.history, "replayed history differs"
    assert again.to_act() == engine.to_act(), "replayed to_act differs"
    assert again.deal_no == engine.deal_no
    for seat in range(engine.seats):
        diff = first_difference(again.view(seat), engine.view(seat), f"view({seat})")
        assert diff is None, f"replayed view differs: {diff}"
    diff = first_difference(again.public_view(), engine.public_view(), "public_view()")
    assert diff is None, f"replayed view differs: {diff}"
    assert record_of(again, game.base) == record, "the replay's own record differs"
    # The same seeds handed out as fresh seeds (a live table) rather than planned (a replay) play the same game.
    seeds = iter([s.seed for s in engine.shuffler.used])
    live = spec.engine(game.rules, game.stacks, Shuffler(seed_source=lambda: next(seeds)))
    for seat, action in engine.history:
        live.apply(seat, action)
    assert live.results == engine.results, "the same seeds gave other results"
    assert live.stacks == engine.stacks


def check_event(engine: Engine[Any], event: Event, stats: Stats) -> None:
    """As an event is emitted: it shows no card hidden (at that moment) from a seat allowed to see it."""
    assert isinstance(event, Event), f"not an event: {event!r}"
    stats.events += 1
    stats.private_events += not event.public
    if event.to is not None:
        assert event.to <= set(range(engine.seats)), f"{event!r} is for seats that do not exist"
    shown = cards_in(event)
    if not shown:
        return
    for seat in [None, *range(engine.seats)]:
        if event.visible_to(seat):
            leaked = engine.hidden_from(seat).intersection(shown)
            who = "onlookers" if seat is None else f"seat {seat}"
            assert not leaked, f"{type(event).__name__} shows {who} hidden {sorted(leaked)}: {event!r}"


@contextlib.contextmanager
def events_checked(game: Game, stats: Stats) -> Iterator[None]:
    """Check every event of this game's engine as it is emitted (a class-level patch, undone afterwards)."""
    cls = type(game.engine)
    plain = cls._emit

    def emit(self: Engine[Any], event: Event) -> None:
        if self is game.engine:
            check_event(self, event, stats)
        plain(self, event)

    cls._emit = emit  # type: ignore[method-assign]
    try:
        yield
    finally:
        cls._emit = plain  # type: ignore[method-assign]


def check_action_events(
    engine: Engine[Any], seat: int, events: list[Event], results_before: int, acting_before: frozenset[int]
) -> None:
    """What ``apply`` returned agrees with what happened; decisions begin where they should."""
    new_results = engine.results[results_before:]
    ended = [e for e in events if isinstance(e, DealEnded)]
    assert [(e.deal, e.deltas) for e in ended] == [(r.deal, r.deltas) for r in new_results], (
        f"DealEnded events {ended} do not match the deals finished {new_results}"
    )
    game_ended = [e for e in events if isinstance(e, GameEnded)]
    assert len(game_ended) == (1 if engine.is_over else 0), f"GameEnded {game_ended}, over={engine.is_over}"
    if game_ended:
        assert game_ended[0].stacks == tuple(engine.stacks) and events[-1] is game_ended[0]
    assert engine.decision_id(seat) == engine.serial, f"seat {seat} acted, its decision id did not change"
    for s in engine.to_act() - acting_before:
        assert engine.decision_id(s) == engine.serial, f"seat {s} came to act, its decision id did not change"
    assert engine.serial >= len(engine.history)


@dataclass
class Snapshot:
    """A mid-game snapshot, checked again once the game is over."""

    data: dict[str, Any]
    shuffles: int
    history: int
    results: int


def take_snapshot(game: Game) -> Snapshot:
    """Snapshot through JSON; the restored engine must equal the original in every respect now."""
    engine, spec = game.engine, game.spec
    data = json.loads(json.dumps(engine.snapshot()))
    kept = list(engine.shuffler.used)
    restored = spec.restore(game.rules, data, Shuffler(planned=kept, used=list(kept), fresh=False))
    skip = Engine.SNAPSHOT_SKIP
    diff = first_difference(
        {k: v for k, v in vars(restored).items() if k not in skip},
        {k: v for k, v in vars(engine).items() if k not in skip},
        "restored",
    )
    assert diff is None, f"the restored engine differs: {diff}"
    assert restored.to_act() == engine.to_act() and restored.deal_no == engine.deal_no
    for seat in range(engine.seats):
        assert restored.legal_actions(seat) == engine.legal_actions(seat), f"legal actions of seat {seat} differ"
        assert restored.decision_id(seat) == engine.decision_id(seat)
        diff = first_difference(restored.view(seat), engine.view(seat), f"view({seat})")
        assert diff is None, f"the restored view differs: {diff}"
    diff = first_difference(restored.public_view(), engine.public_view(), "public_view()")
    assert diff is None, f"the restored public view differs: {diff}"
    assert restored.commitments() == engine.commitments(), "the restored engine lost the deal's commitments"
    return Snapshot(data, len(kept), len(engine.history), len(engine.results))


def check_from_snapshot(game: Game, snap: Snapshot) -> None:
    """A record starting from the snapshot (through JSON) replays the rest of the game to the same end."""
    engine = game.engine
    record = record_of(engine, game.base)
    from_snapshot = TableRecord(
        game=record.game,
        rules=record.rules,
        stacks=record.stacks,
        seats=record.seats,
        stake=record.stake,
        shuffles=record.shuffles,
        actions=record.actions[snap.history :],
        snapshot={"state": snap.data, "used": snap.shuffles},
    )
    again = replay(TableRecord.loads(from_snapshot.dumps()))
    assert again.results == engine.results[snap.results :], "results from the snapshot differ"
    assert again.stacks == engine.stacks and again.to_act() == engine.to_act()
    for seat in range(engine.seats):
        diff = first_difference(again.view(seat), engine.view(seat), f"view({seat})")
        assert diff is None, f"the view replayed from the snapshot differs: {diff}"


def play(spec: GameSpec, index: int, stats: Stats, *, full: bool = True) -> None:
    game, rng = new_game(spec, index)
    try:
        play_checked(game, rng, stats, full=full)
    except Exception as exc:
        raise AssertionError(f"{type(exc).__name__}: {exc}\n{game.describe()}") from exc


def play_checked(game: Game, rng: random.Random, stats: Stats, *, full: bool) -> None:
    engine, spec = game.engine, game.spec
    use_policy = rng.random() < POLICY_RATE
    stats.games += 1
    stats.full_games += full
    stats.policy_games += use_policy
    replay_at = rng.randint(1, 60) if full else -1
    snapshot_rate = SNAPSHOT_RATE if full or game.index % QUICK_REPLAY_EVERY == 1 else 0.0
    snap: Snapshot | None = None
    checked = check_state(game, stats, 0, full=full)
    for event in engine.drain_events():
        assert isinstance(event, Event)
    with events_checked(game, stats) if full else contextlib.nullcontext():
        steps, snap = play_steps(
            game,
            rng,
            stats,
            full=full,
            use_policy=use_policy,
            replay_at=replay_at,
            snapshot_rate=snapshot_rate,
            checked=checked,
        )
    stats.steps += steps
    if snap is not None:
        check_from_snapshot(game, snap)
        stats.snapshots += 1
    # /verify shows a seed's deck order by shuffling spec.deck(rules): it must be the deck the engine shuffled.
    canonical = list(spec.deck(game.rules))
    assert all(deck == canonical for deck in game.decks), "the engine shuffled another deck than spec.deck(rules)"
    assert game.seeds_given == [s.seed for s in engine.shuffler.used], "every fresh seed is recorded, in order"
    probe_illegal(game, rng, stats)  # at game over everything is illegal
    if full or game.index % QUICK_REPLAY_EVERY == 0:
        check_replay(game)


def play_steps(
    game: Game,
    rng: random.Random,
    stats: Stats,
    *,
    full: bool,
    use_policy: bool,
    replay_at: int,
    snapshot_rate: float,
    checked: int,
) -> tuple[int, Snapshot | None]:
    engine, spec = game.engine, game.spec
    snap: Snapshot | None = None
    steps = 0
    while not engine.is_over:
        steps += 1
        assert steps <= STEP_BOUND, f"no end after {STEP_BOUND} actions"
        if full and rng.random() < PROBE_RATE:
            probe_illegal(game, rng, stats)
        seat = rng.choice(sorted(engine.to_act()))
        legal = engine.legal_actions(seat)
        if use_policy:
            action = spec.policies["normal"](engine.view(seat), legal, rng)
            assert is_listed(action, legal), f"the policy chose {action.text!r}, not among {legal}"
        else:
            action = random_legal(legal, rng)
        results_before, acting_before = len(engine.results), engine.to_act()
        events = engine.apply(seat, action)
        check_action_events(engine, seat, events, results_before, acting_before)
        checked = check_state(game, stats, checked, full=full)
        if steps == replay_at:
            check_replay(game)
        if snap is None and not engine.is_over and rng.random() < snapshot_rate:
            snap = take_snapshot(game)
    return steps, snap


# ---------------------------------------------------------------- the tests


def cases() -> list[Any]:
    out = []
    for spec in all_specs():
        for chunk in range(CHUNKS):
            out.append(pytest.param(spec, chunk, id=f"{spec.id}-{chunk + 1}of{CHUNKS}"))
    return out


@pytest.mark.usefixtures("registry_with_toy")
@pytest.mark.parametrize(("spec", "chunk"), cases())
def test_random_games_keep_the_engine_contract(spec: GameSpec, chunk: int) -> None:
    if ONLY:
        game_id, _, index = ONLY.partition(":")
        if game_id != spec.id or int(index) % CHUNKS != chunk:
            pytest.skip(f"FUDABA_CONFORMANCE_ONLY={ONLY}")
        indices: list[int] = [int(index)]
    else:
        indices = list(range(chunk, games_for(spec), CHUNKS))
    stats = Stats()
    for index in indices:
        play(spec, index, stats, full=bool(ONLY) or (index // CHUNKS) % FULL_EVERY == 0)
    if len(indices) >= 20:
        assert stats.cards_seen_in_views > 0, "no card ever appeared in a view: the leak check would prove nothing"
        assert stats.hidden_checked > 0, "hidden_from() never named a card"
        assert stats.refused > 0, "no illegal action was ever tried"
        assert stats.deals > 0, "no deal ever finished"
        assert stats.snapshots > 0, "no snapshot was ever checked"
        assert stats.events > 0, "no event was ever checked"
    print(f"{spec.id} chunk {chunk}: {stats}")


def test_the_registry_lists_games_once_they_exist() -> None:
    games_found = real_games()
    if not games_found:
        pytest.skip("no game package yet")
    for game_id, spec in games_found.items():
        assert spec.id == game_id
        assert spec.rules_model.model_validate(to_data(spec.default_rules())) == spec.default_rules()


# ---------------------------------------------------------------- the suite catches what it should


def _broken(spec: GameSpec, break_it: Callable[[type[Any]], type[Any]]) -> GameSpec:
    return dataclasses.replace(spec, engine=break_it(spec.engine))  # type: ignore[arg-type]


def _leaky(cls: type[Any]) -> type[Any]:
    class Leaky(cls):  # type: ignore[misc, valid-type]
        def public_view(self) -> Any:
            return dataclasses.replace(super().public_view(), my_card=self.hands[0] if self.hands else None)

    return Leaky


def _sloppy(cls: type[Any]) -> type[Any]:
    class Sloppy(cls):  # type: ignore[misc, valid-type]
        def refusal(self, seat: int, action: Action) -> IllegalAction | None:
            self.bet += 0 if seat in self.to_act() else 1  # mutates before refusing
            return super().refusal(seat, action)

    return Sloppy


def _unbalanced(cls: type[Any]) -> type[Any]:
    class Unbalanced(cls):  # type: ignore[misc, valid-type]
        def _finish(self) -> None:
            super()._finish()
            self.stacks[0] += 1

    return Unbalanced


@pytest.mark.usefixtures("registry_with_toy")
@pytest.mark.parametrize(
    ("break_it", "message"),
    [(_leaky, "shows hidden"), (_sloppy, "changed the engine"), (_unbalanced, "chips appeared")],
)
def test_the_suite_catches_broken_engines(break_it: Callable[[type[Any]], type[Any]], message: str) -> None:
    spec = _broken(toy_highcard.SPEC, break_it)

    def play_many() -> None:
        for index in range(40):
            play(spec, index, Stats())

    with pytest.raises(AssertionError, match=message) as caught:
        play_many()
    assert "FUDABA_CONFORMANCE_ONLY=toy_highcard:" in str(caught.value)
