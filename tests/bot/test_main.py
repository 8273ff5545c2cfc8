"""``python -m bot`` without a usable token says what to set, in one line, and exits non-zero."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.__main__ as entry

GOOD_SHAPE = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "SYNC_COMMANDS")}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "your-bot-token-here"}, "does not look like a bot token"),
        ({"DISCORD_TOKEN": GOOD_SHAPE, "SYNC_COMMANDS": "maybe"}, "SYNC_COMMANDS is not valid"),
    ],
)
def test_a_missing_or_malformed_setting_is_one_clear_line(tmp_path: Path, env: dict[str, str], says: str) -> None:
    done = run_bot(tmp_path, **env)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and ".env" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_a_token_discord_refuses_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    class Refused:
        def run(self, token: str, **options: Any) -> None:
            assert token == GOOD_SHAPE
            raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", GOOD_SHAPE)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db" / "fudaba.db"))
    monkeypatch.setattr(entry, "create_bot", lambda *args, **kwargs: Refused())
    assert entry.main() == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "refused DISCORD_TOKEN" in err[0]
