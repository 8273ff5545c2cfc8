"""bot/storage/replays.py on both backends: a member's deals a page at a time, what a replay reads (bounded to the
deal), and the deal starts replays keep."""

from __future__ import annotations

import json

from bot.storage import Database, LogEntry
from bot.storage.models import DealToSettle
from bot.storage.replays import HistoryQueries

GUILD, OTHER_GUILD, CHANNEL = 10, 11, 500
OPENING = '{"version":1,"game":"oicho","rules":{},"stacks":[100,100],"seats":["a","b"],"stake":1}'


def shuffle(deal: int, seq: int) -> LogEntry:
    body = json.dumps({"deal": deal, "purpose": "deal", "order": "1 2 3"})
    return LogEntry(seq, "shuffle", body, deal=deal)


async def played(db: Database, guild: int, channel: int, players: tuple[int, int], deals: int, game: str) -> int:
    """A table of two members who settled ``deals`` deals: deal n is its shuffle and two moves, the second of which
    settles it and makes the next deal's shuffle (as the bot logs them)."""
    table = await db.open_table(guild, channel, game, players[0], buy_in=100, practice=True)
    for user in players:
        await db.join_table(table.id, user)
    await db.start_table(table.id, record=OPENING, entries=[shuffle(1, 1)])
    seq = 1
    for deal in range(1, deals + 1):
        moves = [LogEntry(seq + 1, "action", f"bet 1 {deal}", seat=1), LogEntry(seq + 2, "action", "stand", seat=0)]
        await db.append_step(table.id, moves[:1])
        settle = [DealToSettle(deal, (deal, -deal), {"deal": deal, "seeds": []})]
        await db.append_step(table.id, [moves[1], shuffle(deal + 1, seq + 3)], settle=settle)
        seq += 3
    return table.id


async def test_a_members_deals_come_newest_first_a_page_at_a_time(db: Database) -> None:
    queries = HistoryQueries(db)
    first = await played(db, GUILD, CHANNEL, (1, 2), 5, "oicho")
    second = await played(db, GUILD, CHANNEL + 1, (1, 3), 4, "ofc")
    await played(db, OTHER_GUILD, CHANNEL + 2, (1, 2), 3, "oicho")  # another server: never listed here
    page = await queries.member_deals(GUILD, 1, limit=4)
    got = [(e.hand.table_id, e.hand.deal_no) for e in page.entries]
    assert got == [(second, 4), (second, 3), (second, 2), (second, 1)]
    assert (page.newer, page.older) == (False, True)
    assert page.entries[0].hand.position == 0 and page.entries[0].seated == "player 1, player 3"
    assert page.entries[0].channel_id == CHANNEL + 1
    older = await queries.member_deals(GUILD, 1, before=page.entries[-1].hand.id, limit=4)
    assert [(e.hand.table_id, e.hand.deal_no) for e in older.entries] == [
        (first, 5),
        (first, 4),
        (first, 3),
        (first, 2),
    ]
    assert (older.newer, older.older) == (True, True)
    back = await queries.member_deals(GUILD, 1, after=older.entries[0].hand.id, limit=4)
    assert back.entries == page.entries and (back.newer, back.older) == (False, True)
    last = await queries.member_deals(GUILD, 1, before=older.entries[-1].hand.id, limit=4)
    assert [e.hand.deal_no for e in last.entries] == [1] and (last.newer, last.older) == (True, False)
    # One game only; the member's own seat position in each.
    only = await queries.member_deals(GUILD, 2, game="oicho", limit=10)
    assert [(e.hand.table_id, e.hand.deal_no, e.hand.position) for e in only.entries] == [
        (first, d, 1) for d in range(5, 0, -1)
    ]
    assert (await queries.member_deals(GUILD, 2, game="ofc")).entries == ()
    assert (await queries.member_deals(GUILD, 4)).entries == ()


