"""An export's parts and messages (bot/export/parts.py) and its period (bot/export/period.py), offline."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import UserError
from bot.export.parts import MAX_FILES_PER_MESSAGE, BlockTooLarge, Part, Parts, budget_for, messages
from bot.export.period import iso, period


def test_blocks_fill_parts_within_the_budget_never_split(tmp_path: Path) -> None:
    parts = Parts(tmp_path, "fudaba-ledger-1-all", "csv", 30, header="a,b\n")
    for n in range(10):
        parts.add(f"{n},{'x' * 8}\n")  # 11 bytes a block: two a part, after the 4-byte header
    written = parts.close()
    assert [p.name for p in written] == [f"fudaba-ledger-1-all-part{n}of5.csv" for n in range(1, 6)]
    texts = [p.path.read_text() for p in written]
    assert all(t.startswith("a,b\n") and len(t.encode()) <= 30 for t in texts)
    assert "".join(t[4:] for t in texts) == "".join(f"{n},{'x' * 8}\n" for n in range(10))
    assert [p.size for p in written] == [len(t.encode()) for t in texts]
    with pytest.raises(BlockTooLarge):
        Parts(tmp_path, "big", "csv", 30, header="a,b\n").add("y" * 27)


def test_one_part_keeps_the_plain_name_and_no_block_writes_no_file(tmp_path: Path) -> None:
    one = Parts(tmp_path, "fudaba-hands-1-all", "jsonl", 1000)
    one.add("{}\n")
    assert [p.name for p in one.close()] == ["fudaba-hands-1-all.jsonl"]
    assert Parts(tmp_path, "none", "jsonl", 1000).close() == []


def test_messages_hold_ten_files_and_the_budget_at_most(tmp_path: Path) -> None:
    small = [Part(tmp_path / str(n), str(n), 10) for n in range(23)]
    groups = messages(small, 1000)
    assert [len(g) for g in groups] == [10, 10, 3] and MAX_FILES_PER_MESSAGE == 10
    big = [Part(tmp_path / str(n), str(n), 600) for n in range(3)]
    assert [len(g) for g in messages(big, 1000)] == [1, 1, 1]
    assert [len(g) for g in messages([*big[:1], *small[:4]], 1000)] == [5]
    assert budget_for(10 * 1024 * 1024) == 10 * 1024 * 1024 - 256 * 1024 and budget_for(1000) == 950


def test_periods_are_whole_utc_days() -> None:
    both = period("2027-01-15", "2027-01-16")
    assert (iso(both.since or 0), iso(both.until or 0)) == ("2027-01-15T00:00:00Z", "2027-01-17T00:00:00Z")
    assert both.label == "2027-01-15_2027-01-16"
    assert period(None, None).label == "all" and period(" ", None).since is None
    assert period("2027-01-15", None).label == "from-2027-01-15" and period(None, "9999-12-31").until is None
    for first, last in (("2027-1-5", None), (None, "2027-02-29"), ("tomorrow", None), ("2027-01-02", "2027-01-01")):
        with pytest.raises(UserError):
            period(first, last)
