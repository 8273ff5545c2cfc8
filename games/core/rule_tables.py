"""House rules shaped as a table: a nested model whose every field is a *row* (a model of plain options).

Hachi-Hachi Trick's hand table (``yaku_table.flush.normal``) and Oicho-Kabu's local hands
(``local_yaku.gogo.multiplier``) are such tables. Every cell stays an ordinary option with its dotted path (see
:mod:`games.core.house_rules`); this module adds the table's view of them, so moderators can read the table as a
table and set a whole row at once::

    yaku_table.flush = "on 5 2"                      # the row's cells in column order
    yaku_table.flush = "normal=5 forced_out=2"       # or by name, any subset
    yaku_table.sunashi = "on"                        # a prefix of the columns

A row is set in one validation of the whole model, so it is taken or refused as a whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from games.core.house_rules import RuleError, RuleOption, options, parse_value, to_data

M = TypeVar("M", bound=BaseModel)

_SEPARATORS = re.compile(r"[\s,，、]+")


@dataclass(frozen=True)
class RuleTable:
    """A table of rows: its path (``yaku_table``), its rows' keys and its columns (the union of the rows' fields,
    in the order they first appear)."""

    path: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]

    def row_path(self, row: str) -> str:
        return f"{self.path}.{row}"


def _is_row(value: Any) -> bool:
    return (
        isinstance(value, BaseModel)
        and bool(type(value).model_fields)
        and not any(isinstance(getattr(value, name), (BaseModel, dict)) for name in type(value).model_fields)
    )


def tables(model: type[BaseModel] | BaseModel) -> list[RuleTable]:
    """Every table in a rules model (at any depth), in declaration order."""
    instance = model if isinstance(model, BaseModel) else model()
    found: list[RuleTable] = []

    def walk(node: BaseModel, prefix: str) -> None:
        for name in type(node).model_fields:
            value = getattr(node, name)
            if not isinstance(value, BaseModel):
                continue
            fields = type(value).model_fields
            if fields and all(_is_row(getattr(value, row)) for row in fields):
                columns: list[str] = []
                for row in fields:
                    columns += [c for c in type(getattr(value, row)).model_fields if c not in columns]
                found.append(RuleTable(prefix + name, tuple(fields), tuple(columns)))
            else:
                walk(value, f"{prefix}{name}.")

    walk(instance, "")
    return found


def find_row(model: type[BaseModel] | BaseModel, path: str) -> tuple[RuleTable, str] | None:
    """The table and row key a path names (``yaku_table.flush``), or None when it names no row."""
    table_path, _, row = path.strip().rpartition(".")
    for table in tables(model):
        if table.path == table_path and row in table.rows:
            return table, row
    return None


def find_table(model: type[BaseModel] | BaseModel, path: str) -> RuleTable | None:
    return next((t for t in tables(model) if t.path == path.strip()), None)


def row_cells(rules: BaseModel, table: RuleTable, row: str) -> dict[str, RuleOption]:
    """A row's cells as options (with the value in force), by column."""
    prefix = table.row_path(row) + "."
    return {o.path[len(prefix) :]: o for o in options(rules) if o.path.startswith(prefix)}


def row_value(rules: BaseModel, table: RuleTable, row: str) -> dict[str, Any]:
    """A row's values as data (what the audit trail stores)."""
    node: Any = to_data(rules)
    for key in table.row_path(row).split("."):
        node = node[key]
    return dict(node)


def cell_text(value: Any) -> str:
    """One cell as text: ``on``/``off`` for a yes/no cell, the value otherwise."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def row_text(row: dict[str, Any]) -> str:
    """A row as the text that sets it again (its cells in column order)."""
    return " ".join(cell_text(v) for v in row.values())


def with_row(rules: M, path: str, raw: str) -> M:
    """A copy of ``rules`` with one row set from text (positional cells in column order, or ``name=value``
    pairs); the whole model is validated once. Raises :class:`RuleError` naming the cell at fault."""
    found = find_row(rules, path)
    if found is None:
        raise RuleError("rules.unknown_option", f"there is no rule table row {path!r}", option=path)
    table, row = found
    cells = row_cells(rules, table, row)
    columns = list(cells)
    tokens = [tok for tok in _SEPARATORS.split(raw.strip()) if tok]
    if not tokens:
        raise RuleError(
            "rules.row_empty", f"{path} needs values for {' '.join(columns)}", option=path, columns=" ".join(columns)
        )
    values: dict[str, Any] = {}
    position = 0
    for token in tokens:
        name, eq, text = token.partition("=")
        if eq:
            column = name.strip().lower()
            if column not in cells:
                raise RuleError(
                    "rules.row_unknown_column",
                    f"{path} has no column {name!r}",
                    option=path,
                    column=name,
                    columns=" ".join(columns),
                )
        else:
            if position >= len(columns):
                raise RuleError(
                    "rules.row_too_many",
                    f"{path} takes at most {len(columns)} values",
                    option=path,
                    columns=" ".join(columns),
                )
            column, text = columns[position], token
            position += 1
        if column in values:
            raise RuleError("rules.row_twice", f"{path}: {column} is given twice", option=path, column=column)
        values[column] = parse_value(cells[column], text)  # names the cell's path in its refusal
    data = to_data(rules)
    node: Any = data
    for key in table.row_path(row).split("."):
        node = node[key]
    node.update(values)
    try:
        return type(rules).model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise RuleError(
            "rules.invalid", f"{path}: {first.get('msg', 'invalid value')}", option=path, detail=first.get("msg", "")
        ) from None


def without_row(rules: M, path: str) -> M:
    """A copy of ``rules`` with one row (or, given a table's path, the whole table) back at its defaults."""
    default = type(rules)()
    data = to_data(rules)
    fresh = to_data(default)
    keys = path.strip().split(".")
    node: Any = data
    source: Any = fresh
    for key in keys[:-1]:
        node, source = node[key], source[key]
    if find_row(rules, path) is None and find_table(rules, path) is None:
        raise RuleError("rules.unknown_option", f"there is no rule table or row {path!r}", option=path)
    node[keys[-1]] = source[keys[-1]]
    return type(rules).model_validate(data)
