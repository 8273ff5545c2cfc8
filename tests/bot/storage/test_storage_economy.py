"""Wallets, dailies, grants, takes, gifts, configuration and the balance leaderboard."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from typing import Any

import pytest

from bot.storage import (
    Database,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidValue,
    StorageError,
)

GUILD = 10
MOD = 99


async def test_starting_credit_is_paid_once(ledger_checked: Database) -> None:
    db = ledger_checked
    first = await db.ensure_member(GUILD, 1)
    again = await db.ensure_member(GUILD, 1)
    assert first.balance == again.balance == 1000
    assert await db.balance(GUILD, 1) == 1000
    assert await db.balance(GUILD + 1, 1) == 1000  # wallets are per guild


async def test_starting_credit_follows_the_guild_config(ledger_checked: Database) -> None:
    db = ledger_checked
    await db.set_config(GUILD, actor_id=MOD, starting_balance=250)
    assert await db.balance(GUILD, 1) == 250


async def test_daily_cooldown(ledger_checked: Database, clock: Any) -> None:
    db = ledger_checked
    claim = await db.claim_daily(GUILD, 1)
    assert claim.claimed
    assert (claim.amount, claim.balance) == (100, 1100)
    clock.advance(3600)
    early = await db.claim_daily(GUILD, 1)
    assert not early.claimed
    assert early.retry_after == pytest.approx(86400 - 3600)
    assert early.balance == 1100
    clock.advance(86400 - 3600)
    assert (await db.claim_daily(GUILD, 1)).balance == 1200


async def test_daily_with_explicit_now_and_configured_cooldown(ledger_checked: Database) -> None:
    db = ledger_checked
    await db.set_config(GUILD, actor_id=MOD, daily_cooldown_seconds=3600, daily_amount=7)
    assert (await db.claim_daily(GUILD, 1, now=1000.0)).amount == 7
    assert (await db.claim_daily(GUILD, 1, now=4599.0)).retry_after == pytest.approx(1.0)
    assert (await db.claim_daily(GUILD, 1, now=4600.0)).claimed


async def test_grant_take_give(ledger_checked: Database) -> None:
    db = ledger_checked
    await db.set_config(GUILD, actor_id=MOD, give_enabled=True)
    granted = await db.grant(GUILD, 1, 500, actor_id=MOD, note="tournament prize")
    assert (granted.reason, granted.recipient_balance, granted.sender_balance) == ("grant", 1500, None)
    taken = await db.take(GUILD, 1, 200, actor_id=MOD)
    assert (taken.sender_balance, taken.recipient_balance) == (1300, None)
    given = await db.give(GUILD, 1, 2, 300)
    assert (given.sender_balance, given.recipient_balance) == (1000, 1300)
    assert await db.balance(GUILD, 2) == 1300


async def test_take_and_give_refuse_to_overdraw(ledger_checked: Database) -> None:
    db = ledger_checked
    await db.set_config(GUILD, actor_id=MOD, give_enabled=True)
    with pytest.raises(InsufficientFunds) as err:
        await db.take(GUILD, 1, 1001, actor_id=MOD)
    assert err.value.code == "storage.insufficient_funds"
    assert err.value.params["available"] == 1000
    with pytest.raises(InsufficientFunds):
        await db.give(GUILD, 1, 2, 1001)
    assert await db.balance(GUILD, 1) == 1000
    assert (await db.take(GUILD, 1, 1000, actor_id=MOD)).sender_balance == 0
    with pytest.raises(InsufficientFunds):
        await db.take(GUILD, 1, 1, actor_id=MOD)
    assert await db.balance(GUILD, 1) == 0


async def test_give_guards(ledger_checked: Database) -> None:
    db = ledger_checked
    with pytest.raises(StorageError) as err:
        await db.give(GUILD, 1, 2, 10)
    assert err.value.code == "storage.give_disabled"
    await db.set_config(GUILD, actor_id=MOD, give_enabled=True)
    for sender, recipient, amount, code in [
        (1, 1, 10, "storage.self_transfer"),
        (1, 2, 0, "storage.invalid_amount"),
        (1, 2, -5, "storage.invalid_amount"),
    ]:
        with pytest.raises(InvalidValue) as bad:
            await db.give(GUILD, sender, recipient, amount)
        assert bad.value.code == code


async def test_concurrent_gives_never_overdraw(ledger_checked: Database) -> None:
    db = ledger_checked
    await db.set_config(GUILD, actor_id=MOD, give_enabled=True)
    await db.ensure_member(GUILD, 1)
    results = await asyncio.gather(*(db.give(GUILD, 1, 100 + i, 70) for i in range(40)), return_exceptions=True)
    done = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(done) == 1000 // 70
    assert all(isinstance(r, InsufficientFunds) for r in refused)
    assert await db.balance(GUILD, 1) == 1000 - 70 * len(done)
    assert sorted(r.sender_balance for r in done) == sorted(1000 - 70 * k for k in range(1, len(done) + 1))


async def test_idempotency_key_replay(ledger_checked: Database) -> None:
    db = ledger_checked
    await db.set_config(GUILD, actor_id=MOD, give_enabled=True)
    first = await db.give(GUILD, 1, 2, 50, key="interaction:123")
    second = await db.give(GUILD, 1, 2, 50, key="interaction:123")
    assert not first.replayed
    assert second.replayed
    assert (second.movement_id, second.sender_balance) == (first.movement_id, first.sender_balance)
    assert await db.balance(GUILD, 1) == 950
    with pytest.raises(IdempotencyConflict):
        await db.grant(GUILD, 1, 50, actor_id=MOD, key="interaction:123")
    daily = await db.claim_daily(GUILD, 3, key="daily-click")
    assert await db.claim_daily(GUILD, 3, key="daily-click") == dataclasses.replace(daily, replayed=True)


async def test_refused_operation_leaves_its_key_free(ledger_checked: Database) -> None:
    db = ledger_checked
    with pytest.raises(InsufficientFunds):
        await db.take(GUILD, 1, 5000, actor_id=MOD, key="k")
    assert (await db.take(GUILD, 1, 500, actor_id=MOD, key="k")).sender_balance == 500


async def test_config_defaults_and_validation(db: Database, clock: Any) -> None:
    config = await db.get_config(GUILD)
    assert (config.starting_balance, config.daily_amount, config.daily_cooldown_seconds) == (1000, 100, 86400)
    assert (config.turn_timer_seconds, config.allowed_channel_ids) == (60, ())
    assert not config.bots_play_for_chips
    assert not config.give_enabled
    assert config.moderator_role_id is None
    assert config.channel_allowed(123)

    updated = await db.set_config(GUILD, actor_id=MOD, allowed_channel_ids=[5, 3, 5], moderator_role_id=77)
    assert updated.allowed_channel_ids == (3, 5)
    assert (updated.updated_by, updated.updated_at) == (MOD, clock.now)
    assert await db.get_config(GUILD) == updated
    assert updated.channel_allowed(3)
    assert not updated.channel_allowed(4)

    for changes, code in [
        ({"starting_balance": -1}, "storage.config_out_of_range"),
        ({"turn_timer_seconds": 5}, "storage.config_out_of_range"),
        ({"daily_cooldown_seconds": 10**9}, "storage.config_out_of_range"),
        ({"give_enabled": "yes"}, "storage.config_bad_type"),
        ({"daily_amount": 1.5}, "storage.config_bad_type"),
        ({"allowed_channel_ids": [0]}, "storage.config_bad_type"),
        ({"colour": "red"}, "storage.config_unknown_field"),
        ({"updated_by": 3}, "storage.config_unknown_field"),
    ]:
        with pytest.raises(InvalidValue) as err:
            await db.set_config(GUILD, actor_id=MOD, **changes)
        assert err.value.code == code, changes
    assert await db.get_config(GUILD) == updated
    assert (await db.set_config(GUILD, actor_id=MOD, moderator_role_id=None)).moderator_role_id is None


async def test_leaderboard_order_pagination_and_rank(ledger_checked: Database) -> None:
    db = ledger_checked
    balances = {1: 500, 2: 3000, 3: 1000, 4: 3000, 5: 10}
    for user, target in balances.items():
        await db.ensure_member(GUILD, user)
        if target > 1000:
            await db.grant(GUILD, user, target - 1000, actor_id=MOD)
        elif target < 1000:
            await db.take(GUILD, user, 1000 - target, actor_id=MOD)
    await db.ensure_member(GUILD + 1, 6)  # another guild never shows

    page = await db.leaderboard(GUILD, limit=2)
    assert page.total == 5
    assert [(e.rank, e.user_id, e.value) for e in page.entries] == [(1, 2, 3000), (1, 4, 3000)]
    page = await db.leaderboard(GUILD, offset=1, limit=3)
    assert [(e.rank, e.user_id) for e in page.entries] == [(1, 4), (3, 3), (4, 1)]
    page = await db.leaderboard(GUILD, offset=4, limit=10)
    assert [(e.rank, e.user_id) for e in page.entries] == [(5, 5)]
    assert (await db.leaderboard(GUILD, offset=10)).entries == ()

    assert (await db.rank(GUILD, 4)).rank == 1
    assert (await db.rank(GUILD, 1)).rank == 4
    assert await db.rank(GUILD, 42) is None
    with pytest.raises(InvalidValue):
        await db.leaderboard(GUILD, limit=0)


async def test_cancelled_operations_leave_a_consistent_database(ledger_checked: Database) -> None:
    db = ledger_checked
    await db.set_config(GUILD, actor_id=MOD, give_enabled=True)
    await db.ensure_member(GUILD, 1)
    for steps in range(12):
        task = asyncio.create_task(db.give(GUILD, 1, 2, 10))
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    # On PostgreSQL a cancelled give may still be finishing in its own task: wait for them (SQLite's thread runs
    # them before what comes next), then read.
    assert await db._idle()
    given = 1000 - await db.balance(GUILD, 1)
    assert await db.balance(GUILD, 2) == 1000 + given
