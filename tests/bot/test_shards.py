"""Shard settings: which guilds a process serves, and one clear line for settings that make no sense."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import FudabaBot, ShardedFudabaBot, create_bot
from bot.shards import ShardConfigError, Shards, configure, owns, parse_ids, shard_of

GOOD_SHAPE = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"


def test_a_guilds_shard_is_discords_formula() -> None:
    guild = 81384788765712384
    assert shard_of(guild, 1) == 0
    assert shard_of(guild, 2) == (guild >> 22) % 2  # the snowflake's timestamp bits decide, not its low bits
    assert shard_of(guild | ((1 << 22) - 1), 2) == shard_of(guild, 2)
    assert [shard_of(n << 22, 4) for n in range(6)] == [0, 1, 2, 3, 0, 1]
    assert {shard_of(g << 22, 3) for g in range(30)} == {0, 1, 2}


def test_the_ids_read_as_lists_and_ranges() -> None:
    assert parse_ids("0,1") == [0, 1]
    assert parse_ids("0-3") == [0, 1, 2, 3]
    assert parse_ids(" 0-1, 4 ") == [0, 1, 4]
    assert configure(None, None) is None
    assert configure(4, None) == Shards(4, (0, 1, 2, 3))  # SHARD_COUNT alone: every shard in this process
    assert configure(4, "3,1") == Shards(4, (1, 3))
    assert str(configure(2, "1")) == "shards 1 of 2"


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        (None, "0", "SHARD_COUNT is not"),
        (2, "2", "names shard 2"),
        (2, "0,0", "more than once"),
        (4, "0-2,1", "more than once"),
        (2, "a", "not a shard id"),
        (2, "1-0", "backwards"),
        (2, "0,,1", "empty item"),
        (0, "0", "at least 1"),
    ],
)
def test_settings_that_make_no_sense_are_refused(count: int | None, ids: str, says: str) -> None:
    with pytest.raises(ShardConfigError, match=says):
        configure(count, ids)


def test_a_process_serves_the_guilds_of_its_shards_only() -> None:
    shards = Shards(2, (1,))
    guilds = [n << 22 for n in range(8)]
    assert [g for g in guilds if shards.owns(g)] == [g for g in guilds if (g >> 22) % 2 == 1]
    assert all(owns(None, g) for g in guilds)  # unsharded: every guild
    assert owns(Shards(2, (0, 1)), guilds[3])


def test_sharded_settings_make_an_auto_sharded_bot_and_none_a_plain_one() -> None:
    plain = create_bot(":memory:")
    assert type(plain) is FudabaBot and plain.shard_count is None and plain.shard_set is None
    sharded = create_bot(":memory:", shards=Shards(4, (1, 3)))
    assert isinstance(sharded, ShardedFudabaBot)
    assert (sharded.shard_count, sharded.shard_ids, sharded.shard_set) == (4, [1, 3], Shards(4, (1, 3)))
    # The bot token's budget of channel requests is shared: two of four shards take half of it; processes serving
    # all the shards between them never take more than the whole.
    assert plain.channel_budget() == 40.0 and sharded.channel_budget() == 20.0
    halves = [create_bot(":memory:", shards=Shards(4, ids)).channel_budget() for ids in ((0,), (1, 2), (3,))]
    assert sum(halves) == 40.0


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "names shard 2"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "more than once"),
        ({"SHARD_IDS": "0"}, "SHARD_COUNT is not"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT is not valid"),
    ],
)
def test_bad_shard_settings_stop_the_bot_with_one_clear_line(tmp_path: Path, env: dict[str, str], says: str) -> None:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "SYNC_COMMANDS", "SHARD_COUNT", "SHARD_IDS")
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**clean, "DISCORD_TOKEN": GOOD_SHAPE, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and ".env" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
