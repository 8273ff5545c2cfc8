"""Luk Fu scoring (rules.md §2.9) as pure functions: the share S and who pays whom."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Share:
    """How S was made: ``base = tricks − 5``, times ``multiplier``, plus ``reds``."""

    tricks: int
    base: int
    multiplier: int
    reds: int
    value: int


def make_share(tricks: int, *, big_hand_multiplier: bool, reds: int) -> Share:
    """S = (t − 5) × multiplier + red count; the multiplier is 2 for 10–11 tricks and 3 for 12 when the option
    is on (so 10 → 10, 11 → 12, 12 → 21)."""
    base = tricks - 5
    multiplier = 1
    if big_hand_multiplier:
        multiplier = 3 if tricks >= 12 else 2 if tricks >= 10 else 1
    return Share(tricks, base, multiplier, reds, base * multiplier + reds)


@dataclass(frozen=True)
class Payment:
    """``payer`` owes ``payee`` ``amount`` points; ``kind`` is ``share`` or ``sitter_bonus``."""

    payer: int
    payee: int
    amount: int
    kind: str


def payments(
    *,
    winner: int,
    losers: Sequence[int],
    declarer: int | None,
    share: int,
    declarer_pays_double: bool,
    parent_penalty: bool,
    sitter: int | None,
    sitter_bonus: bool,
) -> list[Payment]:
    """What each loser owes (before the §0.4 stack cap).

    * basic: each loser pays S;
    * declarer pays double: a losing declarer pays 2S and the other loser 0;
    * parent penalty (the parent passed holding a quad or a 4+ run, then won): the declarer pays S, the other 0;
    * sitter bonus: each loser pays the sitter 1 (declarer pays double applies: 2 and 0).
    """
    out: list[Payment] = []
    losing_declarer = declarer if declarer in losers else None
    for loser in losers:
        if parent_penalty and losing_declarer is not None:
            amount = share if loser == losing_declarer else 0
        elif declarer_pays_double and losing_declarer is not None:
            amount = 2 * share if loser == losing_declarer else 0
        else:
            amount = share
        if amount:
            out.append(Payment(loser, winner, amount, "share"))
    if sitter is not None and sitter_bonus:
        # Decision: the parent-pass penalty halves only the share paid to the parent; the sitter's bonus keeps the
        # declarer rule of every payment (2 from a losing declarer, 0 from the other).
        for loser in losers:
            if declarer_pays_double and losing_declarer is not None:
                amount = 2 if loser == losing_declarer else 0
            else:
                amount = 1
            if amount:
                out.append(Payment(loser, sitter, amount, "sitter_bonus"))
    return out
