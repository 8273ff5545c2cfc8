"""The panel's own steps (:func:`step`): choosing from a menu or opening one of its groups, turning a page,
ticking a subset, arranging, and asking for a typed amount (:func:`amount_action` makes its move). Each is
checked against the panel as it is now: a stale or forged step is refused and changes nothing.
"""

from __future__ import annotations

from typing import TypeVar

from bot.errors import UserError
from bot.i18n import t
from bot.ui.decisions import AmountChoice, Arrange, ChooseAmount, ChooseOne, ChooseSubset, Decision, PanelSpec
from bot.ui.panel.arrange import _arrange_step, _group_entries, _item_entries
from bot.ui.panel.components import NAV, PANEL, Ids, OpenModal
from bot.ui.panel.layout import panel_pages
from bot.ui.panel.menus import _go_to, _offset, _open, _page_choice
from bot.ui.panel.shapes import _chosen, _one_entries, _range_entries, _subset_entries
from games.core.actions import Action

_Kind = TypeVar("_Kind", bound=Decision)


def _find(spec: PanelSpec, key: str, kind: type[_Kind]) -> _Kind:
    for decision in spec.decisions:
        if decision.key == key and isinstance(decision, kind):
            return decision
    raise UserError("table.stale_button")  # a decision this seat no longer has (or a forged id)


def _range_choice(decision: ChooseAmount, key: str) -> AmountChoice:
    """The range of ``decision`` named ``key``; one it does not have (any more) is a stale button."""
    choice = next((c for c in decision.ranges if c.key == key), None)
    if choice is None:
        raise UserError("table.stale_button")
    return choice


def step(spec: PanelSpec, ids: Ids, lang: str, verb: str, arg: str, state: dict[str, str]) -> Action | OpenModal | None:
    """Carry out one panel step on ``state``: the move it completes, a modal to open, or None (the panel
    just changes). Raises :class:`UserError` for a step that does not fit the panel as it is."""
    key, _, value = arg.partition("/")
    if verb == "go":
        _go(spec, key, value, state)
        return None
    if verb == "rng":
        amounts = _find(spec, key, ChooseAmount)
        if value in {c.key for c in amounts.ranges}:
            state[f"{key}.range"] = value
        elif value.startswith(NAV) and len(amounts.ranges) > 1:
            _open(_range_entries(amounts), state, f"{key}.at", value)
        else:
            raise UserError("table.stale_button")
        return None
    if verb == "amt":
        choice = _range_choice(_find(spec, key, ChooseAmount), value)
        return OpenModal(
            ids.step("amt", f"{key}/{value}").replace(":u:", ":m:", 1),
            t("panel.amount_title", lang),
            t("panel.amount_label", lang),
            f"{choice.range.lo}–{choice.range.hi}",
        )
    if verb == "act":
        one = _find(spec, key, ChooseOne)
        for option in one.options:
            if option.action is not None and option.enabled and option.action.text == value:
                return option.action
        if value.startswith(NAV):
            _open(_one_entries(one), state, f"{key}.at", value)
            return None
        raise UserError("table.stale_button")
    if verb == "sub":
        key, paged, offset = key.partition(NAV)
        subset = _find(spec, key, ChooseSubset)
        scope, values = _page_choice(_subset_entries(subset), offset if paged else None, value)
        picked = set(values) | {v for v in _chosen(subset, state) if v not in scope}
        if len(picked) > subset.most:
            raise UserError("panel.too_many", n=subset.most)
        state[f"{key}.chosen"] = ",".join(v for _, v in subset.items if v in picked)
        return None
    if verb == "subok":
        subset = _find(spec, key, ChooseSubset)
        chosen = _chosen(subset, state)
        if not subset.least <= len(chosen) <= subset.most:
            wanted = str(subset.least) if subset.least == subset.most else f"{subset.least}–{subset.most}"
            raise UserError("panel.choose_count", n=wanted, chosen=len(chosen))
        action = subset.build(chosen)
        if action is None:
            raise UserError("panel.not_a_move")
        return action
    if verb in ("pick", "put", "undo", "clr", "grp", "ok"):
        return _arrange_step(_find(spec, key, Arrange), verb, value, state)
    raise UserError("table.stale_button")


def _go(spec: PanelSpec, key: str, value: str, state: dict[str, str]) -> None:
    """Show another page or group of a menu (checked against the panel as it is: a stale or forged one is
    refused and nothing changes)."""
    menu, nav, target = value.partition(NAV)
    if not nav:
        raise UserError("panel.stale_group")
    if key == PANEL and menu == "":
        if _offset(target, len(panel_pages(spec))) is None:
            raise UserError("panel.stale_group")
        state[f"{PANEL}.page"] = target
        return
    decision = next((d for d in spec.decisions if d.key == key), None)
    shown = ""
    if isinstance(decision, ChooseSubset) and menu == "":
        entries = _subset_entries(decision)
        name = f"{key}.at"
    elif isinstance(decision, Arrange) and menu in ("pick", "put", "sel"):
        entries = _group_entries(decision) if menu == "put" else _item_entries(decision)
        name = f"{key}.at.{menu}"
        if menu == "sel":  # the target names the group shown as well: <group>:<offset>
            group, _, target = target.partition(":")
            if decision.mode != "selects" or (group != PANEL and group not in {g.name for g in decision.groups}):
                raise UserError("panel.stale_group")
            shown = f"{group}:"
        elif decision.mode != "steps":
            raise UserError("panel.stale_group")
    else:
        raise UserError("panel.stale_group")
    if _offset(target, len(entries)) is None:
        raise UserError("panel.stale_group")
    _go_to(state, name, entries, shown + target)


def amount_action(spec: PanelSpec, arg: str, amount: int) -> Action:
    """The move for an amount typed into the modal of ``arg`` (``<decision key>/<range key>``)."""
    key, _, value = arg.partition("/")
    choice = _range_choice(_find(spec, key, ChooseAmount), value)
    return choice.range.make(amount)  # the engine refuses an amount outside its range, and says why
