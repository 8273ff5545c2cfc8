"""What a seat, or an onlooker, may see of a Hachi-Hachi Trick table.

Two frozen types, deliberately **not** related by inheritance, so hidden information is enforced by types: the
public table image takes only :class:`HachiPublicView`; a seat's ephemeral panel takes only
:class:`HachiSeatView`. Both carry the same table fields (``_TableFields``); the seat view adds that seat's own
cards, what its hand scores, its own secret split/fight choice and what it may play. Both rebuild this round's
finished tricks and the suits each declarer has shown void in (``trick_history``, ``shown_void``) from the cards
played, which everyone at the table saw: what a bot needs to reason about the hands it cannot see.

No view holds another seat's hand, a folded hand, a forced-out hand before its reveal, the other declarer's
split/fight choice before both chose, or the stock (only its turned indicator). Seats are numbered 0..n-1
clockwise; declarations always go clockwise from the start player, trick play in ``trick_direction``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from games.core.cards import FrenchCard
from games.hachi_hachi.results import HachiResult
from games.hachi_hachi.rules import HachiHachiRules
from games.hachi_hachi.tricks import winning_index
from games.hachi_hachi.yaku import HandValue

Phase = Literal["mizuten", "declare", "choose", "trick", "over"]
"""Where the round stands.

