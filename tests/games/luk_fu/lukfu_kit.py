"""Helpers for the Luk Fu tests: stacked deals written as each player's hand, and tricks played by text.

Three-player tables: A (seat 0) deals and is the parent; play goes counter-clockwise, so B (A's right) is
seat 2 and C is seat 1: ``A, B, C = 0, 2, 1``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.core.cards import LukFuCard, lukfu_deck, notation, parse_lukfu
from games.core.events import Event
from games.core.rng import Shuffle, Shuffler
from games.luk_fu.actions import CODEC, Discard
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.events import TrickWon
from games.luk_fu.rules import LukFuRules

A, B, C = 0, 2, 1


def rules(**options: Any) -> LukFuRules:
    return LukFuRules.model_validate(options)


def draw_for(dealer: int) -> str:
    """A first-dealer draw in which seat ``dealer`` draws 9T (the highest card) and earlier seats low cards."""
    return " ".join([*["2C", "3C", "4C"][:dealer], "9T"])


def roles(seats: int, dealer: int, layout: str = "dealer_sits_out") -> tuple[int, int | None, list[int]]:
    """(parent, sitter, active players in order of play) for a table with every seat holding chips."""
    if seats == 4:
        opposite = (dealer + 2) % 4
        parent, sitter = (opposite, dealer) if layout == "dealer_sits_out" else (dealer, opposite)
    else:
        parent, sitter = dealer, None
    active = sorted((s for s in range(seats) if s != sitter), key=lambda s: (parent - s) % seats)
    return parent, sitter, active


def deal_order(
    hands: dict[int, str],
    *,
    seats: int = 3,
    dealer: int = 0,
    layout: str = "dealer_sits_out",
    extra: str | None = None,
) -> str:
    """The pack for one deal: each active player's 12 cards in the engine's dealing order, then the 37th card
    (dead card, or the sitter's card). Hands given short are filled from the unused cards in canonical order."""
    _parent, _sitter, active = roles(seats, dealer, layout)
    given = {s: parse_lukfu(t) for s, t in hands.items()}
    extra_card = parse_lukfu(extra) if extra else []
    used = [c for cards in given.values() for c in cards] + extra_card
    assert len(set(used)) == len(used), f"a card is given twice: {notation(used)}"
    remaining = [c for c in lukfu_deck() if c not in used]
    out: list[LukFuCard] = []
    for seat in active:
        cards = list(given.get(seat, []))
        assert len(cards) <= 12, f"seat {seat} has {len(cards)} cards"
        while len(cards) < 12:
            cards.append(remaining.pop(0))
        out += cards
    out += extra_card or [remaining.pop(0)]
    assert not remaining and len(out) == 37, notation(remaining)
    return notation(out)


def table(
    hands: dict[int, str],
    *,
    seats: int = 3,
    dealer: int = 0,
    extra: str | None = None,
    stacks: Sequence[int] | None = None,
    later: Sequence[str] = (),
    **options: Any,
) -> LukFuEngine:
    """A table whose first-dealer draw and first deal are stacked (later deals: ``later``, then seeded)."""
    r = rules(**options)
    order = deal_order(hands, seats=seats, dealer=dealer, layout=r.four_player_layout, extra=extra)
    planned = [Shuffle(order=draw_for(dealer), purpose="draw_dealer"), Shuffle(order=order)]
    planned += [Shuffle(order=o) for o in later]
    rng = random.Random(7)
    shuffler = Shuffler(planned=planned, seed_source=lambda: rng.randbytes(32).hex())
    engine = LukFuEngine(r, list(stacks or [100] * seats), shuffler)
    assert engine.dealer == dealer
    return engine


def act(engine: LukFuEngine, seat: int, text: str) -> list[Event]:
    return engine.apply(seat, CODEC.parse(text))


def play(engine: LukFuEngine, *moves: tuple[int, str]) -> None:
    for seat, text in moves:
        act(engine, seat, text)


def only(engine: LukFuEngine) -> int:
    (seat,) = engine.to_act()
    return seat


def texts(engine: LukFuEngine, seat: int) -> list[str]:
    return [a.text for a in engine.legal_actions(seat)]  # type: ignore[union-attr]


def low_discard(engine: LukFuEngine, seat: int, keep: str = "") -> str:
    """A face-down follow of the lowest-ranked cards not in ``keep``."""
    protected = set(parse_lukfu(keep)) if keep else set()
    hand = sorted(engine.hands[seat], key=lambda c: (c.rank, c.suit_order))
    junk = [c for c in hand if c not in protected]
    pick = junk[: engine.trick_size]
    assert len(pick) == engine.trick_size, f"seat {seat} has no junk left to discard"
    action = Discard(tuple(pick))
    assert action in engine.legal_actions(seat), f"{action.text} is not legal for seat {seat}"
    return action.text


def trick(engine: LukFuEngine, lead: str, *follows: str, keep: dict[int, str] | None = None) -> int:
    """Play one trick: the leader leads ``lead`` (``"lead "`` may be left out), then each follower in turn plays
    its text: ``"*"`` discards its lowest cards not in ``keep``; ``"@7M"`` discards 7M and its lowest other cards.
    Returns the trick's winner."""
    keep = keep or {}
    seat = only(engine)
    events = act(engine, seat, lead if lead.split()[0] in ("lead", "tigers") else f"lead {lead}")
    for text in follows:
        seat = only(engine)
        if text == "*":
            text = low_discard(engine, seat, keep.get(seat, ""))
        elif text.startswith("@"):
            card = text[1:]
            others = low_discard(engine, seat, card).split()[1:][: engine.trick_size - 1]
            text = " ".join(["discard", card, *others])
        events = act(engine, seat, text)
    won = [e for e in events if isinstance(e, TrickWon)]
    assert won, "the trick is not over"
    return won[0].seat


def deltas(engine: LukFuEngine) -> tuple[int, ...]:
    return engine.results[-1].deltas


def summary(engine: LukFuEngine) -> dict[str, Any]:
    return engine.results[-1].summary


PLAYED_OUT = {
    A: "1S 2S 3S 7S 8S 9S 7M 8M 9M 1T 3T 4T",
    B: "4M 5M 6M 7T 8T 9T 2C 2M 2T 9C 3M LT",
    C: "1C 3C 4C 4S 6S 1M 5C 5S 5T 6C 7C 8C",
}
"""A hand played to its last card (A deals; the dead card is 6T): four tricks of three cards, each with a face-down
follow. B beats A's run (trick 1), leads an unbeatable run and takes 6 (trick 2), continues; C beats B's triple
(trick 3); A beats C's run (trick 4, the last). B wins with 6 tricks."""
PLAYED_OUT_DEAD = "6T"
PLAYED_OUT_MOVES: tuple[tuple[int, str], ...] = (
    (A, "play"),
    (A, "lead 1S 2S 3S"),
    (B, "follow 4M 5M 6M"),
    (C, "discard 1C 3C 4C"),
    (B, "lead 7T 8T 9T"),
    (C, "discard 4S 6S 1M"),
    (A, "discard 7S 8S 9S"),
    (B, "continue"),
    (B, "lead 2C 2M 2T"),
    (C, "follow 5C 5S 5T"),
    (A, "discard 1T 3T 4T"),
    (C, "lead 6C 7C 8C"),
    (A, "follow 7M 8M 9M"),
    (B, "discard 9C 3M LT"),
)
PLAYED_OUT_TRICKS = ((1, A, B), (2, B, B), (3, B, C), (4, C, A))
"""(trick, leader, winner) of each trick of :data:`PLAYED_OUT`, in order; each is worth 3 tricks."""
PLAYED_OUT_NEXT = deal_order({B: PLAYED_OUT[A], C: PLAYED_OUT[B], A: PLAYED_OUT[C]}, dealer=B, extra="6T")
"""The next deal (B deals and is the parent: the dealer moves right, as the winner B did not deal): B gets A's
cards of :data:`PLAYED_OUT` and may lead ``1S 2S 3S``."""
