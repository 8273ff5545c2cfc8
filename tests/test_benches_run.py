"""The benchmarks that drive the whole bot still run to the end, at a tiny size.

They are not timed here (figures come from running them by hand, see the README): this only keeps them from rotting
as the runtime changes. Both once stopped working without anyone noticing: one stalled when the edit budget ran dry
under SimCord's clock, the other waited for table leases after a restart under a new process identity.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.mark.parametrize(
    ("script", "args", "last_words"),
    [
        ("bench_action.py", ["8"], "one action with the table redrawn / trivial handler:"),
        ("bench_restart.py", ["2"], "restart, first button answered:"),
        ("bench_rating.py", ["20"], "storage rate / (openskill rate + bare write on the loop):"),
        # Wraps the runtime's own methods to time them: a rename there would otherwise go unnoticed until run by hand.
        (
            "bench_capacity.py",
            ["30", "5", "--settle", "2", "--baseline-seconds", "3"],
            "capacity: click p99 with 30 tables / with 1 table:",
        ),
    ],
)
def test_a_bot_benchmark_runs_to_the_end(script: str, args: list[str], last_words: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=180, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert last_words in done.stdout
