"""Helpers for the OFC tests: stacked decks written in card notation, boards dealt street by street."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core.cards import FrenchCard, notation
from games.core.rng import Shuffle, Shuffler
from games.ofc.actions import Place
from games.ofc.board import ROWS, Board, Row
from games.ofc.engine import OFCEngine
from games.ofc.rules import OFCRules

LOW = "2c 2d 2h 2s 3c 3d 3h"


def dealer_order(dealer: int) -> str:
    """A draw-for-dealer order in which ``dealer`` draws the ace of spades."""
    return " ".join([*LOW.split()[:dealer], "As"])


def seeded(seed: int) -> Shuffler:
    rng = random.Random(seed)
    return Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}")


def stacked(orders: Sequence[str], seed: int = 0) -> Shuffler:
    """Explicit shuffles first (draw for dealer, then deals), seeded ones after them."""
    rng = random.Random(seed)
    return Shuffler(planned=[Shuffle(order=o) for o in orders], seed_source=lambda: f"{rng.getrandbits(256):064x}")


def board_cards(board: Board) -> list[tuple[FrenchCard, Row]]:
    return [(c, r) for r in ROWS for c in board.row(r)]


def streets_of(board: Board, sizes: Sequence[int]) -> list[list[tuple[FrenchCard, Row]]]:
    """The board's cards (front, middle, back order) cut into streets of the given sizes."""
    cards = board_cards(board)
    out, pos = [], 0
    for n in sizes:
        out.append(cards[pos : pos + n])
        pos += n
    return out


def deal_order(
    boards: dict[int, Board], order: Sequence[int], sizes: Sequence[int], fl: dict[int, str] | None = None
) -> str:
    """A deal's pack: Fantasyland hands first, then street by street in turn order (engine.py's order)."""
    fl = fl or {}
    parts = [fl[s] for s in order if s in fl]
    for k in range(len(sizes)):
        for seat in order:
            if seat in boards:
                parts.append(notation(c for c, _ in streets_of(boards[seat], sizes)[k]))
    return " ".join(parts)


def place(cards: Sequence[tuple[FrenchCard, Row]], discards: Sequence[FrenchCard] = ()) -> Place:
    placement: dict[Row, list[FrenchCard]] = {r: [] for r in ROWS}
    for c, r in cards:
        placement[r].append(c)
    return Place.of(placement, discards)


def play_boards(engine: OFCEngine, boards: dict[int, Board], sizes: Sequence[int]) -> None:
    """Every normal seat places its board street by street, in whatever order the engine asks."""
    streets = {s: streets_of(b, sizes) for s, b in boards.items()}
    done = {s: 0 for s in boards}
    start = engine.hand_no
    while engine.hand_no == start and not engine.is_over:
        acting = sorted(s for s in engine.to_act() if s in boards and not engine.hands[s].fantasyland)
        if not acting:
            return
        seat = acting[0]
        engine.apply(seat, place(streets[seat][done[seat]]))
        done[seat] += 1


def rules(**kw: object) -> OFCRules:
    return OFCRules.model_validate(kw)


def listed(legal: Sequence[object]) -> list[Place]:
    """The placements ``legal_actions`` offers, a normal street's family listed out (a Fantasyland family is not)."""
    from games.ofc.actions import StreetPlacements

    out: list[Place] = []
    for item in legal:
        if isinstance(item, StreetPlacements):
            out += item.members()
        elif isinstance(item, Place):
            out.append(item)
    return out


def first(legal: Sequence[object]) -> Place:
    """The first placement offered (a family's first member)."""
    return listed(legal)[0]


def pick(legal: Sequence[object], rng: random.Random) -> Place:
    """A placement offered, at random (any family's members alike)."""
    from games.core.actions import ActionFamily

    item = rng.choice(list(legal))
    if isinstance(item, ActionFamily):
        sampled = item.sample(rng)
        assert isinstance(sampled, Place)
        return sampled
    assert isinstance(item, Place)
    return item
