"""bot/storage/exports.py and bot/storage/retention.py on both backends: the ledger a page of whole movements at a
time, the tables and deals an export walks, the retention setting, and what a purge drops and keeps."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Database, DealToSettle, InvalidValue, LogEntry
from bot.storage.exports import ExportQueries
from bot.storage.replays import HistoryQueries
from bot.storage.retention import RetentionQueries
from tests.bot.history.test_queries import OPENING, played

GUILD, OTHER_GUILD, CHANNEL = 10, 11, 500
EXAMPLE = Path(__file__).resolve().parents[3] / "docs/examples/oicho.json"
DAY = 86400.0


async def chips_moved(db: Database, clock: Any) -> int:
    """Movements of every kind over a few days: credits, grants, a table's buy-ins, a settled deal, its closing."""
    for user in (1, 2, 3):
        await db.ensure_member(GUILD, user)
    clock.advance(DAY)
    await db.grant(GUILD, 1, 50, actor_id=9, note="prize")
    await db.ensure_member(OTHER_GUILD, 1)  # another server: never in this one's ledger
    table = await db.open_table(GUILD, CHANNEL, "oicho", 1, buy_in=100)
    for user in (1, 2):
        await db.join_table(table.id, user)
    await db.start_table(
        table.id, record=OPENING, entries=[LogEntry(1, "shuffle", '{"deal":1,"purpose":"deal"}', deal=1)]
    )
    clock.advance(DAY)
    settle = [DealToSettle(1, (7, -7), {"deal": 1})]
    await db.append_step(table.id, [LogEntry(2, "action", "stand", seat=0)], settle=settle, close=True)
    await db.take(GUILD, 2, 10, actor_id=9, note="=cmd")
    return table.id


async def test_the_ledger_comes_a_page_of_whole_movements_at_a_time(db: Database, clock: Any) -> None:
    table = await chips_moved(db, clock)
    queries = ExportQueries(db)
    stored = await db._all(
        "SELECT l.movement_id, l.account, l.user_id, l.seat_id, l.delta, m.created_at FROM ledger l"
        " JOIN movements m ON m.id = l.movement_id WHERE l.guild_id = ?",
        (GUILD,),
    )
    for limit in (1, 2, 3, 500):
        legs, pages, after = [], [], None
        while True:
            page = await queries.ledger_page(GUILD, after=after, limit=limit)
            pages.append({leg.movement_id for leg in page.legs})
            legs += page.legs
            if page.cursor is None:
                break
            after = page.cursor
        assert Counter((g.movement_id, g.account, g.user_id, g.seat_id, g.delta) for g in legs) == Counter(
            (s["movement_id"], s["account"], s["user_id"], s["seat_id"], s["delta"]) for s in stored
        ), limit
        # Oldest first, and no movement split between two pages (each page sums to zero).
        assert [(g.created_at, g.movement_id) for g in legs] == sorted((g.created_at, g.movement_id) for g in legs)
        assert all(not (a & b) for i, a in enumerate(pages) for b in pages[i + 1 :])
        assert all(sum(g.delta for g in legs if g.movement_id in p) == 0 for p in pages)
    settlement = [g for g in legs if g.reason == "settlement"]
    assert {g.table_id for g in settlement} == {table} and sorted(g.delta for g in settlement) == [-7, 7]
    assert [g.note for g in legs if g.reason == "take"] == ["=cmd", "=cmd"]
    # A period: the second day only.
    first_day = clock.now - 2 * DAY
    day2 = await queries.ledger_page(GUILD, since=first_day + DAY, until=first_day + 2 * DAY)
    assert {g.reason for g in day2.legs} == {"grant", "buy_in"} and day2.cursor is None
    assert sum(g.delta for g in day2.legs) == 0
    assert (await queries.ledger_page(GUILD, since=clock.now + 1)).legs == ()


