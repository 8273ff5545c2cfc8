"""Session-wide fixtures: one real PostgreSQL server for the whole test session (see ``tests/pg.py``).

``pg`` starts it on first use and stops it at the end; each test that asks gets a database of its own, created from
a template the storage has already migrated (``CREATE DATABASE … TEMPLATE``: a file copy, no migrations to run).
When no server can be started, every test that needs one fails saying why, unless ``FUDABA_SKIP_PG=1`` is set, which
skips them instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.pg import PgDatabases, PgServer, PgUnavailable


@pytest.fixture(scope="session")
def pg() -> Iterator[PgDatabases]:
    """The session's PostgreSQL server (started on first use), with a migrated template database."""
    if os.environ.get("FUDABA_SKIP_PG") == "1":
        pytest.skip("FUDABA_SKIP_PG=1: tests on PostgreSQL skipped")
    try:
        server = PgServer.start_new()
    except PgUnavailable as exc:
        reason = str(exc)
    else:
        reason = ""
    if reason:
        pytest.fail(
            f"cannot start a PostgreSQL server for the tests: {reason}. Install the dev dependencies "
            "(pip install -e '.[dev]', which brings pgserver's binaries) or Debian's postgresql package, or set "
            "FUDABA_SKIP_PG=1 to skip the tests on PostgreSQL.",
            pytrace=False,
        )
    databases = PgDatabases(server)
    try:
        databases.build_template()
        yield databases
    finally:
        server.destroy()
