"""Expected errors become messages in the reader's language, engine identifiers included: words read as words, and
cards as the game's own panels name them."""

from __future__ import annotations

import ast
import string
import typing
from pathlib import Path
from typing import Any

import pytest

from bot.errors import CARD_PARAMS, UserError, message_for
from bot.i18n import catalog, has
from bot.ui import ui_for
from games.core.cards import LUKFU_SUITS, SUIT_CHARS
from games.core.errors import IllegalAction
from games.hachi_hachi.views import Phase as HachiPhase
from games.luk_fu.rules import TigersTiming
from games.luk_fu.views import Phase as LukFuPhase
from games.ofc.board import Row
from games.oicho.views import Phase as OichoPhase

ROOT = Path(__file__).resolve().parents[2]


def test_an_engine_refusal_reads_in_the_readers_language_with_its_words_translated() -> None:
    error = IllegalAction("ofc.row_full", "the front row has room for 2 more", row="front", free=2)
    assert message_for(error, "ja") == "フロントにはあと 2 枚しか置けません。"
    assert message_for(error, "en-US") == "The Front row has room for only 2 more card(s)."


def test_user_errors_and_unexpected_errors() -> None:
    assert message_for(UserError("panel.group_full", group="フロント"), "ja") == "フロントにはもう空きがありません。"
    assert message_for(RuntimeError("boom"), "en") is None


# ---------------------------------------------------------------- cards, as each game's panels name them


@pytest.mark.parametrize(
    ("error", "en", "ja"),
    [
        pytest.param(
            IllegalAction("hachi_hachi.card_not_in_hand", "Kc is not in your hand", card="Kc"),
            "K♣️ is not in your hand.",
            "K♣️ は手札にありません。",
            id="hachi_hachi-not-in-hand",
        ),
        pytest.param(
            IllegalAction("hachi_hachi.must_follow", "you hold c and must follow suit", suit="c", card="5s"),
            "You still hold cards of the suit led (♣ clubs): you must follow suit, not play 5♠️.",
            "台札（♣ クラブ）の札を持っているので、5♠️ ではなく同じスートの札を出してください。",
            id="hachi_hachi-must-follow",
        ),
        pytest.param(
            IllegalAction("ofc.card_not_yours", "Ts is not among your cards to place", card="Ts"),
            "10♠ is not one of the cards you have to place.",
            "10♠ はあなたが配置するカードではありません。",
            id="ofc-not-yours",
        ),
        pytest.param(
            IllegalAction("luk_fu.card_not_in_hand", "7M is not in your hand", card="7M"),
            "七貫 7M is not in your hand.",
            "七貫 は手札にありません。",
            id="luk_fu-not-in-hand",
        ),
        pytest.param(
            IllegalAction("luk_fu.old_card", "LT is an old card", card="LT"),
            "🔴老千 LT is an old card: it may not be led on its own.",
            "🔴老千 は古い札なので単独でリードできません。",
            id="luk_fu-old-card",
        ),
        pytest.param(
            IllegalAction("luk_fu.wrong_suit", "a single lead must come from M", card="2T", suit="M"),
            "二十 2T may not be led on its own: a single card must come from Myriads 貫, your highest suit that still"
            " has a card that is not old.",
            "二十 は単独でリードできません。単札は、古くない札が残る最も強い種類の貫から出す必要があります。",
            id="luk_fu-wrong-suit",
        ),
        pytest.param(
            IllegalAction(
                "luk_fu.does_not_beat",
                "3C 4C 5C does not beat 6S 7S 8S",
                cards="3C 4C 5C",
                winning="6S 7S 8S",
                options="7M 8M 9M / 2T 3T 4T",
            ),
            "三銭 3C 四銭 4C 五銭 5C does not beat 六索 6S 七索 7S 八索 8S."
            " You must play one of: 七貫 7M 八貫 8M 🔴九貫 9M / 二十 2T 三十 3T 四十 4T",
            "三銭 四銭 五銭 は 六索 七索 八索 に勝てません。次のどれかを出してください: 七貫 八貫 🔴九貫 / 二十 三十 四十",
            id="luk_fu-does-not-beat",
        ),
        pytest.param(
            IllegalAction("luk_fu.must_beat", "you must play one of 9S / LT", options="9S / LT"),
            "You hold cards that beat the trick, so you must play one of: 🔴九索 9S / 🔴老千 LT",
            "トリックに勝てる札を持っているので、次のどれかを出す必要があります: 🔴九索 / 🔴老千",
            id="luk_fu-must-beat",
        ),
        pytest.param(
            IllegalAction("luk_fu.not_a_combination", "2C 5M is not a lead", cards="2C 5M"),
            "二銭 2C 五貫 5M is not a single card, a triple, a quad or a run in one suit.",
            "二銭 五貫 は単札・三枚組・四枚組・同じ種類の続き札のどれでもありません。",
            id="luk_fu-not-a-combination",
        ),
    ],
)
def test_a_refusal_names_its_cards_as_the_games_panels_do_in_both_languages(
    error: IllegalAction, en: str, ja: str
) -> None:
    assert message_for(error, "en-GB") == en
    assert message_for(error, "ja") == ja


