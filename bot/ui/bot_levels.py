"""Bot levels as members meet them: a bot's name with its level, and what the lobby says of each level.

A bot seat's name carries its level after it (``🤖 Tanuki (strong)``, ``🤖 Tanuki（上級）``) wherever the table shows
names: the lobby's list, the table picture, the narration, each deal's results and the final standings.

The lobby describes the three levels, each with its strength as measured by ``bench/bench_bots.py``: the figures
live in one place, ``bot/ui/bot_strength.json``, which ``bench_bots.py --save`` writes from a full run (chips a deal
won from the level below, and the weakest level's from a random legal player, each with its 95% interval). A level
with no measured figure is described in words alone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from bot.i18n import t
from games.registry import DEFAULT_LEVEL, LEVELS

if TYPE_CHECKING:
    from bot.storage import Seat

BOT_MARK = "🤖 "
STRENGTH_FILE = Path(__file__).with_name("bot_strength.json")


@dataclass(frozen=True)
class Measured:
    """A level's measured result against another player over ``deals`` deals: ``mean`` chips a deal (at a stake of
    one chip a point), give or take ``half`` (the 95% interval's half-width)."""

    against: str
    """The level it played ("easy", "normal", "strong"), or "random" (a random legal player)."""
    mean: float
    half: float
    deals: int


@cache
def measured() -> dict[tuple[str, str], Measured]:
    """(game, level) → the figure the lobby quotes, from :data:`STRENGTH_FILE` (empty until one is measured)."""
    if not STRENGTH_FILE.exists():
        return {}
    data = json.loads(STRENGTH_FILE.read_text(encoding="utf-8"))
    out: dict[tuple[str, str], Measured] = {}
    for game, levels in data.get("games", {}).items():
        for level, figure in levels.items():
            if level in LEVELS:
                out[(game, level)] = Measured(
                    str(figure["against"]), float(figure["mean"]), float(figure["half"]), int(figure["deals"])
                )
    return out


def level_name(level: str, lang: str) -> str:
    """``Strong`` / ``上級``."""
    return t(f"bots.level_{level}", lang)


def seat_name(name: str, *, bot: bool, level: str, lang: str) -> str:
    """A seat's name as tables show it: a member's as it is, a bot's marked as a bot and followed by its level."""
    if not bot:
        return name
    return BOT_MARK + t("bots.tagged", lang, name=name, level=t(f"bots.tag_{level}", lang))


def tag_suffixes() -> tuple[str, ...]:
    """What :func:`seat_name` puts after a bot's name, for every level and language (a picture drops it where a name
    does not fit)."""
    return tuple(
        t("bots.tagged", lang, name="", level=t(f"bots.tag_{level}", lang)) for lang in ("en", "ja") for level in LEVELS
    )


def stored_names(seats: Sequence[Seat], lang: str) -> list[str]:
    """The names of a stored table's seats as :func:`seat_name` gives them (a bot seated before levels: normal)."""
    return [seat_name(s.name, bot=s.is_bot, level=s.bot_level or DEFAULT_LEVEL, lang=lang) for s in seats]


def strength(game: str, level: str, lang: str) -> str:
    """The level's measured strength in a sentence, or "" when it has not been measured."""
    figure = measured().get((game, level))
    if figure is None:
        return ""
    against = t("bots.random_player", lang) if figure.against == "random" else t(f"bots.tag_{figure.against}", lang)
    return t(
        "bots.measured",
        lang,
        mean=f"{figure.mean:+.2f}",
        half=f"{figure.half:.2f}",
        against=against,
        deals=f"{figure.deals:,}",
    )


def lobby_text(game: str, lang: str) -> str:
    """The lobby's description of the bots: each level in a line, with its measured strength where there is one."""
    lines = []
    for level in LEVELS:
        line = t("bots.about_line", lang, level=level_name(level, lang), about=t(f"bots.about_{level}", lang))
        said = strength(game, level, lang)
        lines.append(f"{line} {said}" if said else line)
    return "\n".join(lines)
