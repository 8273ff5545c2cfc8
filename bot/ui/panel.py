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
* ``x`` — a game's own :class:`Extra` (``arg`` is ``<verb>/<arg>``), passed to the game's ``ui_step``.

Until a move is complete, choices live only in the seat's panel state, never in the engine: nobody else can
see them, and the engine checks the move once it is submitted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.errors import UserError
from bot.i18n import t
from bot.ui.decisions import (
    Arrange,
    ChooseAmount,
    ChooseOne,
    ChooseSubset,
    Decision,
    Extra,
    Option,
    PanelSpec,
)
from games.core.actions import Action, AmountRange

MAX_ROWS = 5
ROW_WIDTH = 5
SELECT_LIMIT = 25
BUTTON_OPTIONS = 5
"""A ChooseOne with more options than this becomes a select menu."""
CONTENT_LIMIT = 1990


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


@dataclass(frozen=True)
class OpenModal:
    """A step asks for a typed amount: the modal's custom id carries the decision and range."""

    custom_id: str
    title: str
    label: str
    hint: str


# ---------------------------------------------------------------- drawing


class _Layout:
    """Packs components into at most five rows: buttons five to a row, a select alone on its row."""

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


def render(spec: PanelSpec, ids: Ids, lang: str, state: Mapping[str, str]) -> Rendered:
    """The panel's text and components; ``state`` is read, never changed."""
    layout = _Layout()
    lines = [spec.text] if spec.text else []
    for decision in spec.decisions:
        if decision.prompt:
            lines.append(decision.prompt)
        if isinstance(decision, ChooseOne):
            _draw_one(decision, ids, layout, lines)
        elif isinstance(decision, ChooseAmount):
            _draw_amount(decision, ids, lang, layout, state)
        elif isinstance(decision, ChooseSubset):
            _draw_subset(decision, ids, lang, layout, state)
        elif isinstance(decision, Arrange):
            _draw_arrange(decision, ids, lang, layout, state)
    if spec.extras:
        layout.buttons([_extra(extra, ids) for extra in spec.extras])
    rows = layout.rows[:MAX_ROWS]
    return Rendered("\n".join(lines)[:CONTENT_LIMIT], rows)


def _extra(extra: Extra, ids: Ids) -> Button:
    return Button(ids.step("x", f"{extra.verb}/{extra.arg}"), extra.label, extra.style, not extra.enabled, extra.emoji)


def _draw_one(decision: ChooseOne, ids: Ids, layout: _Layout, lines: list[str]) -> None:
    as_select = decision.select if decision.select is not None else len(decision.options) > BUTTON_OPTIONS
    for option in decision.options:
        if (option.action is None or not option.enabled) and option.reason:
            lines.append(f"⛔ {option.label}: {option.reason}")
    if as_select:
        choosable = [o for o in decision.options if o.action is not None and o.enabled][:SELECT_LIMIT]
        if not choosable:
            return
        layout.select(
            Select(
                ids.select("act", decision.key),
                tuple(
                    SelectOption(o.label[:100], o.action.text, description=(o.description or None))
                    for o in choosable
                    if o.action is not None
                ),
                decision.placeholder[:150],
            )
        )
        return
    layout.buttons(
        [_option_button(option, ids, f"{decision.key}/{i}") for i, option in enumerate(decision.options)], new_row=True
    )
    layout.end_row()


def _option_button(option: Option, ids: Ids, place: str) -> Button:
    if option.action is None:  # shown, never pressed (disabled); its id only has to be unique on the message
        return Button(ids.step("noop", place), option.label[:80], option.style, True, option.emoji)
    return Button(ids.action(option.action), option.label[:80], option.style, not option.enabled, option.emoji)


def chosen_range(decision: ChooseAmount, state: Mapping[str, str]) -> AmountRange | None:
    """The range the amount is for: the one chosen in the select, else the first."""
    if not decision.ranges:
        return None
    wanted = state.get(f"{decision.key}.range")
    for choice in decision.ranges:
        if choice.key == wanted:
            return choice.range
    return decision.ranges[0].range