async def test_tables_deals_and_what_a_walk_reads(db: Database, clock: Any) -> None:
    queries = ExportQueries(db)
    first = await played(db, GUILD, CHANNEL, (1, 2), 4, "oicho")
    clock.advance(DAY)
    second = await played(db, GUILD, CHANNEL + 1, (2, 3), 2, "oicho")
    await played(db, OTHER_GUILD, CHANNEL + 2, (1, 2), 1, "oicho")
    lobby = await db.open_table(GUILD, CHANNEL + 3, "oicho", 1, buy_in=10, practice=True)
    assert [t.table.id for t in await queries.tables_page(GUILD)] == [first, second]
    assert [t.table.id for t in await queries.tables_page(GUILD, after=first)] == [second]
    assert [t.table.id for t in await queries.tables_page(GUILD, member=1)] == [first]
    assert [t.table.id for t in await queries.tables_page(GUILD, member=2, limit=1)] == [first]
    assert [t.table.id for t in await queries.tables_page(GUILD, member=3)] == [second]
    assert lobby.id not in [t.table.id for t in await queries.tables_page(GUILD)]
    page = await queries.tables_page(GUILD)
    assert [s.user_id for s in page[0].table.seats] == [1, 2] and page[0].purged_to == 0
    # Deals by number, within a period.
    assert [h.deal_no for h in await queries.hands_page(first, after_deal=1, limit=2)] == [2, 3]
    assert [h.deal_no for h in await queries.hands_page(second, until=clock.now - 1)] == []
    assert [h.deal_no for h in await queries.hands_page(second, since=clock.now - 1)] == [1, 2]
    # A walk: from the opening, or from the nearest kept start, to the end of the run (and the next deal's shuffle).
    walk = await queries.walk(page[0].table, 2, 3)
    assert (walk.origin, walk.origin_seq, walk.origin_deal, walk.starts) == (OPENING, 0, 0, {})
    assert [e.seq for e in walk.rows] == list(range(1, 11)) and walk.rows[-1].deal == 4
    await HistoryQueries(db).keep_starts(first, [(2, 4, '{"s":2}'), (3, 7, '{"s":3}')])
    walk = await queries.walk(page[0].table, 2, 3)
    assert (walk.origin, walk.origin_seq, walk.origin_deal) == ('{"s":2}', 4, 2)
    assert walk.starts == {3: (7, '{"s":3}')} and [e.seq for e in walk.rows] == list(range(5, 11))


async def test_the_retention_setting_and_its_range(db: Database) -> None:
    retention = RetentionQueries(db)
    assert await retention.days(GUILD) is None, "forever by default"
    for bad in (0, 3651, -5, True):
        with pytest.raises(InvalidValue) as refused:
            await retention.set_days(GUILD, bad, actor_id=9)
        assert refused.value.code == "export.retention_out_of_range"
        assert (refused.value.params["lo"], refused.value.params["hi"]) == (1, "3,650")
    await retention.set_days(GUILD, 30, actor_id=9)
    await db.set_config(GUILD, actor_id=9, daily_amount=5)  # another setting changed: this one stays
    assert await retention.days(GUILD) == 30 and (await db.get_config(GUILD)).daily_amount == 5
    await retention.set_days(OTHER_GUILD, 3650, actor_id=9)
    assert await retention.guilds() == [(GUILD, 30), (OTHER_GUILD, 3650)]
    assert (await db.get_config(OTHER_GUILD)).starting_balance == 1000, "the other settings keep their defaults"
    await retention.set_days(GUILD, None, actor_id=9)
    assert await retention.days(GUILD) is None and await retention.guilds() == [(OTHER_GUILD, 3650)]


async def log_of(db: Database, table: int) -> list[tuple[int, str]]:
    return [(e.seq, e.kind) for e in await db.table_log(table)]


async def test_a_purge_drops_old_details_of_finished_tables_only(db: Database, clock: Any) -> None:
    retention = RetentionQueries(db)
    ended = await played(db, GUILD, CHANNEL, (1, 2), 3, "oicho")
    await db.close_table(ended)
    playing = await played(db, GUILD, CHANNEL + 1, (1, 3), 2, "oicho")
    await HistoryQueries(db).keep_starts(ended, [(2, 4, '{"s":2}')])
    await HistoryQueries(db).keep_starts(playing, [(2, 4, '{"s":2}')])
    playing_log = await log_of(db, playing)
    clock.advance(10 * DAY)
    cutoff = clock.now - 5 * DAY
    found = {c.table_id: c for c in await retention.candidates(GUILD, cutoff)}
    assert set(found) == {ended}, "a table in play is never a candidate"
    candidate = found[ended]
    assert (candidate.old_to, candidate.last, candidate.whole, candidate.due) == (3, 3, True, True)
    # Even asked directly, a table in play keeps everything.
    assert await retention.purge(playing, through=2, cutoff=cutoff, whole=True) is None
    assert await retention.purge(playing, through=1, cutoff=cutoff, whole=False) is None
    assert await log_of(db, playing) == playing_log and await HistoryQueries(db).kept_starts(playing) == [2]
    # Not older than the cutoff: nothing dropped.
    assert await retention.purge(ended, through=3, cutoff=clock.now - 20 * DAY, whole=True) is None
    hands_before = await db.table_history(ended, limit=100)
    ledger_before = await db._all("SELECT * FROM ledger ORDER BY id")
    assert await retention.purge(ended, through=3, cutoff=cutoff, whole=True) == 6
    assert await log_of(db, ended) == [(1, "shuffle"), (4, "shuffle"), (7, "shuffle"), (10, "shuffle")]
    assert await HistoryQueries(db).kept_starts(ended) == []
    row = await db.get_table(ended)
    assert row is not None and row.record == row.opening and row.checkpoint_seq == 0
    assert await retention.purged_to(ended) == 3 and await retention.purged_to(playing) == 0
    assert await db.table_history(ended, limit=100) == hands_before, "the deals still count"
    assert await db._all("SELECT * FROM ledger ORDER BY id") == ledger_before
    assert not any(c.due for c in await retention.candidates(GUILD, cutoff)), "nothing left to drop"
    assert await db.deal_shuffles(ended, 2), "the revealed seeds stay for /verify"


