"""Arranging items into groups (an :class:`~bot.ui.decisions.Arrange`): the seat's draft, kept in its panel
state until Confirm (:class:`Draft`); how it is drawn (item and group buttons, or a select per group); and the
steps that change it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.errors import UserError
from bot.i18n import t
from bot.ui.decisions import Arrange
from bot.ui.panel.components import (
    BUTTON_LABEL,
    NAV,
    PANEL,
    PLACEHOLDER,
    SELECT_LIMIT,
    Button,
    Ids,
    Select,
    _clip,
    _option,
)
from bot.ui.panel.layout import _Layout, _need, _rows
from bot.ui.panel.menus import (
    _button_page,
    _csv,
    _Entry,
    _offset,
    _ordered,
    _page_choice,
    _page_index,
    _pager,
    _pages,
    _starts,
    _where,
)
from games.core.actions import Action


@dataclass
class Draft:
    """A seat's choices for an :class:`Arrange`, in the order made (so undo takes back the last)."""

    items: tuple[str, ...]
    plan: list[tuple[str, str]] = field(default_factory=list)
    picked: str | None = None

    def group_of(self, value: str) -> str | None:
        return next((g for v, g in self.plan if v == value), None)

    def count(self, group: str, *, besides: str | None = None) -> int:
        return sum(1 for v, g in self.plan if g == group and v != besides)

    def unplaced(self) -> list[str]:
        return [v for v in self.items if self.group_of(v) is None]

    def assignment(self) -> dict[str, str]:
        return dict(self.plan)

    def assign(self, value: str, group: str) -> None:
        self.plan = [(v, g) for v, g in self.plan if v != value] + [(value, group)]

    def current(self) -> str | None:
        """The item a group button places: the picked one, else the first without a group."""
        if self.picked is not None:
            return self.picked
        rest = self.unplaced()
        return rest[0] if rest else None

    @staticmethod
    def load(decision: Arrange, state: Mapping[str, str]) -> Draft:
        items = tuple(v for _, v in decision.items)
        draft = Draft(items)
        if state.get(f"{decision.key}.for") != " ".join(items):
            return draft  # other items now (a new street): earlier choices are void
        names = {g.name for g in decision.groups}
        for entry in _csv(state.get(f"{decision.key}.plan", "")):
            value, _, group = entry.partition(":")
            if value in items and group in names and draft.group_of(value) is None:
                draft.plan.append((value, group))
        picked = state.get(f"{decision.key}.pick") or None
        draft.picked = picked if picked in items else None
        return draft

    def save(self, decision: Arrange, state: dict[str, str]) -> None:
        state[f"{decision.key}.for"] = " ".join(self.items)
        state[f"{decision.key}.plan"] = ",".join(f"{v}:{g}" for v, g in self.plan)
        state[f"{decision.key}.pick"] = self.picked or ""


def draft_of(decision: Arrange, state: Mapping[str, str]) -> Draft:
    """The seat's current choices for ``decision`` (what the game's text shows as provisional)."""
    return Draft.load(decision, state)


def _item_entries(decision: Arrange) -> list[_Entry]:
    return _ordered([_Entry(label, value, decision.item_groups.get(value)) for label, value in decision.items])


def _group_entries(decision: Arrange) -> list[_Entry]:
    return [_Entry(g.label, g.name) for g in decision.groups]


def _sel_view(decision: Arrange, state: Mapping[str, str], entries: Sequence[_Entry]) -> tuple[str, int | None]:
    """The group (``*``: all of them) and the item page the group selects show."""
    target = _where(state, f"{decision.key}.at.sel", entries) or ""
    group, _, offset = target.partition(":")
    names = {g.name for g in decision.groups}
    return (group if group in names else PANEL), _offset(offset, len(entries))