def _draw_amount(decision: ChooseAmount, ids: Ids, lang: str, layout: _Layout, state: Mapping[str, str]) -> None:
    chosen = chosen_range(decision, state)
    if len(decision.ranges) > 1:
        current = next((c.key for c in decision.ranges if c.range is chosen), "")
        layout.select(
            Select(
                ids.select("rng", decision.key),
                tuple(
                    SelectOption(c.label[:100], c.key, default=c.key == current) for c in decision.ranges[:SELECT_LIMIT]
                ),
                decision.select_placeholder[:150],
            )
        )
    if chosen is None:
        if decision.none_label:
            layout.buttons(
                [Button(ids.step("noop", decision.key), decision.none_label[:80], disabled=True)], new_row=True
            )
        return
    presets = [a for a in decision.presets if chosen.lo <= a < chosen.hi][: ROW_WIDTH - 1]
    buttons = [Button(ids.action(chosen.make(a)), str(a)) for a in presets]
    buttons.append(Button(ids.action(chosen.make(chosen.hi)), t("panel.max", lang, amount=chosen.hi), "primary"))
    layout.buttons(buttons, new_row=True)
    layout.end_row()
    key = next((c.key for c in decision.ranges if c.range is chosen), "")
    layout.buttons([Button(ids.step("amt", f"{decision.key}/{key}"), t("panel.custom_amount", lang), emoji="✏️")])


def _draw_subset(decision: ChooseSubset, ids: Ids, lang: str, layout: _Layout, state: Mapping[str, str]) -> None:
    chosen = _csv(state.get(f"{decision.key}.chosen", ""))
    values = {v for _, v in decision.items}
    chosen = tuple(v for v in chosen if v in values)
    layout.select(
        Select(
            ids.select("sub", decision.key),
            tuple(
                SelectOption(label[:100], value, default=value in chosen)
                for label, value in decision.items[:SELECT_LIMIT]
            ),
            decision.placeholder[:150],
            min_values=min(decision.least, len(decision.items)),
            max_values=max(1, min(decision.most, len(decision.items), SELECT_LIMIT)),
        )
    )
    ready = decision.least <= len(chosen) <= decision.most and decision.build(chosen) is not None
    layout.buttons(
        [Button(ids.step("subok", decision.key), t("panel.confirm", lang), "success", not ready, "✅")], new_row=True
    )


# ---------------------------------------------------------------- arranging


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


def _draw_arrange(decision: Arrange, ids: Ids, lang: str, layout: _Layout, state: Mapping[str, str]) -> None:
    draft = Draft.load(decision, state)
    group_labels = {g.name: g.label for g in decision.groups}
    if decision.mode == "selects":
        for group in decision.groups:
            options = []
            for label, value in decision.items:
                where = draft.group_of(value)
                suffix = f" ({group_labels[where]})" if where and where != group.name else ""
                options.append(SelectOption((label + suffix)[:100], value, default=where == group.name))
            layout.select(
                Select(
                    ids.select("grp", f"{decision.key}/{group.name}"),
                    tuple(options[:SELECT_LIMIT]),
                    (group.placeholder or group.label)[:150],
                    min_values=0,
                    max_values=max(1, min(group.size, len(options), SELECT_LIMIT)),
                )
            )
    else:
        current = draft.current()
        item_buttons = []
        for label, value in decision.items:
            where = draft.group_of(value)
            text = label + (f" → {group_labels[where]}" if where else "")
            style = "primary" if value == current else "success" if where else "secondary"
            item_buttons.append(Button(ids.step("pick", f"{decision.key}/{value}"), text[:80], style))
        layout.buttons(item_buttons, new_row=True)
        layout.end_row()
        group_buttons = []
        for group in decision.groups:
            room = group.size - draft.count(group.name, besides=current)
            possible = (
                current is not None
                and draft.group_of(current) != group.name
                and room > 0
                and decision.feasible({**draft.assignment(), current: group.name})
            )
            group_buttons.append(
                Button(
                    ids.step("put", f"{decision.key}/{group.name}"),
                    f"{group.label} ({group.size - draft.count(group.name)})"[:80],
                    group.style,
                    not possible,
                )
            )
        layout.buttons(group_buttons, new_row=True)
        layout.end_row()
        layout.buttons(
            [Button(ids.step("undo", decision.key), t("panel.undo", lang), disabled=not draft.plan, emoji="↩️")],
            new_row=True,
        )
    layout.buttons(
        [Button(ids.step("clr", decision.key), t("panel.clear", lang), disabled=not draft.plan)],
        new_row=decision.mode == "selects",
    )
    ready = decision.build(draft.assignment()) is not None
    layout.buttons([Button(ids.step("ok", decision.key), t("panel.confirm", lang), "success", not ready, "✅")])


