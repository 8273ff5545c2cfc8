"""The Luk Fu adapter on engines driven directly: the results message's trick-by-trick list (within Discord's
limits), the last hand's final trick in the table's words until the next first lead, and one word per idea."""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import discord
import pytest

from bot.i18n import CATALOG_DIR, t
from bot.ui.base import TableContext
from bot.ui.luk_fu import BACK, RESULT_ROOM, LukFuUI, cards_text
from games.core.cards import parse_lukfu
from games.core.engine import DealResult
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.results import LukFuResult

UI = LukFuUI()
NAMES = ["alice", "bob", "carol"]
"""Seat 0 (A in ``lukfu_kit``), seat 1 (C), seat 2 (B)."""
LANGS = ("en", "ja")
SEEDS_FIELD = len(t("table.seed_revealed", "en")) + 1024
"""What the runtime adds to every results message at most: the revealed seeds."""


def _kit() -> ModuleType:
    """``tests/games/luk_fu/lukfu_kit.py``: stacked Luk Fu deals written as each player's hand."""
    folder = str(Path(__file__).resolve().parents[2] / "games" / "luk_fu")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module("lukfu_kit")


def ctx(lang: str = "en", names: list[str] | None = None) -> TableContext:
    return TableContext(1, names or NAMES, 1, False, lang)


def played_out(moves: int | None = None) -> LukFuEngine:
    """The kit's played-out hand (all of it, or its first ``moves`` moves), the next deal stacked."""
    kit = _kit()
    engine = kit.table(kit.PLAYED_OUT, extra=kit.PLAYED_OUT_DEAD, later=[kit.PLAYED_OUT_NEXT])
    for seat, text in kit.PLAYED_OUT_MOVES[:moves]:
        kit.act(engine, seat, text)
    return engine


def log_fields(embed: discord.Embed, lang: str) -> list[str]:
    """The trick-by-trick list's fields: its titled field and the untitled ones that continue it."""
    fields = [(f.name, f.value) for f in embed.fields]
    title = t("luk_fu_ui.trick_log", lang)
    start = next(i for i, (name, _) in enumerate(fields) if name == title)
    values = [fields[start][1]]
    for name, value in fields[start + 1 :]:
        if name != "\u200b":
            break
        values.append(value)
    return [str(v) for v in values]


def cards(text: str, lang: str) -> str:
    return cards_text(parse_lukfu(text), lang)


def expected_log(lang: str) -> list[str]:
    """The played-out hand, trick by trick, as a member reads it."""
    alice, bob, carol = NAMES
    backs = BACK * 3

    def line(n: int, plays: str, name: str) -> str:
        return t("luk_fu_ui.trick_log_line", lang, n=n, plays=plays, name=name, count=3)

    return [
        line(1, f"{alice}: {cards('1S 2S 3S', lang)} · {carol}: {cards('4M 5M 6M', lang)} ✅ · {bob}: {backs}", carol),
        line(2, f"{carol}: {cards('7T 8T 9T', lang)} ✅ · {bob}: {backs} · {alice}: {backs}", carol),
        line(3, f"{carol}: {cards('2C 2M 2T', lang)} · {bob}: {cards('5C 5S 5T', lang)} ✅ · {alice}: {backs}", bob),
        line(4, f"{bob}: {cards('6C 7C 8C', lang)} · {alice}: {cards('7M 8M 9M', lang)} ✅ · {carol}: {backs}", alice),
    ]


# ---------------------------------------------------------------- the results message


@pytest.mark.parametrize("lang", LANGS)
def test_the_results_list_every_trick_in_order_with_who_took_it(lang: str) -> None:
    engine = played_out()
    embed = UI.result_embed(engine.results[-1], ctx(lang))
    assert "\n".join(log_fields(embed, lang)).split("\n") == expected_log(lang)
    shown = str(embed.to_dict())
    for card in parse_lukfu("1C 3C 4C 4S 6S 1M 7S 8S 9S 1T 3T 4T 9C 3M LT"):  # every face-down follow
        assert cards_text([card], lang) not in shown


def test_an_all_pass_hand_has_no_trick_list() -> None:
    kit = _kit()
    engine = kit.table(kit.PLAYED_OUT, extra=kit.PLAYED_OUT_DEAD)
    for seat in list(engine.active):
        kit.act(engine, seat, "pass")
    embed = UI.result_embed(engine.results[-1], ctx())
    assert engine.results[-1].summary["ended_by"] == "all_passed"
    assert t("luk_fu_ui.trick_log", "en") not in [f.name for f in embed.fields]


