"""Every refusal code the engine raises, and every name the views use, has en and ja text."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games.oicho.rules import YAKU_KEYS

ROOT = Path(__file__).resolve().parents[3]
CATALOG = json.loads((ROOT / "bot/i18n/catalog/oicho.json").read_text(encoding="utf-8"))


def test_every_refusal_code_is_translated() -> None:
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "games/oicho").glob("*.py"))
    codes = set(re.findall(r'"oicho\.([a-z_]+)"', source))
    assert codes, "no codes found"
    assert codes <= set(CATALOG), codes - set(CATALOG)


def test_names_phases_and_actions() -> None:
    keys = {f"points_{n}" for n in range(10)}
    keys |= {f"hand_{k}" for k in ("plain", "arashi", "kuppin", "shippin", *YAKU_KEYS)}
    keys |= {f"phase_{p}" for p in ("betting", "deciding", "dealer", "round_over", "game_over")}
    keys |= {f"action_{v}" for v in ("bet", "done", "clear", "draw", "stand", "continue", "resign")}
    assert keys <= set(CATALOG), keys - set(CATALOG)
    assert CATALOG["points_0"]["ja"] == "ブタ" and CATALOG["points_9"]["ja"] == "カブ"


def test_both_languages_everywhere() -> None:
    for key, texts in CATALOG.items():
        assert set(texts) == {"en", "ja"}, key
        assert all(texts.values()), key
