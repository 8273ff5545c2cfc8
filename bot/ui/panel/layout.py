"""A panel's rows: packing components into Discord's five rows of five (:class:`_Layout`), the fewest rows
each decision can be drawn in (:func:`_need`), and which decisions share a page when they do not all fit at
once (:func:`panel_pages`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ui.decisions import ChooseAmount, ChooseOne, ChooseSubset, Decision, PanelSpec
from bot.ui.panel.components import MAX_ROWS, ROW_WIDTH, Button, Component, Select


class _Layout:
    """Packs components into rows: buttons five to a row, a select alone on its row."""

    def __init__(self) -> None:
        self.rows: list[list[Component]] = []
        self._open = False

    def select(self, select: Select) -> None:
        self.rows.append([select])
        self._open = False

    def buttons(self, buttons: Sequence[Button], *, new_row: bool = False) -> None:
        for index, button in enumerate(buttons):
            if not self._open or (new_row and index == 0) or len(self.rows[-1]) >= ROW_WIDTH:
                self.rows.append([])
                self._open = True
            self.rows[-1].append(button)

    def end_row(self) -> None:
        self._open = False

    def extend(self, other: _Layout) -> None:
        self.rows += other.rows
        self._open = other._open if other.rows else self._open


def _rows(buttons: int) -> int:
    return -(-buttons // ROW_WIDTH)


def _need(decision: Decision) -> int:
    """The rows a decision takes drawn as compactly as it can be (its menus split, never cut)."""
    if isinstance(decision, ChooseOne):
        return 1 if decision.options else 0
    if isinstance(decision, ChooseAmount):
        return (len(decision.ranges) > 1) + bool(decision.ranges or decision.none_label)
    if isinstance(decision, ChooseSubset):
        return 2
    return 3 if decision.mode == "steps" else 2


def tail_buttons(spec: PanelSpec, pages: int) -> int:
    """How many buttons the panel's last row(s) hold: the game's extra buttons, ◀ ▶ between the panel's own pages
    when it has several, and the "?" every panel has."""
    return len(spec.extras) + (2 if pages > 1 else 0) + 1


def panel_pages(spec: PanelSpec) -> list[list[int]]:
    """The decisions shown together (by index): all at once when they fit five rows drawn compactly, else a
    page at a time, with ◀ ▶ beside the game's extra buttons (and the "?")."""
    needs = [_need(d) for d in spec.decisions]
    if sum(needs) + _rows(tail_buttons(spec, 1)) <= MAX_ROWS:
        return [list(range(len(needs)))]
    room = MAX_ROWS - _rows(tail_buttons(spec, 2))
    if any(need > room for need in needs):
        raise ValueError(f"a panel with {len(spec.extras)} extra buttons has no room for its decisions")
    pages: list[list[int]] = [[]]
    used = 0
    for index, need in enumerate(needs):
        if used + need > room:
            pages.append([])
            used = 0
        pages[-1].append(index)
        used += need
    return pages
