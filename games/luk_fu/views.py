"""What a seat, or an onlooker, may see of a Luk Fu table.

Two frozen types, deliberately **not** related by inheritance, so hidden information is enforced by types: the
public table image takes only :class:`LukFuPublicView`; a seat's ephemeral panel takes only
:class:`LukFuSeatView`. Both carry the same table fields (``_TableFields``); in the seat view the trick
fields show that seat's own face-down cards, and a few fields about that seat are added.

A card a viewer may not see is ``None`` in place of a :class:`LukFuCard` (draw a card back there). Other
players' hands are only counted (``hand_sizes``), and the sitter's card and the dead card are only said to
exist (``sitter_has_card``, ``dead_card``). Seats are numbered 0..n-1 clockwise; Luk Fu plays
counter-clockwise, so a seat's next player is the previous number (``active`` lists the players in order of
play, parent first).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from games.core.cards import LukFuCard
from games.luk_fu.results import LukFuResult
from games.luk_fu.rules import LukFuRules

Phase = Literal["call", "tigers", "lead", "follow", "stop", "over"]
"""Where the hand stands.

* ``call``: the active players say ``play`` or ``pass`` in turn, parent first;
* ``tigers``: (``five_tigers_timing = after_call``) right after the call every active seat answers ``tigers``
  (only the holder can) or ``keep``, all at once;
* ``lead``: ``leader`` leads (or, holding Five Tigers at the right moment, reveals them);
* ``follow``: the next player follows the trick in progress;
* ``stop``: a trick winner holding 6 or more tricks chooses ``stop`` or ``continue``;
* ``over``: the game has ended; ``winners`` is set.
"""

PlayKind = Literal["single", "triple", "quad", "run", "tigers"]


@dataclass(frozen=True)
class PlayView:
    """One player's cards in a trick."""

    seat: int
    cards: tuple[LukFuCard | None, ...]
    """Face-up cards; a face-down follow is all ``None`` except in its own player's view."""
    face_down: bool
    winning: bool
    """This play is winning the trick now (or won it, in a finished trick)."""


@dataclass(frozen=True)
class TrickView:
    """A trick in progress, or the last finished one."""

    number: int
    """1-based count of leads this hand (a trick of N cards counts once here and N times in ``tricks``)."""
    leader: int
    kind: PlayKind
    size: int
    """Cards each player plays to it; the winner is credited this many tricks."""
    unbeatable: bool
    """1C, 1T or LT led singly, or the Five Tigers lead: nothing can beat it."""
    plays: tuple[PlayView, ...]
    """Lead first, then the follows in order of play."""
    winner: int | None
    """Once every player has played: who took it; else None."""


