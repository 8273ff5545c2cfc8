"""OFC actions: one ``place`` action submits a whole street (or a whole Fantasyland hand).

Text form: ``place As:f Kd:m 7c:b 2h:x`` — each card dealt this street with its row: ``f``/``front``,
``m``/``middle``, ``b``/``back``, or ``x``/``discard`` (a Pineapple street's discard, a Fantasyland
hand's unused cards). Because a seat's street is one action, Turbo streets work simultaneously:
each seat submits once, and the street is revealed when the last seat has submitted.
The text is canonical (rows front → back → discards, cards high to low) so equal actions print equally.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, product
from typing import Literal

from games.core.actions import Action, ActionCodec, ActionFamily
from games.core.cards import FrenchCard, french_deck
from games.core.errors import NotationError
from games.ofc.board import ROWS, Row

Target = Literal["front", "middle", "back", "discard"]
TARGETS: tuple[Target, ...] = ("front", "middle", "back", "discard")
_SHORT: dict[Target, str] = {"front": "f", "middle": "m", "back": "b", "discard": "x"}
_READ: dict[str, Target] = {
    "f": "front",
    "front": "front",
    "top": "front",
    "m": "middle",
    "mid": "middle",
    "middle": "middle",
    "b": "back",
    "back": "back",
    "bottom": "back",
    "x": "discard",
    "discard": "discard",
}


@dataclass(frozen=True)
class Place(Action):
    """Cards with their rows (and discards) for one street, or for a whole Fantasyland hand."""

    items: tuple[tuple[FrenchCard, Target], ...]
    verb = "place"

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.items, key=lambda it: (TARGETS.index(it[1]), -it[0].rank, it[0].suit)))
        object.__setattr__(self, "items", ordered)

    @classmethod
    def _canonical(cls, items: tuple[tuple[FrenchCard, Target], ...]) -> Place:
        """A placement from items already in canonical order (rows in order, cards high to low), unsorted."""
        place = object.__new__(cls)
        object.__setattr__(place, "items", items)
        return place

    @classmethod
    def of(cls, placements: Mapping[Row, Sequence[FrenchCard]], discards: Sequence[FrenchCard] = ()) -> Place:
        items: list[tuple[FrenchCard, Target]] = [(c, row) for row in ROWS for c in placements.get(row, ())]
        items += [(c, "discard") for c in discards]
        return cls(tuple(items))

    def args(self) -> list[str]:
        return [f"{card.notation}:{_SHORT[target]}" for card, target in self.items]

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Place:
        if not args:
            raise NotationError("place needs at least one card:row")
        items: list[tuple[FrenchCard, Target]] = []
        for arg in args:
            card_text, sep, row_text = arg.partition(":")
            target = _READ.get(row_text.strip().lower())
            if not sep or target is None:
                raise NotationError(f"place: expected card:row (row f, m, b or x), got {arg!r}")
            card = _BY_NOTATION.get(card_text) or FrenchCard.parse(card_text)
            items.append((card, target))
        return cls(tuple(items))

    def to(self, target: Target) -> list[FrenchCard]:
        return [card for card, t in self.items if t == target]

    @property
    def discards(self) -> list[FrenchCard]:
        return self.to("discard")

    @property
    def cards(self) -> list[FrenchCard]:
        return [card for card, _ in self.items]


CODEC = ActionCodec([Place])
_BY_NOTATION: dict[str, FrenchCard] = {c.notation: c for c in french_deck()}


def street_placements(cards: tuple[FrenchCard, ...], free: tuple[int, int, int], discard: int) -> tuple[Place, ...]:
    """Every way to place ``cards`` (discarding ``discard`` of them) into rows with ``free`` room (f, m, b)."""
    # Cards high to low once: then each placement's items, grouped by row in order, are already canonical, and
    # every Place is made without sorting its items again (0.3 ms for a street of five). Nothing is remembered but
    # the row patterns: a busy bot's open streets kept as hundreds of thousands of objects would make every full
    # collection of the cycle collector stop the process for a quarter of a second.
    ordered = sorted(cards, key=lambda c: (-c.rank, c.suit))
    out: list[Place] = []
    for discards in combinations(ordered, discard):
        keep = [c for c in ordered if c not in discards]
        tail: tuple[tuple[FrenchCard, Target], ...] = tuple((c, "discard") for c in discards)
        for order, targets in _row_patterns(len(keep), free):
            out.append(Place._canonical(tuple(zip([keep[i] for i in order], targets, strict=True)) + tail))
    return tuple(out)


@lru_cache(maxsize=64)
def _row_patterns(n: int, free: tuple[int, int, int]) -> tuple[tuple[tuple[int, ...], tuple[Target, ...]], ...]:
    """For ``n`` cards (high to low) and rows with ``free`` room: every assignment within the room, as the order in
    which the cards appear in the canonical placement (by row, then high to low) and the row of each."""
    patterns = []
    for rows in product(range(3), repeat=n):
        if rows.count(0) <= free[0] and rows.count(1) <= free[1] and rows.count(2) <= free[2]:
            order = tuple(sorted(range(n), key=lambda i: (rows[i], i)))
            patterns.append((order, tuple(ROWS[rows[i]] for i in order)))
    return tuple(patterns)


def street_completable(
    cards: Sequence[FrenchCard], free: tuple[int, int, int], discard: int, partial: Mapping[FrenchCard, Target]
) -> bool:
    """Whether some placement of :func:`street_placements` agrees with ``partial`` (some of ``cards`` given a row
    or the discard): exactly when no row (nor the discard) is given more cards than it takes and the cards left
    can fill the discards still due and fit in the rows' room, since every such assignment is one of them. In
    O(cards), where scanning the placements is hundreds."""
    if any(card not in cards for card in partial):
        return False
    room = {"front": free[0], "middle": free[1], "back": free[2], "discard": discard}
    for target in partial.values():
        room[target] -= 1
        if room[target] < 0:
            return False
    left = len(cards) - len(partial)
    return room["discard"] <= left <= room["discard"] + room["front"] + room["middle"] + room["back"]


@dataclass(frozen=True)
class StreetPlacements(ActionFamily):
    """Every way to place a normal street's ``cards`` into rows with ``free`` room (front, middle, back),
    ``discard`` of them discarded: one family rather than a list. A street of five has hundreds of placements, and
    listing them for every panel drawn and every bot move was the bot's costliest work at a thousand tables; the
    family answers membership (:meth:`allows`) and a partial placement (:meth:`completable`) in O(cards), and
    lists its members only when asked (:meth:`members`, in canonical order)."""

    cards: tuple[FrenchCard, ...]
    free: tuple[int, int, int]
    discard: int
    example: Place = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # One member, cheaply: the lowest cards discarded, the rest high to low into the front, middle, back.
        ordered = sorted(self.cards, key=lambda c: (-c.rank, c.suit))
        keep, thrown = ordered[: len(ordered) - self.discard], ordered[len(ordered) - self.discard :]
        items: list[tuple[FrenchCard, Target]] = []
        for row, room in zip(ROWS, self.free, strict=True):
            items += [(c, row) for c in keep[:room]]
            keep = keep[room:]
        items += [(c, "discard") for c in thrown]
        object.__setattr__(self, "example", Place(tuple(items)))

    def members(self) -> tuple[Place, ...]:
        return street_placements(self.cards, self.free, self.discard)

    def allows(self, action: Action) -> bool:
        if not isinstance(action, Place):
            return False
        placed = action.cards
        if len(placed) != len(self.cards) or set(placed) != set(self.cards):
            return False
        return street_completable(self.cards, self.free, self.discard, dict(action.items))

    def completable(self, partial: Mapping[FrenchCard, Target]) -> bool:
        """Whether some member agrees with ``partial`` (some cards given a row or the discard)."""
        return street_completable(self.cards, self.free, self.discard, partial)

    def sample(self, rng: random.Random) -> Place:
        return rng.choice(self.members())


@dataclass(frozen=True)
class Arrangements(ActionFamily):
    """Every way to set a whole hand (Fantasyland): each card dealt once, rows filled to exactly ``free``
    (front, middle, back), the ``discard`` cards left over discarded. Far too many to list (17 cards:
    hundreds of millions), so ``legal_actions`` lists this family with the solver's board as ``example``."""

    cards: tuple[FrenchCard, ...]
    free: tuple[int, int, int]
    discard: int
    example: Place

    def allows(self, action: Action) -> bool:
        if not isinstance(action, Place):
            return False
        placed = action.cards
        if len(placed) != len(self.cards) or set(placed) != set(self.cards):
            return False
        counts = tuple(len(action.to(row)) for row in ROWS)
        return counts == self.free and len(action.discards) == self.discard

    def sample(self, rng: random.Random) -> Place:
        cards = list(self.cards)
        rng.shuffle(cards)
        items: list[tuple[FrenchCard, Target]] = []
        for row, n in zip(ROWS, self.free, strict=True):
            items += [(c, row) for c in cards[:n]]
            cards = cards[n:]
        items += [(c, "discard") for c in cards]
        return Place(tuple(items))


def placements_in(legal: Sequence[object]) -> list[Place]:
    """Every placement ``legal`` holds: the exact ones and each street family's members (what a bot chooses from)."""
    places = [a for a in legal if isinstance(a, Place)]
    for item in legal:
        if isinstance(item, StreetPlacements):
            places += item.members()
    return places
