"""Expected errors become messages in the reader's language, engine identifiers included."""

from __future__ import annotations

from bot.errors import UserError, message_for
from games.core.errors import IllegalAction


def test_an_engine_refusal_reads_in_the_readers_language_with_its_words_translated() -> None:
    error = IllegalAction("ofc.row_full", "the front row has room for 2 more", row="front", free=2)
    assert message_for(error, "ja") == "フロントにはあと 2 枚しか置けません。"
    assert message_for(error, "en-US") == "The Front row has room for only 2 more card(s)."


def test_a_parameter_without_a_catalog_word_is_left_as_it_is() -> None:
    error = IllegalAction("ofc.card_not_yours", "As is not yours", card="As")
    assert message_for(error, "en-GB") == "As is not one of the cards you have to place."


def test_user_errors_and_unexpected_errors() -> None:
    assert message_for(UserError("panel.group_full", group="フロント"), "ja") == "フロントにはもう空きがありません。"
    assert message_for(RuntimeError("boom"), "en") is None