def test_each_game_names_a_card_as_its_panels_do_and_refuses_what_is_not_its_card() -> None:
    from bot.ui.hachi_hachi import card_text as hachi_card
    from bot.ui.luk_fu import card_text as luk_fu_card
    from bot.ui.ofc import pretty
    from bot.ui.oicho import card_text as oicho_card
    from games.core.cards import FrenchCard, KabuCard, LukFuCard

    labels = {
        ("hachi_hachi", "Qh"): hachi_card(FrenchCard.parse("Qh")),
        ("ofc", "Qh"): pretty(FrenchCard.parse("Qh")),
        ("oicho", "11"): oicho_card(KabuCard.parse("11")),
    }
    for (game, card), label in labels.items():
        assert ui_for(game).card_label(card, "en") == ui_for(game).card_label(card, "ja") == label
    for lang in ("en", "ja"):
        assert ui_for("luk_fu").card_label("9T", lang) == luk_fu_card(LukFuCard.parse("9T"), lang)
    assert [ui_for(g).card_label("Qh", "en") for g in ("hachi_hachi", "ofc")] == ["Q♥️", "Q♥"]
    assert ui_for("oicho").card_label("11", "en") == "[11]" and ui_for("luk_fu").card_label("9T", "ja") == "🔴九十"
    for game, not_a_card in (("hachi_hachi", "/"), ("ofc", "7M"), ("oicho", "13"), ("luk_fu", "Qh")):
        assert ui_for(game).card_label(not_a_card, "en") is None, (game, not_a_card)


@pytest.mark.parametrize(
    ("lang", "expected"), [("en", "Month [3] and [11]: nothing to refuse."), ("ja", "[3] と [11]")]
)
def test_an_oicho_refusal_would_name_its_cards_as_the_piles_do(
    monkeypatch: pytest.MonkeyPatch, lang: str, expected: str
) -> None:
    # No Oicho-Kabu move names a card, so none of its refusals does today; should one, it reads like the piles.
    entry = {"en": "Month {card} and {cards}: nothing to refuse.", "ja": "{card} と {cards}"}
    monkeypatch.setitem(catalog(), "oicho.test_cards", entry)
    assert message_for(IllegalAction("oicho.test_cards", "3 and 11", card="3", cards="11"), lang) == expected


def test_cards_of_a_code_outside_any_game_are_left_as_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(catalog(), "core.test_card", {"en": "No {card}.", "ja": "{card} なし。"})
    assert message_for(IllegalAction("core.test_card", "no As", card="As"), "en") == "No As."


# ---------------------------------------------------------------- every parameter an engine passes


