"""Drawing a whole panel (:func:`render`): its text, each decision drawn by its shape in the rows left to it,
the game's extra buttons, ◀ ▶ between the panel's own pages, and the "?" (:data:`~bot.ui.panel.components.HELP`).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import t
from bot.ui.decisions import Arrange, ChooseAmount, ChooseOne, ChooseSubset, Decision, Extra, PanelSpec
from bot.ui.panel.arrange import Draft, _draw_arrange, blocked_groups
from bot.ui.panel.components import (
    BUTTON_LABEL,
    CONTENT_LIMIT,
    MAX_ROWS,
    PANEL,
    ROW_WIDTH,
    SELECT_LIMIT,
    Button,
    Ids,
    Rendered,
    _clip,
)
from bot.ui.panel.layout import _Layout, _need, _rows, panel_pages
from bot.ui.panel.menus import _offset, _pager
from bot.ui.panel.shapes import _chosen, _draw_amount, _draw_one, _draw_subset


def _check(spec: PanelSpec) -> None:
    """Names the panel's ids are built from must not hold its separators (a programming error)."""
    for decision in spec.decisions:
        names = [decision.key]
        if isinstance(decision, Arrange):
            names += [g.name for g in decision.groups] + [v for _, v in decision.items]
        elif isinstance(decision, ChooseSubset):
            names += [v for _, v in decision.items]
        elif isinstance(decision, ChooseAmount):
            names += [c.key for c in decision.ranges]
        for name in names:
            if not name or any(sep in name for sep in "/,@:") or name == PANEL:
                raise ValueError(f"{decision.key!r}: {name!r} cannot name a panel choice")


def render(spec: PanelSpec, ids: Ids, lang: str, state: Mapping[str, str]) -> Rendered:
    """The panel's text and components; ``state`` is read, never changed."""
    _check(spec)
    lines = [spec.text] if spec.text else []
    for decision in spec.decisions:
        if decision.prompt:
            lines.append(decision.prompt)
        lines += _notes(decision, lang, state)
    pages = panel_pages(spec)
    index = _offset(state.get(f"{PANEL}.page"), len(pages)) or 0
    shown = [spec.decisions[i] for i in pages[index]]
    tail = [_extra(extra, ids) for extra in spec.extras]
    tail += _pager(ids, lang, PANEL, "", [str(n) for n in range(len(pages))], index)
    tail.append(Button(ids.help(), t("panel.help", lang)))
    # The "?" goes at the end of the last row when it has a place left there; only when it has none is the row it
    # needs taken from the decisions (which panel_pages leaves room for), so no choice is drawn smaller for it.
    for reserved in (len(tail) - 1, len(tail)):
        layout = _Layout()
        for position, decision in enumerate(shown):
            later = sum(_need(d) for d in shown[position + 1 :])
            room = MAX_ROWS - len(layout.rows) - later - _rows(reserved)
            layout.extend(_draw(decision, ids, lang, state, room))
        layout.buttons(tail)
        if len(layout.rows) <= MAX_ROWS:
            break
    if len(layout.rows) > MAX_ROWS or any(len(row) > ROW_WIDTH for row in layout.rows):
        raise AssertionError(f"a panel drawn with {len(layout.rows)} rows")  # panel_pages leaves room: never
    return Rendered("\n".join(lines)[:CONTENT_LIMIT], layout.rows)


def _draw(decision: Decision, ids: Ids, lang: str, state: Mapping[str, str], room: int) -> _Layout:
    """A decision's components in at most ``room`` rows when it can, else in its fewest (:func:`_need`)."""
    if isinstance(decision, ChooseOne):
        return _draw_one(decision, ids, lang, state, room)
    if isinstance(decision, ChooseAmount):
        return _draw_amount(decision, ids, lang, state, room)
    if isinstance(decision, ChooseSubset):
        return _draw_subset(decision, ids, lang, state)
    return _draw_arrange(decision, ids, lang, state, room)


def _notes(decision: Decision, lang: str, state: Mapping[str, str]) -> list[str]:
    """Lines of text a decision adds: why an option is forbidden; what is chosen on other pages."""
    if isinstance(decision, ChooseOne):
        return [
            f"⛔ {o.label}: {o.reason}" for o in decision.options if (o.action is None or not o.enabled) and o.reason
        ]
    if isinstance(decision, ChooseSubset) and len(decision.items) > SELECT_LIMIT:
        chosen = set(_chosen(decision, state))
        labels = [label for label, value in decision.items if value in chosen]
        return [t("panel.chosen", lang, items=", ".join(labels))] if labels else []
    if isinstance(decision, Arrange):
        draft = Draft.load(decision, state)
        blocked = blocked_groups(decision, draft)
        current = draft.current()
        if blocked and current is not None:
            item = next((label for label, value in decision.items if value == current), current)
            return [t("panel.blocked_groups", lang, item=item, groups=", ".join(blocked))]
    return []


def _extra(extra: Extra, ids: Ids) -> Button:
    return Button(
        ids.step("x", f"{extra.verb}/{extra.arg}"),
        _clip(extra.label, BUTTON_LABEL),
        extra.style,
        not extra.enabled,
        extra.emoji,
    )
