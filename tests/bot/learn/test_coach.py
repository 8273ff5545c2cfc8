"""The coach's note when the strong bot and the rule of thumb part ways: both are named, each for what it is."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.learn.coach import note_text, pick, rule_of_thumb, same_move
from bot.ui import ui_for
from bot.ui.base import TableContext
from games.core.rng import Shuffler
from games.registry import NORMAL, get_game

SEATS = 3


def first_disagreement(game: str, tables: int = 40) -> tuple[Any, int, list[Any], int]:
    """A decision (view, seat, legal, decision id) where the strong bot's move is not the normal bot's, found by
    playing tables of ``game`` with normal bots."""
    spec = get_game(game)
    for table in range(tables):
        rules = spec.rules_model()
        seeds = random.Random(f"coach:{table}")
        engine = spec.engine(
            rules, [spec.starting_chips(rules)] * SEATS, Shuffler(seed_source=lambda s=seeds: s.randbytes(32).hex())
        )
        for step in range(400):
            if engine.is_over or engine.deal_no > 2:
                break
            seat = min(engine.to_act())
            view, legal = engine.view(seat), list(engine.legal_actions(seat))
            decision = engine.decision_id(seat)
            if not same_move(pick(game, view, legal, decision), rule_of_thumb(game, view, legal, decision)):
                return view, seat, legal, decision
            engine.apply(seat, spec.policies[NORMAL](view, legal, random.Random(f"{table}:{step}")))
    raise AssertionError(f"{game}: the strong and normal bots agreed at every decision met")


@pytest.mark.parametrize("game", ["oicho", "luk_fu"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_note_names_the_rule_of_thumb_and_the_strong_move_where_they_differ(game: str, lang: str) -> None:
    view, seat, legal, decision = first_disagreement(game)
    ui = ui_for(game)
    ctx = TableContext(1, ["alice", "bot 1", "bot 2"], 1, True, lang, view.rules)
    note = note_text(game, view, seat, legal, ctx, {}, decision)
    assert note is not None
    strong_words = ui.move_words(view, seat, pick(game, view, legal, decision), lang)
    thumb_words = ui.move_words(view, seat, rule_of_thumb(game, view, legal, decision), lang)
    assert strong_words != thumb_words
    if lang == "en":
        assert f"📏 The rule of thumb is **{thumb_words}**" in note
        assert f"prefers **{strong_words}** here" in note
        assert "The bot would choose" not in note
    else:
        assert f"目安の手は **{thumb_words}**" in note and f"**{strong_words}** を選びます" in note
        assert "ボットなら" not in note
    # The same decision gets the same note.
    assert note_text(game, view, seat, legal, ctx, {}, decision) == note