def _draw_arrange(decision: Arrange, ids: Ids, lang: str, state: Mapping[str, str], room: int) -> _Layout:
    """Item buttons, group buttons, then Undo, Clear and Confirm (``steps``); or a select per group (one at a
    time when they do not all fit), then Clear, Confirm and ◀ ▶ (``selects``)."""
    layout = _Layout()
    draft = Draft.load(decision, state)
    if decision.mode == "selects":
        moves = _draw_group_selects(layout, decision, draft, ids, lang, state, room)
    else:
        _draw_pick_and_put(layout, decision, draft, ids, lang, state, room)
        moves = []
    ready = decision.build(draft.assignment()) is not None
    layout.buttons([Button(ids.step("ok", decision.key), t("panel.confirm", lang), "success", not ready, "✅"), *moves])
    return layout


def _draw_group_selects(
    layout: _Layout, decision: Arrange, draft: Draft, ids: Ids, lang: str, state: Mapping[str, str], room: int
) -> list[Button]:
    """``selects``: a select of the items per group, then Clear; returns the ◀ ▶ that go beside Confirm."""
    group_labels = {g.name: g.label for g in decision.groups}
    entries = _item_entries(decision)
    key = decision.key
    pages = _pages(entries, SELECT_LIMIT)
    wanted, offset = _sel_view(decision, state, entries)
    page_index = _page_index(pages, offset)
    if len(decision.groups) + 1 <= max(room, 2):  # a select per group, for one page of the items
        shown = list(decision.groups)
        views = [(PANEL, page) for page in pages]
        index = page_index
    else:  # one group's select at a time: ◀ ▶ go through the groups (and the pages)
        shown = [next((g for g in decision.groups if g.name == wanted), decision.groups[0])]
        views = [(g.name, page) for g in decision.groups for page in pages]
        index = [g.name for g in decision.groups].index(shown[0].name) * len(pages) + page_index
    page = pages[page_index]
    for group in shown:
        options = []
        for e in entries[page.start : page.end]:
            where = draft.group_of(e.value)
            suffix = f" ({group_labels[where]})" if where and where != group.name else ""
            options.append(_option(e.label + suffix, e.value, default=where == group.name))
        placeholder = group.placeholder or group.label
        if len(pages) > 1:
            placeholder = f"{placeholder} · {page.label} ({page_index + 1}/{len(pages)})"
        layout.select(
            Select(
                ids.select("grp", f"{key}/{group.name}" + (f"{NAV}{page.start}" if len(pages) > 1 else "")),
                tuple(options),
                _clip(placeholder, PLACEHOLDER),
                min_values=0,
                max_values=max(1, min(group.size, len(options))),
            )
        )
    layout.buttons([Button(ids.step("clr", key), t("panel.clear", lang), disabled=not draft.plan)], new_row=True)
    return _pager(ids, lang, key, "sel", [f"{name}:{page.start}" for name, page in views], index)


def blocked_groups(decision: Arrange, draft: Draft) -> list[str]:
    """Labels of the groups with room left where the item being placed cannot go, because no legal move puts it
    there with the others as placed (their buttons are greyed out: the panel says why)."""
    current = draft.current()
    if decision.mode != "steps" or current is None:
        return []
    return [
        group.label
        for group in decision.groups
        if draft.group_of(current) != group.name
        and group.size - draft.count(group.name, besides=current) > 0
        and not decision.feasible({**draft.assignment(), current: group.name})
    ]


