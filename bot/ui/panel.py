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
* ``x`` — a game's own :class:`Extra` (``arg`` is ``<verb>/<arg>``), passed to the game's ``ui_step``.

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
"""

from __future__ import annotations

import hashlib
import re
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


@dataclass(frozen=True)
class OpenModal:
    """A step asks for a typed amount: the modal's custom id carries the decision and range."""

    custom_id: str
    title: str
    label: str
    hint: str


# ---------------------------------------------------------------- menus too big for one component


@dataclass(frozen=True)
class _Entry:
    """One choice of a menu: what it shows, the value it sends, and the game's grouping hint."""

    label: str
    value: str
    group: str | None = None
    description: str | None = None


@dataclass
class _Node:
    """A group of consecutive entries ``[start, end)``: a page of them (``kids`` None) or smaller groups."""

    first: str
    last: str
    start: int
    end: int
    kids: list[_Node] | None = None
    path: str = ""

    @property
    def label(self) -> str:
        return self.first if self.first == self.last else f"{_clip(self.first, 45)} … {_clip(self.last, 45)}"

    @property
    def size(self) -> int:
        return self.end - self.start


def _ordered(entries: Sequence[_Entry]) -> list[_Entry]:
    """Entries with each hinted group together (at its first entry's place); the order is kept otherwise."""
    first: dict[str | None, int] = {}
    for index, entry in enumerate(entries):
        first.setdefault(entry.group, index)
    return sorted(entries, key=lambda e: first[e.group])


def _fingerprint(entries: Sequence[_Entry]) -> str:
    """Short and stable: a menu's saved place is kept only while it shows the same choices."""
    text = "\x1f".join(f"{e.value}\x1e{e.group or ''}" for e in entries)
    return hashlib.blake2b(text.encode(), digest_size=5).hexdigest()


