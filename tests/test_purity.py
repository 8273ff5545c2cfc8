"""``games/`` is pure: it never imports discord, aiosqlite or PIL (house style: engines know nothing of Discord).

Checked twice: statically (every import statement in every file, wherever it sits) and dynamically (import every
module of the package in a fresh interpreter and look at ``sys.modules``, which also catches indirect imports).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
FORBIDDEN = frozenset({"discord", "aiosqlite", "PIL"})


def forbidden_imports(source: str, filename: str = "<string>") -> list[str]:
    """``line: module`` for every import of a forbidden package, including ``importlib.import_module("…")``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in {"import_module", "__import__"} and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
        found += [f"{node.lineno}: {name}" for name in names if name.split(".")[0] in FORBIDDEN]
    return found


def game_files() -> list[Path]:
    return sorted(GAMES.rglob("*.py"))


def test_the_scan_sees_every_kind_of_import() -> None:
    source = (
        "import os\nimport discord.ui\nfrom PIL import Image\nfrom aiosqlite import connect\n"
        "def f():\n    import discord\n    return importlib.import_module('PIL.ImageDraw')\n"
        "from . import discord_helpers\nimport discordant\n"
    )
    assert forbidden_imports(source) == [
        "2: discord.ui",
        "3: PIL",
        "4: aiosqlite",
        "6: discord",
        "7: PIL.ImageDraw",
    ]


def test_games_has_files_to_check() -> None:
    assert (GAMES / "core" / "engine.py") in game_files()


@pytest.mark.parametrize("path", game_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_forbidden_import_statements(path: Path) -> None:
    assert forbidden_imports(path.read_text(encoding="utf-8"), str(path)) == []


_PROBE = """
import importlib, json, pkgutil, sys
import games
names = sorted(m.name for m in pkgutil.walk_packages(games.__path__, "games."))
for name in names:
    importlib.import_module(name)
print(json.dumps({
    "imported": names,
    "file": games.__file__,
    "forbidden": sorted(m for m in sys.modules if m.split(".")[0] in %r),
}))
"""


def test_importing_every_games_module_loads_none_of_them() -> None:
    # A fresh interpreter: this pytest process has discord loaded already (the SimCord plugin imports it).
    probe = _PROBE % (sorted(FORBIDDEN),)
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(report["file"]).resolve() == GAMES / "__init__.py", "the probe must import this checkout"
    expected = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in game_files()} - {
        "games"
    }
    assert set(report["imported"]) >= expected, "every module must be imported"
    assert report["forbidden"] == []
