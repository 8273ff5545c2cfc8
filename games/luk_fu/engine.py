"""The Luk Fu state machine (rules.md §2).

Seats are numbered clockwise (§0.2); Luk Fu deals, calls and plays counter-clockwise, so a seat's next
player is the previous number. Three seats play each hand; at a 4-seat table one sits out (the sitter) as
``four_player_layout`` says. Only decisions wait for a seat: the call, the after-call Five Tigers question
(``after_call`` timing), leads, follows, and stop/continue at 6+ tricks. Everything else (the first-dealer
draw, shuffling, dealing, scoring, settling within the stacks, moving the deal, the next hand) happens by
itself inside ``apply``.

Chance steps, all through the injected shuffler:

* ``draw_dealer`` (once, deal 1): the seats with chips, in seat order, each take the next card of a shuffled
  pack; the highest card (rank, then suit C < S < M < T; LT lowest) deals first. A stacked order ``"9T"`` makes
  seat 0 the first dealer.
* ``deal`` (once per hand): packets of 12 from the top, to the active players in order of play starting with
  the parent (that is: 3 players, the dealer himself first; ``dealer_sits_out``, the player opposite him;
  ``opposite_sits_out``, the dealer), then the 37th card: the dead card (3 players) or the sitter's card.

Rule decisions beyond rules.md are marked ``Decision:`` in comments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar

from games.core.actions import Action, LegalAction
from games.core.cards import LUKFU_SUITS, LukFuCard, lukfu_deck, notation, parse_lukfu
from games.core.engine import DealResult, Engine
from games.core.errors import IllegalAction
from games.core.events import DealStarted
from games.core.results import Payment, for_snapshot, read, upgraded, write
from games.core.rng import Shuffler
from games.core.settlement import Debt, settle
from games.core.snapshot import encode
from games.luk_fu import actions as act
from games.luk_fu import events as ev
from games.luk_fu.combos import (
    FIVE_TIGERS,
    PERMANENT_OLD,
    RED,
    beating_plays,
    canonical,
    classify,
    combos,
    has_big_combination,
    holds_five_tigers,
    sitter_rank,
    strength_key,
    unbeatable_lead,
)
from games.luk_fu.old import SingleLeads, old_in_hand, single_leads, top_unplayed
from games.luk_fu.results import Call, EndedBy, FiveTigers, LoggedPlay, LoggedTrick, LukFuResult, Share
from games.luk_fu.rules import LukFuRules
from games.luk_fu.scoring import make_share, payments
from games.luk_fu.views import LukFuPublicView, LukFuSeatView, PlayView, TrickView

HAND = 12
WIN = 6

Plays = list[tuple[int, tuple[LukFuCard, ...], bool]]
"""A trick's plays in order: (seat, cards, face down)."""


@lru_cache(maxsize=2048)
def discard_choices(hand: tuple[LukFuCard, ...], count: int) -> tuple[act.Discard, ...]:
    """Every face-down follow of ``count`` cards from ``hand`` (at most C(12, 6) = 924)."""
    return tuple(act.Discard(combo) for combo in combinations(hand, count))


_CARD_BY_NOTATION: dict[str, LukFuCard] = {c.notation: c for c in lukfu_deck()}


@lru_cache(maxsize=4096)
def _public_trick(logged: LoggedTrick) -> TrickView:
    """A finished trick as everyone saw it: face-down follows only counted."""
    win = max(i for i, p in enumerate(logged.plays) if p.cards is not None)
    plays = tuple(
        PlayView(
            seat=p.seat,
            cards=tuple(_CARD_BY_NOTATION[t] for t in p.cards) if p.cards is not None else (None,) * (p.face_down or 0),
            face_down=p.cards is None,
            winning=i == win,
        )
        for i, p in enumerate(logged.plays)
    )
    led = tuple(_CARD_BY_NOTATION[t] for t in logged.plays[0].cards or ())
    return TrickView(
        number=logged.trick,
        leader=logged.leader,
        kind=classify(led) or "single",
        size=len(led),
        unbeatable=unbeatable_lead(led),
        plays=plays,
        winner=logged.winner,
    )


def _draw_key(card: LukFuCard) -> tuple[int, int]:
    return (card.rank, card.suit_order)


