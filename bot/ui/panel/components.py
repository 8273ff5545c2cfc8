"""The panel's building blocks as plain data: Discord's limits, the components (:class:`Button`,
:class:`Select`), a panel ready to send (:class:`Rendered`), the custom ids of one decision (:class:`Ids`) and
a step's request for the amount modal (:class:`OpenModal`). The table runtime turns these into a message.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.actions import Action

MAX_ROWS = 5
ROW_WIDTH = 5
SELECT_LIMIT = 25
BUTTON_OPTIONS = 5
"""A ChooseOne with more options than this becomes a select menu."""
BUTTON_LABEL = 80
OPTION_TEXT = 100
"""A select option's label, value and description each hold at most this many characters."""
PLACEHOLDER = 150
CUSTOM_ID = 100
CONTENT_LIMIT = 1990
NAV = "@"
"""A menu value that opens a group rather than choosing: no move's text (it starts with its verb) and no range
key (checked) starts with it."""
PANEL = "*"
"""The ``go`` key of the panel's own pages (when its decisions do not fit five rows at once)."""
HELP = "help"
"""The step of the "?" every panel has: it opens the ``/howto`` page about the decision in front of the seat, in a
new private message, and changes nothing (neither the table nor the panel). It names no decision of its own: the
page is chosen when it is pressed, from the seat's decision then (a "?" of an earlier panel still works)."""


@dataclass(frozen=True)
class Button:
    custom_id: str
    label: str
    style: str = "secondary"
    disabled: bool = False
    emoji: str | None = None


@dataclass(frozen=True)
class SelectOption:
    label: str
    value: str
    default: bool = False
    description: str | None = None


@dataclass(frozen=True)
class Select:
    custom_id: str
    options: tuple[SelectOption, ...]
    placeholder: str = ""
    min_values: int = 1
    max_values: int = 1
    disabled: bool = False


Component = Button | Select


@dataclass
class Rendered:
    """A panel ready to send: its text and its rows of components (a select fills a row)."""

    content: str
    rows: list[list[Component]] = field(default_factory=list)
    stamp: str = ""
    """What it was drawn from (set by the table runtime), so an unchanged panel need not be drawn again."""

    def signature(self) -> str:
        return repr((self.content, self.rows))


@dataclass(frozen=True)
class Ids:
    """Custom ids for one table and one decision of one seat (at most 100 characters each)."""

    table_id: int
    decision: int

    def action(self, action: Action) -> str:
        return f"fdb:{self.table_id}:{self.decision}:a:{action.text.replace(' ', '~')}"

    def step(self, verb: str, arg: str = "") -> str:
        return f"fdb:{self.table_id}:{self.decision}:u:{verb}:{arg}"

    def select(self, verb: str, arg: str = "") -> str:
        return f"fdb:{self.table_id}:{self.decision}:s:{verb}:{arg}"

    def go(self, key: str, menu: str, target: str) -> str:
        return self.step("go", f"{key}/{menu}{NAV}{target}")

    def help(self) -> str:
        """The panel's "?": the guide's page about the seat's decision (see :data:`HELP`)."""
        return self.step(HELP)


@dataclass(frozen=True)
class OpenModal:
    """A step asks for a typed amount: the modal's custom id carries the decision and range."""

    custom_id: str
    title: str
    label: str
    hint: str


def _clip(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters; a cut is shown with an ellipsis, never made silently."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _option(label: str, value: str, *, default: bool = False, description: str | None = None) -> SelectOption:
    """A select option; a label too long for one goes on in the description rather than being lost."""
    if len(value) > OPTION_TEXT:
        raise ValueError(f"a menu value holds at most {OPTION_TEXT} characters: {value!r}")
    if len(label) > OPTION_TEXT and not description:
        cut = OPTION_TEXT - 1
        return SelectOption(label[:cut] + "…", value, default, _clip("…" + label[cut:], OPTION_TEXT))
    return SelectOption(
        _clip(label, OPTION_TEXT), value, default, _clip(description, OPTION_TEXT) if description else None
    )
