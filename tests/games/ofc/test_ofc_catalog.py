"""Every OFC refusal code, row, hand category and variant has English and Japanese text."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games.ofc.actions import TARGETS
from games.ofc.eval import CATEGORY_NAMES, ROYAL_FLUSH_NAME

ROOT = Path(__file__).resolve().parents[3]
CATALOG = json.loads((ROOT / "bot/i18n/catalog/ofc.json").read_text(encoding="utf-8"))


def test_every_entry_has_both_languages() -> None:
    for key, texts in CATALOG.items():
        assert set(texts) == {"en", "ja"}, key
        assert set(re.findall(r"{(\w+)}", texts["en"])) == set(re.findall(r"{(\w+)}", texts["ja"])), key


def test_every_refusal_code_is_translated() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "games/ofc").glob("*.py"))
    codes = set(re.findall(r'"ofc\.(\w+)"', source))
    assert codes
    assert codes <= set(CATALOG)


def test_rows_hands_and_variants_are_translated() -> None:
    for target in TARGETS:
        assert f"row_{target}" in CATALOG
    for name in (*CATEGORY_NAMES, ROYAL_FLUSH_NAME):
        assert f"hand_{name}" in CATALOG
    for variant in "abcd":
        assert f"variant_{variant}" in CATALOG
