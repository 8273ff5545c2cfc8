"""Table leases on both backends: two "processes" (two Database objects, each its own lease owner) over one file or
server never drive one table together, and a process that lost a table's lease cannot write to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.storage import Database, DealToSettle, LeaseLost, LogEntry
from bot.storage.core import LEASE_SECONDS

GUILD = 10
CHANNEL = 500
MOD = 99


@pytest.fixture
async def two(target: str, clock: Any) -> AsyncIterator[tuple[Database, Database]]:
    """Two bot processes over one database (a SQLite file, or a PostgreSQL database), on one clock."""
    first = await Database.open(target, clock=clock)
    second = await Database.open(target, clock=clock)
    try:
        assert first.owner != second.owner
        yield first, second
    finally:
        await first.close()
        await second.close()
    async with await Database.open(target) as check:
        assert await check.verify_ledger() == []


async def playing(db: Database, channel: int = CHANNEL) -> int:
    """A chip table of two members, started, with its first shuffle logged."""
    table = await db.open_table(GUILD, channel, "oicho", 1, buy_in=300)
    await db.join_table(table.id, 1)
    await db.join_table(table.id, 2)
    await db.start_table(table.id, record='{"v":1}', entries=[LogEntry(1, "shuffle", '{"seed":"00"}', deal=1)])
    return table.id


async def state(db: Database, table_id: int) -> tuple[Any, ...]:
    """Everything a write to the table could change: the ledger, stacks, log, history, the table's row, leases."""
    table = await db.get_table(table_id)
    assert table is not None
    return (
        [tuple(r) for r in await db._all("SELECT * FROM ledger ORDER BY id")],
        [tuple(r) for r in await db._all("SELECT * FROM movements ORDER BY id")],
        [tuple(r) for r in await db._all("SELECT * FROM wallets ORDER BY guild_id, user_id")],
        [(s.position, s.stack, s.away) for s in table.seats],
        await db.table_log(table_id),
        [tuple(r) for r in await db._all("SELECT * FROM hand_history ORDER BY id")],
        (table.status, table.record, table.checkpoint_seq, table.message_id, table.updated_at),
        [tuple(r) for r in await db._all("SELECT * FROM table_leases ORDER BY table_id")],
    )


async def test_a_second_process_is_refused_a_held_lease_and_gets_it_after_expiry(
    two: tuple[Database, Database],
    clock: Any,
) -> None:
    first, second = two
    table_id = await playing(first)
    assert await first.lease_of(table_id) == (first.owner, clock() + LEASE_SECONDS)  # opening took it
    assert await second.acquire_leases([table_id]) == set()
    assert await first.acquire_leases([table_id]) == {table_id}  # its own: taken again (renewed)
    clock.advance(LEASE_SECONDS - 1)
    assert await first.renew_leases() == {table_id}
    clock.advance(LEASE_SECONDS - 1)  # renewed: not run out yet
    assert await second.acquire_leases([table_id]) == set()
    clock.advance(2)
    assert await second.acquire_leases([table_id]) == {table_id}
    assert await second.lease_of(table_id) == (second.owner, clock() + LEASE_SECONDS)
    assert await first.renew_leases() == set()  # the first sees it lost the table
    assert await first.acquire_leases([table_id]) == set()


async def test_a_write_from_the_process_that_lost_its_lease_is_refused_and_changes_nothing(
    two: tuple[Database, Database],
    clock: Any,
) -> None:
    first, second = two
    await first.set_config(GUILD, actor_id=MOD, bots_play_for_chips=True)
    table_id = await playing(first)
    lobby = await first.open_table(GUILD, CHANNEL + 1, "oicho", 1, buy_in=100)
    await first.append_step(table_id, [LogEntry(2, "action", "bet", seat=0)])
    clock.advance(LEASE_SECONDS + 1)  # the first was paused past its leases' end; the second takes the tables
    assert await second.acquire_leases([table_id, lobby.id]) == {table_id, lobby.id}
    before, lobby_before = await state(first, table_id), await state(first, lobby.id)

    deal = DealToSettle(1, (30, -30), {"void": False})
    refused = [
        first.append_step(table_id, [LogEntry(3, "action", "win", seat=1)]),
        first.append_step(table_id, [LogEntry(3, "action", "win", seat=1)], settle=[deal], checkpoint=("{}", 3)),
        first.append_step(table_id, [], away={0: True}),
        first.append_step(table_id, [LogEntry(3, "action", "win", seat=1)], close=True),
        first.settle_deal(table_id, 1, [30, -30], {}),
        first.close_table(table_id, actor_id=1, voided=True),
        first.set_away(table_id, 1, True),
        first.save_record(table_id, '{"v":2}'),
        first.set_message(table_id, 77, 1.0),
        first.join_table(lobby.id, 3),
        first.add_bot_seat(lobby.id, "Tanuki"),
        first.make_practice(lobby.id),
        first.start_table(lobby.id),
        first.cancel_table(lobby.id),
    ]
    for write in refused:
        with pytest.raises(LeaseLost) as err:
            await write
        assert err.value.code == "storage.lease_lost"
        assert err.value.params["table_id"] in (table_id, lobby.id)
    assert await state(first, table_id) == before
    assert await state(first, lobby.id) == lobby_before
    assert await first.verify_ledger() == []

    # The new owner carries on where the table was.
    step = await second.append_step(
        table_id, [LogEntry(3, "action", "win", seat=1)], settle=[deal], checkpoint=("{}", 3)
    )
    assert step.settlements[0].stacks == (330, 270)
    closure = await second.close_table(table_id)
    assert closure.returned == ((0, 330), (1, 270))
    assert await second.lease_of(table_id) is None  # an ended table is nobody's
    await second.cancel_table(lobby.id)


async def test_an_expired_lease_nobody_took_still_lets_its_owner_write(
    two: tuple[Database, Database], clock: Any
) -> None:
    first, _ = two
    table_id = await playing(first)
    clock.advance(10 * LEASE_SECONDS)  # one process, a long pause (or a clock moved by a test): still its own
    await first.append_step(table_id, [LogEntry(2, "action", "bet", seat=0)])
    assert await first.renew_leases() == {table_id}


async def test_given_back_leases_are_taken_at_once_and_a_free_table_by_its_first_writer(
    two: tuple[Database, Database],
    clock: Any,
) -> None:
    first, second = two
    table_id = await playing(first)
    other_id = await playing(first, CHANNEL + 1)
    assert await first.release_leases([other_id]) == 1
    assert await second.acquire_leases([other_id]) == {other_id}  # no waiting for a lease given back
    assert await first.release_leases() == 1
    assert await first.lease_of(table_id) is None
    # A table whose lease nobody holds (given back, or from before leases) becomes its first writer's.
    await second.append_step(table_id, [LogEntry(2, "action", "bet", seat=0)])
    assert await first.lease_of(table_id) == (second.owner, clock() + LEASE_SECONDS)
    with pytest.raises(LeaseLost):
        await first.append_step(table_id, [LogEntry(3, "action", "bet", seat=1)])
    # Tables that are not open get no lease.
    await second.close_table(other_id)
    assert await first.acquire_leases([other_id, 12345]) == set()


async def test_closing_the_database_gives_its_leases_back(target: str, clock: Any) -> None:
    async with await Database.open(target, clock=clock) as first:
        table_id = await playing(first)
    async with await Database.open(target, clock=clock) as second:
        assert await second.acquire_leases([table_id]) == {table_id}  # a clean restart takes its tables at once
