"""What a seat, or an onlooker, may see of an Oicho-Kabu table.

Two frozen types, deliberately **not** related by inheritance, so hidden information is enforced
by types: the public table image takes only :class:`OichoPublicView`; a seat's ephemeral panel
takes only :class:`OichoSeatView`. Both carry the same table fields (``_TableFields``); the seat
view fills in the cards that seat may see and adds a few fields about that seat.

A card a viewer may not see is ``None`` in place of a :class:`KabuCard`, so a renderer draws a
card back there. Seats are 0..n-1 clockwise; piles are numbered 1..4 (P1..P4, 場札).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from games.core.cards import KabuCard
from games.oicho.rules import OichoRules

Phase = Literal["betting", "deciding", "dealer", "round_over", "game_over"]
"""Where the round stands.

* ``betting``: children take their betting turns, one at a time, clockwise from the dealer's left;
* ``deciding``: second extra card (決め札②) decisions, pile by pile P1→P4 (``current_pile``);
* ``dealer``: the dealer has taken his compulsory extra and may take one more (draw / stand);
* ``round_over``: the round is settled; the dealer chooses ``continue`` or ``resign``;
* ``game_over``: the game has ended; ``winners`` is set.
"""

HandKind = str
"""``"plain"``, ``"arashi"``, ``"kuppin"``, ``"shippin"`` or a local yaku key (``"gogo"`` …)."""


@dataclass(frozen=True)
class HandView:
    """A classified hand (only given when every card of it is visible to the viewer)."""

    points: int
    """0..9 (ブタ … カブ); i18n key ``oicho.points_<points>``."""
    tier: int
    """3 Arashi, 2 Kuppin/Shippin (dealer only), 1 local yaku, 0 plain."""
    kind: HandKind
    """``plain`` / ``arashi`` / ``kuppin`` / ``shippin`` / a local yaku key; i18n key ``oicho.hand_<kind>``."""
    multiplier: int
    """What this hand is paid at if it wins (1 for plain)."""


@dataclass(frozen=True)
class PileView:
    """One pile (場札) with its bets."""

    number: int
    """1..4."""
    cards: tuple[KabuCard | None, ...]
    """Pile card, first extra, second extra (as many as dealt); ``None`` = face down to this viewer."""
    face_down_first_extra: bool
    """The first extra was dealt face down (the pile had bets); it stays so until the showdown."""
    bets: tuple[tuple[int, int], ...]
    """Every bet as ``(seat, amount)`` in placement order."""
    total: int
    """Sum of the bets on this pile."""
    decider: int | None
    """Seat that decides the second extra for this pile (None before betting is over)."""
    decided: bool
    """The second-extra decision for this pile has been made (drawn or stood)."""
    hand: HandView | None
    """The pile's hand as a child's hand, when all its cards are visible to this viewer."""
    outcome: str | None
    """After the showdown: ``"pile"`` (bettors win), ``"dealer"``, ``"push"``, ``"unbet"``; else None."""
    multiplier: int
    """After the showdown: the multiplier paid on this pile (0 for a push / unbet); else 0."""


@dataclass(frozen=True)
class DealerHandView:
    """The dealer's own card (親の手札) and extras."""

    cards: tuple[KabuCard | None, ...]
    """Own card, compulsory extra, optional second extra (as dealt); ``None`` = hidden from this viewer."""
    hand: HandView | None
    """The dealer's hand, when all its cards are visible to this viewer."""


@dataclass(frozen=True)
class TenureView:
    """The current dealer's tenure (親の在任) and how often each seat has held the deal."""

    dealer: int
    rounds_held: int
    """Non-void rounds played in this tenure, including a round in progress once betting closed."""
    rounds_limit: int
    """``dealer_rounds``: the tenure ends after this many non-void rounds."""
    net: int
    """The dealer's net result during this tenure, in points."""
    tenures_held: tuple[int, ...]
    """Per seat: tenures completed (the game ends when every seat with chips reaches ``dealer_cycles``)."""


@dataclass(frozen=True)
class DealerDrawView:
    """The first-dealer draw (親決め): one list per drawing pass; later passes only among the tied."""

    passes: tuple[tuple[tuple[int, int], ...], ...]
    """Each pass is ``((seat, month), ...)`` in drawing order.

    Months, not :class:`KabuCard` objects: the drawn cards go back into the pack and are shuffled
    into the first deal, so carrying their identities here would look like a leak of hidden cards.
    """
    first_dealer: int


@dataclass(frozen=True, kw_only=True)
class _TableFields:
    phase: Phase
    round_no: int
    """The deal in progress (1-based; void rounds count here, though not towards a tenure)."""
    seats: int
    dealer: int
    stacks: tuple[int, ...]
    """Each seat's chips, in points (bets are not taken from stacks until settlement)."""
    active: tuple[bool, ...]
    """Seats with chips; a seat with 0 is bust and sits out."""
    cap: int
    """Cap on the sum of all bets this round: ``min(bank_cap, dealer stack // m)`` (胴前)."""
    cap_used: int
    cap_left: int
    piles: tuple[PileView, PileView, PileView, PileView]
    current_pile: int | None
    """During ``deciding``: the pile (1..4) whose second extra is being decided; else None."""
    to_act: tuple[int, ...]
    """Seats that must act now (sorted); empty when the game is over."""
    betting_seat: int | None
    """During ``betting``: the child whose betting turn it is."""
    betting_order: tuple[int, ...]
    """This round's children in betting order (clockwise from the dealer's left, bust seats left out)."""
    dealer_hand: DealerHandView
    maki_fuda: tuple[KabuCard, ...]
    """The four face-up information cards (まき札) when the option is on; else empty."""
    tenure: TenureView
    dealer_draw: DealerDrawView
    last_result: dict[str, Any] | None
    """JSON-ready summary of the last finished round (the ``DealResult.summary``), or None."""
    last_deltas: tuple[int, ...] | None
    """Per-seat point changes of the last finished round, or None."""
    game_over: bool
    winners: tuple[int, ...]
    """Once over: the seats with the most chips (shared first place); else empty."""


@dataclass(frozen=True, kw_only=True)
class OichoPublicView(_TableFields):
    """What an onlooker (and the public table image) may see."""


@dataclass(frozen=True, kw_only=True)
class OichoSeatView(_TableFields):
    """What one seat may see: the public table plus that seat's secrets.

    Children see the face-down first extras they are allowed to see (every bet pile by default,
    only piles they bet on with ``first_extra_visibility = pile_bettors``); the dealer sees his own
    card and extras and never a face-down first extra before the showdown.
    """

    seat: int
    is_dealer: bool
    rules: OichoRules
    """The table's house rules, which every seat agreed to when it sat down (what a bot needs to weigh a hand)."""
    my_bets: tuple[tuple[int, int], ...]
    """This seat's bets this round as ``(pile, amount)`` in placement order."""
    my_bet_total: int
    bet_max: int
    """During this seat's betting turn: the largest single bet it may still add (0 otherwise)."""