@dataclass(frozen=True, kw_only=True)
class _TableFields:
    rules: LukFuRules
    phase: Phase
    deal_no: int
    """The deal in progress (1-based; all-pass deals count)."""
    hands_total: int
    seats: int
    stacks: tuple[int, ...]
    """Each seat's chips, in points."""
    seated: tuple[bool, ...]
    """Seats still in the game (chips left); a seat at 0 is bust and out."""
    dealer: int
    parent: int
    """親: calls first and leads to the first trick (the dealer, except in the 4-player ``dealer_sits_out``
    layout, where it is the player opposite the dealer)."""
    sitter: int | None
    """4 players: the seat sitting out this hand (it holds one hidden card); else None."""
    sitter_has_card: bool
    dead_card: bool
    """3 players: one card lies face down, unseen and unused."""
    active: tuple[int, ...]
    """The three players of this hand, in order of play (counter-clockwise), parent first."""
    to_act: tuple[int, ...]
    calls: tuple[tuple[int, bool], ...]
    """The call so far: (seat, True for play / False for pass), in order."""
    caller: int | None
    """During ``call``: whose call it is."""
    declarer: int | None
    parent_passed: bool
    leader: int | None
    """During ``lead``: who leads; during ``follow``: who led the trick in progress."""
    follower: int | None
    """During ``follow``: who plays next."""
    trick: TrickView | None
    """The trick in progress (None between tricks)."""
    last_trick: TrickView | None
    """The last finished trick of this hand."""
    finished_tricks: tuple[TrickView, ...]
    """Every finished trick of this hand, in order (the last one is ``last_trick``): who played what face up,
    and how many cards face down (the viewer's own face-down cards shown to it alone). With the call, this is
    everything a player has seen of the others: what the must-beat rule lets it infer about their hands
    (a face-down follow proves its player held nothing that beat the play winning then)."""
    trick_no: int
    """Leads made this hand (including the one in progress)."""
    tricks_played: int
    """Tricks credited so far this hand (0..12)."""
    tricks: tuple[int, ...]
    """Tricks credited to each seat this hand (0 for seats not playing)."""
    winning_cards: tuple[tuple[LukFuCard, ...], ...]
    """Per seat: the face-up row of its own cards that won tricks (a Five Tigers reveal adds the five)."""
    captured: tuple[int, ...]
    """Per seat: how many other players' cards lie in its captured pile (face up and face down; contents not shown)."""
    hand_sizes: tuple[int, ...]
    """Cards in each seat's hand (the sitter's single card counts until the hand ends)."""
    reached_six: tuple[int, ...]
    """Seats that reached 6 tricks this hand, in order (the later one wins if two do)."""
    stop_seat: int | None
    """During ``stop``: the trick winner choosing stop or continue."""
    first_lead_limited: bool
    """The leader now is a parent who passed, leading to the first trick: at most 3 cards
    (``parent_pass_first_lead_max3``)."""
    tigers_waiting: tuple[int, ...]
    """During ``tigers``: seats yet to answer."""
    top_unplayed: tuple[int, int, int, int]
    """Per suit C, S, M, T: the rank of the highest card not yet played face up (T_s of §2.6; 0 if none)."""
    faceup_played: tuple[LukFuCard, ...]
    """Every card played face up this hand (leads and face-up follows), in the order played."""
    last_result: dict[str, Any] | None
    """JSON-ready summary of the last finished hand (the ``DealResult.summary``), or None; :attr:`last_detail`
    reads it typed."""
    last_deltas: tuple[int, ...] | None
    game_over: bool
    winners: tuple[int, ...]
    """Once over: the seats with the most chips (shared first place); else empty."""

    @cached_property
    def last_detail(self) -> LukFuResult | None:
        """The last finished hand's result, typed (``last_result`` read once)."""
        return None if self.last_result is None else LukFuResult.from_json(self.last_result)


@dataclass(frozen=True, kw_only=True)
class LukFuPublicView(_TableFields):
    """What an onlooker (and the public table image) may see."""


@dataclass(frozen=True, kw_only=True)
class LukFuSeatView(_TableFields):
    """What one seat may see: the public table plus that seat's own cards and what it may do with them."""

    seat: int
    playing: bool
    """This seat is one of the three active players of this hand."""
    hand: tuple[LukFuCard, ...]
    """Its cards, weakest suit first, rank ascending within a suit, LT first."""
    dealt: tuple[LukFuCard, ...]
    """The 12 cards it was dealt this hand (what ``public_sequence`` chains are judged on)."""
    own_discards: tuple[LukFuCard, ...]
    """Its own face-down follows this hand."""
    old: tuple[LukFuCard, ...]
    """Which of its cards are old now (for the single-lead restriction; §2.6)."""
    sitter_card: LukFuCard | None
    """The sitter's own single card (only in the sitter's view)."""
    holds_five_tigers: bool
    can_reveal_tigers: bool
    """``tigers`` is among its legal actions now."""
    lead_exempt: str | None
    """When it leads now: ``declarer`` / ``only_old`` (free single leads, §2.4 E1/E2), ``no_legal_lead`` (the
    fallback: any single), or None (restricted)."""
    lead_suit: str | None
    """When it leads now, restricted: the suit its single lead must come from (C/S/M/T), if the rule applies."""
    forbidden_singles: tuple[tuple[LukFuCard, str], ...]
    """When it leads now, restricted: each single it may not lead, with the reason (``old`` / ``wrong_suit``)."""
    must_play: int
    """When following: how many cards it must play; else 0."""
    can_beat: bool
    """When following: it holds a beating combination and must play one face up (must-beat)."""