def _with_log(result: DealResult[LukFuResult], plays: list[list[dict[str, Any]]]) -> DealResult[LukFuResult]:
    """The result with another trick log: ``plays`` trick by trick (the first face-up play wins)."""
    log = []
    for n, trick in enumerate(plays, start=1):
        winner = next(p["seat"] for p in trick if "cards" in p)
        count = len(trick[0].get("cards", ())) or trick[0]["face_down"]
        log.append({"trick": n, "leader": trick[0]["seat"], "winner": winner, "count": count, "plays": trick})
    return DealResult(result.deal, result.deltas, LukFuResult.from_json({**result.summary, "trick_log": log}))


def _within_discords_limits(embed: discord.Embed) -> None:
    assert len(embed) + SEEDS_FIELD <= 6000 and len(embed.fields) + 1 <= 25
    assert len(embed.title or "") <= 256 and len(embed.description or "") <= 4096
    assert all(len(f.name or "") <= 256 and 0 < len(f.value or "") <= 1024 for f in embed.fields)


LONGEST_NAMES = ["🤖 " + "W" * 32, "M" * 32, "🤖 " + "あ" * 32]
"""Discord display names have at most 32 characters; the runtime marks bot players 🤖."""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("shape", ["twelve singles", "four nine-card runs"])
def test_the_longest_hands_list_every_trick_within_discords_limits(lang: str, shape: str) -> None:
    """Twelve tricks of one card (the most tricks; red cards have the longest labels) or four of nine cards (the
    most cards face up at once): every trick is listed, whole, and the message with its seeds fits Discord."""
    result = played_out().results[-1]
    if shape == "twelve singles":
        red = ["9C", "9S", "9M", "9T", "8T", "1C", "1T", "LT"]
        singles = [*red, "8C", "8S", "8M", "7T"] * 3
        plays = [[{"seat": s, "cards": [singles[3 * n + k]]} for k, s in enumerate((0, 2, 1))] for n in range(12)]
    else:
        runs = [[f"{r}{suit}" for r in range(1, 10)] for suit in "CSMT"]
        plays = [[{"seat": s, "cards": runs[(n + k) % 4]} for k, s in enumerate((0, 2, 1))] for n in range(4)]
    embed = UI.result_embed(_with_log(result, plays), ctx(lang, LONGEST_NAMES))
    _within_discords_limits(embed)
    lines = "\n".join(log_fields(embed, lang)).split("\n")
    assert [int(line.split(".")[0]) for line in lines] == list(range(1, len(plays) + 1))
    assert "…" not in "".join(lines)


def test_a_log_too_long_for_one_message_ends_with_a_whole_line_and_an_ellipsis() -> None:
    """Not a hand the rules allow (forty tricks of nine cards): the list still stops within Discord's limits, at a
    whole line."""
    result = played_out().results[-1]
    runs = [[f"{r}{suit}" for r in range(1, 10)] for suit in "CSMT"]
    plays = [[{"seat": s, "cards": runs[(n + k) % 4]} for k, s in enumerate((0, 2, 1))] for n in range(40)]
    embed = UI.result_embed(_with_log(result, plays), ctx("en", LONGEST_NAMES))
    _within_discords_limits(embed)
    assert len(embed) <= RESULT_ROOM
    lines = "\n".join(log_fields(embed, "en")).split("\n")
    assert lines[-1] == "…" and 1 < len(lines) - 1 < 40
    assert [int(line.split(".")[0]) for line in lines[:-1]] == list(range(1, len(lines)))


# ---------------------------------------------------------------- the table in words


