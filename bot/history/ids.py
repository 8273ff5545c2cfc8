"""Custom ids of ``/history`` lists and replays (at most 100 characters), read strictly.

::

    fdb:hist:r:<table>:<deal>:<step>:<verb>     a replay showing <step>: f ⏮, p ◀, n ▶, l ⏭, j the "jump to" menu
    fdb:hist:o:<table>:<deal>                   a results message's "Replay": opens the deal's replay, privately
    fdb:hist:l:<viewer>:<member>:<game>:<hand>:<verb>
                                                a history page of <member>'s deals shown to <viewer> (<game>: a game id
                                                or ``all``): p newer than hand <hand>, n older than it, o the menu that
                                                opens a replay (its value ``<table>.<deal>``)

Ids come from the client and can be forged: anything that does not fit is refused (``history.bad_button``); whose
view a replay shows never comes from an id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.errors import UserError

PREFIX = "fdb:hist:"
TEMPLATE = r"fdb:hist:(?P<rest>[\s\S]*)"
"""Every id under the prefix comes to the history's one item, so a malformed one is answered by it too."""

_N = r"[1-9][0-9]{0,19}"
_REPLAY = re.compile(rf"fdb:hist:r:(?P<table>{_N}):(?P<deal>{_N}):(?P<step>0|{_N}):(?P<verb>[fpnlj])", re.ASCII)
_OPEN = re.compile(rf"fdb:hist:o:(?P<table>{_N}):(?P<deal>{_N})", re.ASCII)
_LIST = re.compile(
    rf"fdb:hist:l:(?P<viewer>{_N}):(?P<member>{_N}):(?P<game>[a-z_]{{1,20}}):(?P<hand>0|{_N}):(?P<verb>[pno])", re.ASCII
)
ALL_GAMES = "all"


@dataclass(frozen=True)
class ReplayId:
    table: int
    deal: int
    step: int
    verb: str


@dataclass(frozen=True)
class OpenId:
    table: int
    deal: int


@dataclass(frozen=True)
class ListId:
    viewer: int
    member: int
    game: str | None
    hand: int
    verb: str


def replay_id(table: int, deal: int, step: int, verb: str) -> str:
    return f"{PREFIX}r:{table}:{deal}:{step}:{verb}"


def open_id(table: int, deal: int) -> str:
    return f"{PREFIX}o:{table}:{deal}"


def list_id(viewer: int, member: int, game: str | None, hand: int, verb: str) -> str:
    return f"{PREFIX}l:{viewer}:{member}:{game or ALL_GAMES}:{hand}:{verb}"


def parse(text: str) -> ReplayId | OpenId | ListId:
    """A history component's id; :class:`UserError` ``history.bad_button`` for anything else."""
    if m := _REPLAY.fullmatch(text):
        return ReplayId(int(m["table"]), int(m["deal"]), int(m["step"]), m["verb"])
    if m := _OPEN.fullmatch(text):
        return OpenId(int(m["table"]), int(m["deal"]))
    if m := _LIST.fullmatch(text):
        game = None if m["game"] == ALL_GAMES else m["game"]
        return ListId(int(m["viewer"]), int(m["member"]), game, int(m["hand"]), m["verb"])
    raise UserError("history.bad_button")
