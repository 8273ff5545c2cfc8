"""The one generic private panel: draws a game's :class:`~bot.ui.decisions.PanelSpec` as Discord components,
and carries out the panel's own steps (choosing a pile, picking a card and its row, a typed amount).

Components are plain data here (:class:`Button`, :class:`Select`); the table runtime turns them into a
message. Every custom id is made by an :class:`Ids` for one table and one decision, so a component from an
earlier decision of the same seat is recognised as stale.

UI steps (``u`` ids, select ``s`` ids), with ``arg`` = ``<decision key>/<value>``:

* ``rng`` (select) — which range a :class:`ChooseAmount` amount is for; ``amt`` — open the amount modal;
* ``act`` (select) — a :class:`ChooseOne` move chosen from a menu (the value is the move's text);
* ``sub`` (select) and ``subok`` — the items of a :class:`ChooseSubset`, then the move;
* ``pick``, ``put``, ``undo``, ``clr``, ``grp`` (select), ``ok`` — building an :class:`Arrange`;
* ``go`` — show another group or page of a menu that does not fit at once (see below);
* ``x`` — a game's own :class:`Extra` (``arg`` is ``<verb>/<arg>``), passed to the game's ``ui_step``;
* ``help`` — the "?" every panel has, beside the game's extra buttons: the table runtime opens the ``/howto``
  page about the seat's decision when it is pressed (the game names the topic:
  :meth:`~bot.ui.base.GameUI.howto_topic`), in a new private message; the panel and the table stay as they are.

Nothing is ever cut to fit Discord (25 options a menu, five rows of five buttons a message):

* A one-choice menu (``act``, ``rng``) with more than 25 choices becomes a tree: its first level lists groups
  (the game's hint, such as "Run of 6", else consecutive slices named by their first and last choice), each
  group opens its choices or smaller groups, and a "Back" entry leads up. A group is opened by choosing it in
  the same menu: its value is ``@`` and the group's path (``@3``, ``@3.1``), which no move text or range key
  starts with.
* A multi-select (``sub``, ``grp``) with more than 25 items shows one page of them at a time; its id names
  the page (``<key>@<first item's index>``), so choosing on a page changes only that page's items. Buttons
  that do not fit their rows (an arrangement's items or groups) are paged the same way.
* ``go`` steps move between pages (``<key>/<menu>@<target>``); when the decisions themselves need more than
  five rows even drawn compactly, they are shown a page at a time (``*/@<page>``).

Where a menu stands is panel state (saved with a fingerprint of its choices, so a new decision starts at the
top), drawn the same way on every redraw; a group or page the panel does not have is refused with
``panel.stale_group``, and changes nothing. Until a move is complete, choices live only in the seat's panel
state, never in the engine: nobody else can see them, and the engine checks the move once it is submitted.

The package, by concern (import everything from here: ``from bot.ui import panel``, then ``panel.render``):

* :mod:`~bot.ui.panel.components` — Discord's limits, the components as data, :class:`Ids`;
* :mod:`~bot.ui.panel.menus` — the trees and pages of menus that do not fit, and where each one stands;
* :mod:`~bot.ui.panel.layout` — packing rows, and the panel's own pages;
* :mod:`~bot.ui.panel.drawing` — :func:`render`; :mod:`~bot.ui.panel.shapes` draws one choice, an amount
  and a subset, :mod:`~bot.ui.panel.arrange` an arrangement (and its :class:`Draft`);
* :mod:`~bot.ui.panel.steps` — :func:`step` and :func:`amount_action`.
"""

from __future__ import annotations

from bot.ui.panel.arrange import Draft, draft_of, set_arrangement
from bot.ui.panel.components import (
    BUTTON_LABEL,
    BUTTON_OPTIONS,
    CONTENT_LIMIT,
    CUSTOM_ID,
    HELP,
    MAX_ROWS,
    NAV,
    OPTION_TEXT,
    PANEL,
    PLACEHOLDER,
    ROW_WIDTH,
    SELECT_LIMIT,
    Button,
    Component,
    Ids,
    OpenModal,
    Rendered,
    Select,
    SelectOption,
)
from bot.ui.panel.drawing import render
from bot.ui.panel.layout import panel_pages
from bot.ui.panel.shapes import chosen_range
from bot.ui.panel.steps import amount_action, step

__all__ = [
    "BUTTON_LABEL",
    "BUTTON_OPTIONS",
    "CONTENT_LIMIT",
    "CUSTOM_ID",
    "HELP",
    "MAX_ROWS",
    "NAV",
    "OPTION_TEXT",
    "PANEL",
    "PLACEHOLDER",
    "ROW_WIDTH",
    "SELECT_LIMIT",
    "Button",
    "Component",
    "Draft",
    "Ids",
    "OpenModal",
    "Rendered",
    "Select",
    "SelectOption",
    "amount_action",
    "chosen_range",
    "draft_of",
    "panel_pages",
    "render",
    "set_arrangement",
    "step",
]
