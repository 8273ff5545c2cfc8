"""What happens at a Hachi-Hachi Trick table, step by step (see :mod:`games.core.events`).

Hidden cards travel only in private events: a seat's dealt hand reaches that seat alone (:class:`HandDealt`), and
a declarer's secret split/fight choice reaches him alone (:class:`SplitChosen` with ``choice``) while everyone
learns only that he has chosen. Cards become public when they are revealed at hand settlement
(:class:`HandRevealed`: a forced-out player's Aces and yaku cards, a declarer's yaku cards) or played to a trick.
Folded hands and the stock are never shown; the trump indicator is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.core.cards import FrenchCard
from games.core.events import Event


@dataclass(frozen=True)
class StartPlayerDrawn(Event):
    """The first start player was drawn: each seat with chips drew one card (as text: the cards go back into the
    pack); the highest card (rank, then suit c < d < h < s) starts."""

    kind: ClassVar[str] = "start_player_drawn"
    sp: int
    draws: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class RoundStarted(Event):
    """A round began: ``players`` are the seats taking part, in declaration order (clockwise from the start
    player ``sp``); ``round_no`` counts the rounds towards ``rounds`` (a void round that does not count leaves it
    unchanged)."""

    kind: ClassVar[str] = "round_started"
    deal: int
    round_no: int
    rounds: int
    sp: int
    players: tuple[int, ...]
    pot: int


@dataclass(frozen=True)
class MizutenDecided(Event):
    """The start player declared Mizuten (he must play this round), or did not, before any card was dealt."""

    kind: ClassVar[str] = "mizuten_decided"
    seat: int
    declared: bool


@dataclass(frozen=True)
class HandDealt(Event):
    """One seat's seven cards, for that seat only."""

    kind: ClassVar[str] = "hand_dealt"
    seat: int
    cards: tuple[FrenchCard, ...]


@dataclass(frozen=True)
class TrumpTurned(Event):
    """The top card of the stock is turned: its suit is trump, its rank sets the field (plain, ``oba`` or
    ``zetsuba``) and the multiplier ``mult`` (M)."""

    kind: ClassVar[str] = "trump_turned"
    card: FrenchCard
    field: str
    mult: int


@dataclass(frozen=True)
class Declared(Event):
    """A declaration. Play: ``declarer_no`` is 1, 2 or 3 (D1 …). Fold: ``fee`` went into the pot (``due`` was
    the fee; ``fee`` is less when the stack could not cover it)."""

    kind: ClassVar[str] = "declared"
    seat: int
    play: bool
    declarer_no: int | None = None
    fee: int = 0
    due: int = 0


@dataclass(frozen=True)
class ForcedOut(Event):
    """The last declaration allowed was made: these seats, not yet asked, are forced out (降ろされ)."""

    kind: ClassVar[str] = "forced_out"
    seats: tuple[int, ...]


@dataclass(frozen=True)
class SplitChosen(Event):
    """A declarer chose split or fight: the public event says only that he chose (``choice`` None); the private
    one, to him, says what."""

    kind: ClassVar[str] = "split_chosen"
    seat: int
    choice: str | None = None


@dataclass(frozen=True)
class SplitRevealed(Event):
    """Both declarers chose: their choices, and whether the pot is split (both chose split) or played for."""

    kind: ClassVar[str] = "split_revealed"
    choices: tuple[tuple[int, str], ...]
    split: bool


@dataclass(frozen=True)
class HandRevealed(Event):
    """Hand settlement: a forced-out player (``role = "forced_out"``) shows his Aces and yaku cards; a declarer
    (``"declarer"``) his yaku cards. ``value`` is what counts: the forced-out column plus the Aces, or the normal
    column (before M)."""

    kind: ClassVar[str] = "hand_revealed"
    seat: int
    role: str
    yaku: tuple[str, ...]
    cards: tuple[FrenchCard, ...]
    aces: int
    value: int


@dataclass(frozen=True)
class CardPlayed(Event):
    kind: ClassVar[str] = "card_played"
    seat: int
    trick: int
    card: FrenchCard


@dataclass(frozen=True)
class TrickWon(Event):
    """Trick ``trick`` (1..7) went to ``seat`` with ``card``; he has ``total`` tricks this round."""

    kind: ClassVar[str] = "trick_won"
    seat: int
    trick: int
    card: FrenchCard
    total: int


@dataclass(frozen=True)
class RoundSettled(Event):
    """The round is over and settled. ``outcome``: ``void`` (nobody played), ``single``, ``split`` or ``play``.
    ``pot_to`` says who took how much of the pot (a refund too); ``pot`` is what stays in it for the next round;
    ``deltas`` each seat's stack change (after the §0.4 cap)."""

    kind: ClassVar[str] = "round_settled"
    deal: int
    outcome: str
    pot_to: tuple[tuple[int, int], ...]
    pot: int
    deltas: tuple[int, ...]
