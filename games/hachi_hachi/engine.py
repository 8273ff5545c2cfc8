"""The Hachi-Hachi Trick state machine (rules.md §3).

A deal is one round of §3.2. Seats are numbered clockwise (§0.2); declarations always go clockwise from the start
player (SP), trick play clockwise or counter-clockwise among the declarers (``trick_direction``). Only decisions
wait for a seat: Mizuten (SP, before the deal), the declarations, the two declarers' split/fight choice (both at
once, in secret) and each card of trick play. Everything else (the first-SP draw, shuffling, dealing, turning the
trump, forced-out and hand settlement, settling the round, moving SP, the next round) happens by itself inside
``apply``.

Chance steps, all through the injected shuffler:

* ``draw_sp`` (once, deal 1): the seats with chips, in seat order, each take the next card of a shuffled pack;
  the highest card (rank, then suit c < d < h < s) is the first SP. A stacked order ``"As"`` makes seat 0 SP.
* ``deal`` (once per round, as it begins, so its commitment is shown before Mizuten is decided): packets of 7
  from the top to the players in declaration order, SP first, then the trump indicator, the next card. The
  cards are dealt only once Mizuten is decided, so no one holds a card before.

Chips: ``stacks`` change only when a round ends (one :class:`DealResult` per round). During a round the fold fees
are kept in ``fees`` (each seat's "stack after fees" shows in the views); ``pot`` and ``pot_paid`` (who paid how
much into it) are as of the last finished round, so ``sum(stacks) + pot`` always equals the opening stacks. At
the round's end: this round's fees go into the pot, the pot is paid out (or carried, or refunded), and every
other payment of the round (forced-out, hand, trick, Mizuten) is added up per pair and settled once through
:func:`games.core.settlement.settle` (§0.4 cap and pro rata), each seat able to pay from its stack at the round's
start less its fee plus what it took from the pot. ``DealResult.pot`` is the pot's net change.

Rule decisions beyond rules.md are marked ``Decision:`` in comments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from games.core.actions import Action, LegalAction
from games.core.cards import SUIT_CHARS, FrenchCard, french_deck, parse_french
from games.core.engine import DealResult, Engine
from games.core.errors import IllegalAction
from games.core.events import DealStarted
from games.core.results import Payment as PaymentLine
from games.core.results import for_snapshot, read, upgraded, write
from games.core.rng import Shuffler
from games.core.settlement import Debt, settle
from games.core.snapshot import encode
from games.hachi_hachi import actions as act
from games.hachi_hachi import events as ev
from games.hachi_hachi.results import (
    Choice,
    Declaration,
    LoggedTrick,
    Outcome,
    PlayedCard,
    PotShare,
    Refund,
    RevealedHand,
    RoundResult,
    StoppedResult,
)
from games.hachi_hachi.rules import HachiHachiRules
from games.hachi_hachi.scoring import (
    Payment,
    fold_fee,
    forced_out_payments,
    hand_payments,
    mizuten_payments,
    pot_taker,
    split_pot,
    trick_payments,
)
from games.hachi_hachi.tricks import legal_cards, next_in, winning_index
from games.hachi_hachi.views import (
    HachiPublicView,
    HachiSeatView,
    RevealView,
    SeatLine,
    SeatState,
    TrickPlay,
    TrickView,
)
from games.hachi_hachi.yaku import HandValue, classify

HAND = 7
TRICKS = 7


def display_key(card: FrenchCard) -> tuple[int, int]:
    """Hands shown by suit (c, d, h, s), then rank."""
    return (SUIT_CHARS.index(card.suit), card.rank)


def _draw_key(card: FrenchCard) -> tuple[int, int]:
    return (card.rank, SUIT_CHARS.index(card.suit))


class HachiHachiEngine(Engine[HachiHachiRules]):
    """One Hachi-Hachi Trick table of 3 to 7 seats (``rules.players`` at most)."""

    game_id: ClassVar[str] = "hachi_hachi"

    def __init__(self, rules: HachiHachiRules, stacks: Sequence[int], shuffler: Shuffler) -> None:
        super().__init__(rules, stacks, shuffler)
        if not 3 <= self.seats <= rules.players:
            raise ValueError(f"Hachi-Hachi Trick is played by 3 to {rules.players} seats here, not {self.seats}")
        n = self.seats
        self._deal = 0
        self.rounds_done = 0
        """Finished rounds that count towards ``rules.rounds``."""
        self.phase = "declare"
        self.sp = 0
        self.pot = 0
        """The pot as of the last finished round."""
        self.pot_paid = [0] * n
        """Who paid how much into ``pot`` (it may hold the fees of several void rounds)."""
        self.winners: list[int] = []
        self.last_result: DealResult[RoundResult] | None = None
        # the round in progress
        self.players: list[int] = []
        self.deck: list[FrenchCard] = []
        self.hands: list[list[FrenchCard]] = [[] for _ in range(n)]
        self.dealt: list[list[FrenchCard]] = [[] for _ in range(n)]
        self.indicator: FrenchCard | None = None
        self.field = "plain"
        self.mult = 1
        self.mizuten: bool | None = None
        self.calls: list[tuple[int, str]] = []
        self.fees = [0] * n
        self.folds = 0
        self.declarers: list[int] = []
        self.forced: list[int] = []
        self.choosing: list[int] = []
        self.choices: dict[int, str] = {}
        self.split: bool | None = None
        self.reveals: list[RevealView] = []
        self.public_cards: set[FrenchCard] = set()
        """Cards of this round everyone has seen: the indicator, revealed yaku cards and Aces, played cards."""
        self.payments: list[Payment] = []
        self.trick_order: list[int] = []
        self.turn: int | None = None
        self.trick_no = 0
        self.current: list[tuple[int, FrenchCard]] = []
        self.last_trick: tuple[int, int, list[tuple[int, FrenchCard]], int] | None = None
        """(number, leader, plays, winner) of the last finished trick of this round."""
        self.tricks = [0] * n
        self.played: list[FrenchCard] = []
        self.trick_log: list[LoggedTrick] = []
        if len(self.seated()) < 3:
            # Decision: a table opened with fewer than three seats holding chips is over at once.
            self._game_over()
            return
        self._draw_start_player()
        self._start_round()

    def snapshot(self) -> dict[str, Any]:
        state = super().snapshot()
        # Results stay JSON in a snapshot (games.core.results.for_snapshot), this round's tricks too.
        state["last_result"] = encode(for_snapshot(self.last_result))
        state["trick_log"] = encode([write(t) for t in self.trick_log])
        return state

    @classmethod
    def restore(cls, rules: HachiHachiRules, state: dict[str, Any], shuffler: Shuffler) -> Engine[HachiHachiRules]:
        engine = super().restore(rules, state, shuffler)
        assert isinstance(engine, HachiHachiEngine)
        engine.last_result = upgraded(engine.last_result, RoundResult)
        engine.trick_log = [read(LoggedTrick, t) for t in engine.trick_log]
        return engine

    # ================================================================= contract

    @property
    def deal_no(self) -> int:
        return self._deal

    def to_act(self) -> frozenset[int]:
        phase = self.phase
        if phase == "declare":
            return frozenset({self.players[len(self.calls)]})
        if phase == "trick":
            assert self.turn is not None
            return frozenset({self.turn})
        if phase == "choose":
            return frozenset(self.choosing)
        if phase == "mizuten":
            return frozenset({self.sp})
        return frozenset()

    def legal_actions(self, seat: int) -> list[LegalAction]:
        if seat not in self.to_act():
            return []
        phase = self.phase
        if phase == "declare":
            if self.must_play(seat):
                return [act.Play()]
            return [act.Play(), act.Fold()]
        if phase == "trick":
            return [act.Card(c) for c in self.playable(seat)]
        if phase == "choose":
            return [act.Split(), act.Fight()]
        return [act.Mizuten(), act.NoMizuten()]

    def explain(self, seat: int, action: Action) -> IllegalAction | None:
        phase = self.phase
        expected: dict[str, tuple[type[Action], ...]] = {
            "mizuten": (act.Mizuten, act.NoMizuten),
            "declare": (act.Play, act.Fold),
            "choose": (act.Split, act.Fight),
            "trick": (act.Card,),
        }
        if not isinstance(action, expected.get(phase, ())):
            return IllegalAction(
                "hachi_hachi.wrong_phase",
                f"{action.verb!r} is not possible now ({phase})",
                phase=phase,
                verb=action.verb,
            )
        if isinstance(action, act.Fold) and self.must_play(seat):
            return IllegalAction("hachi_hachi.mizuten_must_play", "you declared Mizuten: you must play this round")
        if isinstance(action, act.Card):
            card = action.card
            if card not in self.hands[seat]:
                return IllegalAction("hachi_hachi.card_not_in_hand", f"{card} is not in your hand", card=card.notation)
            led = self.led_suit
            if led is not None and card.suit != led:
                return IllegalAction(
                    "hachi_hachi.must_follow",
                    f"you hold {led} and must follow suit",
                    suit=led,
                    card=card.notation,
                )
        return None

    def _perform(self, seat: int, action: Action) -> None:
        if isinstance(action, (act.Mizuten, act.NoMizuten)):
            self.mizuten = isinstance(action, act.Mizuten)
            self._emit(ev.MizutenDecided(seat, self.mizuten))
            self._deal_cards()
        elif isinstance(action, (act.Play, act.Fold)):
            self._declare(seat, isinstance(action, act.Play))
        elif isinstance(action, (act.Split, act.Fight)):
            self._choose(seat, action.verb)
        elif isinstance(action, act.Card):
            self._play_card(seat, action.card)

    # ================================================================= queries

    def seated(self) -> list[int]:
        """Seats still in the game (chips left)."""
        return [s for s in range(self.seats) if self.stacks[s] > 0]

    def left_of(self, seat: int) -> int:
        """The next seat clockwise that is still in the game (§0.4: a role skips seats that have left)."""
        for k in range(1, self.seats + 1):
            s = (seat + k) % self.seats
            if self.stacks[s] > 0:
                return s
        return seat

    def mizuten_offered(self) -> bool:
        # §3.2 step 1 lets the start player declare Mizuten whatever max_declarers is. With max_declarers = 2 it
        # can never pay (its bonus needs three declarers, step 9 and Q-H4): it only binds him to play, and is void
        # at the round's end like any Mizuten with fewer than three declarers (``rules.mizuten_can_pay``).
        return self.rules.mizuten_enabled

    def must_play(self, seat: int) -> bool:
        return bool(self.mizuten) and seat == self.sp

    @property
    def fee_mult(self) -> int:
        return self.mult if self.rules.mult_applies_to_fold_fees else 1

    def fee_due(self) -> int:
        """What the next folder of this round would owe (before the stack cap)."""
        rules = self.rules
        return fold_fee(self.folds + 1, first=rules.fold_fee_first, step=rules.fold_fee_step, mult=self.fee_mult)

    @property
    def led_suit(self) -> str | None:
        return self.current[0][1].suit if self.current else None

    @property
    def trump(self) -> str | None:
        return self.indicator.suit if self.indicator is not None else None

    def playable(self, seat: int) -> list[FrenchCard]:
        """The cards ``seat`` may play now (must follow suit)."""
        return legal_cards(self.hands[seat], self.led_suit)

    def value_of(self, seat: int) -> HandValue:
        """What ``seat``'s seven dealt cards score under the table's yaku table."""
        return classify(self.dealt[seat], self.rules.yaku_table)

    # ================================================================= dealing

    def _draw_start_player(self) -> None:
        # Decision: §3.1 says "random" (rock-paper-scissors at a real table): the seats with chips, in seat
        # order, each take the next card of a shuffled pack, and the highest card starts (rank, then suit).
        pack = self.shuffler.shuffle(french_deck(), parse_french, deal=1, purpose="draw_sp")
        draws = list(zip(self.seated(), pack, strict=False))
        self.sp = max(draws, key=lambda d: _draw_key(d[1]))[0]
        self._emit(ev.StartPlayerDrawn(self.sp, tuple((s, c.notation) for s, c in draws)))

    def _start_round(self) -> None:
        n = self.seats
        self._deal += 1
        seated = self.seated()
        self.players = sorted(seated, key=lambda s: (s - self.sp) % n)
        self.deck = self.shuffler.shuffle(french_deck(), parse_french, deal=self._deal, purpose="deal")
        self.hands = [[] for _ in range(n)]
        self.dealt = [[] for _ in range(n)]
        self.indicator = None
        self.field, self.mult = "plain", 1
        self.mizuten = None
        self.calls = []
        self.fees = [0] * n
        self.folds = 0
        self.declarers = []
        self.forced = []
        self.choosing = []
        self.choices = {}
        self.split = None
        self.reveals = []
        self.public_cards = set()
        self.payments = []
        self.trick_order = []
        self.turn = None
        self.trick_no = 0
        self.current = []
        self.last_trick = None
        self.tricks = [0] * n
        self.played = []
        self.trick_log = []
        self._emit(DealStarted(self._deal))
        self._emit(
            ev.RoundStarted(self._deal, self.rounds_done + 1, self.rules.rounds, self.sp, tuple(self.players), self.pot)
        )
        if self.mizuten_offered():
            self.phase = "mizuten"
        else:
            self.mizuten = False
            self._deal_cards()

    def _deal_cards(self) -> None:
        # Decision: packets of seven in declaration order (SP first), then the indicator, the next card.
        for i, seat in enumerate(self.players):
            cards = sorted(self.deck[i * HAND : (i + 1) * HAND], key=display_key)
            self.hands[seat] = list(cards)
            self.dealt[seat] = list(cards)
        indicator = self.deck[len(self.players) * HAND]
        self.indicator = indicator
        self.public_cards.add(indicator)
        self.field, self.mult = self.rules.field_of(indicator.rank)
        for seat in self.players:
            self._emit(ev.HandDealt(seat, tuple(self.hands[seat]), to=frozenset({seat})))
        self._emit(ev.TrumpTurned(indicator, self.field, self.mult))
        self.phase = "declare"

    # ================================================================= declarations

    def _declare(self, seat: int, play: bool) -> None:
        if play:
            self.calls.append((seat, "play"))
            self.declarers.append(seat)
            self._emit(ev.Declared(seat, True, declarer_no=len(self.declarers)))
            if len(self.declarers) == self.rules.max_declarers:
                rest = self.players[len(self.calls) :]
                for other in rest:
                    self.calls.append((other, "forced_out"))
                    self.forced.append(other)
                if rest:
                    self._emit(ev.ForcedOut(tuple(rest)))
        else:
            due = self.fee_due()
            self.folds += 1  # a capped fee still counts as a folder for the next fee (§3.2 step 4)
            # §0.4: the fee is capped by the stack at the round's start (the stacks only change at its end).
            paid = min(due, self.stacks[seat])
            self.fees[seat] = paid
            self.hands[seat] = []  # discarded face down (``dealt`` keeps it hidden from everyone else)
            self.calls.append((seat, "fold"))
            self._emit(ev.Declared(seat, False, fee=paid, due=due))
        if len(self.calls) == len(self.players):
            self._declarations_done()

    def _declarations_done(self) -> None:
        d = len(self.declarers)
        if d == 0:
            self._end_round("void")
        elif d == 1:
            self._end_round("single")
        elif d == 2 and self.rules.two_player_split_allowed:
            self.phase = "choose"
            self.choosing = list(self.declarers)
        else:
            self._settle_hands(declarers_too=True)
            self._begin_tricks()

    def _choose(self, seat: int, choice: str) -> None:
        self.choices[seat] = choice
        self.choosing.remove(seat)
        self._emit(ev.SplitChosen(seat))
        self._emit(ev.SplitChosen(seat, choice, to=frozenset({seat})))
        if self.choosing:
            return
        self.split = all(self.choices[d] == "split" for d in self.declarers)
        self._emit(ev.SplitRevealed(tuple((d, self.choices[d]) for d in self.declarers), self.split))
        if self.split:
            # §3.2 step 5: forced-out players (max_declarers = 2) are still paid; the declarers' hands are
            # settled only with split_settles_hands.
            self._settle_hands(declarers_too=self.rules.split_settles_hands)
            self._end_round("split")
        else:
            self._settle_hands(declarers_too=True)
            self._begin_tricks()

    # ================================================================= hand settlement

    def _reveal(self, seat: int, role: Literal["forced_out", "declarer"]) -> HandValue:
        value = self.value_of(seat)
        forced = role == "forced_out"
        cards = value.reveal(forced_out=forced)
        self.public_cards.update(cards)
        aces = len(value.aces)
        total = value.forced_out_total(self.rules.forced_out_ace_value)
        self.reveals.append(RevealView(seat, role, value.keys, cards, aces, value.normal, total))
        self._emit(ev.HandRevealed(seat, role, value.keys, cards, aces, total if forced else value.normal))
        return value

    def _settle_hands(self, *, declarers_too: bool) -> None:
        """Step 6: (a) forced-out players show and are paid; (b) the declarers show and settle their values."""
        ace_value = self.rules.forced_out_ace_value
        forced_values = {f: self._reveal(f, "forced_out").forced_out_total(ace_value) for f in self.forced}
        self.payments += forced_out_payments(forced_values, self.declarers, self.mult)
        if declarers_too:
            normal = {d: self._reveal(d, "declarer").normal for d in self.declarers}
            self.payments += hand_payments(normal, self.declarers, self.mult)

    # ================================================================= tricks

    def _begin_tricks(self) -> None:
        n = self.seats
        d1 = self.declarers[0]
        if self.rules.trick_direction == "clockwise":
            self.trick_order = sorted(self.declarers, key=lambda s: (s - d1) % n)
        else:
            self.trick_order = sorted(self.declarers, key=lambda s: (d1 - s) % n)
        self.phase = "trick"
        self.trick_no = 1
        self.turn = d1

    def _play_card(self, seat: int, card: FrenchCard) -> None:
        self.hands[seat].remove(card)
        self.played.append(card)
        self.public_cards.add(card)
        self.current.append((seat, card))
        self._emit(ev.CardPlayed(seat, self.trick_no, card))
        if len(self.current) < len(self.trick_order):
            self.turn = next_in(self.trick_order, seat)
            return
        plays = self.current
        assert self.indicator is not None
        winner, winning = plays[winning_index([c for _, c in plays], self.indicator.suit)]
        self.tricks[winner] += 1
        self.last_trick = (self.trick_no, plays[0][0], plays, winner)
        self.trick_log.append(
            LoggedTrick(self.trick_no, plays[0][0], winner, tuple(PlayedCard(s, c.notation) for s, c in plays))
        )
        self.current = []
        self._emit(ev.TrickWon(winner, self.trick_no, winning, self.tricks[winner]))
        if self.trick_no == TRICKS:
            self.turn = None
            self._end_round("play")
            return
        self.trick_no += 1
        self.turn = winner

    # ================================================================= end of round

    def _end_round(self, outcome: Outcome) -> None:
        rules = self.rules
        n = self.seats
        pot_before = self.pot
        fees_in = sum(self.fees)
        pot_now = pot_before + fees_in
        paid_in = [self.pot_paid[s] + self.fees[s] for s in range(n)]
        taken = [0] * n
        pot_lines: list[PotShare] = []
        mizuten_paid = False
        pot_after = 0
        if outcome == "void":
            next_sp = self.left_of(self.sp)
            if rules.void_pot == "refund":
                taken = list(paid_in)
                pot_lines = [PotShare(s, a, "refund") for s, a in enumerate(paid_in) if a]
            else:
                pot_after = pot_now
        elif outcome == "single":
            next_sp = self.declarers[0]
            taken[next_sp] = pot_now
            pot_lines = [PotShare(next_sp, pot_now, "single")]
        elif outcome == "split":
            d1, d2 = self.declarers
            next_sp = d1  # Decision (rules.md §3.2 step 10): a split passes SP to D1.
            first, second = split_pot(pot_now)
            taken[d1], taken[d2] = first, second
            pot_lines = [PotShare(d1, first, "split"), PotShare(d2, second, "split")]
        else:
            tricks = {d: self.tricks[d] for d in self.declarers}
            self.payments += trick_payments(tricks, self.declarers, self.mult, rules.trick_rate)
            next_sp = pot_taker(tricks, self.declarers)
            taken[next_sp] = pot_now
            pot_lines = [PotShare(next_sp, pot_now, "tricks")]
            if self.mizuten and len(self.declarers) == 3 and self.tricks[self.sp] >= rules.mizuten_min_tricks:
                mizuten_paid = True
                others = [s for s in self.players if s != self.sp]
                self.payments += mizuten_payments(self.sp, others, rules.mizuten_bonus, self.mult)
        self.pot_paid = list(paid_in) if pot_after else [0] * n
        debts = [Debt(p.payer, p.payee, p.amount) for p in self.payments]
        available = [self.stacks[s] - self.fees[s] + taken[s] for s in range(n)]
        settled = settle(debts, available, first=(self.sp + 1) % n) if debts else [0] * n
        deltas = [-self.fees[s] + taken[s] + settled[s] for s in range(n)]
        counts = outcome != "void" or rules.void_round_counts
        round_no = self.rounds_done + 1
        if counts:
            self.rounds_done += 1
        # Busts are counted before any end-of-game refund: a player whose fee took his last chip is why the game
        # ends, even though the refund below gives that fee back to him.
        busts = [s for s in range(n) if self.stacks[s] > 0 and self.stacks[s] + deltas[s] == 0]
        too_few = sum(1 for s in range(n) if self.stacks[s] + deltas[s] > 0) < 3
        over = self.rounds_done >= rules.rounds or too_few
        refund_lines: list[Refund] = []
        if over and pot_after:
            # §3.2: a pot still unclaimed when the game ends goes back to those who paid into it.
            for s in range(n):
                deltas[s] += self.pot_paid[s]
            refund_lines = [Refund(s, a) for s, a in enumerate(self.pot_paid) if a]
            pot_after = 0
            self.pot_paid = [0] * n
        for s in range(n):
            self.stacks[s] += deltas[s]
        self.pot = pot_after
        fees = list(self.fees)
        self.fees = [0] * n  # now in the stacks and the pot: a view between rounds must not count them twice
        if self.stacks[next_sp] == 0:
            next_sp = self.left_of(next_sp)
        owed = [0] * n
        for p in self.payments:
            owed[p.payer] -= p.amount
            owed[p.payee] += p.amount
        summary = RoundResult(
            deal=self._deal,
            round=round_no if counts else None,
            rounds=rules.rounds,
            sp=self.sp,
            players=tuple(self.players),
            mizuten=bool(self.mizuten),
            mizuten_paid=mizuten_paid,
            indicator=self.indicator.notation if self.indicator is not None else None,
            trump=self.trump,
            field=self.field,
            mult=self.mult,
            declarations=tuple(Declaration(s, what) for s, what in self.calls),
            fees=tuple(fees),
            declarers=tuple(self.declarers),
            forced_out=tuple(self.forced),
            outcome=outcome,
            choices=tuple(Choice(d, self.choices[d]) for d in self.declarers if d in self.choices) or None,
            hands=tuple(
                RevealedHand(
                    seat=r.seat,
                    role=r.role,
                    yaku=tuple(r.yaku),
                    cards=tuple(c.notation for c in r.cards),
                    aces=r.aces,
                    value=r.forced_out if r.role == "forced_out" else r.normal,
                )
                for r in self.reveals
            ),
            tricks=tuple(self.tricks[s] for s in range(n)) if outcome == "play" else None,
            trick_log=tuple(self.trick_log),
            pot_before=pot_before,
            pot_in=fees_in,
            pot_to=tuple(pot_lines),
            pot_carried=pot_after,
            end_refund=tuple(refund_lines),
            payments=tuple(PaymentLine(p.payer, p.payee, p.amount, p.kind) for p in self.payments),
            owed=tuple(owed),
            deltas=tuple(deltas),
            busts=tuple(busts),
            next_sp=None if over else next_sp,
            game_over=over,
        )
        pot_change = pot_after - pot_before
        paid_out = [(s, taken[s]) for s in range(n) if taken[s]] + [(r.seat, r.amount) for r in refund_lines]
        self._emit(ev.RoundSettled(self._deal, outcome, tuple(paid_out), pot_after, tuple(deltas)))
        result = DealResult(self._deal, tuple(deltas), summary, pot=pot_change)
        self.last_result = result
        self._deal_ended(result)
        if over:
            self._game_over()
            return
        self.sp = next_sp
        self._start_round()

    def _game_over(self) -> None:
        self.phase = "over"
        self.turn = None
        self.choosing = []
        best = max(self.stacks)
        self.winners = [s for s in range(self.seats) if self.stacks[s] == best]

    # ================================================================= the pot outside the stacks

    def pot_total(self) -> int:
        return self.pot

    def stop_result(self) -> DealResult[StoppedResult] | None:
        """The table stops now: the round in progress is void, and the pot as it stood after the last finished
        round goes back to whoever paid into it."""
        if not self.pot:
            return None
        refunds = tuple(Refund(s, a) for s, a in enumerate(self.pot_paid) if a)
        summary = StoppedResult(deal=self._deal, outcome="stopped", refund=True, pot=self.pot, end_refund=refunds)
        return DealResult(self._deal, tuple(self.pot_paid), summary, pot=-self.pot)

    # ================================================================= visibility

    def hidden_from(self, seat: int | None) -> frozenset[FrenchCard]:
        hidden = set(self.deck)
        hidden -= self.public_cards
        if seat is not None:
            hidden.difference_update(self.dealt[seat])
        return frozenset(hidden)

    # ================================================================= views

    def _state(self, seat: int) -> SeatState:
        if seat not in self.players:
            return "out"
        if self.phase == "mizuten" or (self.phase == "over" and not self.calls):
            return "idle"
        for s, what in self.calls:
            if s == seat:
                return "folded" if what == "fold" else "forced_out" if what == "forced_out" else "play"
        if self.phase == "declare" and self.players[len(self.calls)] == seat:
            return "to_speak"
        return "waiting"

    def _trick_view(self, number: int, plays: list[tuple[int, FrenchCard]], leader: int, complete: bool) -> TrickView:
        winning = None
        if plays and self.indicator is not None:
            winning = plays[winning_index([c for _, c in plays], self.indicator.suit)][0]
        return TrickView(
            number=number,
            leader=leader,
            led_suit=plays[0][1].suit if plays else None,
            plays=tuple(TrickPlay(s, c) for s, c in plays),
            winning=winning,
            complete=complete,
        )

    def _table(self) -> dict[str, Any]:
        n = self.seats
        phase = self.phase
        trick = None
        if phase == "trick":
            leader = self.current[0][0] if self.current else self.turn
            assert leader is not None
            trick = self._trick_view(self.trick_no, self.current, leader, False)
        last = None
        if self.last_trick is not None:
            number, leader, plays, _winner = self.last_trick
            last = self._trick_view(number, plays, leader, True)
        numbers = {d: i + 1 for i, d in enumerate(self.declarers)}
        after_fees = tuple(self.stacks[s] - self.fees[s] for s in range(n))
        lines = tuple(
            SeatLine(
                seat=s,
                state=self._state(s),
                declarer_no=numbers.get(s),
                fee=self.fees[s],
                stack=self.stacks[s],
                stack_after_fees=after_fees[s],
                cards=len(self.hands[s]),
                tricks=self.tricks[s],
                is_sp=s == self.sp,
            )
            for s in range(n)
        )
        speaker = self.players[len(self.calls)] if phase == "declare" else None
        both_chose = phase != "choose" and len(self.choices) == 2
        result = self.last_result
        return {
            "rules": self.rules,
            "phase": phase,
            "deal_no": self._deal,
            "round_no": self.rounds_done + (0 if phase == "over" else 1),
            "rounds_total": self.rules.rounds,
            "seats": n,
            "stacks": tuple(self.stacks),
            "stacks_after_fees": after_fees,
            "seated": tuple(s > 0 for s in self.stacks),
            "sp": self.sp,
            "players": tuple(self.players),
            "lines": lines,
            "mizuten_offered": self.mizuten_offered(),
            "mizuten": self.mizuten,
            "indicator": self.indicator,
            "trump": self.trump,
            "field": self.field,
            "mult": self.mult,
            "speaker": speaker,
            "next_fee": self.fee_due() if speaker is not None else 0,
            "speaker_fee": min(self.fee_due(), self.stacks[speaker]) if speaker is not None else 0,
            "declarations": tuple(self.calls),
            "declarers": tuple(self.declarers),
            "forced_out": tuple(self.forced),
            "fees": tuple(self.fees),
            "pot_carried": self.pot,
            "pot": self.pot + sum(self.fees),
            "choosing": tuple(self.choosing),
            "chosen": tuple(d for d in self.declarers if d in self.choices) if phase == "choose" else (),
            "choices": tuple((d, self.choices[d]) for d in self.declarers) if both_chose else (),
            "split": self.split,
            "reveals": tuple(self.reveals),
            "trick_order": tuple(self.trick_order),
            "to_play": self.turn if phase == "trick" else None,
            "trick": trick,
            "last_trick": last,
            "tricks": tuple(self.tricks),
            "played": tuple(self.played),
            "to_act": tuple(sorted(self.to_act())),
            "last_result": result.summary if result else None,
            "last_deltas": result.deltas if result else None,
            "game_over": phase == "over",
            "winners": tuple(self.winners),
        }

    def public_view(self) -> HachiPublicView:
        return HachiPublicView(**self._table())

    def view(self, seat: int) -> HachiSeatView:
        table = self._table()
        speaking = table["speaker"] == seat
        folding = min(self.fee_due(), self.stacks[seat]) if speaking else 0
        dealt = self.dealt[seat]
        return HachiSeatView(
            **table,
            seat=seat,
            playing=seat in self.players,
            hand=tuple(sorted(self.hands[seat], key=display_key)),
            dealt=tuple(dealt),
            hand_value=self.value_of(seat) if dealt else None,
            fold_fee=folding,
            must_play=speaking and self.must_play(seat),
            my_choice=self.choices.get(seat),
            legal_cards=tuple(self.playable(seat)) if self.phase == "trick" and self.turn == seat else (),
        )
