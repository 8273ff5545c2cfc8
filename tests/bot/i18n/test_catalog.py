"""Every player-facing string exists in Japanese and English, and every key the code uses exists."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, catalog, lang_of, t

ROOT = Path(__file__).resolve().parents[3]
KEY = re.compile(r"^[a-z_]+\.[a-z0-9_]+$")


def test_every_entry_has_both_languages_with_the_same_placeholders() -> None:
    problems = []
    formatter = string.Formatter()
    for key, texts in catalog().items():
        if set(texts) != set(LANGUAGES) or not all(texts[lang].strip() for lang in LANGUAGES):
            problems.append(f"{key}: languages {sorted(texts)}")
            continue
        fields = [{name for _, name, _, _ in formatter.parse(texts[lang]) if name} for lang in LANGUAGES]
        if fields[0] != fields[1]:
            problems.append(f"{key}: placeholders differ {fields}")
    assert problems == []


def test_japanese_text_is_japanese() -> None:
    words = re.compile(r"[A-Za-z]{3,}")
    placeholders = re.compile(r"\{[^}]*\}")
    untranslated = [
        k for k, v in catalog().items() if v["ja"] == v["en"] and words.search(placeholders.sub("", v["en"]))
    ]
    assert untranslated == []


def _literal_keys() -> set[str]:
    """String literals passed to t(...), UserError(...), L(...) and IllegalAction(...) in bot/ and games/."""
    found: set[str] = set()
    for path in [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("games").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            args = node.args
            index = 1 if name == "L" else 0
            if name in {"t", "UserError", "L", "IllegalAction", "RuleError"} and len(args) > index:
                arg = args[index]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and KEY.match(arg.value):
                    found.add(arg.value)
    return found


def test_every_key_used_in_code_is_in_the_catalog() -> None:
    keys = _literal_keys()
    assert len(keys) > 50  # the scan really found the calls
    missing = sorted(k for k in keys if k not in catalog())
    assert missing == []


@pytest.mark.parametrize(("locale", "expected"), [("ja", "ja"), ("en-US", "en"), ("en-GB", "en"), ("fr", "en")])
def test_locale_mapping(locale: str, expected: str) -> None:
    assert lang_of(locale) == expected


def test_lookup_falls_back_and_fills_placeholders() -> None:
    assert t("table.not_enough_players", "ja", needed=2) == "開始するには2人以上必要です。"
    assert t("table.not_enough_players", "fr", needed=3).startswith("At least 3")
    assert t("no.such_key", "ja") == "no.such_key"
