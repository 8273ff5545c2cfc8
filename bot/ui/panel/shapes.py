"""Drawing the simple decision shapes: a :class:`ChooseOne` (buttons, or a menu when they do not fit), a
:class:`ChooseAmount` (a menu of ranges, presets, the largest amount and a typed one) and a
:class:`ChooseSubset` (a multi-select, a page at a time when it is long, and Confirm).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import t
from bot.ui.decisions import ChooseAmount, ChooseOne, ChooseSubset, Option
from bot.ui.panel.components import (
    BUTTON_LABEL,
    BUTTON_OPTIONS,
    CUSTOM_ID,
    NAV,
    PLACEHOLDER,
    ROW_WIDTH,
    SELECT_LIMIT,
    Button,
    Ids,
    Select,
    _clip,
    _option,
)
from bot.ui.panel.layout import _Layout, _need, _rows
from bot.ui.panel.menus import (
    _csv,
    _Entry,
    _menu,
    _ordered,
    _page_index,
    _pager,
    _pages,
    _saved_index,
    _starts,
)
from games.core.actions import AmountRange


def _one_entries(decision: ChooseOne) -> list[_Entry]:
    return [
        _Entry(o.label, o.action.text, o.group, o.description)
        for o in decision.options
        if o.action is not None and o.enabled
    ]


def _draw_one(decision: ChooseOne, ids: Ids, lang: str, state: Mapping[str, str], room: int) -> _Layout:
    layout = _Layout()
    options = list(decision.options)
    if not options:
        return layout
    as_select = decision.select if decision.select is not None else len(options) > BUTTON_OPTIONS
    if not as_select:  # buttons only when every one fits: its row, its label and its id
        as_select = (
            _rows(len(options)) > max(room, 1)
            or any(len(o.label) > BUTTON_LABEL for o in options)
            or any(o.action is not None and len(ids.action(o.action)) > CUSTOM_ID for o in options)
        )
    if as_select:
        entries = _one_entries(decision)
        if entries:
            layout.select(
                _menu(entries, ids.select("act", decision.key), decision.placeholder, lang, state, f"{decision.key}.at")
            )
        return layout
    layout.buttons(
        [_option_button(option, ids, f"{decision.key}/{i}") for i, option in enumerate(options)], new_row=True
    )
    layout.end_row()
    return layout


def _option_button(option: Option, ids: Ids, place: str) -> Button:
    if option.action is None:  # shown, never pressed (disabled); its id only has to be unique on the message
        return Button(ids.step("noop", place), option.label, option.style, True, option.emoji)
    return Button(ids.action(option.action), option.label, option.style, not option.enabled, option.emoji)


def chosen_range(decision: ChooseAmount, state: Mapping[str, str]) -> AmountRange | None:
    """The range the amount is for: the one chosen in the select, else the first."""
    if not decision.ranges:
        return None
    wanted = state.get(f"{decision.key}.range")
    for choice in decision.ranges:
        if choice.key == wanted:
            return choice.range
    return decision.ranges[0].range


def _range_entries(decision: ChooseAmount) -> list[_Entry]:
    return [_Entry(c.label, c.key, c.group) for c in decision.ranges]


def _draw_amount(decision: ChooseAmount, ids: Ids, lang: str, state: Mapping[str, str], room: int) -> _Layout:
    layout = _Layout()
    chosen = chosen_range(decision, state)
    key = next((c.key for c in decision.ranges if c.range is chosen), "")
    if len(decision.ranges) > 1:
        layout.select(
            _menu(
                _range_entries(decision),
                ids.select("rng", decision.key),
                decision.select_placeholder,
                lang,
                state,
                f"{decision.key}.at",
                frozenset({key}),
            )
        )
    if chosen is None:
        if decision.none_label:
            layout.buttons(
                [Button(ids.step("noop", decision.key), _clip(decision.none_label, BUTTON_LABEL), disabled=True)],
                new_row=True,
            )
        return layout
    presets = [Button(ids.action(chosen.make(a)), str(a)) for a in decision.presets if chosen.lo <= a < chosen.hi]
    largest = Button(ids.action(chosen.make(chosen.hi)), t("panel.max", lang, amount=chosen.hi), "primary")
    typed = Button(ids.step("amt", f"{decision.key}/{key}"), t("panel.custom_amount", lang), emoji="✏️")
    if room > _need(decision):  # the presets and the largest on a row, the typed amount below
        layout.buttons([*presets[: ROW_WIDTH - 1], largest], new_row=True)
        layout.end_row()
        layout.buttons([typed])
    else:  # one row: fewer presets (any amount can still be typed)
        layout.buttons([*presets[: ROW_WIDTH - 2], largest, typed], new_row=True)
    return layout


def _subset_entries(decision: ChooseSubset) -> list[_Entry]:
    return _ordered([_Entry(label, value, decision.groups.get(value)) for label, value in decision.items])


def _chosen(decision: ChooseSubset, state: Mapping[str, str]) -> tuple[str, ...]:
    chosen = set(_csv(state.get(f"{decision.key}.chosen", "")))
    return tuple(v for _, v in decision.items if v in chosen)


def _draw_subset(decision: ChooseSubset, ids: Ids, lang: str, state: Mapping[str, str]) -> _Layout:
    layout = _Layout()
    entries = _subset_entries(decision)
    chosen = _chosen(decision, state)
    pages = _pages(entries, SELECT_LIMIT)
    index = _page_index(pages, _saved_index(state, f"{decision.key}.at", entries))
    page = pages[index]
    shown = entries[page.start : page.end]
    if len(pages) > 1:
        select_id = ids.select("sub", f"{decision.key}{NAV}{page.start}")
        placeholder = " · ".join(filter(None, [f"{page.label} ({index + 1}/{len(pages)})", decision.placeholder]))
        least = 0  # the rest may be chosen on other pages
    else:
        select_id, placeholder, least = ids.select("sub", decision.key), decision.placeholder, decision.least
    layout.select(
        Select(
            select_id,
            tuple(_option(e.label, e.value, default=e.value in chosen) for e in shown),
            _clip(placeholder, PLACEHOLDER),
            min_values=min(least, len(shown)),
            max_values=max(1, min(decision.most, len(shown))),
        )
    )
    ready = decision.least <= len(chosen) <= decision.most and decision.build(chosen) is not None
    confirm = Button(ids.step("subok", decision.key), t("panel.confirm", lang), "success", not ready, "✅")
    layout.buttons([confirm, *_pager(ids, lang, decision.key, "", _starts(pages), index)], new_row=True)
    return layout
