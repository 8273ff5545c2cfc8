"""``python -m games replay FILE``: replay a table record and print its chip results as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from games.core.errors import RecordError
from games.core.record import TableRecord
from games.replay import summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("replay", help="replay a table record (JSON) and print each deal's chip deltas")
    rep.add_argument("file", help="path to the record, or - for standard input")
    args = parser.parse_args(argv)
    text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    try:
        result = summary(TableRecord.loads(text))
    except RecordError as exc:
        print(json.dumps({"error": str(exc)}, ensure_ascii=False), file=sys.stderr)
        return 1
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