async def test_a_purge_of_a_tables_older_deals_keeps_the_start_of_the_first_deal_kept(db: Database, clock: Any) -> None:
    retention = RetentionQueries(db)
    table = await played(db, GUILD, CHANNEL, (1, 2), 4, "oicho")
    await db.close_table(table)
    clock.advance(10 * DAY)
    recent = clock.now - DAY  # deals 1 and 2 were settled ten days ago, 3 and 4 yesterday
    await db._exec("UPDATE hand_history SET created_at = ? WHERE table_id = ? AND deal_no > 2", (recent, table))
    cutoff = clock.now - 5 * DAY
    [candidate] = await retention.candidates(GUILD, cutoff)
    assert (candidate.old_to, candidate.last, candidate.whole, candidate.due) == (2, 4, False, True)
    before = await log_of(db, table)
    await db._exec("UPDATE tables SET record = ?, checkpoint_seq = 13 WHERE id = ?", ('{"restart":1}', table))
    kept = await db.get_table(table)
    assert kept is not None
    assert await retention.purge(table, through=2, cutoff=cutoff, whole=False) is None, "deal 3's start is not kept"
    assert await log_of(db, table) == before
    assert await retention.purge(table, through=3, cutoff=cutoff, whole=False) is None, "deal 3 is not that old"
    await HistoryQueries(db).keep_starts(table, [(1, 1, '{"s":1}'), (3, 7, '{"s":3}'), (4, 10, '{"s":4}')])
    assert await retention.purge(table, through=2, cutoff=cutoff, whole=False) == 4
    assert await log_of(db, table) == [
        (1, "shuffle"),
        (4, "shuffle"),
        (7, "shuffle"),
        (8, "action"),
        (9, "action"),
        (10, "shuffle"),
        (11, "action"),
        (12, "action"),
        (13, "shuffle"),
    ]
    assert await HistoryQueries(db).kept_starts(table) == [3, 4] and await retention.purged_to(table) == 2
    # A later replay of deal 3 reads from its start, and only its own rows.
    source = await HistoryQueries(db).replay_source(table, 3)
    assert source is not None and (source.origin_seq, [e.seq for e in source.rows]) == (7, [8, 9, 10])
    after = await db.get_table(table)
    assert after is not None and (after.record, after.checkpoint_seq) == (kept.record, kept.checkpoint_seq), (
        "the last restart point of the deals kept stays"
    )
    assert not any(c.due for c in await retention.candidates(GUILD, cutoff))
    assert [c.due for c in await retention.candidates(GUILD, clock.now + 1)] == [True], "the rest, later"


async def test_the_daily_purge_of_a_table_stored_before_the_log_keeps_its_opening_and_shuffles(
    db: Database, clock: Any
) -> None:
    """A table from before the log kept one whole record: once all its deals are old, it keeps only its opening and
    its shuffles (the seeds /verify shows), and its deals are marked as purged."""
    from bot.export.retention import purge
    from games.core.record import TableRecord

    example = EXAMPLE.read_text(encoding="utf-8")
    table = await played(db, GUILD, CHANNEL, (1, 2), 2, "oicho")
    await db.close_table(table)
    await db._exec("DELETE FROM table_log WHERE table_id = ?", (table,))
    await db._exec("UPDATE tables SET opening = NULL, record = ? WHERE id = ?", (example, table))
    await RetentionQueries(db).set_days(GUILD, 7, actor_id=9)

    def not_needed(*args: Any) -> Any:
        raise AssertionError("nothing to replay for a whole purge")

    report = await purge(db, now=clock.now + 3 * DAY, off_loop=not_needed)
    assert (report.tables, report.skipped) == (0, 0), "not old enough yet"
    report = await purge(db, now=clock.now + 8 * DAY, off_loop=not_needed)
    assert (report.tables, report.rows) == (1, 0)
    row = await db.get_table(table)
    assert row is not None and row.record is not None
    kept = TableRecord.loads(row.record)
    whole = TableRecord.loads(example)
    assert kept.actions == [] and kept.shuffles == whole.shuffles and kept.seats == whole.seats
    assert await RetentionQueries(db).purged_to(table) == 2
    assert (await purge(db, now=clock.now + 9 * DAY, off_loop=not_needed)).tables == 0, "done once"
