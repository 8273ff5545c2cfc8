"""``python -m games replay FILE``: replay a table record and print its chip results as JSON.

FILE may also be the JSON Lines of ``/export hands`` (one settled deal a line, or one such line alone): each deal is
replayed from its start and checked against the result stored with it, and one JSON line is printed per deal.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from games.core.errors import RecordError
from games.core.record import TableRecord
from games.replay import check_hand, summary


def _error(message: str) -> None:
    print(json.dumps({"error": message}, ensure_ascii=False), file=sys.stderr)


def _hand_lines(text: str) -> int:
    """Check every deal of an export's JSON Lines; 1 if any line fails (each failure named on standard error)."""
    failed = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data: Any = json.loads(line)
            if not isinstance(data, dict):
                raise RecordError("a line is a JSON object")
            result = check_hand(data)
        except json.JSONDecodeError as exc:
            _error(f"line {number}: not JSON: {exc}")
            failed += 1
            continue
        except RecordError as exc:
            _error(f"line {number}: {exc}")
            failed += 1
            continue
        print(json.dumps(result, ensure_ascii=False))
    return 1 if failed else 0


def _first_line_is_an_object(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        return isinstance(json.loads(first), dict)
    except json.JSONDecodeError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser(
        "replay",
        help="replay a table record (JSON) and print each deal's chip deltas, or check the deals of /export hands",
    )
    rep.add_argument("file", help="path to the record or the exported deals, or - for standard input")
    args = parser.parse_args(argv)
    text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        if not _first_line_is_an_object(text):
            _error(f"not JSON: {exc}")
            return 1
        return _hand_lines(text)  # several JSON objects, one a line: an export's deals
    if isinstance(data, dict) and "format" in data:
        return _hand_lines(text)
    try:
        result = summary(TableRecord.from_json(data))
    except RecordError as exc:
        _error(str(exc))
        return 1
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
