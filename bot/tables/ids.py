"""Custom ids of every table component, and their strict reading.

Formats (at most 100 characters)::

    fdb:<table>:lobby:<verb>                  a lobby button (join, leave, bot, boteasy, botstrong, start, cancel)
    fdb:<table>:t:<verb>                      a public table button (hand, stop, watch); on a watcher's panel,
                                              watch (refresh it) and unwatch (stop watching), see bot.watch
    fdb:<table>:<decision>:a:<action>         a move on a private panel (spaces in its text as ~)
    fdb:<table>:<decision>:u:<verb>:<arg>     a panel step (see bot.ui.panel); ``help`` (no arg) is the panel's "?"
    fdb:<table>:<decision>:s:<verb>:<arg>     a panel select (its values come with the interaction)
    fdb:<table>:<decision>:m:<verb>:<arg>     the amount modal
    fdb:new:<game>:<buy_in>:<stake>:<practice>:<pace>:<hours>
                                              "open it in this channel instead" (no permission to make a thread):
                                              the /play options again (0 = not given), practice 0/1, pace l/c

``<decision>`` is the engine's decision id for the seat when the panel was drawn: a component of an earlier
decision (an earlier trick, street, pile or deal) is stale. Ids come from the client and can be forged, so
reading one never trusts it: anything that does not match exactly is refused with a clear answer, and
nothing read from an id is stored before the engine has accepted the move it names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from bot.errors import UserError

LOBBY_VERBS = frozenset({"join", "leave", "bot", "boteasy", "botstrong", "start", "cancel"})
TABLE_VERBS = frozenset({"hand", "stop", "watch", "unwatch"})
STEP_VERBS = frozenset(
    {"rng", "amt", "act", "sub", "subok", "pick", "put", "undo", "clr", "grp", "ok", "go", "x", "noop", "help"}
)

_ID = re.compile(
    r"fdb:(?P<table>[1-9][0-9]{0,17}):"
    r"(?:(?P<place>lobby|t):(?P<verb>[a-z]{1,12})"
    r"|(?P<decision>0|[1-9][0-9]{0,17}):(?:a:(?P<action>[!-~]{1,90})|(?P<kind>[usm]):(?P<step>[a-z]{1,8}):(?P<arg>[ -~]{0,80})))",
    re.ASCII,
)

_NEW = re.compile(
    r"fdb:new:(?P<game>[a-z][a-z_]{0,19}):(?P<buy_in>0|[1-9][0-9]{0,9}):(?P<stake>0|[1-9][0-9]{0,6})"
    r":(?P<practice>[01]):(?P<pace>[lc]):(?P<hours>0|[1-9][0-9]{0,2})",
    re.ASCII,
)
MAX_BUY_IN = 1_000_000_000
MAX_STAKE = 1_000_000
MAX_HOURS = 168

Kind = Literal["lobby", "table", "action", "step", "select", "modal", "new"]
_KINDS: dict[str, Kind] = {"u": "step", "s": "select", "m": "modal"}


@dataclass(frozen=True)
class NewTable:
    """The ``/play`` options carried by an "open it here instead" button."""

    game: str
    buy_in: int | None
    stake: int | None
    practice: bool
    pace: str
    hours: int | None


@dataclass(frozen=True)
class ComponentId:
    table: int
    kind: Kind
    verb: str = ""
    arg: str = ""
    decision: int | None = None
    action: str = ""
    new: NewTable | None = None


def parse(custom_id: str) -> ComponentId:
    """Read a table component's id; :class:`UserError` ``table.bad_button`` for anything else."""
    new = _NEW.fullmatch(custom_id)
    if new is not None:
        buy_in, stake, hours = int(new["buy_in"]), int(new["stake"]), int(new["hours"])
        if buy_in > MAX_BUY_IN or stake > MAX_STAKE or hours > MAX_HOURS:
            raise UserError("table.bad_button")
        pace = "correspondence" if new["pace"] == "c" else "live"
        options = NewTable(new["game"], buy_in or None, stake or None, new["practice"] == "1", pace, hours or None)
        return ComponentId(0, "new", new=options)
    match = _ID.fullmatch(custom_id)
    if match is None:
        raise UserError("table.bad_button")
    table = int(match["table"])
    if match["place"]:
        verb = match["verb"]
        if verb not in (LOBBY_VERBS if match["place"] == "lobby" else TABLE_VERBS):
            raise UserError("table.bad_button")
        return ComponentId(table, "lobby" if match["place"] == "lobby" else "table", verb)
    decision = int(match["decision"])
    if match["action"] is not None:
        text = match["action"].replace("~", " ")
        if text != text.strip() or "  " in text:
            raise UserError("table.bad_button")
        return ComponentId(table, "action", decision=decision, action=text)
    step = match["step"]
    if step not in STEP_VERBS:
        raise UserError("table.bad_button")
    return ComponentId(table, _KINDS[match["kind"]], step, match["arg"], decision)


def lobby(table_id: int, verb: str) -> str:
    return f"fdb:{table_id}:lobby:{verb}"


def table(table_id: int, verb: str) -> str:
    return f"fdb:{table_id}:t:{verb}"


def open_here(game: str, buy_in: int, stake: int, practice: bool, pace: str, hours: int) -> str:
    """The id of the button that opens a table in this channel instead of a thread (0: an option not given)."""
    return f"fdb:new:{game}:{buy_in}:{stake}:{int(practice)}:{'c' if pace == 'correspondence' else 'l'}:{hours}"
