"""The seating benchmark runs to the end (a tiny run: its figures come from running it by hand, see the README)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bench_tournament.py"


def test_the_seating_benchmark_prints_its_ratios() -> None:
    done = subprocess.run([sys.executable, str(BENCH), "1"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("×") == 4 and "200 members, tables of 7" in done.stdout
