"""Custom ids of every table component, and their strict reading.

Formats (at most 100 characters)::

    fdb:<table>:lobby:<verb>                  a lobby button (join, leave, bot, start, cancel)
    fdb:<table>:t:<verb>                      a public table button (hand, stop)
    fdb:<table>:<decision>:a:<action>         a move on a private panel (spaces in its text as ~)
    fdb:<table>:<decision>:u:<verb>:<arg>     a panel step (see bot.ui.panel)
    fdb:<table>:<decision>:s:<verb>:<arg>     a panel select (its values come with the interaction)
    fdb:<table>:<decision>:m:<verb>:<arg>     the amount modal

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

LOBBY_VERBS = frozenset({"join", "leave", "bot", "start", "cancel"})
TABLE_VERBS = frozenset({"hand", "stop"})
STEP_VERBS = frozenset(
    {"rng", "amt", "act", "sub", "subok", "pick", "put", "undo", "clr", "grp", "ok", "go", "x", "noop"}
)

_ID = re.compile(
    r"fdb:(?P<table>[1-9][0-9]{0,17}):"
    r"(?:(?P<place>lobby|t):(?P<verb>[a-z]{1,12})"
    r"|(?P<decision>0|[1-9][0-9]{0,17}):(?:a:(?P<action>[!-~]{1,90})|(?P<kind>[usm]):(?P<step>[a-z]{1,8}):(?P<arg>[ -~]{0,80})))",
    re.ASCII,
)

Kind = Literal["lobby", "table", "action", "step", "select", "modal"]
_KINDS: dict[str, Kind] = {"u": "step", "s": "select", "m": "modal"}


@dataclass(frozen=True)
class ComponentId:
    table: int
    kind: Kind
    verb: str = ""
    arg: str = ""
    decision: int | None = None
    action: str = ""


def parse(custom_id: str) -> ComponentId:
    """Read a table component's id; :class:`UserError` ``table.bad_button`` for anything else."""
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
