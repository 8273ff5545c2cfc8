"""The key moments of a Luk Fu hand, for a replay's "jump to" menu (:mod:`games.tape`): the call decided, each
trick won, a winner's stop, Five Tigers, and the result."""

from __future__ import annotations

from games.luk_fu import events as ev

KEY_MOMENTS = frozenset(
    {
        ev.Called.kind,
        ev.AllPassed.kind,
        ev.TrickWon.kind,
        ev.StopChosen.kind,
        ev.FiveTigersRevealed.kind,
        ev.HandResult.kind,
    }
)
