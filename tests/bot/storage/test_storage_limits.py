"""Responsible play and stake limits in storage (migration 0013), on SQLite and PostgreSQL: a self-exclusion is only
ever lengthened, a loss limit is lowered at once and raised after 24 hours, the losses read are the ledger's
settlements in the window, and refused values change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import Database, IntegrityError, InvalidState, InvalidValue
from bot.storage.limits import DAY, LOSSES, SERVER, LimitsQueries, LossLimit, MemberLimits, StakeLimit

GUILD = 10
OTHER_GUILD = 11
CHANNEL = 500
ALICE, BOB = 1, 2


async def deal(db: Database, deltas: tuple[int, int], *, practice: bool = False, guild: int = GUILD) -> int:
    """A table of Alice and Bob (buy-in 500 each) that settles one deal of ``deltas`` and closes."""
    table = await db.open_table(guild, CHANNEL, "oicho", ALICE, buy_in=500, practice=practice)
    for user in (ALICE, BOB):
        await db.join_table(table.id, user)
    await db.start_table(table.id, record='{"v":1}')
    await db.settle_deal(table.id, 1, list(deltas), {})
    await db.close_table(table.id)
    return table.id


async def test_an_exclusion_is_only_ever_lengthened(db: Database, clock: Any) -> None:
    limits = LimitsQueries(db)
    start = clock.now
    first = await limits.exclude(GUILD, ALICE, until=start + 7 * DAY)
    assert (first.excluded_from, first.excluded_until) == (start, start + 7 * DAY)
    assert first.excluded(start + 7 * DAY - 1) and not first.excluded(start + 7 * DAY)
    clock.advance(3600)
    # Shorter: refused, nothing changed.
    with pytest.raises(InvalidState) as refused:
        await limits.exclude(GUILD, ALICE, until=clock.now + DAY)
    assert refused.value.code == "limits.already_excluded"
    assert refused.value.params["until"] == int(start + 7 * DAY)
    assert await limits.member(GUILD, ALICE) == first
    # The same end (a second press of one confirmation): unchanged.
    assert await limits.exclude(GUILD, ALICE, until=start + 7 * DAY) == first
    # Longer: lengthened, from the same start.
    longer = await limits.exclude(GUILD, ALICE, until=start + 30 * DAY)
    assert (longer.excluded_from, longer.excluded_until) == (start, start + 30 * DAY)
    # Another server, another member: untouched.
    assert (await limits.member(OTHER_GUILD, ALICE)).excluded_until is None
    assert (await limits.member(GUILD, BOB)).excluded_until is None
    # Once over, a new one starts afresh.
    clock.advance(31 * DAY)
    assert not (await limits.member(GUILD, ALICE)).at(clock.now).excluded(clock.now)
    again = await limits.exclude(GUILD, ALICE, until=clock.now + DAY)
    assert again.excluded_from == clock.now


@pytest.mark.parametrize("ahead", [0.0, -1.0, 365 * DAY + 1])
async def test_an_exclusion_out_of_range_is_refused(db: Database, clock: Any, ahead: float) -> None:
    limits = LimitsQueries(db)
    with pytest.raises(InvalidValue) as refused:
        await limits.exclude(GUILD, ALICE, until=clock.now + ahead)
    assert refused.value.code == "limits.exclusion_out_of_range"
    assert await limits.member(GUILD, ALICE) == MemberLimits(GUILD, ALICE)
    assert await db._scalar("SELECT count(*) FROM member_limits") == 0


async def test_a_loss_limit_is_lowered_at_once_and_raised_after_a_day(db: Database, clock: Any) -> None:
    limits = LimitsQueries(db)
    stored, change = await limits.set_loss_limit(GUILD, ALICE, "daily", 500)
    assert change == "now" and stored.daily == LossLimit(500)
    stored, change = await limits.set_loss_limit(GUILD, ALICE, "daily", 200)
    assert change == "now" and stored.daily == LossLimit(200)
    asked = clock.now
    stored, change = await limits.set_loss_limit(GUILD, ALICE, "daily", 800)
    assert change == "later" and stored.daily == LossLimit(200, 800, asked + DAY)
    assert stored.weekly == LossLimit()  # the other window is its own
    clock.advance(DAY - 1)
    assert (await limits.member(GUILD, ALICE)).at(clock.now).daily.limit == 200
    clock.advance(1)
    assert (await limits.member(GUILD, ALICE)).at(clock.now).daily == LossLimit(800)
    # Removing waits as raising does; lowering meanwhile drops the pending removal.
    stored, change = await limits.set_loss_limit(GUILD, ALICE, "daily", None)
    assert change == "later" and stored.daily == LossLimit(800, 0, clock.now + DAY)
    stored, change = await limits.set_loss_limit(GUILD, ALICE, "daily", 300)
    assert change == "now" and stored.daily == LossLimit(300)
    # Asking for the limit in force drops a pending raise.
    await limits.set_loss_limit(GUILD, ALICE, "daily", 400)
    stored, change = await limits.set_loss_limit(GUILD, ALICE, "daily", 300)
    assert change == "cancelled" and stored.daily == LossLimit(300)
    stored, change = await limits.set_loss_limit(GUILD, ALICE, "daily", 300)
    assert change == "kept"
    # A removal takes over once due.
    await limits.set_loss_limit(GUILD, ALICE, "weekly", 1000)
    await limits.set_loss_limit(GUILD, ALICE, "weekly", None)
    clock.advance(DAY)
    assert (await limits.member(GUILD, ALICE)).at(clock.now).weekly == LossLimit(None)


@pytest.mark.parametrize("amount", [0, -5, 1_000_000_001])
async def test_a_loss_limit_out_of_range_changes_nothing(db: Database, amount: int) -> None:
    limits = LimitsQueries(db)
    await limits.set_loss_limit(GUILD, ALICE, "daily", 100)
    before = await limits.member(GUILD, ALICE)
    with pytest.raises(InvalidValue) as refused:
        await limits.set_loss_limit(GUILD, ALICE, "daily", amount)
    assert refused.value.code == "limits.loss_out_of_range"
    assert await limits.member(GUILD, ALICE) == before


async def test_a_reminder_in_range_only(db: Database) -> None:
    limits = LimitsQueries(db)
    assert (await limits.set_reminder(GUILD, ALICE, 60)).reminder_minutes == 60
    for wrong in (4, 721):
        with pytest.raises(InvalidValue):
            await limits.set_reminder(GUILD, ALICE, wrong)
    assert (await limits.member(GUILD, ALICE)).reminder_minutes == 60
    assert (await limits.set_reminder(GUILD, ALICE, None)).reminder_minutes is None


async def test_losses_are_the_ledgers_settlements_in_the_window(db: Database, clock: Any) -> None:
    limits = LimitsQueries(db)
    await db.ensure_member(GUILD, ALICE)
    await db.ensure_member(GUILD, BOB)
    await db.ensure_member(OTHER_GUILD, ALICE)
    await db.ensure_member(OTHER_GUILD, BOB)
    old = clock.now
    await deal(db, (-70, 70))
    clock.advance(3600)
    middle = clock.now
    await deal(db, (40, -40))
    await deal(db, (-300, 300), practice=True)  # no chips moved: not a loss
    await deal(db, (-200, 200), guild=OTHER_GUILD)  # another server's
    clock.advance(3600)
    # Buy-ins, refunds and cash-outs are not losses either: a lobby joined and left.
    lobby = await db.open_table(GUILD, CHANNEL, "oicho", ALICE, buy_in=250)
    await db.join_table(lobby.id, ALICE)
    await db.cancel_table(lobby.id)
    got = await limits.losses(GUILD, ALICE, old - 1)
    assert [(loss.at, loss.delta) for loss in got] == [(old, -70), (middle, 40)]
    assert [loss.delta for loss in await limits.losses(GUILD, BOB, old - 1)] == [70, -40]
    # A deal counts while it is later than the window's start.
    assert [loss.delta for loss in await limits.losses(GUILD, ALICE, old)] == [40]
    assert await limits.losses(GUILD, ALICE, middle) == []
    # The ledger agrees: these are exactly Alice's seat legs of settlements here.
    total = await db._scalar(
        "SELECT sum(l.delta) FROM ledger l JOIN movements m ON m.id = l.movement_id"
        " WHERE l.guild_id = ? AND l.user_id = ? AND l.account = 'seat' AND m.reason = 'settlement'",
        (GUILD, ALICE),
    )
    assert total == -30
    assert await db.verify_ledger() == []


async def test_losses_read_one_range_of_the_members_index(db: Database) -> None:
    """On SQLite the plan is read: the member's seat legs come from ``ledger_member_seat`` from the window's first
    movement (found through ``movements_guild``), never from a scan."""
    if db.dialect != "sqlite":
        pytest.skip("SQLite's plan (PostgreSQL plans by its statistics)")
    sql = "EXPLAIN QUERY PLAN " + LOSSES
    plan = " | ".join(str(row[3]) for row in await db._all(sql, (1, 2, 1, 0.0, 0.0)))
    assert "USING INDEX ledger_member_seat (guild_id=? AND user_id=? AND movement_id>?)" in plan
    assert "movements_guild (guild_id=? AND created_at>?)" in plan
    assert "SCAN" not in plan


async def test_stake_limits_set_and_cleared(db: Database) -> None:
    limits = LimitsQueries(db)
    assert await limits.stake_limits(GUILD) == []
    assert await limits.set_stake_limit(GUILD, SERVER, max_stake=10, actor_id=9) == StakeLimit(SERVER, 10, None)
    assert await limits.set_stake_limit(GUILD, SERVER, max_buy_in=5000, actor_id=9) == StakeLimit(SERVER, 10, 5000)
    await limits.set_stake_limit(GUILD, 777, max_stake=100, actor_id=9)
    assert await limits.stake_limits(GUILD) == [StakeLimit(SERVER, 10, 5000), StakeLimit(777, 100, None)]
    assert await limits.stake_limits(OTHER_GUILD) == []
    assert await limits.clear_stake_limit(GUILD, SERVER, buy_in=False, actor_id=9) == StakeLimit(SERVER, None, 5000)
    assert await limits.clear_stake_limit(GUILD, 777, actor_id=9) is None
    assert await limits.stake_limits(GUILD) == [StakeLimit(SERVER, None, 5000)]
    for wrong in ({"max_stake": 0}, {"max_stake": 1_000_001}, {"max_buy_in": 0}, {}):
        with pytest.raises(InvalidValue):
            await limits.set_stake_limit(GUILD, SERVER, actor_id=9, **wrong)
    assert await limits.stake_limits(GUILD) == [StakeLimit(SERVER, None, 5000)]


BROKEN = [
    "INSERT INTO member_limits (guild_id, user_id, daily_loss, updated_at) VALUES (1, 1, 0, 0)",
    "INSERT INTO member_limits (guild_id, user_id, excluded_until, updated_at) VALUES (1, 2, 5, 0)",
    "INSERT INTO member_limits (guild_id, user_id, daily_loss, daily_next, updated_at) VALUES (1, 3, 5, 9, 0)",
    "INSERT INTO member_limits (guild_id, user_id, reminder_minutes, updated_at) VALUES (1, 4, 1, 0)",
    "INSERT INTO stake_limits (guild_id, role_id, updated_at) VALUES (1, 0, 0)",
    "INSERT INTO stake_limits (guild_id, role_id, max_stake, updated_at) VALUES (1, 0, 0, 0)",
    "INSERT INTO stake_limits (guild_id, role_id, max_stake, updated_at) VALUES (1, -1, 5, 0)",
]


async def test_the_schema_refuses_what_the_code_never_writes(db: Database) -> None:
    allowed = []
    for statement in BROKEN:
        try:
            await db._exec(statement)
        except IntegrityError:
            continue
        allowed.append(statement)
    assert allowed == []