async def test_a_replay_reads_the_log_from_the_nearest_start_to_the_end_of_its_deal(db: Database) -> None:
    queries = HistoryQueries(db)
    table = await played(db, GUILD, CHANNEL, (1, 2), 4, "oicho")
    assert await queries.replay_source(table, 5) is None, "deal 5 began but was not settled"
    source = await queries.replay_source(table, 2)
    assert source is not None and source.hand.deal_no == 2 and source.origin == OPENING
    assert (source.origin_seq, source.origin_deal) == (0, 0)
    # From the opening: every row up to deal 2's last move, then deal 3's shuffle (which that move made).
    assert [e.seq for e in source.rows] == [1, 2, 3, 4, 5, 6, 7]
    assert source.rows[-1].kind == "shuffle" and source.rows[-1].deal == 3
    # A start kept for deal 2: read from there, and only to the end of deal 2.
    assert await queries.keep_starts(table, [(1, 1, '{"s":1}'), (2, 4, '{"s":2}')]) == 2
    assert await queries.keep_starts(table, [(2, 4, '{"other":2}'), (3, 7, '{"s":3}')]) == 1, "kept ones stay"
    assert await queries.kept_starts(table) == [1, 2, 3]
    source = await queries.replay_source(table, 2)
    assert source is not None and (source.origin, source.origin_seq, source.origin_deal) == ('{"s":2}', 4, 2)
    assert [e.seq for e in source.rows] == [5, 6, 7]
    # The nearest earlier start when the deal's own is not kept; the last deal reads to the end of the log.
    source = await queries.replay_source(table, 4)
    assert source is not None and (source.origin_seq, source.origin_deal) == (7, 3)
    assert [e.seq for e in source.rows] == [8, 9, 10, 11, 12, 13]


async def test_a_start_kept_inside_a_transaction(db: Database) -> None:
    """What a settling transaction would await to keep the next deal's start as it writes its restart point."""
    from bot.storage.tables.log import keep_start

    table = await played(db, GUILD, CHANNEL, (1, 2), 2, "oicho")

    async def body(now: float) -> int:
        first = await keep_start(table, 3, 7, '{"s":3}')
        again = await keep_start(table, 3, 7, '{"other":3}')
        return first + again

    assert await db._transaction(body) == 1
    source = await HistoryQueries(db).replay_source(table, 2)
    assert source is not None and source.origin_deal == 0, "a later deal's start is no origin for an earlier deal"
    assert await HistoryQueries(db).kept_starts(table) == [3]


async def test_the_log_is_read_to_the_end_of_the_deal_across_chunks(db: Database, monkeypatch: object) -> None:
    import bot.storage.replays as replays

    table = await played(db, GUILD, CHANNEL, (1, 2), 4, "oicho")
    whole = {deal: [e.seq for e in (await HistoryQueries(db).replay_source(table, deal)).rows] for deal in (1, 2, 4)}  # type: ignore[union-attr]
    for size in (1, 2, 3):
        monkeypatch.setattr(replays, "LOG_CHUNK", size)  # type: ignore[attr-defined]
        for deal, seqs in whole.items():
            source = await HistoryQueries(db).replay_source(table, deal)
            assert source is not None and [e.seq for e in source.rows] == seqs, (size, deal)
    assert whole[1] == [1, 2, 3, 4] and whole[2] == [1, 2, 3, 4, 5, 6, 7]


async def test_a_member_who_left_a_table_still_finds_its_deals(db: Database) -> None:
    """A seat that leaves its table after playing (and a member who takes its place) changes nobody's history: each
    deal lists who sat in it, from the deal's own member seats."""
    queries = HistoryQueries(db)
    table = await played(db, GUILD, CHANNEL, (1, 2), 3, "oicho")
    async with db._write() as now:
        await db._exec("UPDATE seats SET left_at = ? WHERE table_id = ? AND user_id = 2", (now, table))
        await db._exec(
            "INSERT INTO seats (table_id, position, user_id, stack, buy_in, joined_at, display_name)"
            " VALUES (?, 1, 5, 0, 0, ?, 'newcomer')",
            (table, now),
        )
    page = await queries.member_deals(GUILD, 2)
    assert [(e.hand.deal_no, e.hand.position) for e in page.entries] == [(3, 1), (2, 1), (1, 1)]
    assert all(e.seated == "player 1, player 2" for e in page.entries)
    assert [e.seated for e in (await queries.member_deals(GUILD, 1)).entries] == ["player 1, player 2"] * 3
    assert (await queries.member_deals(GUILD, 5)).entries == (), "the newcomer played none of them"
