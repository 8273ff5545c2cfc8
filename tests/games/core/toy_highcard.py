"""A tiny game used only by the tests: "high card" with one bet per deal.

It exists so the core (engine base, records, replay, the conformance suite) can be exercised before,
and independently of, the real games. Rules: every seat gets one face-down card; the seat left of the
dealer may ``check`` (showdown for the ante) or ``bet N``; the others then ``call`` or ``fold`` in turn.
At showdown the highest card (rank, then suit) wins: each loser owes the winner the ante, plus the bet
if they called. Folders owe the opener the ante. Debts go through :func:`settle`, so nobody overdraws.
The table plays ``deals`` deals, or stops as soon as fewer than two seats have chips.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.actions import Action, ActionCodec, AmountRange, LegalAction
from games.core.cards import FrenchCard, french_deck, parse_french
from games.core.engine import DealResult, Engine
from games.core.errors import IllegalAction
from games.core.events import DealStarted, Event
from games.core.results import DealSummary
from games.core.rng import Shuffler
from games.core.settlement import Debt, settle
from games.registry import GameSpec, every_level


@dataclass(frozen=True)
class ToyResult(DealSummary):
    """A deal of high card: who won, the bet, and every card shown (None for a folder's)."""

    winners: tuple[int, ...]
    bet: int
    cards: tuple[str | None, ...]


class ToyRules(BaseModel):
    model_config = ConfigDict(frozen=True)

    starting_chips: int = Field(20, ge=1, le=1000)
    ante: int = Field(1, ge=0, le=5)
    max_bet: int = Field(5, ge=1, le=50)
    deals: int = Field(3, ge=1, le=8)
    seats_max: Literal[2, 3, 4] = 3
    suits_break_ties: bool = True


@dataclass(frozen=True)
class Check(Action):
    verb = "check"


@dataclass(frozen=True)
class Bet(Action):
    verb = "bet"
    amount: int


@dataclass(frozen=True)
class Call(Action):
    verb = "call"


@dataclass(frozen=True)
class Fold(Action):
    verb = "fold"


CODEC = ActionCodec([Check, Bet, Call, Fold])


@dataclass(frozen=True)
class Acted(Event):
    """A seat checked, bet, called or folded (all in the open)."""

    kind = "acted"
    seat: int
    action: str


@dataclass(frozen=True)
class CardDealt(Event):
    """A seat's face-down card: only that seat sees it."""

    kind = "card"
    seat: int
    card: FrenchCard


@dataclass(frozen=True)
class Showdown(Event):
    kind = "showdown"
    cards: tuple[FrenchCard | None, ...]


@dataclass(frozen=True)
class ToyView:
    deal: int
    dealer: int
    stacks: tuple[int, ...]
    bet: int
    called: tuple[int, ...]
    folded: tuple[int, ...]
    my_card: FrenchCard | None


class HighCard(Engine[ToyRules]):
    game_id = "toy_highcard"

    def __init__(self, rules: ToyRules, stacks: Sequence[int], shuffler: Shuffler) -> None:
        super().__init__(rules, stacks, shuffler)
        self._deal = 0
        self.dealer = -1
        self.hands: list[FrenchCard | None] = []
        self.rest: list[FrenchCard] = []
        self.turn: int | None = None
        self.bet = 0
        self.called: list[int] = []
        self.folded: list[int] = []
        self._start_deal()

    # ---------------------------------------------------------------- flow

    def _alive(self) -> list[int]:
        return [s for s in range(self.seats) if self.stacks[s] > 0]

    def _start_deal(self) -> None:
        if self._deal >= self.rules.deals or len(self._alive()) < 2:
            self.turn = None
            return
        self._deal += 1
        self.dealer = (self._deal - 1) % self.seats
        deck = self.shuffler.shuffle(french_deck(), parse_french, deal=self._deal)
        alive = set(self._alive())
        self.hands = [deck[s] if s in alive else None for s in range(self.seats)]
        self.rest = deck[self.seats :]
        self.bet = 0
        self.called = []
        self.folded = [s for s in range(self.seats) if s not in alive]
        self.turn = self._next_alive(self.dealer)
        self._emit(DealStarted(self._deal))
        for s in sorted(alive):
            card = self.hands[s]
            assert card is not None
            self._emit(CardDealt(s, card, to=frozenset({s})))

    def _next_alive(self, seat: int) -> int:
        for k in range(1, self.seats + 1):
            s = (seat + k) % self.seats
            if self.hands[s] is not None:
                return s
        raise AssertionError("no seat alive")

    def _opener(self) -> int:
        return self._next_alive(self.dealer)

    def _strength(self, seat: int) -> tuple[int, int]:
        card = self.hands[seat]
        assert card is not None
        return (card.rank, "cdhs".index(card.suit) if self.rules.suits_break_ties else 0)

    def _finish(self) -> None:
        opener = self._opener()
        contenders = [opener, *self.called] if self.bet else [s for s in range(self.seats) if s not in self.folded]
        best = max(self._strength(s) for s in contenders)
        winners = [s for s in contenders if self._strength(s) == best]
        debts: list[Debt] = []
        if len(winners) == 1:
            (winner,) = winners
            for s in contenders:
                if s != winner:
                    debts.append(Debt(s, winner, self.rules.ante + self.bet))
        for s in self.folded:
            if self.hands[s] is not None:
                debts.append(Debt(s, opener, self.rules.ante))
        deltas = settle(debts, self.stacks, first=(self.dealer + 1) % self.seats)
        for s, d in enumerate(deltas):
            self.stacks[s] += d
        shown = tuple(self.hands)
        self.hands = []
        self._emit(Showdown(shown))
        self._deal_ended(
            DealResult(
                self._deal,
                tuple(deltas),
                ToyResult(tuple(winners), self.bet, tuple(None if c is None else c.notation for c in shown)),
            )
        )
        self.rest = []
        self._start_deal()

    # ---------------------------------------------------------------- contract

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.turn is None else frozenset({self.turn})

    def legal_actions(self, seat: int) -> list[LegalAction]:
        if seat != self.turn:
            return []
        if seat == self._opener() and not self.bet:
            return [Check(), AmountRange(Bet(1), 1, self.rules.max_bet)]
        return [Call(), Fold()]

    def explain(self, seat: int, action: Action) -> IllegalAction | None:
        if isinstance(action, Bet) and action.amount > self.rules.max_bet:
            return IllegalAction("toy.bet_too_big", f"the largest bet is {self.rules.max_bet}", most=self.rules.max_bet)
        return None

    def _perform(self, seat: int, action: Action) -> None:
        self._emit(Acted(seat, action.text))
        if isinstance(action, Check):
            self._finish()
            return
        if isinstance(action, Bet):
            self.bet = action.amount
        elif isinstance(action, Call):
            self.called.append(seat)
        elif isinstance(action, Fold):
            self.folded.append(seat)
        nxt = self._next_alive(seat)
        if nxt == self._opener():
            self._finish()
        else:
            self.turn = nxt

    def _view(self, seat: int | None) -> ToyView:
        mine = self.hands[seat] if seat is not None and self.hands else None
        return ToyView(
            deal=self._deal,
            dealer=self.dealer,
            stacks=tuple(self.stacks),
            bet=self.bet,
            called=tuple(self.called),
            folded=tuple(self.folded),
            my_card=mine,
        )

    def view(self, seat: int) -> ToyView:
        return self._view(seat)

    def public_view(self) -> ToyView:
        return self._view(None)

    def hidden_from(self, seat: int | None) -> frozenset[Any]:
        hidden = {c for s, c in enumerate(self.hands) if c is not None and s != seat}
        return frozenset(hidden | set(self.rest))

    @property
    def deal_no(self) -> int:
        return self._deal


def random_policy(view: Any, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """A uniformly random legal action (amounts drawn inside their range)."""
    choice = rng.choice(list(legal))
    if isinstance(choice, AmountRange):
        return choice.make(rng.randint(choice.lo, choice.hi))
    return choice


SPEC = GameSpec(
    id=HighCard.game_id,
    name_en="High card (test toy)",
    name_ja="ハイカード（テスト用）",
    rules_model=ToyRules,
    engine=HighCard,
    codec=CODEC,
    policies=every_level(random_policy),
    seat_range=lambda rules: (2, rules.seats_max),
    deck=lambda rules: french_deck(),
    result=ToyResult,
)
