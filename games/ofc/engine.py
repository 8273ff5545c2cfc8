"""The OFC table (rules.md §4): variants a-d, streets, Fantasyland, dealer button, settlement.

Chance steps, all through the injected shuffler:

* ``draw_dealer`` (once, deal 1): seat ``i`` draws card ``i`` of a shuffled pack; the highest card
  (rank, then suit c < d < h < s) deals first. A stacked order such as ``"As"`` makes seat 0 dealer.
* ``deal`` (once per hand): the pack is dealt from the top in this order: each Fantasyland player in
  turn order (dealer's left first) gets all of their cards; then street by street, each normal
  player in turn order gets that street's cards. Turbo streets (c, d) are dealt to everyone at the
  street's start; in a and b a player's cards are dealt when their turn comes (same order).

Fantasyland counts that the pack cannot cover (e.g. ``fl_cards_continue`` 17 with four players)
are trimmed, largest first, toward 13 (:func:`~games.ofc.fantasyland.dealt_counts`). The trim is made
when the hand that earned them ends, so its result announces the counts that will really be dealt.
With ``bankruptcy_ends_game`` off, a seat at 0 keeps playing (it can win; §0.4 caps what it pays at
nothing).

``legal_actions`` lists a normal street's placements as one :class:`~games.ofc.actions.StreetPlacements` family
(hundreds of them: it checks a placement, or a partial one, without listing them all), and a Fantasyland hand's far
more arrangements as one :class:`~games.ofc.actions.Arrangements` family, whose example is the solver's board.

Visibility: in a, cards to place are dealt face up; in b they are private until placed; in c and d
a street is placed face down and revealed when every normal player has submitted it; a Fantasyland
board is revealed when the hand ends. Discards are never shown to anyone else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from games.core.actions import Action, LegalAction
from games.core.cards import SUIT_CHARS, FrenchCard, french_deck, parse_french
from games.core.engine import DealResult, Engine
from games.core.errors import IllegalAction
from games.core.events import DealStarted
from games.core.rng import Shuffler
from games.core.settlement import Debt, settle
from games.ofc import events as ev
from games.ofc.actions import Arrangements, Place, StreetPlacements
from games.ofc.board import ROW_SIZE, ROWS, Row
from games.ofc.fantasyland import dealt_counts, entry_cards, solve_cached, stays
from games.ofc.hand import SeatHand
from games.ofc.rules import OFCRules
from games.ofc.scoring import BoardScore, all_pairs, score_board
from games.ofc.views import LastHand, OFCPublicView, OFCSeatView, public_view, seat_view


class OFCEngine(Engine[OFCRules]):
    """Open-Face Chinese Poker for 2-4 seats (variant d: 2-3)."""

    game_id: ClassVar[str] = "ofc"

    def __init__(self, rules: OFCRules, stacks: Sequence[int], shuffler: Shuffler) -> None:
        super().__init__(rules, stacks, shuffler)
        lo, hi = rules.seat_range()
        if not lo <= self.seats <= hi:
            raise ValueError(f"variant {rules.variant} is for {lo}-{hi} players, not {self.seats}")
        self.hand_no = 1
        self.dealer = self._draw_dealer()
        self._emit(ev.DealerChosen(self.dealer))
        self.button_moves = 0
        self.over = False
        self.fl_next: dict[int, int] = {}
        """Cards each Fantasyland seat is dealt next hand, already trimmed to what the pack can deal."""
        self.last: LastHand | None = None
        self.deck: list[FrenchCard] = []
        self.deck_pos = 0
        self.hands: list[SeatHand] = []
        self.street = 0
        self.turn_pos = 0
        self._start_hand()

    # ------------------------------------------------------------------ setup

    def _draw_dealer(self) -> int:
        pack = self.shuffler.shuffle(french_deck(), parse_french, deal=1, purpose="draw_dealer")
        return max(range(self.seats), key=lambda s: (pack[s].rank, SUIT_CHARS.index(pack[s].suit)))

    def turn_order(self) -> list[int]:
        """Seats from the dealer's left, clockwise."""
        return [(self.dealer + 1 + k) % self.seats for k in range(self.seats)]

    def normal_seats(self) -> list[int]:
        return [s for s in self.turn_order() if not self.hands[s].fantasyland]

    def _start_hand(self) -> None:
        fl = self.fl_next
        self.deck = self.shuffler.shuffle(french_deck(), parse_french, deal=self.hand_no, purpose="deal")
        self.deck_pos = 0
        self.hands = [SeatHand() for _ in range(self.seats)]
        self.street = 0
        self.turn_pos = 0
        self._emit(DealStarted(self.hand_no))
        for seat in self.turn_order():
            if seat in fl:
                hand = self.hands[seat]
                hand.fantasyland = True
                hand.fl_cards = fl[seat]
                hand.pending = self._take(fl[seat])
                hand.discard_due = fl[seat] - 13
                self._tell_dealt(seat, -1)
        self._deal_street()

    def _take(self, n: int) -> list[FrenchCard]:
        cards = self.deck[self.deck_pos : self.deck_pos + n]
        self.deck_pos += n
        return cards

    def _deal_to(self, seat: int) -> None:
        dealt, discard = self.rules.streets()[self.street]
        self.hands[seat].pending = self._take(dealt)
        self.hands[seat].discard_due = discard
        self._tell_dealt(seat, self.street)

    def _tell_dealt(self, seat: int, street: int) -> None:
        cards = tuple(self.hands[seat].pending)
        if self.pending_face_up(seat):
            self._emit(ev.Dealt(seat, street, len(cards), cards))
        else:
            self._emit(ev.Dealt(seat, street, len(cards)))
            self._emit(ev.Dealt(seat, street, len(cards), cards, to=frozenset({seat})))

    def _deal_street(self) -> None:
        normals = self.normal_seats()
        if self.street >= len(self.rules.streets()) or not normals:
            return
        if self.rules.simultaneous():
            for seat in normals:
                self._deal_to(seat)
        else:
            self._deal_to(normals[self.turn_pos])

    def normals_done(self) -> bool:
        return self.street >= len(self.rules.streets()) or not self.normal_seats()

    # ------------------------------------------------------------------ contract

    def to_act(self) -> frozenset[int]:
        if self.over:
            return frozenset()
        return frozenset(s for s, h in enumerate(self.hands) if h.pending)

    @property
    def deal_no(self) -> int:
        return self.hand_no

    def legal_actions(self, seat: int) -> list[LegalAction]:
        """Every legal placement of a normal street; for a Fantasyland hand (too many to list) the family of all
        arrangements, with the solver's board as its example."""
        if seat not in self.to_act():
            return []
        hand = self.hands[seat]
        if hand.fantasyland:
            best = solve_cached(tuple(hand.pending), self.rules)
            example = Place.of({"front": best.front, "middle": best.middle, "back": best.back}, best.discards)
            free = (hand.free("front"), hand.free("middle"), hand.free("back"))
            return [Arrangements(tuple(hand.pending), free, hand.discard_due, example)]
        free = (hand.free("front"), hand.free("middle"), hand.free("back"))
        return [StreetPlacements(tuple(hand.pending), free, hand.discard_due)]

    def refusal(self, seat: int, action: Action) -> IllegalAction | None:
        """Checked directly (a precise reason for each refusal); accepts exactly what ``legal_actions`` lists."""
        if not 0 <= seat < self.seats:
            return IllegalAction("core.no_such_seat", f"there is no seat {seat}", seat=seat)
        if self.over:
            return IllegalAction("core.game_over", "the game is over")
        hand = self.hands[seat]
        if not hand.pending:
            if self._already_submitted(seat):
                return IllegalAction("ofc.already_submitted", "this seat has already placed its cards", seat=seat)
            return IllegalAction("core.not_your_turn", "it is not this seat's turn", seat=seat)
        if not isinstance(action, Place):
            return IllegalAction("core.not_allowed", f"{action.text!r} is not allowed now", action=action.text)
        return self.explain(seat, action)

    def _already_submitted(self, seat: int) -> bool:
        hand = self.hands[seat]
        if hand.fantasyland:
            return hand.streets_done > 0
        return self.rules.simultaneous() and not self.normals_done() and hand.streets_done > self.street

    def explain(self, seat: int, action: Action) -> IllegalAction | None:
        if not isinstance(action, Place):
            return None
        hand = self.hands[seat]
        cards = action.cards
        if len(set(cards)) != len(cards):
            return IllegalAction("ofc.duplicate_card", "a card is listed twice")
        for card in cards:
            if card not in hand.pending:
                return IllegalAction("ofc.card_not_yours", f"{card} is not among your cards to place", card=str(card))
        discards = action.discards
        if discards and hand.discard_due == 0:
            return IllegalAction("ofc.no_discard", "no card may be discarded now")
        if len(discards) != hand.discard_due:
            return IllegalAction(
                "ofc.wrong_discard_count",
                f"discard exactly {hand.discard_due} card(s)",
                expected=hand.discard_due,
                got=len(discards),
            )
        if len(cards) != len(hand.pending):
            return IllegalAction(
                "ofc.wrong_card_count",
                f"place all {len(hand.pending)} cards dealt (discards included)",
                expected=len(hand.pending),
                got=len(cards),
            )
        for row in ROWS:
            if len(action.to(row)) > hand.free(row):
                return IllegalAction(
                    "ofc.row_full", f"the {row} row has room for {hand.free(row)} more", row=row, free=hand.free(row)
                )
        return None

    def _perform(self, seat: int, action: Action) -> None:
        assert isinstance(action, Place)
        hand = self.hands[seat]
        hidden = hand.fantasyland or self.rules.simultaneous()
        for row in ROWS:
            for card in action.to(row):
                hand.rows[row].append(card)
                if hidden:
                    hand.face_down.add(card)
        hand.discards.extend(action.discards)
        hand.pending = []
        hand.discard_due = 0
        hand.streets_done += 1
        placed = tuple(it for it in action.items if it[1] != "discard")
        count = len(action.items)
        if hidden:
            self._emit(ev.Placed(seat, count, face_down=True))
            self._emit(ev.Placed(seat, count, action.items, face_down=True, to=frozenset({seat})))
        else:
            self._emit(ev.Placed(seat, count, placed))
            if action.discards:
                self._emit(ev.Placed(seat, count, action.items, to=frozenset({seat})))
        if not hand.fantasyland:
            self._advance_street()
        self._maybe_finish()

    def _advance_street(self) -> None:
        normals = self.normal_seats()
        if self.rules.simultaneous():
            if any(self.hands[s].pending for s in normals):
                return
            turned: list[tuple[int, FrenchCard, str]] = []
            for s in normals:
                hand = self.hands[s]
                turned += [(s, c, row) for row in ROWS for c in hand.rows[row] if c in hand.face_down]
                hand.face_down.clear()
            self._emit(ev.StreetRevealed(self.street, tuple(turned)))
            self.street += 1
        else:
            self.turn_pos += 1
            if self.turn_pos == len(normals):
                self.turn_pos = 0
                self.street += 1
        self._deal_street()

    # ------------------------------------------------------------------ end of hand

    def _maybe_finish(self) -> None:
        if self.normals_done() and not any(h.pending for h in self.hands):
            self._finish_hand()

    def _finish_hand(self) -> None:
        scores: list[BoardScore] = [score_board(h.board(), self.rules) for h in self.hands]
        for h in self.hands:
            h.face_down.clear()
        self._emit(ev.BoardsRevealed(tuple(str(h.board()) for h in self.hands)))
        pairs = all_pairs(scores, self.rules.scoop())
        raw = [0] * self.seats
        debts: list[Debt] = []
        for p in pairs:
            raw[p.a] += p.points
            raw[p.b] -= p.points
            if p.points > 0:
                debts.append(Debt(p.b, p.a, p.points))
            elif p.points < 0:
                debts.append(Debt(p.a, p.b, -p.points))
        deltas = settle(debts, self.stacks, first=(self.dealer + 1) % self.seats)
        self.stacks = [s + d for s, d in zip(self.stacks, deltas, strict=False)]
        earned: dict[int, int] = {}
        for seat, (hand, score) in enumerate(zip(self.hands, scores, strict=False)):
            if hand.fantasyland:
                if stays(score, self.rules):
                    earned[seat] = self.rules.fl_cards_continue
            else:
                n = entry_cards(score, self.rules)
                if n is not None:
                    earned[seat] = n
        fl_next = dealt_counts(earned, self.seats, self.rules)
        self.last = LastHand(
            hand_no=self.hand_no,
            dealer=self.dealer,
            boards=tuple(str(h.board()) for h in self.hands),
            fantasyland=tuple(h.fantasyland for h in self.hands),
            scores=tuple(scores),
            pairs=tuple(pairs),
            points=tuple(raw),
            deltas=tuple(deltas),
            fantasyland_next=tuple(fl_next.get(s, 0) for s in range(self.seats)),
            fl_discards=tuple(" ".join(c.notation for c in h.discards) if h.fantasyland else "" for h in self.hands),
        )
        self._deal_ended(DealResult(self.hand_no, tuple(deltas), self.last.result()))
        self.fl_next = fl_next
        if not (fl_next and self.rules.freeze_dealer_during_fl):
            self.dealer = (self.dealer + 1) % self.seats
            self.button_moves += 1
        bankrupt = self.rules.bankruptcy_ends_game and any(s <= 0 for s in self.stacks)
        if bankrupt or self.button_moves >= self.rules.dealer_orbits * self.seats:
            self.over = True
            return
        self.hand_no += 1
        self._start_hand()

    # ------------------------------------------------------------------ views

    def public_view(self) -> OFCPublicView:
        return public_view(self)

    def view(self, seat: int) -> OFCSeatView:
        return seat_view(self, seat)

    def hidden_from(self, seat: int | None) -> frozenset[FrenchCard]:
        hidden: set[FrenchCard] = set(self.deck[self.deck_pos :])
        for s, hand in enumerate(self.hands):
            if s == seat:
                continue
            hidden |= hand.face_down
            hidden.update(hand.discards)
            if not self.pending_face_up(s):
                hidden.update(hand.pending)
        return frozenset(hidden)

    def pending_face_up(self, seat: int) -> bool:
        """Variant a deals a normal player's cards face up."""
        return self.rules.variant == "a" and not self.hands[seat].fantasyland

    def row_size(self, row: Row) -> int:
        return ROW_SIZE[row]
