"""docs/howto.md maps every section of rules.md a player needs to the guide pages that teach it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bot import howto

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "howto.md"
RULES_CANDIDATES = [
    Path(p) for p in (os.environ.get("FUDABA_RULES_MD", ""), ROOT / "docs" / "rules.md", "/work/shared/rules.md") if p
]
"""Where the specification is read from: ``FUDABA_RULES_MD``, a copy in ``docs/``, or the shared one."""

NOT_FOR_PLAYERS = {
    "0.1": "source tags: where each rule comes from, for the developers",
    "4.8": "a comparison with other OFC sites; the options it led to are taught where they apply",
}
"""The only sections allowed without a page (docs/howto.md gives the same reasons)."""

GAME_OF = {"1": "oicho", "2": "luk_fu", "3": "hachi_hachi", "4": "ofc"}
HEADING = re.compile(r"^### (\d+\.\d+) (.+)$", re.MULTILINE)
ROW = re.compile(r"^\| (\d+\.\d+) \| (.+?) \| (.+) \|$", re.MULTILINE)
PAGE = re.compile(r"`([a-z_]+) ([a-z_]+)`")


def _tables() -> tuple[dict[str, tuple[str, list[tuple[str, str]]]], dict[str, str]]:
    """(section → (title, pages)) of the first table, (section → title) of the second."""
    text = DOC.read_text(encoding="utf-8")
    taught_part, _, excused_part = text.partition("## Sections that are not for players")
    taught = {m[1]: (m[2], PAGE.findall(m[3])) for m in ROW.finditer(taught_part)}
    excused = {m[1]: m[2] for m in ROW.finditer(excused_part)}
    return taught, excused


def _rules_md() -> Path | None:
    return next((p for p in RULES_CANDIDATES if p.is_file()), None)


def _key(section: str) -> tuple[int, int]:
    major, minor = section.split(".")
    return int(major), int(minor)


def test_every_row_names_pages_the_guide_has() -> None:
    taught, excused = _tables()
    assert taught and not set(taught) & set(excused)
    assert set(excused) == set(NOT_FOR_PLAYERS)
    for section, (_title, pages) in taught.items():
        assert pages, f"{section} lists no page"
        for game, topic in pages:
            assert game in howto.GAMES and topic in howto.topic_ids(game), (section, game, topic)
            major = section.split(".")[0]
            assert major == "0" or GAME_OF[major] == game, f"{section} names a page of another game: {game}"


def test_the_table_has_every_section_number_of_each_part() -> None:
    """Without rules.md at hand this still catches a row dropped from the middle of a part."""
    taught, excused = _tables()
    numbers = sorted({*taught, *excused}, key=_key)
    for major in ("0", "1", "2", "3", "4"):
        minors = sorted(_key(s)[1] for s in numbers if s.split(".")[0] == major)
        assert minors == list(range(1, len(minors) + 1)), (major, minors)
    for game in howto.GAMES:
        assert any(game == g for _s, (_t, pages) in taught.items() for g, _ in pages), game


def test_every_player_section_of_rules_md_has_a_page() -> None:
    """The heading ``### N.M Title`` of every section of parts 0–4 is in the table with its title, or is one of the
    sections not for players; and the table names no section rules.md does not have."""
    rules_md = _rules_md()
    if rules_md is None:
        pytest.skip("rules.md is not at hand: set FUDABA_RULES_MD or put a copy at docs/rules.md")
    headings = {m[1]: m[2].strip() for m in HEADING.finditer(rules_md.read_text(encoding="utf-8"))}
    headings = {s: title for s, title in headings.items() if s.split(".")[0] in ("0", "1", "2", "3", "4")}
    assert len(headings) > 30
    taught, excused = _tables()
    missing = sorted((s for s in headings if s not in taught and s not in NOT_FOR_PLAYERS), key=_key)
    assert missing == [], f"sections of rules.md without a page in docs/howto.md: {missing}"
    assert set(taught) | set(excused) <= set(headings), "docs/howto.md names sections rules.md does not have"
    for section, (title, _pages) in taught.items():
        assert headings[section].startswith(title.strip()), (section, title, headings[section])
