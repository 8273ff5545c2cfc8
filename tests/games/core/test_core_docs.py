"""docs/fairness.md promises players a snippet that reproduces the bot's shuffle: hold it to that."""

from __future__ import annotations

import contextlib
import io
import random
import re
from pathlib import Path
from typing import Any

import pytest

from games.core.cards import french_deck, kabu_deck, lukfu_deck, notation
from games.core.rng import commitment, seeded_shuffle

FAIRNESS = Path(__file__).resolve().parents[3] / "docs" / "fairness.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", FAIRNESS.read_text(encoding="utf-8"), flags=re.DOTALL)


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