def _refusals() -> list[tuple[str, str, set[str]]]:
    """(engine file, code, parameter names) of every ``IllegalAction(...)`` written in ``games/``."""
    found = []
    for path in sorted(ROOT.joinpath("games").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction" and node.args:
                code = node.args[0]
                assert isinstance(code, ast.Constant), f"{path}: a code that is not a literal"
                names = {k.arg for k in node.keywords if k.arg is not None}
                found.append((path.relative_to(ROOT).as_posix(), str(code.value), names))
    return found


NUMBERS = frozenset({"seat", "pile", "amount", "max", "cap", "cap_left", "stack", "free", "expected", "got", "count"})
"""Parameters that are counts or numbers, and read as they are in both languages."""
WORDS: dict[tuple[str, str], tuple[Any, ...]] = {
    ("hachi_hachi", "phase"): typing.get_args(HachiPhase),
    ("hachi_hachi", "suit"): tuple(SUIT_CHARS),
    ("luk_fu", "phase"): typing.get_args(LukFuPhase),
    ("luk_fu", "suit"): tuple(LUKFU_SUITS),
    ("luk_fu", "timing"): typing.get_args(TigersTiming),
    ("ofc", "row"): typing.get_args(Row),
    ("oicho", "phase"): typing.get_args(OichoPhase),
}
"""Parameters that are identifiers, each with every value it can take: the catalog must have a word for each."""
UNSHOWN = frozenset({"verb", "action"})
"""Parameters no message shows (the move's own text)."""


def test_every_parameter_an_engine_passes_is_a_card_a_number_or_a_word_in_both_languages() -> None:
    refusals = _refusals()
    assert len(refusals) > 40 and any(code == "hachi_hachi.must_follow" for _, code, _ in refusals)
    formatter = string.Formatter()
    problems = []
    for path, code, names in refusals:
        namespace = code.split(".", 1)[0]
        shown = {f for _, f, _, _ in formatter.parse(catalog()[code]["en"]) if f} if has(code) else set()
        for name in sorted(names):
            if name in CARD_PARAMS or name in NUMBERS:
                continue
            if (namespace, name) in WORDS:
                missing = [v for v in WORDS[namespace, name] if not has(f"{namespace}.{name}_{v}")]
                if missing:
                    problems.append(f"{path} {code}: no word for {name} = {missing}")
            elif name not in UNSHOWN or name in shown:
                problems.append(f"{path} {code}: parameter {name!r} is neither a card, a number nor a known word")
    assert problems == []


@pytest.mark.parametrize(
    ("error", "en", "ja"),
    [
        (
            IllegalAction("hachi_hachi.wrong_phase", "x", phase="choose", verb="card"),
            "You cannot do that now (the round is at: split or fight).",
            "今はその操作はできません（現在: 山分けか勝負かの選択）。",
        ),
        (
            IllegalAction("luk_fu.wrong_phase", "x", phase="follow", verb="lead"),
            "You cannot do that now (the hand is at: following).",
            "今はその操作はできません（現在: フォロー）。",
        ),
        (
            IllegalAction("luk_fu.five_tigers_timing", "x", timing="after_call"),
            "Five Tigers (五虎) cannot be revealed now (only right after the call).",
            "今は五虎を公開できません（宣言の直後だけ）。",
        ),
        (
            IllegalAction("ofc.row_full", "x", row="back", free=1),
            "The Back row has room for only 1 more card(s).",
            "バックにはあと 1 枚しか置けません。",
        ),
        (
            IllegalAction("oicho.no_such_pile", "x", pile=5),
            "There is no pile 5; choose pile 1 to 4.",
            "5番の場札はありません。1〜4から選んでください。",
        ),
    ],
)
def test_suits_rows_phases_and_piles_read_as_words_in_both_languages(error: IllegalAction, en: str, ja: str) -> None:
    assert message_for(error, "en") == en
    assert message_for(error, "ja") == ja


def test_a_refusal_raised_in_a_worker_process_keeps_its_words() -> None:
    """A game's panel step runs on the worker pool (a process in production): its refusal comes back pickled."""
    import pickle

    from bot.errors import UserError

    error = pickle.loads(pickle.dumps(UserError("panel.group_full", group="Front")))
    assert isinstance(error, UserError) and (error.key, error.params) == ("panel.group_full", {"group": "Front"})