def _draw_pick_and_put(
    layout: _Layout, decision: Arrange, draft: Draft, ids: Ids, lang: str, state: Mapping[str, str], room: int
) -> None:
    """``steps``: the items (the one to place marked), the groups it may go to, then Undo and Clear."""
    group_labels = {g.name: g.label for g in decision.groups}
    entries = _item_entries(decision)
    key = decision.key
    current = draft.current()
    groups = _group_entries(decision)
    rows = max(room, _need(decision)) - 1  # the last row: undo, clear, confirm
    item_rows = max(1, min(_rows(len(entries)), rows - 1))
    group_rows = max(1, min(_rows(len(groups)), rows - item_rows))
    at = next((i for i, e in enumerate(entries) if e.value == current), None)
    pages, index = _button_page(entries, item_rows, state, f"{key}.at.pick", at)
    item_buttons = []
    for e in entries[pages[index].start : pages[index].end]:
        where = draft.group_of(e.value)
        text = e.label + (f" → {group_labels[where]}" if where else "")
        style = "primary" if e.value == current else "success" if where else "secondary"
        item_buttons.append(Button(ids.step("pick", f"{key}/{e.value}"), _clip(text, BUTTON_LABEL), style))
    layout.buttons(item_buttons + _pager(ids, lang, key, "pick", _starts(pages), index), new_row=True)
    layout.end_row()
    by_name = {g.name: g for g in decision.groups}
    gpages, gindex = _button_page(groups, group_rows, state, f"{key}.at.put", None)
    group_buttons = []
    for e in groups[gpages[gindex].start : gpages[gindex].end]:
        group = by_name[e.value]
        room_left = group.size - draft.count(group.name, besides=current)
        possible = (
            current is not None
            and draft.group_of(current) != group.name
            and room_left > 0
            and decision.feasible({**draft.assignment(), current: group.name})
        )
        group_buttons.append(
            Button(
                ids.step("put", f"{key}/{group.name}"),
                _clip(f"{group.label} ({group.size - draft.count(group.name)})", BUTTON_LABEL),
                group.style,
                not possible,
            )
        )
    layout.buttons(group_buttons + _pager(ids, lang, key, "put", _starts(gpages), gindex), new_row=True)
    layout.end_row()
    layout.buttons(
        [Button(ids.step("undo", key), t("panel.undo", lang), disabled=not draft.plan, emoji="↩️")],
        new_row=True,
    )
    layout.buttons([Button(ids.step("clr", key), t("panel.clear", lang), disabled=not draft.plan)])


def _arrange_step(decision: Arrange, verb: str, value: str, state: dict[str, str]) -> Action | None:
    draft = Draft.load(decision, state)
    groups = {g.name: g for g in decision.groups}
    action: Action | None = None
    if verb == "pick":
        if value not in draft.items:
            raise UserError("table.stale_button")  # an item of an earlier street, or a forged id
        draft.picked = value
    elif verb == "put":
        group = groups.get(value)
        if group is None or decision.mode != "steps":
            raise UserError("table.stale_button")
        item = draft.current()
        if item is None:
            raise UserError("panel.all_placed")
        if group.size - draft.count(group.name, besides=item) <= 0:
            raise UserError("panel.group_full", group=group.label)
        if not decision.feasible({**draft.assignment(), item: group.name}):
            raise UserError("panel.not_possible", group=group.label)
        draft.assign(item, group.name)
        draft.picked = None
    elif verb == "undo":
        if not draft.plan:
            raise UserError("panel.nothing_to_undo")
        draft.picked = draft.plan.pop()[0]
    elif verb == "clr":
        draft.plan, draft.picked = [], None
    elif verb == "grp":
        name, _, chosen_text = value.partition("/")
        name, paged, offset = name.partition(NAV)
        group = groups.get(name)
        if group is None or decision.mode != "selects":
            raise UserError("table.stale_button")
        scope, chosen = _page_choice(_item_entries(decision), offset if paged else None, chosen_text)
        kept = [(v, g) for v, g in draft.plan if not (g == name and v in scope) and v not in chosen]
        if sum(1 for _, g in kept if g == name) + len(chosen) > group.size:
            raise UserError("panel.group_full", group=group.label)
        draft.plan = kept + [(v, name) for v in chosen]
    elif verb == "ok":
        action = decision.build(draft.assignment())
        if action is None:
            raise UserError("panel.incomplete")
    draft.save(decision, state)
    return action


def set_arrangement(decision: Arrange, state: dict[str, str], assignment: Mapping[str, str]) -> None:
    """Replace the seat's choices (a hint fills them in)."""
    draft = Draft.load(decision, state)
    names = {g.name for g in decision.groups}
    draft.plan = [(v, g) for v, g in assignment.items() if v in draft.items and g in names]
    draft.picked = None
    draft.save(decision, state)
