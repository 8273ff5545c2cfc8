"""Helpers for the Oicho-Kabu tests: stacked tables written in card notation."""

from __future__ import annotations

from typing import Any

from games.core.rng import Shuffle, Shuffler
from games.oicho.actions import CODEC
from games.oicho.engine import OichoEngine
from games.oicho.rules import OichoRules


def rules(**options: Any) -> OichoRules:
    """Default rules with some options changed (``local_yaku`` as a nested dict)."""
    return OichoRules.model_validate(options)


def table(
    deals: list[str],
    *,
    seats: int = 4,
    draw: str | None = None,
    stacks: list[int] | None = None,
    **options: Any,
) -> OichoEngine:
    """A table whose first-dealer draw and deals are stacked (top card first).

    ``draw`` defaults to seat 0 drawing a 1 and everyone else higher, so seat 0 deals first.
    """
    first = draw if draw is not None else " ".join(str(m) for m in range(1, seats + 1))
    planned = [Shuffle(order=first, purpose="draw_dealer")] + [Shuffle(order=d) for d in deals]
    return OichoEngine(rules(**options), stacks or [100] * seats, Shuffler(planned=planned, fresh=False))


def play(engine: OichoEngine, *moves: tuple[int, str]) -> None:
    """Apply ``(seat, "action text")`` moves in order."""
    for seat, text in moves:
        engine.apply(seat, CODEC.parse(text))
