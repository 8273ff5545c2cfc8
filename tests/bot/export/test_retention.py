"""The retention setting through SimCord: ``/config set keep_hands_days`` (its range, both languages), and its purge,
at start-up and then daily: the details of old deals on finished tables go; their results, the listings, the ledger
and every table still in play stay; a replay or an export of a purged deal says plainly that its details are gone.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import simcord.interactions
from simcord.backend.errors import OptionError

from games.__main__ import main as games_main
from tests.bot.cogs.conftest import allow_command, embed_text
from tests.bot.conftest import LOCALES, make_bot
from tests.bot.export.helpers import export
from tests.bot.history.test_history import open_from_history, step_to_the_end
from tests.bot.tables.any_game import play_any_game
from tests.bot.tables.driver import forge_click, open_oicho, play_until, said

DAY = 86400.0


def bypass_discords_range_check(monkeypatch: Any) -> None:
    """Send option values as they are, as a client that skips Discord's own range check could."""
    plain = simcord.interactions.validate_option_value

    def as_given(command: str, option: dict[str, Any], value: Any) -> Any:
        try:
            return plain(command, option, value)
        except OptionError:
            return value

    monkeypatch.setattr(simcord.interactions, "validate_option_value", as_given)


async def test_keep_hands_days_has_a_range_and_shows_in_the_settings(world: Any, monkeypatch: Any) -> None:
    with pytest.raises(OptionError, match="must be ≥ 1"):  # the range is declared to Discord, which checks it
        await world.mod.slash(world.channel, "config set", keep_hands_days=0)
    bypass_discords_range_check(monkeypatch)
    for bad in (0, 3651, -1):  # and the bot refuses it itself
        refused = await world.mod.slash(world.channel, "config set", keep_hands_days=bad)
        assert refused.ephemeral and "Hand details can be kept from 1 to 3,650 days" in refused.response.content
    both = await world.mod.slash(world.channel, "config set", keep_hands_days=30, keep_hands_forever=True)
    assert "not both" in both.response.content
    shown = await world.mod.slash(world.channel, "config show")
    assert "Hand details kept: forever" in embed_text(shown.response)
    changed = await world.mod.slash(world.channel, "config set", keep_hands_days=30)
    assert "**Hand details kept**: forever → 30 days" in embed_text(changed.response)
    shown = await world.mod.slash(world.channel, "config show")
    assert "Hand details kept: 30 days" in embed_text(shown.response)
    # Another setting changed alone leaves it as it is; together, both change.
    await world.mod.slash(world.channel, "config set", daily_amount=7)
    both_changed = await world.mod.slash(world.channel, "config set", daily_amount=8, keep_hands_days=3650)
    text = embed_text(both_changed.response)
    assert "30 days → 3,650 days" in text and "7 → 8" in text
    back = await world.mod.slash(world.channel, "config set", keep_hands_forever=True)
    assert "3,650 days → forever" in embed_text(back.response)
    # Members are refused, even when a server admin shows them /config.
    allow_command(world, "config", world.alice)
    refused = await world.alice.slash(world.channel, "config set", keep_hands_days=1)
    assert "Only moderators can do that" in refused.response.content
    shown = await world.mod.slash(world.channel, "config show")
    assert "Hand details kept: forever" in embed_text(shown.response)
    # In Japanese.
    LOCALES[world.mod.id] = "ja"
    refused = await world.mod.slash(world.channel, "config set", keep_hands_days=0)
    assert "1〜3,650 日" in refused.response.content
    changed = await world.mod.slash(world.channel, "config set", keep_hands_days=90)
    assert "**局の詳細の保存期間**: 無期限 → 90日" in embed_text(changed.response)


async def a_day_later(world: Any, database: Any, clock: Any, job: Any) -> Any:
    """The next purge: the daily one (SQLite), or, on PostgreSQL, the one at a start a day later (a whole virtual day
    of lease renewals against a real server is more than SimCord waits for)."""
    clock.advance(DAY)
    if database.dialect == "sqlite":
        runs = job.runs
        for _ in range(24):  # an hour at a time: each step settles within SimCord's wait on a busy machine
            await world.env.advance_time(DAY / 24)
        assert job.runs == runs + 1, "the purge runs daily"
        return job
    await world.env.restart_bot(make_bot(database, clock))
    job = world.env.bot.get_cog("ExportCog").retention
    assert job.runs == 1
    return job


@pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
async def test_the_purge_keeps_results_ledger_and_tables_in_play(
    world: Any, database: Any, clock: Any, tmp_path: Path, capsys: Any
) -> None:
    finished = await play_any_game(world, "luk_fu", random.Random("purge"), members=(world.alice, world.bob), bots=1)
    finished_hands = await database.table_history(finished.id, limit=1000)
    # A table in play, one deal settled.
    members = {world.alice.id: world.alice, world.bob.id: world.bob}
    playing = await open_oicho(world, world.bob)
    await play_until(world, members, lambda table: table.engine.deal_no >= 2)
    playing_id = playing.id
    playing_log = await database.table_log(playing_id)
    restart_point = await database.restart_point(playing_id)
    assert any(e.kind == "action" for e in playing_log) and await database.table_history(playing_id)
    ledger = await database._all("SELECT * FROM ledger ORDER BY id")
    await world.mod.slash(world.channel, "config set", keep_hands_days=30)

    # A month later the bot starts again: the purge runs once it is ready.
    clock.advance(31 * DAY)
    await world.env.restart_bot(make_bot(database, clock))
    job = world.env.bot.get_cog("ExportCog").retention
    assert job.runs == 1 and job.last is not None and job.last.tables == 1
    assert not [e for e in await database.table_log(finished.id) if e.kind == "action"], "the details are gone"
    # Results, listings and the ledger stay whole.
    assert await database.table_history(finished.id, limit=1000) == finished_hands
    assert await database._all("SELECT * FROM ledger ORDER BY id") == ledger
    assert await database.verify_ledger() == []
    listed = await open_from_history(world.alice, world)
    options = [o["value"] for o in listed.components[0]["components"][0]["options"]]
    assert f"{finished.id}.{finished_hands[0].deal_no}" in options
    # A purged deal's replay says so plainly, in both languages.
    deal = finished_hands[0].deal_no
    answer = await forge_click(world, world.alice, f"fdb:hist:o:{finished.id}:{deal}")
    assert f"The details of deal {deal} at table #{finished.id} are no longer kept" in said(answer)
    LOCALES[world.alice.id] = "ja"
    answer = await forge_click(world, world.alice, f"fdb:hist:o:{finished.id}:{deal}")
    assert "もう保存されていないため、リプレイできません" in said(answer)
    del LOCALES[world.alice.id]
    # So do the exports (and what they still hold replays).
    full = await export(world.mod, world, "hands")
    assert f"{len(finished_hands)} deals of that period are left out" in full.text
    assert {x["table"] for x in full.lines()} == {playing_id}
    mine = await export(world.alice, world, "mine", to="2027-01-15")
    assert {x["table"] for x in mine.lines()} == {playing_id}
    assert f"{len(finished_hands)} deals of that period are left out" in mine.text
    LOCALES[world.bob.id] = "ja"
    theirs = await export(world.bob, world, "mine")
    assert f"{len(finished_hands)} 局は含まれていません" in theirs.text
    del LOCALES[world.bob.id]
    # /verify still shows a purged deal's seeds: they were revealed with its results.
    verified = await world.alice.slash(world.channel, "verify", table_id=finished.id, deal=deal)
    assert verified.ephemeral and finished_hands[0].summary["seeds"][0] in verified.response.content

    # The table in play lost nothing, restarts from its own restart point, and plays on to its end.
    assert (await database.table_log(playing_id))[: len(playing_log)] == playing_log
    assert await database.restart_point(playing_id) == restart_point
    await play_until(world, members, lambda table: False)
    playing_hands = sorted(await database.table_history(playing_id, limit=1000), key=lambda h: h.deal_no)
    assert len(playing_hands) > 2

    # A day later the daily purge finds that table finished, its first deal a month old, the others new: only the
    # first deal's details go; every later deal still replays, and exports to a record that replays.
    job = await a_day_later(world, database, clock, job)
    assert job.last is not None and job.last.tables == 1
    old = playing_hands[0].deal_no
    answer = await forge_click(world, world.bob, f"fdb:hist:o:{playing_id}:{old}")
    assert "are no longer kept" in said(answer)
    opened = await forge_click(world, world.bob, f"fdb:hist:o:{playing_id}:{playing_hands[1].deal_no}")
    assert opened.response is not None and opened.response.attachments
    assert len(await step_to_the_end(world.bob, opened.response)) > 1
    kept = await export(world.mod, world, "hands", **{"from": "2027-02-15"})
    lines = kept.lines()
    assert [x["deal"] for x in lines] == [h.deal_no for h in playing_hands[1:]]
    path = tmp_path / "kept.jsonl"
    path.write_bytes(kept.files[0][1])
    capsys.readouterr()
    assert games_main(["replay", str(path)]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [p["deltas"] for p in printed] == [list(h.deltas) for h in playing_hands[1:]]
    # Nothing more to drop the next day.
    job = await a_day_later(world, database, clock, job)
    assert job.last is not None and job.last.tables == 0
