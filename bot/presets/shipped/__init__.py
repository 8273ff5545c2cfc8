"""The presets shipped with the bot: one preset file per variant (``<game>-<name>.json``, the format of
:mod:`bot.presets.format`), naming only the options it changes from the game's defaults.

Every server sees them beside its own presets; they can be loaded, shown and exported, never deleted or saved over,
and their names are kept for them. Their titles and descriptions are in ``bot/i18n/catalog/presets.json``
(``shipped_<game>_<name>`` and ``about_<game>_<name>``, the name's ``-`` written ``_``). ``tests/bot/presets`` checks
every file against its game's rules model, so a rule change that breaks one fails the tests.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from importlib import resources
from typing import Any

from bot.presets.format import PresetInvalid, build_rules, read_file
from bot.storage.presets import name_key
from games.registry import all_games

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ShippedPreset:
    game: str
    name: str
    options: dict[str, Any]
    """The options the preset changes (every other option is at its default)."""

    @property
    def text_key(self) -> str:
        """The end of its catalog keys: ``ofc_pineapple_progressive``."""
        return f"{self.game}_{self.name.replace('-', '_')}"


def files() -> list[tuple[str, bytes]]:
    """Every shipped preset file: (file name, contents)."""
    folder = resources.files(__name__)
    return sorted((entry.name, entry.read_bytes()) for entry in folder.iterdir() if entry.name.endswith(".json"))


@functools.cache
def shipped() -> dict[tuple[str, str], ShippedPreset]:
    """The shipped presets by (game, folded name). A file that does not load is left out and logged (the tests
    refuse it long before a release)."""
    found: dict[tuple[str, str], ShippedPreset] = {}
    for filename, raw in files():
        try:
            preset = read_file(raw)
            build_rules(all_games()[preset.game], preset.options)
        except PresetInvalid as refused:
            log.error("shipped preset %s does not load: %s", filename, refused)
            continue
        name = preset.name or filename.removesuffix(".json")
        found[(preset.game, name_key(name))] = ShippedPreset(preset.game, name, dict(preset.options))
    return found


def shipped_for(game: str) -> list[ShippedPreset]:
    return [p for (g, _), p in sorted(shipped().items()) if g == game]


def find_shipped(game: str, name: str) -> ShippedPreset | None:
    return shipped().get((game, name_key(name)))
