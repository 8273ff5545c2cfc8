"""The docs quote code and output: docs/fairness.md's snippet must shuffle like the bot, docs/replay.md's examples
must be what the replay command prints."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from games.__main__ import main
from games.core.cards import french_deck, kabu_deck, lukfu_deck, notation
from games.core.record import TableRecord
from games.core.rng import commitment, seeded_shuffle
from games.registry import get_game
from games.replay import summary

FAIRNESS = Path(__file__).resolve().parents[3] / "docs" / "fairness.md"


def blocks_of(page: Path, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)


def blocks(language: str) -> list[str]:
    return blocks_of(FAIRNESS, language)


@pytest.fixture(scope="module")
def snippet() -> tuple[dict[str, Any], str]:
    (code,) = blocks("python")
    namespace: dict[str, Any] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(FAIRNESS), "exec"), namespace)
    return namespace, out.getvalue()


def test_the_printed_example_is_what_the_snippet_prints(snippet: tuple[dict[str, Any], str]) -> None:
    _, printed = snippet
    (shown,) = blocks("text")
    assert printed == shown


def test_the_snippet_decks_are_the_canonical_decks(snippet: tuple[dict[str, Any], str]) -> None:
    ns, _ = snippet
    assert " ".join(ns["FRENCH"]) == notation(french_deck())
    assert " ".join(ns["KABU_40"]) == notation(kabu_deck(10))
    assert " ".join(ns["KABU_48"]) == notation(kabu_deck(12))
    assert " ".join(ns["LUKFU"]) == notation(lukfu_deck())


def test_the_snippet_shuffles_like_the_bot(snippet: tuple[dict[str, Any], str]) -> None:
    ns, _ = snippet
    rng = random.Random(11)
    packs = [("FRENCH", french_deck()), ("KABU_40", kabu_deck(10)), ("KABU_48", kabu_deck(12)), ("LUKFU", lukfu_deck())]
    for _ in range(25):
        seed = rng.randbytes(32).hex()
        for name, deck in packs:
            assert " ".join(ns["shuffled"](ns[name], seed)) == notation(seeded_shuffle(deck, seed))


def test_the_quoted_values_match_the_bot() -> None:
    text = FAIRNESS.read_text(encoding="utf-8")
    seed = bytes(range(32)).hex()
    assert commitment(seed) in text
    assert notation(seeded_shuffle(kabu_deck(10), seed)).startswith("2 6 3 3 2 5 1 8 9 9")
    assert notation(seeded_shuffle(lukfu_deck(), seed)).startswith("4T 3T 3C 9T 8C 1C")


# ---------------------------------------------------------------- docs/replay.md

REPLAY = FAIRNESS.with_name("replay.md")
ROOT = FAIRNESS.parents[1]


def marked_blocks(kind: str) -> list[tuple[str, str]]:
    """``(argument, json text)`` for every ``<!-- kind: argument -->`` followed by a json block."""
    pattern = rf"<!-- {kind}: (.*?) -->\n```json\n(.*?)```"
    return re.findall(pattern, REPLAY.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_record_shown_is_the_example_file() -> None:
    first = blocks_of(REPLAY, "json")[0]
    assert json.loads(first) == json.loads((ROOT / "docs/examples/oicho.json").read_text(encoding="utf-8"))


def test_the_replay_outputs_shown_are_what_the_cli_prints(capsys: pytest.CaptureFixture[str]) -> None:
    shown = marked_blocks("replay-output")
    assert {path for path, _ in shown} == {
        "docs/examples/oicho.json",
        "docs/examples/ofc.json",
        "docs/examples/lukfu.json",
        "docs/examples/hachi.json",
    }
    for path, text in shown:
        assert main(["replay", str(ROOT / path)]) == 0
        printed = json.loads(capsys.readouterr().out)
        for deal in printed["deals"]:
            deal["summary"] = "…"
        assert json.loads(text) == printed, path


def test_the_deal_summaries_shown_are_what_the_cli_prints() -> None:
    shown = marked_blocks("replay-summary")
    assert {argument.split()[0] for argument, _ in shown} == {
        "docs/examples/oicho.json",
        "docs/examples/ofc.json",
        "docs/examples/lukfu.json",
        "docs/examples/hachi.json",
    }
    for argument, text in shown:
        path, deal = argument.split()
        record = TableRecord.loads((ROOT / path).read_text(encoding="utf-8"))
        out = summary(record)
        assert json.loads(text) == out["deals"][int(deal) - 1]["summary"], argument
        # The summary shown is what the game's result type writes, key for key and in the same order.
        typed = get_game(record.game).result.from_json(json.loads(text))
        assert json.dumps(typed.to_json(), ensure_ascii=False) == text.strip(), argument


def test_every_example_record_replays() -> None:
    for path in sorted((ROOT / "docs" / "examples").glob("*.json")):
        out = summary(TableRecord.loads(path.read_text(encoding="utf-8")))
        assert out["over"], f"{path.name} should show a finished game"
        assert sum(out["totals"]) == 0
