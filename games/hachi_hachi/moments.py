"""The key moments of a Hachi-Hachi Trick round, for a replay's "jump to" menu (:mod:`games.tape`): Mizuten, the
cards dealt with the trump turned, each declaration, the split or fight revealed, each trick won, and the settlement."""

from __future__ import annotations

from games.hachi_hachi import events as ev

KEY_MOMENTS = frozenset(
    {
        ev.MizutenDecided.kind,
        ev.TrumpTurned.kind,
        ev.Declared.kind,
        ev.SplitRevealed.kind,
        ev.TrickWon.kind,
        ev.RoundSettled.kind,
    }
)
