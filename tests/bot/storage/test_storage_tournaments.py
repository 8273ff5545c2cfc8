"""Tournaments' storage on both backends: signing up and withdrawing through the escrow account, refusals that change
nothing, rounds written once however often a step is made, the payout in one movement, a cancel refunding every
buy-in, and the escrow check that sees a pool drifting from its ledger."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bot.storage import Database, InsufficientFunds, InvalidState, NotFound
from bot.storage.tournaments import Plan, TournamentStore

GUILD = 10
CHANNEL = 500
MOD = 99
START = 1_800_000_000.0 + 3600


async def _open(db: Database, **overrides: Any) -> tuple[TournamentStore, int]:
    store = TournamentStore(db)
    settings: dict[str, Any] = {
        "rules": {},
        "buy_in": 100,
        "table_size": 2,
        "rounds": 2,
        "deals_per_round": 3,
        "payout": "65-35",
        "place": "thread",
        "lang": "en",
        "seed": "seed",
        "start_at": START,
        **overrides,
    }
    made = await store.open(GUILD, CHANNEL, MOD, "oicho", **settings)
    return store, made.id


def _pairs(scores: Mapping[int, int]) -> Plan:
    users = sorted(scores, key=lambda u: (-scores[u], u))
    return Plan([(users[i : i + 2], 0) for i in range(0, len(users), 2)])


def _payout(scores: Mapping[int, int], pool: int) -> tuple[dict[int, int], dict[int, int]]:
    standings = sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))
    places = {user: i + 1 for i, (user, _) in enumerate(standings)}
    prizes = {user: 0 for user, _ in standings}
    prizes[standings[0][0]] = pool * 65 // 100
    prizes[standings[1][0]] = pool - prizes[standings[0][0]]
    return places, prizes


async def test_signing_up_escrows_the_buy_in_and_withdrawing_refunds_it(ledger_checked: Database) -> None:
    db = ledger_checked
    store, tid = await _open(db)
    joined = await store.sign_up(tid, 1, "alice", key="i1")
    assert [e.user_id for e in joined.entries] == [1] and joined.pool == 100
    assert await db.balance(GUILD, 1) == 900  # a wallet made on first use, with the starting balance, less the buy-in
    # The same key again (a retried interaction) changes nothing.
    again = await store.sign_up(tid, 1, "alice", key="i1")
    assert again.pool == 100 and await db.balance(GUILD, 1) == 900
    with pytest.raises(InvalidState) as twice:
        await store.sign_up(tid, 1, "alice", key="i2")
    assert twice.value.code == "tournaments.already_signed_up"
    left = await store.withdraw(tid, 1, key="i3")
    assert left.entries == () and left.pool == 0 and await db.balance(GUILD, 1) == 1000
    with pytest.raises(InvalidState) as out:
        await store.withdraw(tid, 1, key="i4")
    assert out.value.code == "tournaments.not_signed_up"
    # Signing up again after withdrawing is allowed.
    await store.sign_up(tid, 1, "alice", key="i5")
    assert await store.escrow_problems(GUILD) == []
    moves = await db._all("SELECT reason, note FROM movements WHERE idem_key LIKE 'tournament:%' ORDER BY id")
    assert [(m["reason"], m["note"]) for m in moves] == [
        (r, f"tournament {tid}") for r in ("buy_in", "refund", "buy_in")
    ]


async def test_refusals_change_nothing(ledger_checked: Database, clock: Any) -> None:
    db = ledger_checked
    store, tid = await _open(db, buy_in=5000)
    with pytest.raises(InsufficientFunds):
        await store.sign_up(tid, 1, "alice", key="a")
    assert (await store.get(tid)).pool == 0  # type: ignore[union-attr]
    assert await db.balance(GUILD, 1) in (None, 1000)
    store, small = await _open(db, buy_in=10)
    await store.sign_up(small, 1, "alice", key="b")
    with pytest.raises(InvalidState) as full:
        await store.sign_up(small, 2, "bob", key="c", most=1)
    assert full.value.code == "tournaments.full"
    clock.advance(3600)  # the start time has come: signing up is over even before the bot starts it
    with pytest.raises(InvalidState) as late:
        await store.sign_up(small, 3, "carol", key="d")
    assert late.value.code == "tournaments.signup_closed"
    with pytest.raises(InvalidState) as late_leave:
        await store.withdraw(small, 1, key="e")
    assert late_leave.value.code == "tournaments.signup_closed"
    assert await store.escrow_problems() == []


async def test_rounds_are_written_once_and_the_pool_is_paid_out_in_one_movement(
    ledger_checked: Database, clock: Any
) -> None:
    db = ledger_checked
    store, tid = await _open(db)
    for user in (1, 2, 3, 4):
        await store.sign_up(tid, user, f"p{user}", key=f"k{user}")
    clock.advance(3600)
    assert await store.start(tid, _pairs)
    assert not await store.start(tid, _pairs)  # made twice: once
    tables = await store.round_tables(tid, 1)
    assert [(t.table_no, [u for u, _ in t.members], t.table_id) for t in tables] == [
        (1, [1, 2], None),
        (2, [3, 4], None),
    ]
    # A round's table is recorded the moment it opens.
    table = await db.open_table(GUILD, -1, "oicho", MOD, buy_in=100, practice=True, parent_id=CHANNEL)
    await store.record_table(tid, 1, 1, table.id)
    assert (await store.round_tables(tid, 1))[0].table_id == table.id
    assert await store.tournament_of_table(table.id) == tid
    nets = {1: 30, 2: -30, 3: -5, 4: 5}
    assert await store.finish_round(tid, 1, nets, planner=_pairs)
    assert not await store.finish_round(tid, 1, {1: 999}, planner=_pairs)  # the round is over: nothing changes
    after = await store.get(tid)
    assert (
        after is not None
        and after.round == 2
        and [(e.user_id, e.score) for e in after.entries][:2] == [(1, 30), (4, 5)]
    )
    assert [[u for u, _ in t.members] for t in await store.round_tables(tid, 2)] == [[1, 4], [3, 2]]
    assert await store.round_nets(tid) == {1: nets}
    before = {u: await db.balance(GUILD, u) for u in (1, 2, 3, 4)}
    assert await store.finish_round(tid, 2, {1: -10, 4: 10, 3: 0, 2: 0}, payout=_payout)
    done = await store.get(tid)
    assert done is not None and done.status == "finished" and done.pool == 0 and done.ended_at is not None
    assert {e.user_id: (e.place, e.prize) for e in done.entries} == {1: (1, 260), 4: (2, 140), 3: (3, 0), 2: (4, 0)}
    assert {u: await db.balance(GUILD, u) - before[u] for u in before} == {1: 260, 2: 0, 3: 0, 4: 140}
    paid = await db._all(
        "SELECT m.reason, count(l.id) AS legs, sum(l.delta) AS total FROM movements m JOIN ledger l ON l.movement_id = m.id"
        " WHERE m.idem_key = ? GROUP BY m.reason",
        (f"tournament:{tid}:payout",),
    )
    assert [(r["reason"], r["legs"], r["total"]) for r in paid] == [("cash_out", 3, 0)]
    assert not await store.finish_round(tid, 2, {1: 5}, payout=_payout)
    assert await store.escrow_problems() == []


async def test_a_cancel_refunds_every_buy_in_in_one_movement(ledger_checked: Database, clock: Any) -> None:
    db = ledger_checked
    store, tid = await _open(db)
    for user in (1, 2, 3):
        await store.sign_up(tid, user, f"p{user}", key=f"k{user}")
    clock.advance(3600)
    await store.start(tid, _pairs)
    await store.finish_round(tid, 1, {1: 10, 2: -10, 3: 0}, planner=_pairs)
    cancelled = await store.cancel(tid, actor_id=MOD)
    assert cancelled.status == "cancelled" and cancelled.pool == 0
    assert [await db.balance(GUILD, u) for u in (1, 2, 3)] == [1000, 1000, 1000]
    again = await store.cancel(tid, actor_id=MOD)  # a retry: the same answer, nothing moved twice
    assert again.status == "cancelled" and [await db.balance(GUILD, u) for u in (1, 2, 3)] == [1000] * 3
    refunds = await db._all(
        "SELECT count(*) AS n FROM movements WHERE idem_key = ? AND reason = 'refund'", (f"tournament:{tid}:cancel",)
    )
    assert refunds[0]["n"] == 1
    assert not await store.finish_round(tid, 2, {1: 5}, payout=_payout)
    # Cancelling during the sign-up, and with nobody signed up.
    _, other = await _open(db, start_at=START + 7200)
    await store.sign_up(other, 1, "p1", key="x")
    assert (await store.cancel(other, actor_id=MOD)).status == "cancelled" and await db.balance(GUILD, 1) == 1000
    _, empty = await _open(db, start_at=START + 7200)
    assert (await store.cancel(empty, actor_id=MOD)).status == "cancelled"
    # A tournament over, or none at all, cannot be cancelled.
    _, short = await _open(db, start_at=START + 7200, rounds=1)
    for user in (1, 2):
        await store.sign_up(short, user, f"p{user}", key=f"s{user}")
    clock.advance(7200)
    await store.start(short, _pairs)
    assert await store.finish_round(short, 1, {1: 5, 2: -5}, payout=_payout)
    with pytest.raises(InvalidState) as over:
        await store.cancel(short, actor_id=MOD)
    assert over.value.code == "tournaments.not_live"
    with pytest.raises(NotFound) as unknown:
        await store.cancel(10_000, actor_id=MOD)
    assert unknown.value.code == "tournaments.no_such"
    assert await store.escrow_problems() == []


async def test_the_escrow_check_sees_a_pool_that_drifted(db: Database) -> None:
    store, tid = await _open(db)
    await store.sign_up(tid, 1, "alice", key="a")
    assert await store.escrow_problems() == []
    async with db._write():
        await db._exec("UPDATE tournaments SET pool = pool + 1 WHERE id = ?", (tid,))
    problems = await store.escrow_problems(GUILD)
    assert any("ledger 100" in p for p in problems) and any("buy-ins 100" in p for p in problems)
    assert any("account 100, pools 101" in p for p in problems)
