"""Player-facing text in Japanese and English.

Strings live in ``bot/i18n/catalog/<namespace>.json`` as ``{"key": {"en": "...", "ja": "..."}}``;
a key is looked up with its namespace prefix (``"oicho.bet_over_cap"`` is key ``bet_over_cap`` of
``oicho.json``). Placeholders use ``str.format`` names: ``"{amount} chips"``. Every key must exist
in both languages (a test checks it). Ephemeral text follows the user's Discord locale, public text
the guild's.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ja")
CATALOG_DIR = Path(__file__).with_name("catalog")


def lang_of(locale: object) -> str:
    """A Discord locale (``ja``, ``en-US``, a ``discord.Locale``) → ``"ja"`` or ``"en"``."""
    value = getattr(locale, "value", locale)
    return "ja" if isinstance(value, str) and value.lower().startswith("ja") else "en"


@lru_cache(maxsize=1)
def catalog() -> dict[str, dict[str, str]]:
    """Every string, keyed ``namespace.key``."""
    merged: dict[str, dict[str, str]] = {}
    for path in sorted(CATALOG_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, texts in data.items():
            merged[f"{path.stem}.{key}"] = texts
    return merged


def t(key: str, locale: object = "en", /, **params: Any) -> str:
    """The text for ``key`` in the locale's language (English if missing), with ``params`` filled in."""
    entry = catalog().get(key)
    if entry is None:
        return key
    text = entry.get(lang_of(locale)) or entry.get("en") or key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def has(key: str) -> bool:
    return key in catalog()