def _final_field(engine: LukFuEngine, lang: str) -> tuple[str, str] | None:
    embed = UI.public_summary(engine.public_view(), ctx(lang))
    title = t("luk_fu_ui.final_trick", lang, deal=1, n=4, name=NAMES[0], count=3)
    found = [(f.name, f.value) for f in embed.fields if f.name == title]
    assert len(found) <= 1
    return (str(found[0][0]), str(found[0][1])) if found else None


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_names_the_last_hands_final_trick_until_the_next_first_lead(lang: str) -> None:
    """The hand's last card settles it and deals the next in one step, so the last trick is never between tricks:
    the table's words show it (as the picture does) through the next call until that hand's first lead."""
    kit = _kit()
    engine = played_out(len(kit.PLAYED_OUT_MOVES) - 1)
    assert _final_field(engine, lang) is None  # the trick in progress is shown as such
    kit.act(engine, *kit.PLAYED_OUT_MOVES[-1])
    alice, bob, carol = NAMES
    value = f"{bob}: {cards('6C 7C 8C', lang)}\n{alice}: {cards('7M 8M 9M', lang)} ✅\n{carol}: {BACK * 3}"
    assert engine.phase == "call" and _final_field(engine, lang) == (
        t("luk_fu_ui.final_trick", lang, deal=1, n=4, name=alice, count=3),
        value,
    )
    kit.act(engine, kit.B, "play")
    assert engine.phase == "lead" and _final_field(engine, lang) is not None
    kit.act(engine, kit.B, "lead 1S 2S 3S")
    assert _final_field(engine, lang) is None
    embed = UI.public_summary(engine.public_view(), ctx(lang))
    assert t("luk_fu_ui.trick", lang, n=1, count=3) in [f.name for f in embed.fields]


def test_no_final_trick_after_an_all_pass_hand() -> None:
    kit = _kit()
    engine = played_out()
    for seat in list(engine.active):  # the next hand: everyone passes
        kit.act(engine, seat, "pass")
    assert engine.public_view().last_result["ended_by"] == "all_passed"  # type: ignore[index]
    embed = UI.public_summary(engine.public_view(), ctx())
    assert not any(f.name and f.name.startswith("Final trick") for f in embed.fields)


# ---------------------------------------------------------------- one word per idea


def _catalog(name: str) -> dict[str, dict[str, str]]:
    return dict(json.loads((CATALOG_DIR / f"{name}.json").read_text(encoding="utf-8")))


SAME_IDEA_OTHER_WORDS = {
    "en": [
        r"\bdeals? \{deal\}",  # a hand is a hand: "hand 2/3" in the text, the picture and the results
        r"\bplay on\b",  # stop or continue
        r"\bSitter \{name\}",  # "{name}'s card (sitting out)" in the picture and the results alike
        r"\bset of\b",  # triple / quad, as the picture names them
        r"\(\w+ \(",  # no brackets inside brackets
    ],
    "ja": [
        "持ち点",  # チップ
        "連続",  # 続き札
        "セット",  # 組
        "カード",  # 札
        "ディーラー",  # 配り手
        "終了か続行",  # 止めるか続けるか
        "休み（{name}）",  # {name}（休み）
    ],
}


@pytest.mark.parametrize("lang", LANGS)
def test_each_idea_has_one_word_across_the_picture_text_panels_narration_and_results(lang: str) -> None:
    for name in ("luk_fu", "luk_fu_ui", "luk_fu_render"):
        for key, entry in _catalog(name).items():
            for pattern in SAME_IDEA_OTHER_WORDS[lang]:
                assert not re.search(pattern, entry[lang]), (f"{name}.{key}", entry[lang], pattern)


@pytest.mark.parametrize("lang", LANGS)
def test_the_panel_and_the_picture_name_plays_alike(lang: str) -> None:
    for kind in ("triple", "quad"):
        assert t(f"luk_fu_ui.kind_{kind}", lang).lower() == t(f"luk_fu_render.kind_{kind}", lang).lower()
    assert t("luk_fu_ui.kind_run", lang, n=5).lower() == t("luk_fu_render.kind_run", lang, size=5).lower()
    assert t("luk_fu_ui.title", lang, deal=2, total=3) == t("luk_fu_render.title", lang, deal=2, total=3)
    assert t("luk_fu_ui.sitter_card", lang, name="x") == t("luk_fu_render.last_sitter_card", lang, name="x")


@pytest.mark.parametrize("lang", LANGS)
def test_a_wrong_suit_refusal_reads_as_plain_words(lang: str) -> None:
    """The suit it names is a word of the sentence, not a bracket inside a bracket."""
    from bot.errors import message_for
    from games.core.errors import IllegalAction

    text = message_for(IllegalAction("luk_fu.wrong_suit", "", card="5C", suit="S"), lang)
    assert text is not None
    assert not re.search(r"[(（][^)）]*[(（]", text) and "(" not in text and "（" not in text
    assert t("luk_fu.suit_S", lang) in text
