"""The one engine contract every game implements (after OpenSpiel's state API).

A game at a table is an :class:`Engine`: a sequence of deals played by a fixed ring of seats.

* :meth:`Engine.to_act` — the set of seats that must act now (several at once for simultaneous play);
* :meth:`Engine.legal_actions` — what a seat may do now; empty when it is not that seat's turn;
* :meth:`Engine.apply` — play an action; an illegal one raises :class:`IllegalAction` and changes nothing;
* :meth:`Engine.view` / :meth:`Engine.public_view` — what one seat, or an onlooker, may see;
* :attr:`Engine.results` — the chip result of every finished deal, in points;
* steps that are not decisions (shuffling, dealing, paying) happen inside ``apply`` by themselves;
  every shuffle goes through the injected :class:`Shuffler`, so rules + stacks + shuffles + actions
  replay to exactly the same state;
* ``apply`` returns the :mod:`events <games.core.events>` the action made happen, each with who may see it;
* :meth:`Engine.decision_id` names the decision a seat faces now, so a button made for an earlier decision
  of the same deal (an earlier trick, street or pile) is recognised as stale;
* :meth:`Engine.snapshot` / :meth:`Engine.restore` save and rebuild the whole state at any point, so a table
  restarts from its last snapshot plus the actions since, whatever its age.

``results`` and ``history`` are logs kept for the caller (tests, the replay tool); a live table trims them.
An engine's own rules never read them.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic

from typing_extensions import TypeVar  # a TypeVar with a default (PEP 696; in typing from Python 3.13)

from games.core.actions import Action, LegalAction, is_listed
from games.core.cards import FrenchCard, KabuCard, LukFuCard
from games.core.errors import IllegalAction
from games.core.events import DealEnded, Event, GameEnded
from games.core.results import DealSummary
from games.core.rng import Shuffler

R = TypeVar("R")
S = TypeVar("S", bound=DealSummary, default=DealSummary)
"""A game's result type; a plain ``DealResult`` holds any game's."""


@dataclass(frozen=True)
class DealResult(Generic[S]):
    """How one finished deal moved points between seats, and between the seats and the table's pot.

    ``deltas`` is each seat's stack change over the deal; ``pot`` the net points the deal put into the table's pot
    (negative when the pot paid out more than it took), for games whose pot outlives a deal (Hachi-Hachi
    Trick's fold fees, carried over a void round). Always ``sum(deltas) + pot == 0``; most games have no pot.
    ``detail`` is what the game says about the deal, typed: each game's :class:`~games.core.results.DealSummary`
    (``OichoResult``, ``OFCResult``, …, declared in ``games/<game>/results.py``), which the results message reads.
    """

    deal: int
    deltas: tuple[int, ...]
    detail: S
    pot: int = 0

    @property
    def summary(self) -> dict[str, Any]:
        """``detail`` as JSON: what the hand history stores and the replay tool prints (a new dict each time, over
        values shared with every other copy: read them, do not change them)."""
        return self.detail.to_json()


class Engine(ABC, Generic[R]):
    """Base of every game engine. Subclasses implement the abstract methods."""

    game_id: ClassVar[str] = ""

    def __init__(self, rules: R, stacks: Sequence[int], shuffler: Shuffler) -> None:
        if any(s < 0 for s in stacks):
            raise ValueError("stacks cannot be negative")
        self.rules = rules
        self.stacks: list[int] = list(stacks)
        self.shuffler = shuffler
        self.results: list[DealResult[Any]] = []
        self.history: list[tuple[int, Action]] = []
        self.serial = 0
        """Actions applied since the table opened (kept by snapshots, unlike ``history``)."""
        self.decisions: dict[int, int] = {}
        """The serial at which each seat's current decision began (see :meth:`decision_id`)."""
        self._events: list[Event] = []

    @property
    def seats(self) -> int:
        return len(self.stacks)

    # ----------------------------------------------------------------- contract

    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """Seats that must act now; empty once the game is over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[LegalAction]:
        """What ``seat`` may do now (empty when it is not their turn)."""

    @abstractmethod
    def _perform(self, seat: int, action: Action) -> None:
        """Carry out an action already known to be legal; must not raise."""

    @abstractmethod
    def view(self, seat: int) -> Any:
        """Everything ``seat`` may see: the public view plus their own secrets."""

    @abstractmethod
    def public_view(self) -> Any:
        """Everything an onlooker may see."""

    @abstractmethod
    def hidden_from(self, seat: int | None) -> frozenset[FrenchCard | KabuCard | LukFuCard]:
        """Cards dealt or set aside that ``seat`` (``None``: an onlooker) must not see right now.

        Used by the conformance suite to prove that no view leaks a hidden card.
        """

    @property
    @abstractmethod
    def deal_no(self) -> int:
        """The deal in progress (1-based), or the last one once the game is over."""

    @property
    def is_over(self) -> bool:
        return not self.to_act()

    # ----------------------------------------------------------------- shared behaviour

    def refusal(self, seat: int, action: Action) -> IllegalAction | None:
        """Why ``action`` by ``seat`` would be refused now, or ``None`` if it is legal.

        Engines with reasons more precise than "not listed" override :meth:`explain`.
        """
        if not 0 <= seat < self.seats:
            return IllegalAction("core.no_such_seat", f"there is no seat {seat}", seat=seat)
        if self.is_over:
            return IllegalAction("core.game_over", "the game is over")
        if seat not in self.to_act():
            return IllegalAction("core.not_your_turn", "it is not this seat's turn", seat=seat)
        if is_listed(action, self.legal_actions(seat)):
            return None
        return self.explain(seat, action) or IllegalAction(
            "core.not_allowed", f"{action.text!r} is not allowed now", action=action.text
        )

    def explain(self, seat: int, action: Action) -> IllegalAction | None:
        """A precise reason an unlisted action is refused (override per game)."""
        return None

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Play ``action`` for ``seat`` and return what happened; raises :class:`IllegalAction` and changes
        nothing if illegal."""
        problem = self.refusal(seat, action)
        if problem is not None:
            raise problem
        acting_before = self.to_act()
        pending = self._events
        self._events = []
        self._perform(seat, action)
        self.history.append((seat, action))
        self.serial += 1
        acting = self.to_act()
        # A decision begins when a seat comes to act, and whenever it acts (what it faces next, if anything,
        # is another decision): either way its earlier buttons no longer fit.
        self.decisions[seat] = self.serial
        for s in acting:
            if s not in acting_before:
                self.decisions[s] = self.serial
        if not acting:
            self._emit(GameEnded(tuple(self.stacks)))
        events = pending + self._events
        self._events = []
        return events

    def pot_total(self) -> int:
        """Points the table holds outside the stacks (a pot carried between deals); the stacks and this always
        sum to the opening stacks. Games without a pot hold nothing."""
        return 0

    def stop_result(self) -> DealResult[Any] | None:
        """If the table is stopped now, what must still move, measured from the state of the last finished deal
        (the deal in progress is void): a game holding a pot returns it to whoever paid into it. ``None``: nothing."""
        return None

    def decision_id(self, seat: int) -> int:
        """Names the decision ``seat`` faces now; it changes whenever a new decision begins for that seat."""
        return self.decisions.get(seat, 0)

    def drain_events(self) -> list[Event]:
        """Events not yet returned by ``apply``: those of the opening steps made by the constructor."""
        events, self._events = self._events, []
        return events

    def _emit(self, event: Event) -> None:
        self._events.append(event)

    def _deal_ended(self, result: DealResult[Any]) -> None:
        """Record a finished deal's result (and tell: :class:`DealEnded`)."""
        self.results.append(result)
        self._emit(DealEnded(result.deal, result.deltas))

    # ----------------------------------------------------------------- snapshots

    SNAPSHOT_SKIP: ClassVar[frozenset[str]] = frozenset({"rules", "shuffler", "results", "history", "_events"})

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (not the rules, the shuffler or the logs)."""
        from games.core.snapshot import encode

        return {name: encode(value) for name, value in vars(self).items() if name not in self.SNAPSHOT_SKIP}

    @classmethod
    def restore(cls, rules: R, state: dict[str, Any], shuffler: Shuffler) -> Engine[R]:
        """An engine in exactly the state :meth:`snapshot` saved, drawing later shuffles from ``shuffler``."""
        from games.core.snapshot import decode

        engine = cls.__new__(cls)
        engine.rules = rules
        engine.shuffler = shuffler
        engine.results = []
        engine.history = []
        engine._events = []
        for name, value in state.items():
            if name in cls.SNAPSHOT_SKIP:
                continue
            setattr(engine, name, decode(value))
        return engine

    def commitments(self) -> list[str]:
        """SHA-256 commitments of the current deal's shuffles (shown before and during the deal)."""
        return self.shuffler.commitments(self.deal_no)


def iter_cards(obj: object) -> Iterator[FrenchCard | KabuCard | LukFuCard]:
    """Every card object reachable inside a view (dataclasses, mappings, sequences)."""
    if isinstance(obj, (FrenchCard, KabuCard, LukFuCard)):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from iter_cards(getattr(obj, f.name))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from iter_cards(k)
            yield from iter_cards(v)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for item in obj:
            yield from iter_cards(item)
