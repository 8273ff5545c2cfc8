"""A deal settled before results were typed still shows its results: the results message drawn from each game's
stored summaries (``tests/games/<game>/stored_results.json``) reads exactly as it did then, in both languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.ui import ui_for
from bot.ui.base import TableContext
from games.core.engine import DealResult
from games.registry import get_game

HERE = Path(__file__).resolve().parent
GOLDEN: dict[str, Any] = json.loads((HERE / "stored_results_embeds.json").read_text(encoding="utf-8"))
NAMES = ["Aki", "🤖 Ben", "Chie", "Dai", "Emi", "Fumi", "Goro"]
GAMES = ["oicho", "ofc", "luk_fu", "hachi_hachi"]


def stored(game: str) -> dict[str, Any]:
    path = HERE.parents[1] / "games" / game / "stored_results.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("game", GAMES)
def test_the_results_message_of_a_stored_summary_reads_as_before(game: str) -> None:
    spec, summaries = get_game(game), stored(game)
    rows = GOLDEN[game]
    assert {row["lang"] for row in rows} == {"en", "ja"}
    assert len(rows) == 2 * (len(summaries["summaries"]) + len(summaries["stored"]))
    for row in rows:
        summary = summaries[row["of"]][row["index"]]
        deltas = tuple(row["deltas"])
        result = DealResult(7, deltas, spec.result.from_json(summary), -sum(deltas))
        ctx = TableContext(1, NAMES, 2, False, row["lang"], spec.default_rules())
        assert ui_for(game).result_embed(result, ctx).to_dict() == row["embed"], (row["of"], row["index"], row["lang"])
