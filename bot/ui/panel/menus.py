"""Menus bigger than Discord allows, split rather than cut (see :mod:`bot.ui.panel`): a one-choice menu of more
than 25 choices becomes a tree of groups (:func:`_menu`, :func:`_open`), a multi-select or a block of buttons
becomes pages (:func:`_pages`, :func:`_pager`), and where each menu stands is kept in the seat's panel state
under a fingerprint of its choices (:func:`_where`, :func:`_go_to`).

Names with a leading ``_`` in the panel's modules are private to the package, not to their module.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.errors import UserError
from bot.i18n import t
from bot.ui.panel.components import (
    NAV,
    PLACEHOLDER,
    ROW_WIDTH,
    SELECT_LIMIT,
    Button,
    Ids,
    Select,
    SelectOption,
    _clip,
    _option,
)


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


def _where(state: Mapping[str, str], name: str, entries: Sequence[_Entry]) -> str | None:
    """Where a menu stands, if it was saved for the same choices."""
    saved, _, target = state.get(name, "").partition(":")
    return target if saved == _fingerprint(entries) else None


def _saved_index(state: Mapping[str, str], name: str, entries: Sequence[_Entry]) -> int | None:
    """The entry a paged menu was left at (a page is saved as the index of its first entry)."""
    return _offset(_where(state, name, entries), len(entries))


def _go_to(state: dict[str, str], name: str, entries: Sequence[_Entry], target: str) -> None:
    """Save where a menu stands, for as long as it shows the same choices."""
    state[name] = f"{_fingerprint(entries)}:{target}"


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
    node = _node_at(root, _where(state, name, ordered)) or root
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
    _go_to(state, name, ordered, path)


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


def _button_page(
    entries: Sequence[_Entry], rows: int, state: Mapping[str, str], name: str, default: int | None
) -> tuple[list[_Node], int]:
    """The pages of buttons that ``rows`` rows hold (two places of the last page go to ◀ ▶), and the one shown."""
    pages = _pages(entries, rows * ROW_WIDTH) if len(entries) <= rows * ROW_WIDTH else []
    if not pages:
        pages = _pages(entries, rows * ROW_WIDTH - 2)
    saved = _saved_index(state, name, entries)
    return pages, _page_index(pages, saved if saved is not None else default)


def _page_choice(entries: Sequence[_Entry], offset: str | None, sent: str) -> tuple[set[str], tuple[str, ...]]:
    """The values a multi-select showed, and those chosen in it (``sent``, as the select sends them). It showed
    one page of them (the page of the entry at ``offset``), or all of them when they fit one select. A page the
    menu does not have, or no page where it has pages, is stale; so is a value it did not show, or one twice."""
    pages = _pages(entries, SELECT_LIMIT)
    if offset is None:
        if len(pages) > 1:
            raise UserError("panel.stale_group")
        shown = {e.value for e in entries}
    else:
        at = _offset(offset, len(entries))
        if at is None or len(pages) < 2:
            raise UserError("panel.stale_group")
        page = pages[_page_index(pages, at)]
        shown = {e.value for e in entries[page.start : page.end]}
    chosen = _csv(sent)
    if any(v not in shown for v in chosen) or len(set(chosen)) != len(chosen):
        raise UserError("table.stale_button")
    return shown, chosen


def _csv(text: str) -> tuple[str, ...]:
    return tuple(part for part in text.split(",") if part)
