"""A bot's name in a picture: its level tag goes first when the name does not fit, never its letters."""

from __future__ import annotations

import pytest

from bot.render.fonts import fit, text_width
from bot.ui.bot_levels import seat_name


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_name_too_wide_for_its_place_drops_its_level_before_its_letters(lang: str) -> None:
    name = seat_name("Tengu", bot=True, level="strong", lang=lang)
    drawn = fit(name, 18, 10_000)
    assert drawn.startswith("Tengu") and drawn != "Tengu", "with the room, the level shows"
    narrow = text_width("Tengu" + " (s", 18)
    assert fit(name, 18, narrow) == "Tengu"


def test_other_names_are_cut_as_before() -> None:
    assert fit("Tengu (strongest)", 18, text_width("Tengu (s", 18)).endswith("…")
    assert fit(seat_name("alice", bot=False, level="strong", lang="en"), 18, 100) == "alice"
