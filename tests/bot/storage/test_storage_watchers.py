"""Watching's storage (migration 0010): the delay setting, and the watchers' open panels kept for a restart."""

from __future__ import annotations

import pytest

from bot.storage import Database, InvalidValue, WatcherRow

GUILD = 10
MOD = 99


async def test_the_watch_delay_is_a_server_setting_off_by_default(db: Database) -> None:
    assert (await db.get_config(GUILD)).watch_delay is False
    config = await db.set_config(GUILD, actor_id=MOD, watch_delay=True)
    assert config.watch_delay is True
    assert (await db.get_config(GUILD)).watch_delay is True
    # Another setting changed later keeps it.
    assert (await db.set_config(GUILD, actor_id=MOD, give_enabled=True)).watch_delay is True
    assert (await db.get_config(GUILD)).watch_delay is True
    with pytest.raises(InvalidValue) as bad:
        await db.set_config(GUILD, actor_id=MOD, watch_delay="yes")  # type: ignore[typeddict-item]
    assert bad.value.code == "storage.config_bad_type"
    assert (await db.set_config(GUILD, actor_id=MOD, watch_delay=False)).watch_delay is False
    assert (await db.get_config(GUILD)).watch_delay is False


async def test_a_watchers_panel_is_kept_replaced_and_forgotten(db: Database) -> None:
    table = await db.open_table(GUILD, 500, "oicho", 1, buy_in=100)
    other = await db.open_table(GUILD, 501, "oicho", 1, buy_in=100)
    await db.save_watcher(WatcherRow(table.id, 7, 1, "first", "en-US", 100.0))
    await db.save_watcher(WatcherRow(table.id, 8, 1, "eight", "ja", 150.0))
    await db.save_watcher(WatcherRow(other.id, 7, 1, "elsewhere", "en-US", 150.0))
    await db.save_watcher(WatcherRow(table.id, 7, 1, "second", "ja", 200.0))  # the same watcher's newer panel
    assert await db.open_watchers(table.id, since=0.0) == [
        WatcherRow(table.id, 7, 1, "second", "ja", 200.0),
        WatcherRow(table.id, 8, 1, "eight", "ja", 150.0),
    ]
    assert [w.user_id for w in await db.open_watchers(table.id, since=160.0)] == [7]  # older tokens are dead
    # Writing a panel drops the table's panels opened before ``drop_before`` (their tokens no longer work).
    await db.save_watcher(WatcherRow(table.id, 9, 1, "nine", "en-US", 300.0), drop_before=180.0)
    assert [w.user_id for w in await db.open_watchers(table.id, since=0.0)] == [7, 9]
    await db.forget_watchers(table.id, 7)
    assert [w.user_id for w in await db.open_watchers(table.id, since=0.0)] == [9]
    await db.forget_watchers(table.id)
    assert await db.open_watchers(table.id, since=0.0) == []
    assert [w.token for w in await db.open_watchers(other.id, since=0.0)] == ["elsewhere"]
