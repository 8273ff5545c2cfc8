"""What a seat must decide, as data: the game describes it from its legal actions, one generic panel draws it.

Four shapes cover the games so far and the ones to come:

* :class:`ChooseOne` — pick one of several moves (draw or stand, play or fold, a card or a combination to
  play). A few become buttons; many become a select menu. An option can be shown disabled with the reason
  (a card the rules forbid now, and why).
* :class:`ChooseAmount` — an amount in a range (a bet): preset buttons, the largest allowed, and a typed
  amount in a modal. With several ranges (one per pile) a select picks which one the amount is for.
* :class:`ChooseSubset` — several of a set of items (cards to discard), confirmed as one move.
* :class:`Arrange` — put items into groups of given sizes (OFC rows), step by step or one select per group.

No shape has a size limit: the panel never cuts a choice. What does not fit one Discord menu (25 options) or
the message's five rows of five is split into steps (a group, then its choices; pages; or the decisions one
page at a time), so every legal move stays reachable. A game may help with a grouping hint (``Option.group``,
``AmountChoice.group``, ``ChooseSubset.groups``, ``Arrange.item_groups``: a short label such as "Runs of 6"
shared by the choices of one kind); the panel groups by it only when the choices do not fit one menu, and
splits into pages by itself when there is no hint or a group is still too big. Keys, group names and values
must not hold ``/``, ``,`` or ``@`` (the panel's ids use them as separators).

A game adds panel code of its own only for what is truly its own: extra buttons (``Extra``, handled by the
game's ``ui_step``) and the panel's text. The generic panel's own words (undo, clear, confirm, the largest
amount, a typed amount) come from its catalog, in the reader's language. Nothing here decides a rule: every move offered comes from the
engine's legal actions, and the engine checks every move submitted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from games.core.actions import Action, AmountRange

Style = str
"""A button style by name: ``primary``, ``secondary``, ``success`` or ``danger``."""


@dataclass(frozen=True)
class Option:
    """One move to choose; ``action`` None (or ``enabled`` False) shows it disabled, with ``reason``."""

    label: str
    action: Action | None
    style: Style = "secondary"
    emoji: str | None = None
    enabled: bool = True
    reason: str | None = None
    description: str | None = None
    group: str | None = None
    """A grouping hint (such as "Runs of 6"): used when the options do not fit one menu."""


@dataclass(frozen=True)
class ChooseOne:
    key: str
    prompt: str
    options: Sequence[Option]
    select: bool | None = None
    """``None``: buttons for a few options, a select menu for many."""
    placeholder: str = ""


@dataclass(frozen=True)
class AmountChoice:
    """One range of amounts (``label`` names what it is for when there are several, such as a pile)."""

    key: str
    label: str
    range: AmountRange
    group: str | None = None
    """A grouping hint, used when the ranges do not fit one menu."""


@dataclass(frozen=True)
class ChooseAmount:
    key: str
    prompt: str
    ranges: Sequence[AmountChoice]
    presets: Sequence[int] = (1, 5, 10, 25, 50, 100)
    select_placeholder: str = ""
    none_label: str = ""
    """Shown (disabled) when no amount can be chosen now."""


@dataclass(frozen=True)
class ChooseSubset:
    """Choose between ``least`` and ``most`` of ``items`` (label, value); ``build`` makes the move from the values
    chosen (or None when they make none), which is offered only if it is among the legal actions."""

    key: str
    prompt: str
    items: Sequence[tuple[str, str]]
    least: int
    most: int
    build: Callable[[tuple[str, ...]], Action | None] = field(compare=False)
    placeholder: str = ""
    groups: Mapping[str, str] = field(default_factory=dict, compare=False)
    """Grouping hints by item value, used when the items do not fit one menu."""


@dataclass(frozen=True)
class Group:
    name: str
    label: str
    size: int
    """How many more items it takes now."""
    style: Style = "primary"
    placeholder: str = ""
    """The group's select menu text in ``selects`` mode."""


@dataclass(frozen=True)
class Arrange:
    """Put each of ``items`` (label, value) into one of ``groups``.

    ``feasible(partial)`` says whether some legal move agrees with a partial assignment (value → group name),
    so a group button is enabled only where the move can still be completed; ``build(assignment)`` is the move
    once every item has a group (items left without one may be allowed: ``build`` decides).
    ``mode`` ``steps`` picks an item then a group by buttons; ``selects`` gives each group a multi-select (for
    more items than buttons can hold, such as a 13–17-card Fantasyland hand)."""

    key: str
    prompt: str
    items: Sequence[tuple[str, str]]
    groups: Sequence[Group]
    build: Callable[[Mapping[str, str]], Action | None] = field(compare=False)
    feasible: Callable[[Mapping[str, str]], bool] = field(compare=False)
    mode: str = "steps"
    item_groups: Mapping[str, str] = field(default_factory=dict, compare=False)
    """Grouping hints by item value, used when the items do not fit the panel at once."""


@dataclass(frozen=True)
class Extra:
    """A button only this game has (a hint, a refresh): ``verb`` and ``arg`` go to the game's ``ui_step``."""

    label: str
    verb: str
    arg: str = ""
    style: Style = "secondary"
    emoji: str | None = None
    enabled: bool = True


Decision = ChooseOne | ChooseAmount | ChooseSubset | Arrange


@dataclass
class PanelSpec:
    """A seat's private panel: the game's text, what the seat must decide now, and extra buttons."""

    text: str
    decisions: list[Decision] = field(default_factory=list)
    extras: list[Extra] = field(default_factory=list)
