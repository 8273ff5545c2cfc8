"""The Oicho-Kabu state machine (rules.md §1.3–§1.8).

Only decisions wait for a seat: a child's betting turn, a pile's optional second extra, the dealer's
optional second extra and, between rounds, the dealer's continue / resign. Everything else (the
first-dealer draw, shuffling, layout, first extras, forced draws and stands, the dealer's compulsory
extra, showdown, settlement, dealer rotation) advances by itself inside ``apply``.

Rule decisions beyond rules.md are marked ``Decision:`` in comments.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, cast

from games.core.actions import Action, AmountRange, LegalAction
from games.core.cards import KabuCard, kabu_deck, notation, parse_kabu
from games.core.engine import DealResult, Engine
from games.core.errors import IllegalAction
from games.core.events import DealStarted
from games.core.results import for_snapshot, upgraded
from games.core.rng import Shuffler
from games.core.settlement import Debt, settle
from games.core.snapshot import encode
from games.oicho import actions as act
from games.oicho import events as ev
from games.oicho.hands import Draw, Hand, bank_cap, classify, compare, second_extra
from games.oicho.results import Bet, DealerHandResult, HandResult, OichoResult, Outcome, PileResult
from games.oicho.rules import OichoRules
from games.oicho.views import (
    DealerDrawView,
    DealerHandView,
    HandView,
    OichoPublicView,
    OichoSeatView,
    Phase,
    PileView,
    TenureView,
)

PILES = 4


def _parse_40(text: str) -> list[KabuCard]:
    return parse_kabu(text, 10)


def _parse_48(text: str) -> list[KabuCard]:
    return parse_kabu(text, 12)


def _hand_view(hand: Hand) -> HandView:
    return HandView(points=hand.points, tier=hand.tier, kind=hand.kind, multiplier=hand.multiplier)


def _hand_result(hand: Hand) -> HandResult:
    return HandResult(kind=hand.kind, points=hand.points, tier=hand.tier, multiplier=hand.multiplier)


class OichoEngine(Engine[OichoRules]):
    """One Oicho-Kabu table: 2–10 seats, clockwise, seat 0 first."""

    game_id = "oicho"

    def __init__(self, rules: OichoRules, stacks: Sequence[int], shuffler: Shuffler) -> None:
        super().__init__(rules, stacks, shuffler)
        if not 2 <= self.seats <= 10:
            raise ValueError("Oicho-Kabu is played by 2 to 10 seats")
        n = self.seats
        self._deal = 0
        self.phase: Phase = "betting"
        self.dealer = 0
        self.draw_passes: list[list[tuple[int, KabuCard]]] = []
        self.first_dealer = 0
        self.tenures_held = [0] * n
        self.tenure_rounds = 0
        self.tenure_net = 0
        self.winners: list[int] = []
        # the round in progress
        self.deck: list[KabuCard] = []
        self.maki: list[KabuCard] = []
        self.piles: list[list[KabuCard]] = [[] for _ in range(PILES)]
        self.dealer_cards: list[KabuCard] = []
        self.bets: list[tuple[int, int, int]] = []  # (seat, pile 1..4, amount) in placement order
        self.betting_order: list[int] = []
        self.bet_index = 0
        self.cap = 0
        self.face_down = [False] * PILES
        self.deciders: list[int | None] = [None] * PILES
        self.decided = [False] * PILES
        self.current_pile: int | None = None
        self.outcomes: list[tuple[str, int]] | None = None
        self.last_result: DealResult[OichoResult] | None = None
        self._draw_first_dealer()
        self._begin_tenure(self.dealer)

    def snapshot(self) -> dict[str, Any]:
        state = super().snapshot()
        # The last round's result stays JSON in a snapshot (see games.core.results.for_snapshot).
        state["last_result"] = encode(for_snapshot(self.last_result))
        return state

    @classmethod
    def restore(cls, rules: OichoRules, state: dict[str, Any], shuffler: Shuffler) -> Engine[OichoRules]:
        engine = super().restore(rules, state, shuffler)
        assert isinstance(engine, OichoEngine)
        engine.last_result = upgraded(engine.last_result, OichoResult)
        return engine

    # ================================================================= contract

    @property
    def deal_no(self) -> int:
        return self._deal

    def to_act(self) -> frozenset[int]:
        if self.phase == "betting":
            return frozenset({self.betting_order[self.bet_index]})
        if self.phase == "deciding":
            assert self.current_pile is not None
            decider = self.deciders[self.current_pile - 1]
            assert decider is not None
            return frozenset({decider})
        if self.phase in ("dealer", "round_over"):
            return frozenset({self.dealer})
        return frozenset()

    def legal_actions(self, seat: int) -> list[LegalAction]:
        if seat not in self.to_act():
            return []
        if self.phase == "betting":
            out: list[LegalAction] = []
            most = self.bet_max(seat)
            if most >= 1:
                out += [AmountRange(act.Bet(pile, 1), 1, most) for pile in range(1, PILES + 1)]
            out.append(act.Done())
            if self.my_bets(seat):
                out.append(act.Clear())
            return out
        if self.phase == "deciding":
            # A pile waits for its decider only when drawing is optional.
            return [act.Draw(), act.Stand()]
        if self.phase == "dealer":
            return [act.Draw(), act.Stand()]
        if self.phase == "round_over":
            return [act.Continue(), act.Resign()]
        return []

    def explain(self, seat: int, action: Action) -> IllegalAction | None:
        phase = self.phase
        if isinstance(action, act.Bet):
            if phase != "betting":
                return IllegalAction("oicho.not_betting", "bets are only placed in a betting turn", phase=phase)
            if not 1 <= action.pile <= PILES:
                return IllegalAction("oicho.no_such_pile", f"there is no pile {action.pile}", pile=action.pile)
            if action.amount < 1:
                return IllegalAction("oicho.bet_too_small", "a bet is at least 1", amount=action.amount)
            cap_left = self.cap - self.cap_used
            own_left = self.stacks[seat] - self.my_bet_total(seat)
            most = max(0, min(cap_left, own_left))
            if action.amount > cap_left:
                return IllegalAction(
                    "oicho.bet_over_cap",
                    f"the bets this round may total at most {self.cap}; at most {most} more",
                    amount=action.amount,
                    max=most,
                    cap=self.cap,
                    cap_left=cap_left,
                )
            if action.amount > own_left:
                return IllegalAction(
                    "oicho.bet_over_stack",
                    f"your bets may not exceed your chips; at most {most} more",
                    amount=action.amount,
                    max=most,
                    stack=self.stacks[seat],
                )
            return None
        if isinstance(action, act.Clear):
            if phase != "betting":
                return IllegalAction("oicho.not_betting", "bets are only withdrawn in a betting turn", phase=phase)
            return IllegalAction("oicho.nothing_to_clear", "you have no bets to withdraw")
        if isinstance(action, act.Done):
            return IllegalAction("oicho.not_betting", "there is no betting turn to end", phase=phase)
        if isinstance(action, (act.Continue, act.Resign)):
            return IllegalAction("oicho.not_between_rounds", "the dealer chooses this only between rounds", phase=phase)
        return IllegalAction("oicho.no_card_choice", "there is no card to draw or refuse now", phase=phase)

    def _perform(self, seat: int, action: Action) -> None:
        if isinstance(action, act.Bet):
            self.bets.append((seat, action.pile, action.amount))
            self._emit(ev.BetPlaced(seat, action.pile, action.amount))
        elif isinstance(action, act.Clear):
            self.bets = [b for b in self.bets if b[0] != seat]
            self._emit(ev.BetsCleared(seat))
        elif isinstance(action, act.Done):
            self._emit(ev.BettingDone(seat))
            self.bet_index += 1
            self._advance_betting()
        elif isinstance(action, (act.Draw, act.Stand)):
            draw = isinstance(action, act.Draw)
            if self.phase == "deciding":
                assert self.current_pile is not None
                self._finish_pile(self.current_pile, draw, seat)
                self._advance_deciding()
            else:
                self._emit(ev.DealerDecided(seat, draw))
                if draw:
                    self._deal_dealer()
                self._showdown()
        elif isinstance(action, act.Continue):
            self._emit(ev.BankKept(seat))
            self._start_round()
        elif isinstance(action, act.Resign):
            self._emit(ev.BankPassed(seat))
            self._end_tenure()

    # ================================================================= queries

    @property
    def cap_used(self) -> int:
        return sum(b[2] for b in self.bets)

    def my_bets(self, seat: int) -> list[tuple[int, int]]:
        """``(pile, amount)`` of ``seat``'s bets this round, in placement order."""
        return [(pile, amount) for s, pile, amount in self.bets if s == seat]

    def my_bet_total(self, seat: int) -> int:
        return sum(amount for _, amount in self.my_bets(seat))

    def bet_max(self, seat: int) -> int:
        """The largest bet ``seat`` may add now (0 when it is not their betting turn)."""
        if self.phase != "betting" or seat not in self.to_act():
            return 0
        return max(0, min(self.cap - self.cap_used, self.stacks[seat] - self.my_bet_total(seat)))

    def pile_bets(self, pile: int) -> list[tuple[int, int]]:
        return [(s, amount) for s, p, amount in self.bets if p == pile]

    def active_seats(self) -> list[int]:
        return [s for s in range(self.seats) if self.stacks[s] > 0]

    def _left_of(self, seat: int) -> int:
        """The next seat clockwise that still has chips."""
        for k in range(1, self.seats + 1):
            s = (seat + k) % self.seats
            if self.stacks[s] > 0:
                return s
        return seat

    # ================================================================= first dealer

    def _draw_deck(self) -> list[KabuCard]:
        # Decision: the draw's shuffle belongs to deal 1 (committed before it, revealed with it).
        months = 12 if self.rules.use_months_11_12 else 10
        parse = _parse_48 if months == 12 else _parse_40
        return self.shuffler.shuffle(kabu_deck(months), parse, deal=1, purpose="draw_dealer")

    def _draw_first_dealer(self) -> None:
        """Each seat with chips draws one card in seat order; lowest month deals; the tied redraw (§1.3)."""
        # Decision: seats draw from one shuffled deck in seat order 0, 1, …; tied seats keep drawing
        # from the same deck; only if it runs out is a fresh "draw_dealer" shuffle made.
        drawing = self.active_seats() or list(range(self.seats))
        deck = self._draw_deck()
        while True:
            this_pass: list[tuple[int, KabuCard]] = []
            for seat in drawing:
                if not deck:
                    deck = self._draw_deck()
                this_pass.append((seat, deck.pop(0)))
            self.draw_passes.append(this_pass)
            low = min(card.month for _, card in this_pass)
            drawing = [seat for seat, card in this_pass if card.month == low]
            if len(drawing) == 1:
                self.dealer = self.first_dealer = drawing[0]
                passes = tuple(tuple((seat, card.month) for seat, card in p) for p in self.draw_passes)
                self._emit(ev.DealerChosen(passes, self.dealer))
                return

    # ================================================================= tenure and rounds

    def _can_bank(self, seat: int) -> bool:
        return bank_cap(self.rules, self.stacks[seat]) >= 1

    def _begin_tenure(self, dealer: int) -> None:
        self.dealer = dealer
        self.tenure_rounds = 0
        self.tenure_net = 0
        if len(self.active_seats()) < 2:
            self._game_over()
            return
        self._emit(ev.NewDealer(dealer))
        if not self._can_bank(dealer):
            # Decision: a dealer whose stack cannot cover a 1-point bet at the largest multiplier
            # cannot open a bank; his turn counts as held with no rounds and passes to his left.
            self._end_tenure()
            return
        self._start_round()

    def _end_tenure(self) -> None:
        self.tenures_held[self.dealer] += 1
        active = self.active_seats()
        if len(active) < 2 or all(self.tenures_held[s] >= self.rules.dealer_cycles for s in active):
            self._game_over()
            return
        self._begin_tenure(self._left_of(self.dealer))

    def _game_over(self) -> None:
        self.phase = "game_over"
        self.current_pile = None
        best = max(self.stacks)
        self.winners = [s for s in range(self.seats) if self.stacks[s] == best]

    def _take(self) -> KabuCard:
        return self.deck.pop(0)

    def _deal_dealer(self) -> None:
        card = self._take()
        self.dealer_cards.append(card)
        self._emit(ev.DealerCardDealt(card, to=frozenset({self.dealer})))

    def _start_round(self) -> None:
        """Shuffle, maki-fuda, four piles, the dealer's own card, then betting (§1.4 steps 1–4)."""
        self._deal += 1
        months = 12 if self.rules.use_months_11_12 else 10
        parse = _parse_48 if months == 12 else _parse_40
        self.deck = self.shuffler.shuffle(kabu_deck(months), parse, deal=self._deal, purpose="deal")
        self.maki = [self._take() for _ in range(4)] if self.rules.maki_fuda else []
        self.piles = [[self._take()] for _ in range(PILES)]
        self.dealer_cards = []
        self.bets = []
        self.cap = bank_cap(self.rules, self.stacks[self.dealer])
        self._emit(DealStarted(self._deal))
        self._emit(ev.RoundDealt(self._deal, tuple(p[0] for p in self.piles), tuple(self.maki), self.cap))
        self._deal_dealer()
        self.face_down = [False] * PILES
        self.deciders = [None] * PILES
        self.decided = [False] * PILES
        self.current_pile = None
        self.outcomes = None
        self.betting_order = [
            (self.dealer + k) % self.seats
            for k in range(1, self.seats)
            if self.stacks[(self.dealer + k) % self.seats] > 0
        ]
        self.bet_index = 0
        self.phase = "betting"
        self._advance_betting()

    def _advance_betting(self) -> None:
        """Skip children who cannot bet at all (cap reached, OK-1); close betting after the last."""
        while self.bet_index < len(self.betting_order):
            if self.cap - self.cap_used >= 1:
                return
            self.bet_index += 1
        self._close_betting()

    def _close_betting(self) -> None:
        if not self.bets:
            # §1.4: a round without bets is void; same dealer, not counted towards the tenure.
            # Decision: it still ends a deal (its own shuffle), so it gets an all-zero DealResult.
            self.phase = "round_over"
            result = DealResult(self._deal, tuple([0] * self.seats), self._summary())
            self._emit(ev.RoundVoid(self._deal))
            self._result(result)
            self._start_round()
            return
        self.tenure_rounds += 1
        for i in range(PILES):
            self.face_down[i] = bool(self.pile_bets(i + 1))
            card = self._take()
            self.piles[i].append(card)
            self._emit(ev.FirstExtraDealt(i + 1, None if self.face_down[i] else card))
            if self.face_down[i]:
                seers = frozenset(s for s in range(self.seats) if self._sees_first_extra(s, i + 1))
                self._emit(ev.FirstExtraSeen(i + 1, card, to=seers))
        for i in range(PILES):
            self.deciders[i] = self._decider(i + 1)
        self.phase = "deciding"
        self.current_pile = 1
        self._advance_deciding()

    def _bet_decider(self, pile: int) -> int | None:
        """Largest total stake on the pile; on a tie, whoever of them bet on it first (§1.4 step 6)."""
        stakes: dict[int, int] = {}
        first: dict[int, int] = {}
        for index, (seat, p, amount) in enumerate(self.bets):
            if p == pile:
                stakes[seat] = stakes.get(seat, 0) + amount
                first.setdefault(seat, index)
        if not stakes:
            return None
        return min(stakes, key=lambda s: (-stakes[s], first[s]))

    def _decider(self, pile: int) -> int | None:
        """A bet pile's own decider; an unbet pile's is the next bet pile's, else the nearest earlier."""
        own = self._bet_decider(pile)
        if own is not None:
            return own
        for later in range(pile + 1, PILES + 1):
            decider = self._bet_decider(later)
            if decider is not None:
                return decider
        # Decision (rules.md [D]): no later pile has bets, so the nearest earlier bet pile decides.
        for earlier in range(pile - 1, 0, -1):
            decider = self._bet_decider(earlier)
            if decider is not None:
                return decider
        return None

    def _finish_pile(self, pile: int, draw: bool, seat: int | None = None) -> None:
        card = self._take() if draw else None
        if card is not None:
            self.piles[pile - 1].append(card)
        self.decided[pile - 1] = True
        self._emit(ev.PileDecided(pile, seat, draw, card))

    def _advance_deciding(self) -> None:
        """Deal forced second extras, skip forbidden ones, stop at the first real choice (§1.4 step 6)."""
        assert self.current_pile is not None
        while self.current_pile <= PILES:
            pile = self.current_pile
            if not self.decided[pile - 1]:
                rule = second_extra(self.piles[pile - 1][:2], self.rules)
                if rule is Draw.MAY:
                    return
                self._finish_pile(pile, rule is Draw.MUST)
            self.current_pile += 1
        self.current_pile = None
        # §1.4 step 7: the dealer's compulsory extra, then his free choice of one more.
        self._deal_dealer()
        self.phase = "dealer"

    def _showdown(self) -> None:
        """Compare every bet pile with the dealer and settle within the stacks (§1.7, §0.4)."""
        dealer_hand = classify(self.dealer_cards, "dealer", self.rules)
        debts: list[Debt] = []
        outcomes: list[tuple[str, int]] = []
        for i in range(PILES):
            bets = self.pile_bets(i + 1)
            if not bets:
                outcomes.append(("unbet", 0))
                continue
            hand = classify(self.piles[i], "child", self.rules)
            winner, mult = compare(hand, dealer_hand, self.rules)
            outcomes.append((winner, mult))
            for seat, amount in bets:
                if winner == "pile":
                    debts.append(Debt(self.dealer, seat, amount * mult))
                elif winner == "dealer":
                    debts.append(Debt(seat, self.dealer, amount * mult))
        self.outcomes = outcomes
        owed = [0] * self.seats
        for d in debts:
            owed[d.payer] -= d.amount
            owed[d.payee] += d.amount
        deltas = settle(debts, self.stacks, first=(self.dealer + 1) % self.seats)
        for s in range(self.seats):
            self.stacks[s] += deltas[s]
        self.tenure_net += deltas[self.dealer]
        self.phase = "round_over"
        summary = self._summary(owed=owed)
        self._emit(ev.Showdown(tuple(self.dealer_cards), tuple(outcomes)))
        self._result(DealResult(self._deal, tuple(deltas), summary))
        self._after_round()

    def _result(self, result: DealResult[OichoResult]) -> None:
        self.last_result = result
        self._deal_ended(result)

    def _after_round(self) -> None:
        rules = self.rules
        if len(self.active_seats()) < 2:
            self._game_over()
            return
        tenure_over = (
            self.tenure_rounds >= rules.dealer_rounds
            or self.stacks[self.dealer] == 0
            or not self._can_bank(self.dealer)
            # Decision: "net ≤ −cap" is measured against the house bank_cap (胴前), not the round's
            # possibly smaller stack-limited cap.
            or (rules.dealer_bust_ends_tenure and self.tenure_net <= -rules.bank_cap)
        )
        if tenure_over:
            self._end_tenure()
        elif not rules.dealer_may_resign:
            self._start_round()
        # else: stay in "round_over" until the dealer continues or resigns.

    # ================================================================= visibility

    def _revealed(self) -> bool:
        """After the showdown every card of the round is face up."""
        return self.outcomes is not None

    def _sees_first_extra(self, viewer: int | None, pile: int) -> bool:
        if self._revealed() or not self.face_down[pile - 1]:
            return True
        if viewer is None or viewer == self.dealer or self.stacks[viewer] == 0:
            # Decision: a bust seat sits out and sees what an onlooker sees.
            return False
        if self.rules.first_extra_visibility == "all_children":
            return True
        return any(s == viewer for s, _ in self.pile_bets(pile))

    def _sees_dealer_cards(self, viewer: int | None) -> bool:
        return self._revealed() or (viewer is not None and viewer == self.dealer)

    def hidden_from(self, seat: int | None) -> frozenset[KabuCard]:
        hidden: set[KabuCard] = set(self.deck)
        for i in range(PILES):
            if len(self.piles[i]) >= 2 and not self._sees_first_extra(seat, i + 1):
                hidden.add(self.piles[i][1])
        if not self._sees_dealer_cards(seat):
            hidden.update(self.dealer_cards)
        return frozenset(hidden)

    # ================================================================= views

    def _pile_view(self, viewer: int | None, pile: int) -> PileView:
        cards = self.piles[pile - 1]
        shown: list[KabuCard | None] = list(cards)
        if len(cards) >= 2 and not self._sees_first_extra(viewer, pile):
            shown[1] = None
        hand = None
        if len(cards) >= 2 and None not in shown:
            hand = _hand_view(classify(cards, "child", self.rules))
        outcome: str | None = None
        mult = 0
        if self.outcomes is not None:
            outcome, mult = self.outcomes[pile - 1]
        bets = self.pile_bets(pile)
        return PileView(
            number=pile,
            cards=tuple(shown),
            face_down_first_extra=self.face_down[pile - 1],
            bets=tuple(bets),
            total=sum(a for _, a in bets),
            decider=self.deciders[pile - 1],
            decided=self.decided[pile - 1],
            hand=hand,
            outcome=outcome,
            multiplier=mult,
        )

    def _table(self, viewer: int | None) -> dict[str, Any]:
        sees = self._sees_dealer_cards(viewer)
        dealer_cards: tuple[KabuCard | None, ...] = tuple(c if sees else None for c in self.dealer_cards)
        dealer_hand = DealerHandView(
            cards=dealer_cards,
            hand=_hand_view(classify(self.dealer_cards, "dealer", self.rules))
            if sees and len(self.dealer_cards) >= 2
            else None,
        )
        p1, p2, p3, p4 = (self._pile_view(viewer, p) for p in range(1, PILES + 1))
        last = self.last_result
        return {
            "phase": self.phase,
            "round_no": self._deal,
            "seats": self.seats,
            "dealer": self.dealer,
            "stacks": tuple(self.stacks),
            "active": tuple(s > 0 for s in self.stacks),
            "cap": self.cap,
            "cap_used": self.cap_used,
            "cap_left": self.cap - self.cap_used,
            "piles": (p1, p2, p3, p4),
            "current_pile": self.current_pile,
            "to_act": tuple(sorted(self.to_act())),
            "betting_seat": self.betting_order[self.bet_index] if self.phase == "betting" else None,
            "betting_order": tuple(self.betting_order),
            "dealer_hand": dealer_hand,
            "maki_fuda": tuple(self.maki),
            "tenure": TenureView(
                dealer=self.dealer,
                rounds_held=self.tenure_rounds,
                rounds_limit=self.rules.dealer_rounds,
                net=self.tenure_net,
                tenures_held=tuple(self.tenures_held),
            ),
            "dealer_draw": DealerDrawView(
                passes=tuple(tuple((seat, card.month) for seat, card in p) for p in self.draw_passes),
                first_dealer=self.first_dealer,
            ),
            "last_result": last.summary if last else None,
            "last_deltas": last.deltas if last else None,
            "game_over": self.phase == "game_over",
            "winners": tuple(self.winners),
        }

    def public_view(self) -> OichoPublicView:
        return OichoPublicView(**self._table(None))

    def view(self, seat: int) -> OichoSeatView:
        return OichoSeatView(
            **self._table(seat),
            seat=seat,
            is_dealer=seat == self.dealer,
            rules=self.rules,
            my_bets=tuple(self.my_bets(seat)),
            my_bet_total=self.my_bet_total(seat),
            bet_max=self.bet_max(seat),
        )

    # ================================================================= results

    def _summary(self, *, owed: list[int] | None = None) -> OichoResult:
        """The round just finished (cards in notation); a void round (no ``owed``) has no piles."""
        void = owed is None
        head = OichoResult(
            round=self._deal,
            void=void,
            dealer=self.dealer,
            cap=self.cap,
            cap_used=self.cap_used,
            maki_fuda=tuple(notation(self.maki).split()),
        )
        if owed is None:
            return head
        piles = []
        for i in range(PILES):
            cards = self.piles[i]
            outcome, mult = self.outcomes[i] if self.outcomes else ("unbet", 0)
            piles.append(
                PileResult(
                    number=i + 1,
                    cards=tuple(c.notation for c in cards),
                    hand=_hand_result(classify(cards, "child", self.rules)),
                    bets=tuple(Bet(s, a) for s, a in self.pile_bets(i + 1)),
                    decider=self.deciders[i],
                    drew=len(cards) == 3,
                    outcome=cast(Outcome, outcome),
                    multiplier=mult,
                )
            )
        dealer_hand = DealerHandResult(
            cards=tuple(c.notation for c in self.dealer_cards),
            hand=_hand_result(classify(self.dealer_cards, "dealer", self.rules)),
        )
        return dataclasses.replace(head, piles=tuple(piles), dealer_hand=dealer_hand, owed=tuple(owed))
