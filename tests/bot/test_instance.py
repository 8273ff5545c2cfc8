"""A bot process's lasting identity as the owner of table leases (bot.instance)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.instance import ID_FILE, claim, release_all

ROOT = Path(__file__).resolve().parents[2]


def _claim_in_a_process(directory: Path) -> str:
    code = f"from bot.instance import claim; print(claim({str(directory)!r}))"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def test_the_next_process_from_the_same_directory_is_the_same_owner(tmp_path: Path) -> None:
    first = _claim_in_a_process(tmp_path)
    assert len(first) == 32 and (tmp_path / ID_FILE).read_text().strip() == first
    assert _claim_in_a_process(tmp_path) == first


def test_two_live_processes_never_share_an_identity(tmp_path: Path) -> None:
    try:
        mine = claim(tmp_path)
        assert _claim_in_a_process(tmp_path) != mine  # the file is locked by this process
        assert claim(tmp_path) != mine  # even a second claim inside one process
    finally:
        release_all()
    assert _claim_in_a_process(tmp_path) == mine  # released: the next process takes it up


def test_a_directory_that_cannot_be_used_gives_a_fresh_identity(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    one, two = claim(blocker / "data"), claim(blocker / "data")
    assert one != two and len(one) == 32
