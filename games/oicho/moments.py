"""The key moments of an Oicho-Kabu round, for a replay's "jump to" menu (:mod:`games.tape`): each pile's decision,
the dealer's, the showdown, a void round, and the bank kept or passed."""

from __future__ import annotations

from games.oicho import events as ev

KEY_MOMENTS = frozenset(
    {
        ev.BettingDone.kind,
        ev.PileDecided.kind,
        ev.DealerDecided.kind,
        ev.Showdown.kind,
        ev.RoundVoid.kind,
        ev.BankKept.kind,
        ev.BankPassed.kind,
    }
)