* ``mizuten``: before the deal, the start player declares Mizuten or not (no one holds cards yet);
* ``declare``: the players say ``play`` or ``fold`` in turn, clockwise from the start player;
* ``choose``: two declarers each choose ``split`` or ``fight``, at once and in secret;
* ``trick``: the declarers play the seven tricks;
* ``over``: the game has ended; ``winners`` is set.
"""

SeatState = Literal["out", "waiting", "to_speak", "play", "folded", "forced_out", "idle"]
"""A seat's part in the round: ``out`` (bust, left the table), ``idle`` (before the deal), ``waiting`` (not yet
asked), ``to_speak`` (declaring now), ``play`` (a declarer), ``folded``, ``forced_out``."""


@dataclass(frozen=True)
class SeatLine:
    """One seat as the table picture shows it."""

    seat: int
    state: SeatState
    declarer_no: int | None
    """1, 2 or 3 for D1-D3 (the order they declared Play); else None."""
    fee: int
    """Fold fee paid into the pot this round."""
    stack: int
    """Chips as of the last finished round."""
    stack_after_fees: int
    """``stack`` less this round's fold fee: what the seat holds now (other payments settle at the round's end)."""
    cards: int
    """Cards in hand (0 for a folder: his hand is discarded)."""
    tricks: int
    is_sp: bool


@dataclass(frozen=True)
class TrickPlay:
    seat: int
    card: FrenchCard


@dataclass(frozen=True)
class TrickView:
    """The trick in progress, or the last finished one of this round."""

    number: int
    """1..7."""
    leader: int
    led_suit: str | None
    plays: tuple[TrickPlay, ...]
    """In playing order, the lead first."""
    winning: int | None
    """The seat whose card is winning (or won) the trick; None before the lead."""
    complete: bool


@dataclass(frozen=True)
class RevealView:
    """A hand shown at hand settlement: a forced-out player's Aces and yaku cards, or a declarer's yaku cards."""

    seat: int
    role: Literal["forced_out", "declarer"]
    yaku: tuple[str, ...]
    """Keys of ``yaku_table`` rows scored (at most one Combination and one Weak-hand yaku)."""
    cards: tuple[FrenchCard, ...]
    aces: int
    normal: int
    """The normal column (what a declarer's hand is worth in hand settlement)."""
    forced_out: int
    """The forced-out column plus the Aces (what a forced-out player receives from each declarer, before M)."""


@dataclass(frozen=True, kw_only=True)
class _TableFields:
    rules: HachiHachiRules
    phase: Phase
    deal_no: int
    """Rounds dealt so far, the one in progress included (void rounds included)."""
    round_no: int
    """The round in progress counted towards ``rounds_total`` (1-based)."""
    rounds_total: int
    seats: int
    stacks: tuple[int, ...]
    """Chips as of the last finished round (the stacks change only when a round ends)."""
    stacks_after_fees: tuple[int, ...]
    seated: tuple[bool, ...]
    """Seats still in the game; a seat at 0 is bust and out."""
    sp: int
    """The start player (スタP): declares first and deals."""
    players: tuple[int, ...]
    """The seats taking part in this round, in declaration order (clockwise from ``sp``)."""
    lines: tuple[SeatLine, ...]
    """Every seat's state this round, by seat number."""
    mizuten_offered: bool
    mizuten: bool | None
    """The start player declared Mizuten (None: not decided yet)."""
    indicator: FrenchCard | None
    """The turned top card of the stock (None before the deal); its suit is trump."""
    trump: str | None
    field: str
    """``plain``, ``oba`` (大場) or ``zetsuba`` (絶場)."""
    mult: int
    """The field multiplier M."""
    speaker: int | None
    """During ``declare``: who declares now."""
    next_fee: int
    """During ``declare``: the fee the speaker would pay to fold now (before the stack cap)."""
    speaker_fee: int
    """During ``declare``: what folding really costs the speaker now: ``next_fee``, or his whole stack if smaller."""
    declarations: tuple[tuple[int, str], ...]
    """The declarations so far in order: (seat, ``play`` / ``fold`` / ``forced_out``)."""
    declarers: tuple[int, ...]
    """D1, D2, D3 in order."""
    forced_out: tuple[int, ...]
    fees: tuple[int, ...]
    """Fold fees paid this round, by seat."""
    pot_carried: int
    """The pot as the round began (carried over void rounds)."""
    pot: int
    """The pot now: ``pot_carried`` plus this round's fees."""
    choosing: tuple[int, ...]
    """During ``choose``: the declarers who have not chosen yet."""
    chosen: tuple[int, ...]
    """During ``choose``: the declarers who have chosen (what they chose stays secret until both have)."""
    choices: tuple[tuple[int, str], ...]
    """Both declarers' split/fight choices, once both have chosen; else empty."""
    split: bool | None
    reveals: tuple[RevealView, ...]
    """Hands shown at hand settlement this round, in order."""
    trick_order: tuple[int, ...]
    """The declarers in playing order from D1 (clockwise, or as ``trick_direction`` says)."""
    to_play: int | None
    """During ``trick``: whose card it is."""
    trick: TrickView | None
    last_trick: TrickView | None
    """The last finished trick of this round."""
    tricks: tuple[int, ...]
    """Tricks won this round, by seat."""
    played: tuple[FrenchCard, ...]
    """Every card played to a trick this round, in order."""
    to_act: tuple[int, ...]
    last_result: dict[str, Any] | None
    """JSON-ready summary of the last finished round (the ``DealResult.summary``), or None; :attr:`last_detail`
    reads it typed."""
    last_deltas: tuple[int, ...] | None
    game_over: bool
    winners: tuple[int, ...]
    """Once over: the seats with the most chips (equal totals share first place); else empty."""

    @cached_property
    def last_detail(self) -> HachiResult | None:
        """The last finished round's result, typed (``last_result`` read once)."""
        return None if self.last_result is None else HachiResult.from_json(self.last_result)

    @cached_property
    def trick_history(self) -> tuple[TrickView, ...]:
        """This round's finished tricks in order, as everyone at the table saw them played: rebuilt from
        ``played`` (D1 leads the first trick, the winner of each leads the next, play follows ``trick_order``)."""
        order = self.trick_order
        trump = self.trump
        if not order or trump is None:
            return ()
        n = len(order)
        out: list[TrickView] = []
        leader = order[0]
        for k in range(len(self.played) // n):
            cards = self.played[k * n : (k + 1) * n]
            first = order.index(leader)
            seats = [order[(first + i) % n] for i in range(n)]
            winner = seats[winning_index(cards, trump)]
            plays = tuple(TrickPlay(s, c) for s, c in zip(seats, cards, strict=True))
            out.append(TrickView(k + 1, leader, cards[0].suit, plays, winner, True))
            leader = winner
        return tuple(out)

    @cached_property
    def shown_void(self) -> dict[int, frozenset[str]]:
        """The suits each declarer has shown he no longer holds this round: he did not follow when one was led."""
        voids: dict[int, set[str]] = {}
        tricks = list(self.trick_history)
        if self.trick is not None and not self.trick.complete:
            tricks.append(self.trick)
        for trick in tricks:
            for play in trick.plays[1:]:
                if play.card.suit != trick.led_suit:
                    voids.setdefault(play.seat, set()).add(str(trick.led_suit))
        return {s: frozenset(v) for s, v in voids.items()}


@dataclass(frozen=True, kw_only=True)
class HachiPublicView(_TableFields):
    """What an onlooker (and the public table image) may see."""


@dataclass(frozen=True, kw_only=True)
class HachiSeatView(_TableFields):
    """What one seat may see: the public table plus its own cards, their value and its own choices."""

    seat: int
    playing: bool
    """This seat takes part in the round (it has chips)."""
    hand: tuple[FrenchCard, ...]
    """Its cards now, by suit (c, d, h, s) then rank; empty before the deal and after folding."""
    dealt: tuple[FrenchCard, ...]
    """The seven cards it was dealt this round (what its yaku are judged on)."""
    hand_value: HandValue | None
    """What its seven cards score under the table's yaku table (None before the deal)."""
    fold_fee: int
    """When declaring now: what folding would cost it (after the stack cap); else 0."""
    must_play: bool
    """When declaring now: it declared Mizuten and must play."""
    my_choice: str | None
    """Its own split/fight choice this round, once made."""
    legal_cards: tuple[FrenchCard, ...]
    """When it is to play a card: the cards it may play (must follow suit)."""