# ---------------------------------------------------------------- steps


def _csv(text: str) -> tuple[str, ...]:
    return tuple(part for part in text.split(",") if part)


def _find(spec: PanelSpec, key: str, kind: type[Decision]) -> Decision:
    for decision in spec.decisions:
        if decision.key == key and isinstance(decision, kind):
            return decision
    raise UserError("table.stale_button")  # a decision this seat no longer has (or a forged id)


def step(spec: PanelSpec, ids: Ids, lang: str, verb: str, arg: str, state: dict[str, str]) -> Action | OpenModal | None:
    """Carry out one panel step on ``state``: the move it completes, a modal to open, or None (the panel
    just changes). Raises :class:`UserError` for a step that does not fit the panel as it is."""
    key, _, value = arg.partition("/")
    if verb == "rng":
        decision = _find(spec, key, ChooseAmount)
        assert isinstance(decision, ChooseAmount)
        if value not in {c.key for c in decision.ranges}:
            raise UserError("table.stale_button")
        state[f"{key}.range"] = value
        return None
    if verb == "amt":
        decision = _find(spec, key, ChooseAmount)
        assert isinstance(decision, ChooseAmount)
        choice = next((c for c in decision.ranges if c.key == value), None)
        if choice is None:
            raise UserError("table.stale_button")
        return OpenModal(
            ids.step("amt", f"{key}/{value}").replace(":u:", ":m:", 1),
            t("panel.amount_title", lang),
            t("panel.amount_label", lang),
            f"{choice.range.lo}–{choice.range.hi}",
        )
    if verb == "act":
        decision = _find(spec, key, ChooseOne)
        assert isinstance(decision, ChooseOne)
        for option in decision.options:
            if option.action is not None and option.enabled and option.action.text == value:
                return option.action
        raise UserError("table.stale_button")
    if verb == "sub":
        decision = _find(spec, key, ChooseSubset)
        assert isinstance(decision, ChooseSubset)
        values = _csv(value)
        known = {v for _, v in decision.items}
        if any(v not in known for v in values) or len(set(values)) != len(values) or len(values) > decision.most:
            raise UserError("table.stale_button")
        state[f"{key}.chosen"] = ",".join(values)
        return None
    if verb == "subok":
        decision = _find(spec, key, ChooseSubset)
        assert isinstance(decision, ChooseSubset)
        chosen = _csv(state.get(f"{key}.chosen", ""))
        action = decision.build(chosen) if decision.least <= len(chosen) <= decision.most else None
        if action is None:
            raise UserError("panel.incomplete")
        return action
    if verb in ("pick", "put", "undo", "clr", "grp", "ok"):
        decision = _find(spec, key, Arrange)
        assert isinstance(decision, Arrange)
        return _arrange_step(decision, verb, value, state)
    raise UserError("table.stale_button")


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
        group = groups.get(name)
        if group is None or decision.mode != "selects":
            raise UserError("table.stale_button")
        chosen = _csv(chosen_text)
        if any(v not in draft.items for v in chosen) or len(set(chosen)) != len(chosen):
            raise UserError("table.stale_button")
        if len(chosen) > group.size:
            raise UserError("panel.group_full", group=group.label)
        draft.plan = [(v, g) for v, g in draft.plan if g != name and v not in chosen] + [(v, name) for v in chosen]
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


def amount_action(spec: PanelSpec, arg: str, amount: int) -> Action:
    """The move for an amount typed into the modal of ``arg`` (``<decision key>/<range key>``)."""
    key, _, value = arg.partition("/")
    decision = _find(spec, key, ChooseAmount)
    assert isinstance(decision, ChooseAmount)
    choice = next((c for c in decision.ranges if c.key == value), None)
    if choice is None:
        raise UserError("table.stale_button")
    return choice.range.make(amount)  # the engine refuses an amount outside its range, and says why
