"""The key moments of an OFC hand, for a replay's "jump to" menu (:mod:`games.tape`): each street (a street dealt,
a Turbo street turned face up) and the boards revealed at the end."""

from __future__ import annotations

from games.ofc import events as ev

KEY_MOMENTS = frozenset({ev.Dealt.kind, ev.StreetRevealed.kind, ev.BoardsRevealed.kind})
