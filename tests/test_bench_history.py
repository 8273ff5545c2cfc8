"""``bench/bench_history.py`` still builds its server and runs to the end, at a tiny size, on both backends (the
PostgreSQL half is skipped with ``FUDABA_SKIP_PG=1``, as the storage tests' is). Not timed here: the figures come from
running it by hand (README)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_history.py"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_history_benchmark_runs_to_the_end(backend: str) -> None:
    if backend == "postgresql" and os.environ.get("FUDABA_SKIP_PG"):
        pytest.skip("FUDABA_SKIP_PG is set")
    done = subprocess.run(
        [sys.executable, str(BENCH), "3000", "--backend", backend, "--samples", "20"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "hand_history 3,000, deal_seats 9,000" in done.stdout
    for case in ("/history page ", "/history page, one game", "/stats "):
        assert case in done.stdout
    assert "history and stats / raw indexed lookup: done" in done.stdout