def _slices(start: int, end: int, most: int) -> list[tuple[int, int]]:
    """``[start, end)`` in as few slices of at most ``most`` as possible, of nearly equal sizes."""
    count = -(-(end - start) // most)
    size = -(-(end - start) // count)
    return [(a, min(a + size, end)) for a in range(start, end, size)]


def _hint_groups(entries: Sequence[_Entry], start: int, end: int) -> list[_Node]:
    nodes: list[_Node] = []
    for index in range(start, end):
        group = entries[index].group
        if nodes and entries[nodes[-1].start].group == group:
            nodes[-1].end = index + 1
            continue
        label = group if group is not None else entries[index].label
        nodes.append(_Node(label, label, index, index + 1))
    for node in nodes:
        if entries[node.start].group is None:
            node.last = entries[node.end - 1].label
    return nodes


def _range(entries: Sequence[_Entry], start: int, end: int) -> _Node:
    return _Node(entries[start].label, entries[end - 1].label, start, end)


def _tree(entries: Sequence[_Entry], cap: int = SELECT_LIMIT) -> _Node:
    """The menu as a tree whose every level fits one select of ``cap`` options: the top level ``cap`` entries,
    each lower level ``cap - 1`` (one option is the way back). ``entries`` come :func:`_ordered`."""
    root = _Node("", "", 0, len(entries))
    root.kids = _split(entries, 0, len(entries), cap, cap, hinted=True)
    _number(root)
    return root


def _split(entries: Sequence[_Entry], start: int, end: int, limit: int, cap: int, hinted: bool) -> list[_Node] | None:
    if end - start <= limit:
        return None
    nodes = _hint_groups(entries, start, end) if hinted else []
    if len(nodes) < 2:  # no hint, or one for all: slices named by their first and last choice
        nodes = [_range(entries, a, b) for a, b in _slices(start, end, cap - 1)]
    for node in nodes:
        node.kids = _split(entries, node.start, node.end, cap - 1, cap, hinted=False)
    while len(nodes) > limit:  # more groups than one level holds: groups of groups
        nodes = [
            _Node(nodes[a].first, nodes[b - 1].last, nodes[a].start, nodes[b - 1].end, nodes[a:b])
            for a, b in _slices(0, len(nodes), cap - 1)
        ]
    return nodes


def _number(node: _Node) -> None:
    for index, kid in enumerate(node.kids or []):
        kid.path = f"{node.path}.{index}" if node.path else str(index)
        _number(kid)


_PATH = re.compile(r"(?:0|[1-9][0-9]{0,2})(?:\.(?:0|[1-9][0-9]{0,2})){0,7}", re.ASCII)
_INDEX = re.compile(r"0|[1-9][0-9]{0,5}", re.ASCII)


def _node_at(root: _Node, path: str | None) -> _Node | None:
    """The node at ``path`` ("" is the root), or None when the tree has no such node."""
    if path is None:
        return None
    if path == "":
        return root
    if not _PATH.fullmatch(path):
        return None
    node = root
    for part in path.split("."):
        index = int(part)
        if node.kids is None or index >= len(node.kids):
            return None
        node = node.kids[index]
    return node


def _pages(entries: Sequence[_Entry], size: int) -> list[_Node]:
    """Consecutive pages of at most ``size`` entries. With hints, a page holds whole groups (as many as fit),
    and a group bigger than a page has pages of its own."""
    if len(entries) <= size:
        return [_Node("", "", 0, len(entries))]
    groups = _hint_groups(entries, 0, len(entries))
    if len(groups) < 2:
        groups = [_range(entries, 0, len(entries))]
    pages: list[_Node] = []
    joinable = False  # whether the last page holds whole groups, so the next may join it
    for group in groups:
        if group.size > size:
            hint = entries[group.start].group
            for a, b in _slices(group.start, group.end, size):
                page = _range(entries, a, b)
                if hint is not None:
                    page.first, page.last = f"{hint}: {page.first}", f"{hint}: {page.last}"
                pages.append(page)
            joinable = False
        elif joinable and pages[-1].size + group.size <= size:
            pages[-1].end, pages[-1].last = group.end, group.last
        else:
            pages.append(_Node(group.first, group.last, group.start, group.end))
            joinable = True
    return pages


def _page_index(pages: Sequence[_Node], offset: int | None) -> int:
    """The page holding the entry at ``offset`` (the first page for None or an offset out of range)."""
    if offset is not None:
        for index, page in enumerate(pages):
            if page.start <= offset < page.end:
                return index
    return 0


def _offset(text: str | None, count: int) -> int | None:
    """An entry's index read from a target, or None when it is not one of ``count``."""
    if text is None or not _INDEX.fullmatch(text):
        return None
    value = int(text)
    return value if value < count else None


def _where(state: Mapping[str, str], name: str, fingerprint: str) -> str | None:
    """Where a menu stands, if it was saved for the same choices."""
    saved, _, target = state.get(name, "").partition(":")
    return target if saved == fingerprint else None


def _go_to(state: dict[str, str], name: str, fingerprint: str, target: str) -> None:
    state[name] = f"{fingerprint}:{target}"


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


def _menu(
    entries: Sequence[_Entry],
    custom_id: str,
    placeholder: str,
    lang: str,
    state: Mapping[str, str],
    name: str,
    defaults: frozenset[str] = frozenset(),
) -> Select:
    """A one-choice select over any number of entries: a level of the menu's tree, with a way back."""
    ordered = _ordered(entries)
    root = _tree(ordered)
    node = _node_at(root, _where(state, name, _fingerprint(ordered))) or root
    options: list[SelectOption] = []
    if node is not root:
        up = node.path.rpartition(".")[0]
        parent = _node_at(root, up) or root
        options.append(
            _option(
                t("panel.back", lang),
                NAV + up,
                description=parent.label if parent is not root else t("panel.back_top", lang),
            )
        )
    if node.kids is None:
        options += [
            _option(e.label, e.value, default=e.value in defaults, description=e.description)
            for e in ordered[node.start : node.end]
        ]
    else:
        options += [
            _option(f"▶ {kid.label}", NAV + kid.path, description=t("panel.n_choices", lang, n=kid.size))
            for kid in node.kids
        ]
    if node is not root:
        placeholder = f"{node.label} · {placeholder}" if placeholder else node.label
    return Select(custom_id, tuple(options), _clip(placeholder, PLACEHOLDER))


def _open(entries: Sequence[_Entry], state: dict[str, str], name: str, value: str) -> None:
    """Choosing a group in a one-choice menu: the menu now shows it."""
    ordered = _ordered(entries)
    path = value[len(NAV) :]
    if _node_at(_tree(ordered), path) is None:
        raise UserError("panel.stale_group")
    _go_to(state, name, _fingerprint(ordered), path)


def _pager(ids: Ids, lang: str, key: str, menu: str, targets: Sequence[str], index: int) -> list[Button]:
    """◀ and ▶ to the pages before and after page ``index`` (disabled at the ends); none for a single page.
    ``targets`` are what a ``go`` step names each page by."""
    total = len(targets)
    if total < 2:
        return []
    back = Button(ids.step("noop", f"{key}/{menu}<"), f"◀ {t('panel.page', lang, n=1, total=total)}", disabled=True)
    on = Button(ids.step("noop", f"{key}/{menu}>"), f"{t('panel.page', lang, n=total, total=total)} ▶", disabled=True)
    if index > 0:
        back = Button(ids.go(key, menu, targets[index - 1]), f"◀ {t('panel.page', lang, n=index, total=total)}")
    if index < total - 1:
        on = Button(ids.go(key, menu, targets[index + 1]), f"{t('panel.page', lang, n=index + 2, total=total)} ▶")
    return [back, on]


def _starts(pages: Sequence[_Node]) -> list[str]:
    return [str(page.start) for page in pages]


# ---------------------------------------------------------------- drawing


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


def panel_pages(spec: PanelSpec) -> list[list[int]]:
    """The decisions shown together (by index): all at once when they fit five rows drawn compactly, else a
    page at a time, with ◀ ▶ beside the game's extra buttons."""
    needs = [_need(d) for d in spec.decisions]
    if sum(needs) + _rows(len(spec.extras)) <= MAX_ROWS:
        return [list(range(len(needs)))]
    room = MAX_ROWS - _rows(len(spec.extras) + 2)
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
    layout = _Layout()
    for position, decision in enumerate(shown):
        later = sum(_need(d) for d in shown[position + 1 :])
        room = MAX_ROWS - len(layout.rows) - later - _rows(len(tail))
        layout.extend(_draw(decision, ids, lang, state, room))
    if tail:
        layout.buttons(tail)
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
    return []


def _extra(extra: Extra, ids: Ids) -> Button:
    return Button(
        ids.step("x", f"{extra.verb}/{extra.arg}"),
        _clip(extra.label, BUTTON_LABEL),
        extra.style,
        not extra.enabled,
        extra.emoji,
    )


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
    index = _page_index(pages, _offset(_where(state, f"{decision.key}.at", _fingerprint(entries)), len(entries)))
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


def _item_entries(decision: Arrange) -> list[_Entry]:
    return _ordered([_Entry(label, value, decision.item_groups.get(value)) for label, value in decision.items])


def _group_entries(decision: Arrange) -> list[_Entry]:
    return [_Entry(g.label, g.name) for g in decision.groups]


def _button_page(
    entries: Sequence[_Entry], rows: int, state: Mapping[str, str], name: str, default: int | None
) -> tuple[list[_Node], int]:
    """The pages of buttons that ``rows`` rows hold (two places of the last page go to ◀ ▶), and the one shown."""
    pages = _pages(entries, rows * ROW_WIDTH) if len(entries) <= rows * ROW_WIDTH else []
    if not pages:
        pages = _pages(entries, rows * ROW_WIDTH - 2)
    saved = _offset(_where(state, name, _fingerprint(entries)), len(entries))
    return pages, _page_index(pages, saved if saved is not None else default)


def _sel_view(decision: Arrange, state: Mapping[str, str], entries: Sequence[_Entry]) -> tuple[str, int | None]:
    """The group (``*``: all of them) and the item page the group selects show."""
    target = _where(state, f"{decision.key}.at.sel", _fingerprint(entries)) or ""
    group, _, offset = target.partition(":")
    names = {g.name for g in decision.groups}
    return (group if group in names else PANEL), _offset(offset, len(entries))


def _draw_arrange(decision: Arrange, ids: Ids, lang: str, state: Mapping[str, str], room: int) -> _Layout:
    layout = _Layout()
    draft = Draft.load(decision, state)
    group_labels = {g.name: g.label for g in decision.groups}
    entries = _item_entries(decision)
    key = decision.key
    if decision.mode == "selects":
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
        moves = _pager(ids, lang, key, "sel", [f"{name}:{page.start}" for name, page in views], index)
        layout.buttons([Button(ids.step("clr", key), t("panel.clear", lang), disabled=not draft.plan)], new_row=True)
    else:
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
        moves = []
    ready = decision.build(draft.assignment()) is not None
    layout.buttons([Button(ids.step("ok", key), t("panel.confirm", lang), "success", not ready, "✅"), *moves])
    return layout


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
    if verb == "go":
        _go(spec, key, value, state)
        return None
    if verb == "rng":
        decision = _find(spec, key, ChooseAmount)
        assert isinstance(decision, ChooseAmount)
        if value in {c.key for c in decision.ranges}:
            state[f"{key}.range"] = value
        elif value.startswith(NAV) and len(decision.ranges) > 1:
            _open(_range_entries(decision), state, f"{key}.at", value)
        else:
            raise UserError("table.stale_button")
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
        if value.startswith(NAV):
            _open(_one_entries(decision), state, f"{key}.at", value)
            return None
        raise UserError("table.stale_button")
    if verb == "sub":
        key, paged, offset = key.partition(NAV)
        decision = _find(spec, key, ChooseSubset)
        assert isinstance(decision, ChooseSubset)
        scope = _page_values(_subset_entries(decision), offset if paged else None)
        values = _csv(value)
        if any(v not in scope for v in values) or len(set(values)) != len(values):
            raise UserError("table.stale_button")
        picked = set(values) | {v for v in _chosen(decision, state) if v not in scope}
        if len(picked) > decision.most:
            raise UserError("panel.too_many", n=decision.most)
        state[f"{key}.chosen"] = ",".join(v for _, v in decision.items if v in picked)
        return None
    if verb == "subok":
        decision = _find(spec, key, ChooseSubset)
        assert isinstance(decision, ChooseSubset)
        chosen = _chosen(decision, state)
        action = decision.build(chosen) if decision.least <= len(chosen) <= decision.most else None
        if action is None:
            raise UserError("panel.incomplete")
        return action
    if verb in ("pick", "put", "undo", "clr", "grp", "ok"):
        decision = _find(spec, key, Arrange)
        assert isinstance(decision, Arrange)
        return _arrange_step(decision, verb, value, state)
    raise UserError("table.stale_button")


def _page_values(entries: Sequence[_Entry], offset: str | None) -> set[str]:
    """The values a multi-select showed: one page of them (the page of the entry at ``offset``), or all of them
    when they fit one select. A page the menu does not have, or no page where it has pages, is stale."""
    pages = _pages(entries, SELECT_LIMIT)
    if offset is None:
        if len(pages) > 1:
            raise UserError("panel.stale_group")
        return {e.value for e in entries}
    at = _offset(offset, len(entries))
    if at is None or len(pages) < 2:
        raise UserError("panel.stale_group")
    page = pages[_page_index(pages, at)]
    return {e.value for e in entries[page.start : page.end]}


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
    if isinstance(decision, ChooseSubset) and menu == "":
        entries = _subset_entries(decision)
        name = f"{key}.at"
    elif isinstance(decision, Arrange) and menu in ("pick", "put", "sel"):
        entries = _group_entries(decision) if menu == "put" else _item_entries(decision)
        name = f"{key}.at.{menu}"
        if menu == "sel":
            group, _, target = target.partition(":")
            if decision.mode != "selects" or (group != PANEL and group not in {g.name for g in decision.groups}):
                raise UserError("panel.stale_group")
            if _offset(target, len(entries)) is None:
                raise UserError("panel.stale_group")
            _go_to(state, name, _fingerprint(entries), f"{group}:{target}")
            return
        if decision.mode != "steps":
            raise UserError("panel.stale_group")
    else:
        raise UserError("panel.stale_group")
    if _offset(target, len(entries)) is None:
        raise UserError("panel.stale_group")
    _go_to(state, name, _fingerprint(entries), target)


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
        scope = _page_values(_item_entries(decision), offset if paged else None)
        chosen = _csv(chosen_text)
        if any(v not in scope for v in chosen) or len(set(chosen)) != len(chosen):
            raise UserError("table.stale_button")
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


def amount_action(spec: PanelSpec, arg: str, amount: int) -> Action:
    """The move for an amount typed into the modal of ``arg`` (``<decision key>/<range key>``)."""
    key, _, value = arg.partition("/")
    decision = _find(spec, key, ChooseAmount)
    assert isinstance(decision, ChooseAmount)
    choice = next((c for c in decision.ranges if c.key == value), None)
    if choice is None:
        raise UserError("table.stale_button")
    return choice.range.make(amount)  # the engine refuses an amount outside its range, and says why