class LukFuEngine(Engine[LukFuRules]):
    """One Luk Fu table of 3 or 4 seats (``rules.players`` at most)."""

    game_id: ClassVar[str] = "luk_fu"

    def __init__(self, rules: LukFuRules, stacks: Sequence[int], shuffler: Shuffler) -> None:
        super().__init__(rules, stacks, shuffler)
        if not 3 <= self.seats <= rules.players:
            raise ValueError(f"Luk Fu is played by 3 to {rules.players} seats under these rules, not {self.seats}")
        n = self.seats
        self._deal = 0
        self.phase = "call"
        self.winners: list[int] = []
        self.first_dealer = 0
        self.dealer = 0
        self.parent = 0
        self.sitter: int | None = None
        self.active: list[int] = []
        self.last_result: DealResult[LukFuResult] | None = None
        # the hand in progress
        self.hands: list[list[LukFuCard]] = [[] for _ in range(n)]
        self.dealt: list[list[LukFuCard]] = [[] for _ in range(n)]
        self.sitter_card: LukFuCard | None = None
        self.dead: LukFuCard | None = None
        self.revealed = False
        self.calls: list[tuple[int, bool]] = []
        self.declarer: int | None = None
        self.tigers_waiting: list[int] = []
        self.leader: int | None = None
        self.follower: int | None = None
        self.trick_no = 0
        self.current: Plays = []
        self.win_index = 0
        self.last_trick: tuple[int, int, Plays, int, int] | None = None
        """(number, leader, plays, winner, index of the winning play) of the last finished trick."""
        self.tricks = [0] * n
        self.won_cards: list[list[LukFuCard]] = [[] for _ in range(n)]
        self.captured: list[list[LukFuCard]] = [[] for _ in range(n)]
        self.faceup: list[LukFuCard] = []
        self.own_discards: list[list[LukFuCard]] = [[] for _ in range(n)]
        self.caps: list[list[int]] = [[9, 9, 9, 9] for _ in range(n)]
        """Must-beat inference (§2.6): the highest rank of each suit (C, S, M, T) each seat may still hold."""
        self.reached_six: list[int] = []
        self.stop_seat: int | None = None
        self.revealer: int | None = None
        self.played: list[LoggedTrick] = []
        """The finished tricks of this hand, cards as text (face-down follows only counted)."""
        if len(self.seated()) < 3:
            # Decision: a table opened with fewer than three seats holding chips is over at once.
            self._game_over()
            return
        self._draw_first_dealer()
        self._start_deal()

    def snapshot(self) -> dict[str, Any]:
        state = super().snapshot()
        # Results stay JSON in a snapshot (games.core.results.for_snapshot), this hand's tricks too.
        state["last_result"] = encode(for_snapshot(self.last_result))
        state["played"] = encode([write(t) for t in self.played])
        return state

    @classmethod
    def restore(cls, rules: LukFuRules, state: dict[str, Any], shuffler: Shuffler) -> Engine[LukFuRules]:
        engine = super().restore(rules, state, shuffler)
        assert isinstance(engine, LukFuEngine)
        engine.last_result = upgraded(engine.last_result, LukFuResult)
        engine.played = [read(LoggedTrick, t) for t in engine.played]
        return engine

    # ================================================================= contract

    @property
    def deal_no(self) -> int:
        return self._deal

    def to_act(self) -> frozenset[int]:
        phase = self.phase
        if phase == "call":
            return frozenset({self.active[len(self.calls)]})
        if phase == "tigers":
            return frozenset(self.tigers_waiting)
        if phase == "lead":
            assert self.leader is not None
            return frozenset({self.leader})
        if phase == "follow":
            assert self.follower is not None
            return frozenset({self.follower})
        if phase == "stop":
            assert self.stop_seat is not None
            return frozenset({self.stop_seat})
        return frozenset()

    def legal_actions(self, seat: int) -> list[LegalAction]:
        if seat not in self.to_act():
            return []
        phase = self.phase
        if phase == "call":
            return [act.Play(), act.Pass()]
        if phase == "tigers":
            if holds_five_tigers(self.hands[seat]):
                return [act.Tigers(), act.Keep()]
            return [act.Keep()]
        if phase == "lead":
            out: list[LegalAction] = [act.Lead(p) for p in self.lead_plays(seat)]
            if self.may_reveal_at_lead(seat):
                out.append(act.Tigers())
            return out
        if phase == "follow":
            beats = self.beating(seat)
            if beats:
                return [act.Follow(p) for p in beats]
            return list(discard_choices(tuple(self.hands[seat]), self.trick_size))
        return [act.Stop(), act.Continue()]

    def refusal(self, seat: int, action: Action) -> IllegalAction | None:
        """As the base class, but a follow is checked directly (a face-down follow may have 924 choices)."""
        if not 0 <= seat < self.seats:
            return IllegalAction("core.no_such_seat", f"there is no seat {seat}", seat=seat)
        if self.phase == "over":
            return IllegalAction("core.game_over", "the game is over")
        if seat not in self.to_act():
            return IllegalAction("core.not_your_turn", "it is not this seat's turn", seat=seat)
        if self._allowed(seat, action):
            return None
        return self.explain(seat, action) or IllegalAction(
            "core.not_allowed", f"{action.text!r} is not allowed now", action=action.text
        )

    def _allowed(self, seat: int, action: Action) -> bool:
        if self.phase != "follow":
            return action in self.legal_actions(seat)
        if isinstance(action, act.Follow):
            return action.cards in self.beating(seat)
        if isinstance(action, act.Discard):
            cards = action.cards
            hand = self.hands[seat]
            return (
                len(cards) == self.trick_size
                and len(set(cards)) == len(cards)
                and all(c in hand for c in cards)
                and not self.beating(seat)
            )
        return False

    def explain(self, seat: int, action: Action) -> IllegalAction | None:
        phase = self.phase
        expected: dict[str, tuple[type[Action], ...]] = {
            "call": (act.Play, act.Pass),
            "tigers": (act.Tigers, act.Keep),
            "lead": (act.Lead, act.Tigers),
            "follow": (act.Follow, act.Discard),
            "stop": (act.Stop, act.Continue),
        }
        if not isinstance(action, expected.get(phase, ())):
            return IllegalAction(
                "luk_fu.wrong_phase", f"{action.verb!r} is not possible now ({phase})", phase=phase, verb=action.verb
            )
        hand = self.hands[seat]
        if isinstance(action, act.Tigers):
            if not self.rules.five_tigers_enabled:
                return IllegalAction("luk_fu.five_tigers_off", "Five Tigers are not played at this table")
            if not holds_five_tigers(hand):
                return IllegalAction("luk_fu.no_five_tigers", "you do not hold 1C 1S 1M 1T and LT")
            return IllegalAction(
                "luk_fu.five_tigers_timing",
                "Five Tigers may not be revealed now",
                timing=self.rules.five_tigers_timing,
            )
        if not isinstance(action, act.CardsAction):
            return None
        cards = action.cards
        if len(set(cards)) != len(cards):
            return IllegalAction("luk_fu.card_repeated", "a card is named twice")
        for card in cards:
            if card not in hand:
                return IllegalAction("luk_fu.card_not_in_hand", f"{card} is not in your hand", card=card.notation)
        if isinstance(action, act.Lead):
            return self._explain_lead(seat, cards)
        size = self.trick_size
        if len(cards) != size:
            return IllegalAction("luk_fu.wrong_count", f"play exactly {size} card(s)", expected=size, got=len(cards))
        beats = self.beating(seat)
        if isinstance(action, act.Discard):
            if beats:
                return IllegalAction(
                    "luk_fu.must_beat",
                    "you hold cards that beat the trick and must play them face up",
                    options=" / ".join(notation(p) for p in beats),
                )
            return None
        if not beats:
            return IllegalAction(
                "luk_fu.cannot_beat", "nothing in your hand beats the trick: play face down", count=size
            )
        return IllegalAction(
            "luk_fu.does_not_beat",
            f"{notation(cards)} does not beat {notation(self.current[self.win_index][1])}",
            cards=notation(cards),
            winning=notation(self.current[self.win_index][1]),
            options=" / ".join(notation(p) for p in beats),
        )

    def _explain_lead(self, seat: int, cards: tuple[LukFuCard, ...]) -> IllegalAction | None:
        kind = classify(cards)
        if kind is None:
            return IllegalAction(
                "luk_fu.not_a_combination",
                f"{notation(cards)} is not a lead: one card, a triple, a quad or a run of 3+ in one suit",
                cards=notation(cards),
            )
        if kind == "tigers" and not (self.rules.five_tigers_enabled and self.rules.five_tigers_lead):
            return IllegalAction("luk_fu.five_tigers_lead_off", "the Five Tigers may not be led as one play here")
        if kind != "tigers" and len(cards) >= 4 and self.first_lead_limited(seat):
            return IllegalAction(
                "luk_fu.first_lead_limit",
                "a parent who passed may lead at most 3 cards to the first trick",
                max=3,
            )
        if kind == "single":
            singles = self.single_options(seat)
            for card, reason in singles.forbidden:
                if card == cards[0]:
                    if reason == "old":
                        return IllegalAction(
                            "luk_fu.old_card", f"{card} is an old card and may not be led singly", card=card.notation
                        )
                    return IllegalAction(
                        "luk_fu.wrong_suit",
                        f"a single lead must come from your highest suit with a non-old card ({singles.suit})",
                        card=card.notation,
                        suit=singles.suit,
                    )
        return None

    def _perform(self, seat: int, action: Action) -> None:
        if isinstance(action, (act.Play, act.Pass)):
            self._call(seat, isinstance(action, act.Play))
        elif isinstance(action, act.Keep):
            self.tigers_waiting.remove(seat)
            self._emit(ev.TigersDeclined(seat))
            if not self.tigers_waiting:
                self._begin_play()
        elif isinstance(action, act.Tigers):
            self._reveal_tigers(seat)
        elif isinstance(action, act.Lead):
            self._lead(seat, action.cards)
        elif isinstance(action, (act.Follow, act.Discard)):
            self._follow(seat, action.cards, face_down=isinstance(action, act.Discard))
        elif isinstance(action, act.Stop):
            self._emit(ev.StopChosen(seat, True))
            self._end_hand("stop", seat)
        elif isinstance(action, act.Continue):
            self._emit(ev.StopChosen(seat, False))
            self.stop_seat = None
            self.leader = seat
            self.phase = "lead"

    # ================================================================= queries

    def seated(self) -> list[int]:
        """Seats still in the game (chips left)."""
        return [s for s in range(self.seats) if self.stacks[s] > 0]

    def next_player(self, seat: int) -> int:
        """The next active player counter-clockwise (the seat's right-hand neighbour among the players)."""
        i = self.active.index(seat)
        return self.active[(i + 1) % len(self.active)]

    @property
    def trick_size(self) -> int:
        return len(self.current[0][1]) if self.current else 0

    @property
    def parent_passed(self) -> bool:
        return bool(self.calls) and self.calls[0] == (self.parent, False)

    def first_lead_limited(self, seat: int) -> bool:
        """The parent passed and leads to the first trick: no lead of 4 or more cards (§2.4)."""
        return (
            self.rules.parent_pass_first_lead_max3 and self.trick_no == 0 and seat == self.parent and self.parent_passed
        )

    def old_cards(self, seat: int) -> set[LukFuCard]:
        """The cards of ``seat``'s hand that are old for it now (§2.6)."""
        hand = self.hands[seat]
        if not hand:
            return set()
        faceup = set(self.faceup)
        own = set(self.own_discards[seat])
        dealt = set(self.dealt[seat])
        others = [self.caps[o] for o in self.active if o != seat]
        return old_in_hand(
            set(hand), mode=self.rules.old_card_mode, faceup=faceup, own_discards=own, dealt=dealt, other_caps=others
        )

    def single_options(self, seat: int) -> SingleLeads:
        """The single cards ``seat`` may lead now under the restriction of §2.4 (before the no-lead fallback)."""
        rules = self.rules
        return single_leads(
            self.hands[seat],
            self.old_cards(seat),
            is_declarer=seat == self.declarer,
            exempt_declarer=rules.old_lead_exempt_declarer,
            exempt_only_old=rules.old_lead_exempt_only_old_left,
            highest_suit=rules.single_lead_highest_suit,
        )

    def lead_analysis(self, seat: int) -> tuple[SingleLeads, list[tuple[LukFuCard, ...]], bool]:
        """(single-lead restriction, legal leads of several cards, whether the no-legal-lead fallback applies)."""
        hand = tuple(self.hands[seat])
        singles = self.single_options(seat)
        multi = list(combos(hand))
        if self.first_lead_limited(seat):
            multi = [m for m in multi if len(m) <= 3]
        if self.rules.five_tigers_enabled and self.rules.five_tigers_lead and holds_five_tigers(hand):
            # Decision: the five-card lead is a lead like any other: open at every lead of the holder, whatever
            # ``five_tigers_timing`` says (that option times the reveal), and only while Five Tigers are played.
            multi.append(canonical(FIVE_TIGERS))
        # rules.md §2.4 [D]: with no legal lead of any type, every single card is a legal lead.
        fallback = not singles.allowed and not multi
        return singles, multi, fallback

    def lead_plays(self, seat: int) -> list[tuple[LukFuCard, ...]]:
        """Every legal lead of ``seat``: singles first, then triples, quads, runs (and the Five Tigers lead)."""
        singles, multi, fallback = self.lead_analysis(seat)
        ones = self.hands[seat] if fallback else singles.allowed
        return [(c,) for c in ones] + multi

    def may_reveal_at_lead(self, seat: int) -> bool:
        rules = self.rules
        return (
            rules.five_tigers_enabled and rules.five_tigers_timing == "at_lead" and holds_five_tigers(self.hands[seat])
        )

    def beating(self, seat: int) -> tuple[tuple[LukFuCard, ...], ...]:
        """The plays of ``seat`` that beat the play winning the trick in progress (must-beat)."""
        if not self.current:
            return ()
        winning = self.current[self.win_index][1]
        return beating_plays(tuple(self.hands[seat]), winning, self.win_index == 0, self.rules.ones_set_rank == "high")

    # ================================================================= dealing

    def _draw_first_dealer(self) -> None:
        # Decision: rules.md leaves the method open ("the bot: random"): the seats with chips, in seat order,
        # each take the next card of a shuffled pack, and the highest card deals (rank, then suit; LT lowest).
        pack = self.shuffler.shuffle(lukfu_deck(), parse_lukfu, deal=1, purpose="draw_dealer")
        drawers = self.seated()
        draws = list(zip(drawers, pack, strict=False))
        self.dealer = self.first_dealer = max(draws, key=lambda d: _draw_key(d[1]))[0]
        self._emit(ev.DealerChosen(self.dealer, tuple((s, c.notation) for s, c in draws)))

    def _start_deal(self) -> None:
        rules = self.rules
        n = self.seats
        self._deal += 1
        seated = self.seated()
        dealer = self.dealer
        if len(seated) == 4:
            opposite = (dealer + 2) % 4
            if rules.four_player_layout == "dealer_sits_out":
                self.sitter, self.parent = dealer, opposite
            else:
                self.sitter, self.parent = opposite, dealer
        else:
            self.sitter, self.parent = None, dealer
        players = [s for s in seated if s != self.sitter]
        self.active = sorted(players, key=lambda s: (self.parent - s) % n)
        deck = self.shuffler.shuffle(lukfu_deck(), parse_lukfu, deal=self._deal, purpose="deal")
        # Decision: "batch size does not matter" (§2.2): packets of 12 in order of play from the parent (the
        # dealing order of §2.2 in every layout), then the dead card or the sitter's card, dealt last.
        self.hands = [[] for _ in range(n)]
        for i, seat in enumerate(self.active):
            self.hands[seat] = list(canonical(deck[i * HAND : (i + 1) * HAND]))
        self.dealt = [list(h) for h in self.hands]
        extra = deck[len(self.active) * HAND]
        self.sitter_card = extra if self.sitter is not None else None
        self.dead = None if self.sitter is not None else extra
        self.revealed = False
        self.calls = []
        self.declarer = None
        self.tigers_waiting = []
        self.leader = None
        self.follower = None
        self.trick_no = 0
        self.current = []
        self.win_index = 0
        self.last_trick = None
        self.tricks = [0] * n
        self.won_cards = [[] for _ in range(n)]
        self.captured = [[] for _ in range(n)]
        self.faceup = []
        self.own_discards = [[] for _ in range(n)]
        self.caps = [[9, 9, 9, 9] for _ in range(n)]
        self.reached_six = []
        self.stop_seat = None
        self.revealer = None
        self.played = []
        self.phase = "call"
        self._emit(DealStarted(self._deal))
        self._emit(ev.DealSetUp(self._deal, dealer, self.parent, self.sitter, tuple(self.active)))
        for seat in self.active:
            self._emit(ev.HandDealt(seat, tuple(self.hands[seat]), to=frozenset({seat})))
        if self.sitter is not None and self.sitter_card is not None:
            self._emit(ev.HandDealt(self.sitter, (self.sitter_card,), to=frozenset({self.sitter})))

    # ================================================================= call

    def _call(self, seat: int, play: bool) -> None:
        self.calls.append((seat, play))
        self._emit(ev.Called(seat, play))
        if play:
            self.declarer = seat
            if self.rules.five_tigers_enabled and self.rules.five_tigers_timing == "after_call":
                # Decision: every active seat answers (tigers / keep) at once, so that being asked does not
                # betray the holder; a seat without the five can only keep.
                self.phase = "tigers"
                self.tigers_waiting = sorted(self.active)
            else:
                self._begin_play()
        elif len(self.calls) == len(self.active):
            self._emit(ev.AllPassed(self._deal))
            self._end_hand("all_passed", None)

    def _begin_play(self) -> None:
        self.tigers_waiting = []
        self.leader = self.parent
        self.phase = "lead"

    # ================================================================= tricks

    def _take(self, seat: int, cards: Sequence[LukFuCard]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)

    def _lead(self, seat: int, cards: tuple[LukFuCard, ...]) -> None:
        self._take(seat, cards)
        self.faceup.extend(cards)
        self.trick_no += 1
        self.current = [(seat, cards, False)]
        self.win_index = 0
        kind = classify(cards) or "single"
        self._emit(ev.Led(seat, self.trick_no, cards, kind, unbeatable_lead(cards)))
        self.leader = seat
        self.follower = self.next_player(seat)
        self.phase = "follow"

    def _follow(self, seat: int, cards: tuple[LukFuCard, ...], *, face_down: bool) -> None:
        self._take(seat, cards)
        if face_down:
            self.own_discards[seat].extend(cards)
            if len(cards) == 1:
                winning = self.current[self.win_index][1][0]
                led_unbeatable = self.win_index == 0 and winning in PERMANENT_OLD
                if not winning.is_li_tyen and not led_unbeatable:
                    # §2.6 inference: playing face down shows no card of this suit above the winning one.
                    s = winning.suit_order
                    self.caps[seat][s] = min(self.caps[seat][s], winning.rank)
            self._emit(ev.Discarded(seat, self.trick_no, len(cards)))
            self._emit(ev.Discarded(seat, self.trick_no, len(cards), cards, to=frozenset({seat})))
        else:
            self.faceup.extend(cards)
            self.win_index = len(self.current)
            self._emit(ev.Followed(seat, self.trick_no, cards))
        self.current.append((seat, cards, face_down))
        if len(self.current) < len(self.active):
            self.follower = self.next_player(seat)
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        plays = self.current
        winner, cards, _ = plays[self.win_index]
        count = len(cards)
        before = self.tricks[winner]
        self.tricks[winner] += count
        self.won_cards[winner].extend(cards)
        for _seat, played, _down in plays:
            self.captured[winner].extend(played)
        assert self.leader is not None
        self.last_trick = (self.trick_no, self.leader, plays, winner, self.win_index)
        self.played.append(
            LoggedTrick(
                trick=self.trick_no,
                leader=self.leader,
                winner=winner,
                count=count,
                plays=tuple(
                    LoggedPlay(s, face_down=len(c)) if down else LoggedPlay(s, cards=tuple(x.notation for x in c))
                    for s, c, down in plays
                ),
            )
        )
        self.current = []
        self.win_index = 0
        self.follower = None
        self._emit(ev.TrickWon(winner, self.trick_no, cards, count, self.tricks[winner]))
        if before < WIN <= self.tricks[winner]:
            self.reached_six.append(winner)
        if not self.hands[winner]:
            self._end_hand("all_played", None)
        elif self.tricks[winner] >= WIN:
            self.stop_seat = winner
            self.leader = None
            self.phase = "stop"
            self._emit(ev.StopOffered(winner, self.tricks[winner]))
        else:
            self.leader = winner
            self.phase = "lead"

    def _reveal_tigers(self, seat: int) -> None:
        # The five go face up into the revealer's row of winning cards (§2.7: they count as his winning cards
        # for the red bonus, in either scope, and for the sitter bonus).
        five = canonical(FIVE_TIGERS)
        self._take(seat, five)
        self.faceup.extend(five)
        self.won_cards[seat].extend(five)
        self.captured[seat].extend(five)
        credit = min(HAND, self.tricks[seat] + self.rules.five_tigers_tricks)
        self.tricks[seat] = credit
        self.revealer = seat
        self.tigers_waiting = []
        self._emit(ev.FiveTigersRevealed(seat, five, credit))
        self._end_hand("five_tigers", seat)

    # ================================================================= end of hand

    def _end_hand(self, ended_by: EndedBy, winner: int | None) -> None:
        rules = self.rules
        n = self.seats
        if ended_by == "all_played":
            winner = self.reached_six[-1] if self.reached_six else None
        self.phase = "settling"
        self.leader = self.follower = self.stop_seat = None
        self.revealed = True
        losers = [s for s in self.active if s != winner]
        share_info: Share | None = None
        paid: tuple[Payment, ...] = ()
        debts: list[Debt] = []
        penalty = False
        bonus = False
        share_value = 0
        matches: list[str] = []
        if winner is not None:
            scope = self.won_cards[winner] if rules.red_scope == "own_winning_cards" else self.captured[winner]
            reds = sum(1 for c in scope if c in RED) if rules.red_bonus else 0
            share = make_share(self.tricks[winner], big_hand_multiplier=rules.big_hand_multiplier, reds=reds)
            share_value = share.value
            penalty = (
                rules.parent_pass_penalty
                and winner == self.parent
                and self.parent_passed
                and self.declarer in losers
                and has_big_combination(self.dealt[self.parent])
            )
            if self.sitter is not None and self.sitter_card is not None and rules.dealer_bonus:
                want = sitter_rank(self.sitter_card)
                matches = [c.notation for c in self.won_cards[winner] if sitter_rank(c) == want]
                bonus = bool(matches)
            owed = payments(
                winner=winner,
                losers=losers,
                declarer=self.declarer,
                share=share.value,
                declarer_pays_double=rules.declarer_pays_double,
                parent_penalty=penalty,
                sitter=self.sitter,
                sitter_bonus=bonus,
            )
            debts = [Debt(p.payer, p.payee, p.amount) for p in owed]
            paid = tuple(Payment(p.payer, p.payee, p.amount, p.kind) for p in owed)
            # Decision: red cards are listed only for the own-winning-cards scope; captured piles hold
            # others' face-down cards, which stay unseen (only their count shows in ``reds``).
            listed = rules.red_bonus and rules.red_scope == "own_winning_cards"
            share_info = Share(
                tricks=share.tricks,
                base=share.base,
                multiplier=share.multiplier,
                reds=share.reds,
                share=share.value,
                red_scope=rules.red_scope if rules.red_bonus else None,
                red_cards=tuple(c.notation for c in scope if c in RED) if listed else None,
            )
        owed_points = [0] * n
        for d in debts:
            owed_points[d.payer] -= d.amount
            owed_points[d.payee] += d.amount
        before = list(self.stacks)
        deltas = settle(debts, self.stacks, first=(self.dealer + 1) % n) if debts else [0] * n
        for s in range(n):
            self.stacks[s] += deltas[s]
        next_dealer = self._next_dealer(ended_by, winner)
        summary = LukFuResult(
            deal=self._deal,
            dealer=self.dealer,
            parent=self.parent,
            sitter=self.sitter,
            active=tuple(self.active),
            calls=tuple(Call(s, "play" if p else "pass") for s, p in self.calls),
            declarer=self.declarer,
            ended_by=ended_by,
            winner=winner,
            tricks=tuple(self.tricks),
            winning_cards=tuple(tuple(c.notation for c in cards) for cards in self.won_cards),
            five_tigers=None if self.revealer is None else FiveTigers(self.revealer, self.tricks[self.revealer]),
            share=share_info,
            parent_penalty=penalty,
            sitter_card=self.sitter_card.notation if self.sitter_card is not None else None,
            sitter_bonus=bonus,
            sitter_matches=tuple(matches),
            payments=paid,
            owed=tuple(owed_points),
            deltas=tuple(deltas),
            trick_log=tuple(self.played),
            next_dealer=next_dealer,
        )
        self._emit(
            ev.HandResult(
                self._deal,
                winner,
                ended_by,
                tuple(self.tricks),
                share_value,
                tuple(deltas),
                self.sitter_card,
                bonus,
            )
        )
        result = DealResult(self._deal, tuple(deltas), summary)
        self.last_result = result
        self._deal_ended(result)
        seated = self.seated()
        # Decision: ``bust_ends_game`` ends the game when a seat's chips fall to 0 in this deal.
        bust_now = any(before[s] > 0 and self.stacks[s] == 0 for s in range(n))
        if self._deal >= rules.hands_total or len(seated) < 3 or (rules.bust_ends_game and bust_now):
            self._game_over()
            return
        self.dealer = next_dealer
        self._start_deal()

    def _next_dealer(self, ended_by: str, winner: int | None) -> int:
        """§2.10: a playing dealer who won deals again; the deal stays after a no-winner hand the parent declared
        (option); otherwise it moves to the right, to the next seat with chips (§0.4)."""
        rules = self.rules
        stay = False
        if ended_by != "all_passed":
            if winner is not None:
                stay = rules.dealer_repeats_on_win and winner == self.dealer
            else:
                stay = rules.stay_if_parent_declared_and_no_winner and self.declarer == self.parent
        if stay and self.stacks[self.dealer] > 0:
            return self.dealer
        for k in range(1, self.seats + 1):
            seat = (self.dealer - k) % self.seats
            if self.stacks[seat] > 0:
                return seat
        return self.dealer

    def _game_over(self) -> None:
        self.phase = "over"
        self.leader = self.follower = self.stop_seat = None
        self.tigers_waiting = []
        best = max(self.stacks)
        self.winners = [s for s in range(self.seats) if self.stacks[s] == best]

    # ================================================================= visibility

    def hidden_from(self, seat: int | None) -> frozenset[LukFuCard]:
        hidden: set[LukFuCard] = set()
        for s in range(self.seats):
            if s != seat:
                hidden.update(self.hands[s])
                hidden.update(self.own_discards[s])
        if self.dead is not None:
            # Decision: the dead card is never shown, not even after the hand ("unseen and unused", §2.2).
            hidden.add(self.dead)
        if self.sitter_card is not None and not self.revealed and seat != self.sitter:
            hidden.add(self.sitter_card)
        return frozenset(hidden)

    # ================================================================= views

    def _trick_view(
        self, number: int, leader: int, plays: Plays, winner: int | None, win_index: int, viewer: int | None
    ) -> TrickView:
        lead = plays[0][1]
        kind = classify(lead) or "single"
        return TrickView(
            number=number,
            leader=leader,
            kind=kind,
            size=len(lead),
            unbeatable=unbeatable_lead(lead),
            plays=tuple(
                PlayView(
                    seat=s,
                    cards=tuple(cards) if not down or s == viewer else (None,) * len(cards),
                    face_down=down,
                    winning=i == win_index,
                )
                for i, (s, cards, down) in enumerate(plays)
            ),
            winner=winner,
        )

    def _finished_tricks(self, viewer: int | None) -> tuple[TrickView, ...]:
        """This hand's finished tricks as ``viewer`` saw them (read back from the trick log, which counts the
        face-down follows; the viewer's own come from its discards, in the order it made them)."""
        own = iter(self.own_discards[viewer]) if viewer is not None else iter(())
        out: list[TrickView] = []
        for logged in self.played:
            public = _public_trick(logged)
            if not any(p.seat == viewer and p.cards is None for p in logged.plays):
                out.append(public)
                continue
            plays = tuple(
                replace(pv, cards=tuple(next(own) for _ in pv.cards)) if pv.seat == viewer and pv.face_down else pv
                for pv in public.plays
            )
            out.append(replace(public, plays=plays))
        return tuple(out)

    def _table(self, viewer: int | None) -> dict[str, Any]:
        n = self.seats
        trick = None
        if self.current:
            assert self.leader is not None
            trick = self._trick_view(self.trick_no, self.leader, self.current, None, self.win_index, viewer)
        last = None
        if self.last_trick is not None:
            number, leader, plays, winner, win_index = self.last_trick
            last = self._trick_view(number, leader, plays, winner, win_index, viewer)
        faceup = set(self.faceup)
        tops = tuple(top_unplayed(s, faceup) for s in LUKFU_SUITS)
        sizes = [len(h) for h in self.hands]
        if self.sitter is not None and self.sitter_card is not None and not self.revealed:
            sizes[self.sitter] = 1
        result = self.last_result
        leading = self.leader if self.phase == "lead" else None
        return {
            "rules": self.rules,
            "phase": self.phase,
            "deal_no": self._deal,
            "hands_total": self.rules.hands_total,
            "seats": n,
            "stacks": tuple(self.stacks),
            "seated": tuple(s > 0 for s in self.stacks),
            "dealer": self.dealer,
            "parent": self.parent,
            "sitter": self.sitter,
            "sitter_has_card": self.sitter_card is not None,
            "dead_card": self.dead is not None,
            "active": tuple(self.active),
            "to_act": tuple(sorted(self.to_act())),
            "calls": tuple(self.calls),
            "caller": self.active[len(self.calls)] if self.phase == "call" else None,
            "declarer": self.declarer,
            "parent_passed": self.parent_passed,
            "leader": self.leader if self.phase in ("lead", "follow") else None,
            "follower": self.follower if self.phase == "follow" else None,
            "trick": trick,
            "last_trick": last,
            "finished_tricks": self._finished_tricks(viewer),
            "trick_no": self.trick_no,
            "tricks_played": sum(self.tricks),
            "tricks": tuple(self.tricks),
            "winning_cards": tuple(tuple(cards) for cards in self.won_cards),
            "captured": tuple(len(self.captured[s]) - len(self.won_cards[s]) for s in range(n)),
            "hand_sizes": tuple(sizes),
            "reached_six": tuple(self.reached_six),
            "stop_seat": self.stop_seat if self.phase == "stop" else None,
            "first_lead_limited": leading is not None and self.first_lead_limited(leading),
            "tigers_waiting": tuple(self.tigers_waiting),
            "top_unplayed": (tops[0], tops[1], tops[2], tops[3]),
            "faceup_played": tuple(self.faceup),
            "last_result": result.summary if result else None,
            "last_deltas": result.deltas if result else None,
            "game_over": self.phase == "over",
            "winners": tuple(self.winners),
        }

    def public_view(self) -> LukFuPublicView:
        return LukFuPublicView(**self._table(None))

    def view(self, seat: int) -> LukFuSeatView:
        table = self._table(seat)
        hand = self.hands[seat]
        leading = self.phase == "lead" and self.leader == seat
        following = self.phase == "follow" and self.follower == seat
        exempt: str | None = None
        suit: str | None = None
        forbidden: tuple[tuple[LukFuCard, str], ...] = ()
        if leading:
            singles, _multi, fallback = self.lead_analysis(seat)
            if fallback:
                exempt = "no_legal_lead"
            else:
                exempt, suit, forbidden = singles.exempt, singles.suit, singles.forbidden
        old = self.old_cards(seat) if seat in self.active and self.phase != "over" else set()
        return LukFuSeatView(
            **table,
            seat=seat,
            playing=seat in self.active,
            hand=tuple(sorted(hand, key=strength_key)),
            dealt=tuple(sorted(self.dealt[seat], key=strength_key)),
            own_discards=tuple(self.own_discards[seat]),
            old=tuple(c for c in sorted(hand, key=strength_key) if c in old),
            sitter_card=self.sitter_card if seat == self.sitter else None,
            holds_five_tigers=holds_five_tigers(hand),
            can_reveal_tigers=(leading and self.may_reveal_at_lead(seat))
            or (seat in self.tigers_waiting and holds_five_tigers(hand)),
            lead_exempt=exempt,
            lead_suit=suit,
            forbidden_singles=forbidden,
            must_play=self.trick_size if following else 0,
            can_beat=bool(self.beating(seat)) if following else False,
        )
