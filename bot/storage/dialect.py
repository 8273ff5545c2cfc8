"""The little that differs between SQLite and PostgreSQL, in one place.

Everything else is one SQL text for both: the bodies are written in the common subset (``INSERT … ON CONFLICT …
DO UPDATE`` rather than ``INSERT OR REPLACE``, ``WHERE TRUE`` rather than ``WHERE 1``, no SELECT alias in a HAVING,
no parameter whose type only its value could tell), with ``?`` placeholders, and they keep booleans as 0/1 integers
and JSON as text on both, so no value needs converting. What remains is here:

* which backend a ``DATABASE_URL`` names (:func:`is_postgres_url`);
* SQLite's ``INDEXED BY`` hints, where its planner (without statistics) would walk a table's whole log along the
  primary key: PostgreSQL gets the statement without them (:func:`to_postgres`);
* PostgreSQL's placeholders: ``?`` becomes ``$1``, ``$2``, … (:func:`to_postgres`, once per statement text, cached,
  leaving string literals, quoted names and comments alone); an :class:`~bot.storage.tx.Insert` gets
  ``RETURNING id`` where SQLite gives the cursor's ``lastrowid`` (:func:`to_postgres_insert`), and a
  :class:`~bot.storage.tx.Many` ``RETURNING 1`` to count the rows it changed, which SQLite's ``executemany`` gives
  and asyncpg's does not (:func:`to_postgres_counted`);
* the migrations' bookkeeping: the ``schema_version`` table (PostgreSQL's ``real`` is single precision) and the
  lock two processes opening one PostgreSQL database take to migrate it once (:data:`SCHEMA_VERSION`,
  :data:`MIGRATION_LOCK`);
* the migration files themselves: ``migrations/NNNN_name.sql`` for SQLite and ``migrations/postgres/NNNN_name.sql``
  with the same numbers and names for PostgreSQL (:func:`bot.storage.database.migrations`).
"""

from __future__ import annotations

import functools
import os
import re
from typing import Literal

Dialect = Literal["sqlite", "postgresql"]
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgresql")

POSTGRES_SCHEMES = ("postgresql://", "postgres://")

SCHEMA_VERSION: dict[Dialect, str] = {
    "sqlite": "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " applied_at REAL NOT NULL)",
    "postgresql": "CREATE TABLE IF NOT EXISTS schema_version (version bigint PRIMARY KEY, name text NOT NULL,"
    " applied_at double precision NOT NULL)",
}

# Taken first in each migration's transaction, so that two processes opening one database migrate it once (on
# SQLite, BEGIN IMMEDIATE already serializes them). The number is arbitrary: "fudaba" in ASCII.
MIGRATION_LOCK: dict[Dialect, str | None] = {
    "sqlite": None,
    "postgresql": "SELECT pg_advisory_xact_lock(112117100097098097)",
}


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` (a ``DATABASE_URL``) names a PostgreSQL server rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


_INDEXED_BY = re.compile(r" INDEXED BY \w+")


@functools.lru_cache(maxsize=4096)
def to_postgres(sql: str) -> str:
    """``sql`` with each ``?`` placeholder numbered as PostgreSQL wants (``$1``, ``$2``, …), and without SQLite's
    ``INDEXED BY name`` hints.

    A ``?`` inside a string literal (``'…'``), a quoted name (``"…"``) or a comment (``-- …`` to the end of the
    line, ``/* … */``) is left as it is. The statements are a fixed set of texts, so the cache holds them all."""
    out: list[str] = []
    n = 0
    i, size = 0, len(sql)
    while i < size:
        c = sql[i]
        if c in "'\"":
            end = i + 1
            while end < size:
                if sql[end] == c:
                    if end + 1 < size and sql[end + 1] == c:  # a doubled quote stands for itself
                        end += 2
                        continue
                    break
                end += 1
            out.append(sql[i : end + 1])
            i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = size if end < 0 else end
            out.append(sql[i:end])
            i = end
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            end = size if end < 0 else end + 2
            out.append(sql[i:end])
            i = end
        elif c == "?":
            n += 1
            out.append(f"${n}")
            i += 1
        elif (hint := _INDEXED_BY.match(sql, i)) is not None:
            i = hint.end()  # SQLite's index hint: PostgreSQL's planner chooses from its statistics
        else:
            out.append(c)
            i += 1
    return "".join(out)


@functools.lru_cache(maxsize=1024)
def to_postgres_insert(sql: str) -> str:
    """An :class:`~bot.storage.tx.Insert` for PostgreSQL: numbered placeholders, and the new row's ``id`` returned
    (every table the storage inserts into by :class:`~bot.storage.tx.Insert` has an ``id`` key)."""
    return f"{to_postgres(sql)} RETURNING id"


@functools.lru_cache(maxsize=1024)
def to_postgres_counted(sql: str) -> str:
    """A :class:`~bot.storage.tx.Many` for PostgreSQL: a row returned for each row the statement changes, so that
    the driver can count them over all the parameter rows in one round trip."""
    return f"{to_postgres(sql)} RETURNING 1"
