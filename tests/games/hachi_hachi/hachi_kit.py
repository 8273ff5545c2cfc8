"""Helpers for the Hachi-Hachi Trick tests: stacked rounds written as each player's hand, and play by text.

Players are named as in rules.md §3.5: P1, P2, … clockwise, that is seats 0, 1, …. A round's deck is the players'
hands in declaration order (clockwise from the start player), then the trump indicator; hands given short are
filled from the unused cards in canonical order (2c 2d 2h 2s 3c …), which is fine for players whose hand does
not matter (folders), and dangerous for the others (four 2s make Four of a kind): give those in full.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.core.cards import FrenchCard, french_deck, notation, parse_french
from games.core.events import Event
from games.core.rng import Shuffle, Shuffler
from games.hachi_hachi.actions import CODEC
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.events import TrickWon
from games.hachi_hachi.rules import HachiHachiRules

P1, P2, P3, P4, P5, P6, P7 = range(7)


def rules(**options: Any) -> HachiHachiRules:
    return HachiHachiRules.model_validate(options)


def players_from(sp: int, stacks: Sequence[int]) -> list[int]:
    """The seats with chips, clockwise from ``sp``: the declaration (and dealing) order."""
    n = len(stacks)
    return sorted((s for s in range(n) if stacks[s] > 0), key=lambda s: (s - sp) % n)


def sp_draw(sp: int, stacks: Sequence[int]) -> str:
    """A first-SP draw in which seat ``sp`` draws As (the highest card) and the seats before it low clubs."""
    seated = [s for s in range(len(stacks)) if stacks[s] > 0]
    lows = ["2c", "3c", "4c", "5c", "6c", "7c"]
    return " ".join([*lows[: seated.index(sp)], "As"])


def round_order(hands: dict[int, str], *, sp: int, stacks: Sequence[int], indicator: str = "7c") -> str:
    """The pack for one round: each player's 7 cards in declaration order from ``sp``, then the indicator."""
    players = players_from(sp, stacks)
    given = {s: parse_french(t) for s, t in hands.items()}
    assert set(given) <= set(players), f"hands for seats not playing: {set(given) - set(players)}"
    turned = FrenchCard.parse(indicator)
    used = [c for cards in given.values() for c in cards] + [turned]
    assert len(set(used)) == len(used), f"a card is given twice: {notation(used)}"
    remaining = [c for c in french_deck() if c not in used]
    out: list[FrenchCard] = []
    for seat in players:
        cards = list(given.get(seat, []))
        assert len(cards) <= 7, f"seat {seat} has {len(cards)} cards"
        while len(cards) < 7:
            cards.append(remaining.pop(0))
        out += cards
    return notation([*out, turned])


def table(
    hands: dict[int, str],
    *,
    seats: int,
    sp: int = P1,
    indicator: str = "7c",
    stacks: Sequence[int] | None = None,
    later: Sequence[str] = (),
    **options: Any,
) -> HachiHachiEngine:
    """A table whose first-SP draw and first round are stacked (later rounds: ``later``, then seeded)."""
    r = rules(**options)
    chips = list(stacks or [r.starting_chips] * seats)
    planned = [
        Shuffle(order=sp_draw(sp, chips), purpose="draw_sp"),
        Shuffle(order=round_order(hands, sp=sp, stacks=chips, indicator=indicator)),
        *(Shuffle(order=o) for o in later),
    ]
    rng = random.Random(7)
    shuffler = Shuffler(planned=planned, seed_source=lambda: rng.randbytes(32).hex())
    engine = HachiHachiEngine(r, chips, shuffler)
    assert engine.sp == sp
    return engine


def only(engine: HachiHachiEngine) -> int:
    (seat,) = engine.to_act()
    return seat


def act(engine: HachiHachiEngine, seat: int, text: str) -> list[Event]:
    return engine.apply(seat, CODEC.parse(text))


def calls(engine: HachiHachiEngine, *texts: str) -> list[Event]:
    """Each text played by the one seat to act (``no-mizuten``, ``play``, ``fold`` …); returns all events."""
    events: list[Event] = []
    for text in texts:
        events += act(engine, only(engine), text)
    return events


def texts(engine: HachiHachiEngine, seat: int) -> list[str]:
    return [a.text for a in engine.legal_actions(seat)]  # type: ignore[union-attr]


def trick(engine: HachiHachiEngine, *cards: str) -> int:
    """One trick: each card played in turn by the seat to act; returns the trick's winner."""
    events: list[Event] = []
    for card in cards:
        events = act(engine, only(engine), f"card {card}")
    won = [e for e in events if isinstance(e, TrickWon)]
    assert won, "the trick is not over"
    return won[0].seat


def tricks(engine: HachiHachiEngine, *plays: str) -> list[int]:
    """Several tricks, each written ``"As 4s 8s"`` (cards in playing order); returns the winners."""
    return [trick(engine, *p.split()) for p in plays]


def deltas(engine: HachiHachiEngine, index: int = -1) -> tuple[int, ...]:
    return engine.results[index].deltas


def summary(engine: HachiHachiEngine, index: int = -1) -> dict[str, Any]:
    return engine.results[index].summary


def net(engine: HachiHachiEngine) -> list[int]:
    """Every seat's stack change over all finished rounds."""
    return [sum(r.deltas[s] for r in engine.results) for s in range(engine.seats)]


def paid(engine: HachiHachiEngine, kind: str, index: int = -1) -> dict[int, int]:
    """The round's payments of one kind (``forced_out``, ``hand``, ``trick``, ``mizuten``) as net per seat."""
    out: dict[int, int] = {}
    for p in summary(engine, index)["payments"]:
        if p["kind"] == kind:
            out[p["from"]] = out.get(p["from"], 0) - p["amount"]
            out[p["to"]] = out.get(p["to"], 0) + p["amount"]
    return {s: v for s, v in out.items() if v}
