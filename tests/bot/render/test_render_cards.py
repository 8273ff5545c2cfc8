"""Every card is drawn, distinctly, at the requested size; backs differ from faces."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.render import cards
from games.core.cards import FrenchCard, KabuCard, french_deck, lukfu_deck


def test_every_month_renders_distinctly() -> None:
    images = [cards.card_image(KabuCard(m)) for m in range(1, 13)]
    for img in images:
        assert img.size == cards.card_size()
        assert img.mode == "RGBA"
    for (i, a), (j, b) in combinations(enumerate(images, 1), 2):
        assert a.tobytes() != b.tobytes(), f"months {i} and {j} look the same"


def test_copies_of_a_month_look_alike_and_are_cached() -> None:
    assert cards.card_image(KabuCard(3, 0)) is cards.card_image(KabuCard(3, 2))


def test_backs_differ_from_faces_and_each_other() -> None:
    kabu_back = cards.card_back("kabu")
    french_back = cards.card_back("french")
    assert kabu_back.tobytes() != french_back.tobytes()
    assert all(kabu_back.tobytes() != cards.kabu_face(m).tobytes() for m in range(1, 13))
    assert cards.back_style_of(KabuCard(1)) == "kabu"
    assert cards.back_style_of(FrenchCard(14, "s")) == "french"


def test_french_and_luk_fu_packs_render_distinctly() -> None:
    for deck in (french_deck(), lukfu_deck()):
        seen = {cards.card_image(c, 48).tobytes() for c in deck}
        assert len(seen) == len(deck)


def test_other_widths_scale() -> None:
    assert cards.card_image(KabuCard(12), 40).size == cards.card_size(40)


def test_bad_month_is_refused() -> None:
    with pytest.raises(ValueError, match="no month 13"):
        cards.kabu_face(13)
