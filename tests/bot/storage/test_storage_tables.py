"""Tables, seats, settlement, closing, hand history and the ledger over a mixed scenario."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.storage import (
    Database,
    InsufficientFunds,
    IntegrityError,
    InvalidState,
    InvalidValue,
    LogEntry,
    StorageError,
)

CHANNEL = 500
GUILD = 10
MOD = 99


async def chip_table(db: Database, *, players: tuple[int, ...] = (1, 2), buy_in: int = 300, start: bool = True) -> int:
    table = await db.open_table(GUILD, CHANNEL, "oicho", players[0], buy_in=buy_in, stake=10, rules={"rounds": 6})
    for user in players:
        await db.join_table(table.id, user)
    if start:
        await db.start_table(table.id, record='{"v":1}')
    return table.id


async def test_open_join_and_read_back(ledger_checked: Database) -> None:
    db = ledger_checked
    table = await db.open_table(GUILD, CHANNEL, "oicho", 1, buy_in=300, stake=10, rules={"rounds": 6})
    assert (table.status, table.stake, table.buy_in, table.rules, table.practice) == (
        "lobby",
        10,
        300,
        {"rounds": 6},
        False,
    )
    seat = await db.join_table(table.id, 1)
    assert (seat.position, seat.stack, seat.wallet_balance) == (0, 300, 700)
    seat2 = await db.join_table(table.id, 2, buy_in=500)
    assert (seat2.position, seat2.stack, seat2.wallet_balance) == (1, 500, 500)
    loaded = await db.get_table(table.id)
    assert loaded is not None
    assert [(s.position, s.user_id, s.stack, s.buy_in) for s in loaded.seats] == [(0, 1, 300, 300), (1, 2, 500, 500)]
    assert loaded.seat_of(2) == loaded.seats[1]
    assert await db.get_table(12345) is None
    assert (await db.active_table_in(CHANNEL)) == loaded


async def test_join_refusals(ledger_checked: Database) -> None:
    db = ledger_checked
    table = await db.open_table(GUILD, CHANNEL, "oicho", 1, buy_in=1500)
    with pytest.raises(InsufficientFunds) as err:
        await db.join_table(table.id, 1)
    assert err.value.params == {"needed": 1500, "available": 1000, "user_id": 1}
    assert await db.balance(GUILD, 1) == 1000
    await db.join_table(table.id, 1, buy_in=400)
    with pytest.raises(InvalidState) as seated:
        await db.join_table(table.id, 1, buy_in=400)
    assert seated.value.code == "storage.already_seated"
    with pytest.raises(InvalidState) as full:
        await db.join_table(table.id, 2, buy_in=400, max_seats=1)
    assert full.value.code == "storage.table_full"
    with pytest.raises(StorageError) as missing:
        await db.join_table(999, 2)
    assert missing.value.code == "storage.no_table"


async def test_one_active_table_per_channel(ledger_checked: Database) -> None:
    db = ledger_checked
    first = await db.open_table(GUILD, CHANNEL, "oicho", 1, buy_in=100)
    with pytest.raises(StorageError) as err:
        await db.open_table(GUILD, CHANNEL, "lukfu", 2, buy_in=100)
    assert (err.value.code, err.value.params["table_id"]) == ("storage.channel_busy", first.id)
    # The partial unique index holds even for a write that bypasses the check.
    with pytest.raises(IntegrityError):
        await db._exec(
            "INSERT INTO tables (guild_id, channel_id, game, host_id, stake, buy_in, created_at, updated_at)"
            " VALUES (?, ?, 'x', 1, 1, 1, 0, 0)",
            (GUILD, CHANNEL),
        )
    await db.open_table(GUILD, CHANNEL + 1, "oicho", 2, buy_in=100)  # another channel is free
    await db.cancel_table(first.id)
    assert (await db.open_table(GUILD, CHANNEL, "lukfu", 2, buy_in=100)).game == "lukfu"


async def test_leave_and_cancel_refund_exactly(ledger_checked: Database) -> None:
    db = ledger_checked
    table = await db.open_table(GUILD, CHANNEL, "oicho", 1, buy_in=300)
    await db.join_table(table.id, 1)
    await db.join_table(table.id, 2, buy_in=250)
    await db.join_table(table.id, 3, buy_in=999)
    left = await db.leave_lobby(table.id, 2)
    assert (left.position, left.stack, left.wallet_balance) == (1, 0, 1000)
    with pytest.raises(StorageError) as err:
        await db.leave_lobby(table.id, 2)
    assert err.value.code == "storage.not_seated"
    rejoined = await db.join_table(table.id, 2, buy_in=100)
    assert rejoined.position == 1  # the lowest free position
    closure = await db.cancel_table(table.id, actor_id=1)
    assert closure.status == "cancelled"
    assert sorted(closure.returned) == [(0, 300), (1, 100), (2, 999)]
    assert [await db.balance(GUILD, u) for u in (1, 2, 3)] == [1000, 1000, 1000]
    assert (await db.cancel_table(table.id, actor_id=1)).replayed
    with pytest.raises(InvalidState):
        await db.join_table(table.id, 4)


async def test_start_compacts_positions_for_the_engine(ledger_checked: Database) -> None:
    db = ledger_checked
    table_id = await chip_table(db, players=(1, 2, 3), start=False)
    await db.leave_lobby(table_id, 2)
    started = await db.start_table(table_id, record='{"x":1}')
    assert (started.status, started.record) == ("playing", '{"x":1}')
    assert [(s.position, s.user_id) for s in started.seats] == [(0, 1), (1, 3)]
    with pytest.raises(InvalidState) as err:
        await db.leave_lobby(table_id, 1)
    assert err.value.code == "storage.table_not_active"


async def test_settle_deal_moves_stacks_history_and_stats(ledger_checked: Database, clock: Any) -> None:
    db = ledger_checked
    table_id = await chip_table(db, players=(1, 2, 3))
    result = await db.settle_deal(table_id, 1, [50, -80, 30], {"seeds": ["abc"], "winner": 0})
    assert (result.deltas, result.stacks) == ((50, -80, 30), (350, 220, 330))
    assert [s.stack for s in (await db.get_table(table_id)).seats] == [350, 220, 330]
    [hand] = await db.table_history(table_id)
    assert (hand.deal_no, hand.game, hand.deltas, hand.summary) == (
        1,
        "oicho",
        (50, -80, 30),
        {"seeds": ["abc"], "winner": 0},
    )
    assert await db.balance(GUILD, 1) == 700  # wallets never change mid-table

    replay = await db.settle_deal(table_id, 1, [50, -80, 30], {"seeds": ["abc"]})
    assert replay.replayed
    assert replay.hand_id == result.hand_id
    assert len(await db.table_history(table_id)) == 1
    with pytest.raises(InvalidState) as twice:
        await db.settle_deal(table_id, 1, [0, 0, 0], {}, key="another key")
    assert twice.value.code == "storage.deal_already_settled"

    clock.advance(60)
    await db.settle_deal(table_id, 2, [-10, 0, 10], {})
    mine = await db.member_history(GUILD, 3)
    assert [(h.deal_no, h.position, h.deltas[h.position]) for h in mine] == [(2, 2, 10), (1, 2, 30)]
    board = await db.net_leaderboard(GUILD, "oicho")
    assert board.total == 3
    assert [(e.rank, e.user_id, e.value, e.deals_played) for e in board.entries] == [
        (1, 1, 40, 2),
        (1, 3, 40, 2),
        (3, 2, -80, 2),
    ]
    assert (await db.rank(GUILD, 2, game="oicho")).rank == 3
    assert await db.rank(GUILD, 2, game="lukfu") is None
    page = await db.net_leaderboard(GUILD, "oicho", offset=2, limit=1)
    assert [(e.rank, e.user_id) for e in page.entries] == [(3, 2)]


@pytest.mark.parametrize(
    ("deltas", "code"),
    [
        ([100, -400, 300], "storage.settlement_overdraws_stack"),  # seat 1 holds only 300
        ([10, -5, 0], "storage.settlement_unbalanced"),
        ([10, -10], "storage.settlement_seat_mismatch"),
    ],
)
async def test_failing_settlement_changes_nothing(ledger_checked: Database, deltas: list[int], code: str) -> None:
    db = ledger_checked
    table_id = await chip_table(db, players=(1, 2, 3))
    before = await db.get_table(table_id)
    with pytest.raises(InvalidValue) as err:
        await db.settle_deal(table_id, 1, deltas, {"x": 1})
    assert err.value.code == code
    assert await db.get_table(table_id) == before
    assert await db.table_history(table_id) == []
    assert (await db.net_leaderboard(GUILD, "oicho")).total == 0
    # The key was not consumed: the corrected settlement goes through.
    assert (await db.settle_deal(table_id, 1, [100, -300, 200], {})).stacks == (400, 0, 500)


async def test_settlement_rolls_back_when_a_late_statement_fails(ledger_checked: Database) -> None:
    """Atomicity: a failure after the stacks moved (here: a summary that is not JSON) undoes the stacks too."""
    db = ledger_checked
    table_id = await chip_table(db)
    before = await db.get_table(table_id)
    with pytest.raises(TypeError):
        await db.settle_deal(table_id, 1, [10, -10], {"bad": object()})
    assert await db.get_table(table_id) == before
    original = db._set_outcome

    async def boom(movement_id: int, outcome: str) -> None:
        raise RuntimeError("disk on fire")

    db._set_outcome = boom  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await db.settle_deal(table_id, 1, [10, -10], {})
    db._set_outcome = original  # type: ignore[method-assign]
    assert await db.get_table(table_id) == before
    assert await db.table_history(table_id) == []
    assert (await db.net_leaderboard(GUILD, "oicho")).total == 0


async def test_settle_needs_a_playing_table(ledger_checked: Database) -> None:
    db = ledger_checked
    table_id = await chip_table(db, start=False)
    with pytest.raises(InvalidState) as err:
        await db.settle_deal(table_id, 1, [0, 0], {})
    assert err.value.code == "storage.table_not_active"


async def test_close_table_returns_every_stack(ledger_checked: Database) -> None:
    db = ledger_checked
    table_id = await chip_table(db, players=(1, 2, 3))
    await db.settle_deal(table_id, 1, [120, -300, 180], {})
    closure = await db.close_table(table_id, actor_id=1)
    assert (closure.status, closure.returned) == ("ended", ((0, 420), (2, 480)))
    assert [await db.balance(GUILD, u) for u in (1, 2, 3)] == [1120, 700, 1180]
    table = await db.get_table(table_id)
    assert table.status == "ended"
    assert [s.stack for s in table.seats] == [0, 0, 0]
    assert await db.list_active_tables() == []
    assert (await db.close_table(table_id)).replayed
    with pytest.raises(InvalidState):
        await db.close_table(table_id, key="later")


async def test_stop_mid_deal_is_close_with_void(ledger_checked: Database) -> None:
    db = ledger_checked
    table_id = await chip_table(db)
    await db.save_record(table_id, '{"actions":[[0,"bet 5"]]}', message_id=77, message_created_at=5.0)
    closure = await db.close_table(table_id, actor_id=MOD, voided=True)
    assert closure.returned == ((0, 300), (1, 300))
    assert [await db.balance(GUILD, u) for u in (1, 2)] == [1000, 1000]
    reasons = await db._all("SELECT reason FROM movements WHERE table_id = ? ORDER BY id", (table_id,))
    assert [r[0] for r in reasons] == ["buy_in", "buy_in", "void"]
    # A later plain close (the game's own end) of the same table replays instead of failing.
    assert (await db.close_table(table_id)).replayed


async def test_bot_seats_use_the_house_only_when_allowed(ledger_checked: Database) -> None:
    db = ledger_checked
    table_id = await chip_table(db, start=False)
    with pytest.raises(StorageError) as err:
        await db.add_bot_seat(table_id, "Tanuki")
    assert err.value.code == "storage.bots_not_for_chips"
    await db.set_config(GUILD, actor_id=MOD, bots_play_for_chips=True)
    bot = await db.add_bot_seat(table_id, "Tanuki")
    assert (bot.position, bot.stack, bot.wallet_balance) == (2, 300, None)
    assert await db.house_balance(GUILD) == -300
    await db.start_table(table_id)
    await db.settle_deal(table_id, 1, [100, 50, -150], {})  # the bot loses
    await db.close_table(table_id)
    assert await db.house_balance(GUILD) == -150
    assert [await db.balance(GUILD, u) for u in (1, 2)] == [1100, 1050]
    assert (await db.leaderboard(GUILD)).total == 2  # bots never get wallets
    assert [e.user_id for e in (await db.net_leaderboard(GUILD, "oicho")).entries] == [1, 2]


async def test_practice_tables_move_no_chips(ledger_checked: Database) -> None:
    db = ledger_checked
    table = await db.open_table(GUILD, CHANNEL, "ofc", 1, buy_in=5000, practice=True)
    assert (await db.join_table(table.id, 1)).wallet_balance is None  # a virtual stack, even above the balance
    await db.add_bot_seat(table.id, "Kappa")  # no bots_play_for_chips needed
    await db.start_table(table.id)
    settled = await db.settle_deal(table.id, 1, [700, -700], {})
    assert settled.stacks == (5700, 4300)
    await db.close_table(table.id)
    assert await db.balance(GUILD, 1) == 1000
    assert await db.house_balance(GUILD) == 0
    assert (await db.net_leaderboard(GUILD, "ofc")).total == 0
    assert len(await db.table_history(table.id)) == 1
    legs = await db._scalar(
        "SELECT count(*) FROM ledger l JOIN movements m ON m.id = l.movement_id WHERE m.table_id = ?", (table.id,)
    )
    assert legs == 0


async def test_list_active_tables_for_restart(ledger_checked: Database) -> None:
    db = ledger_checked
    playing = await chip_table(db)
    lobby = await db.open_table(GUILD + 1, CHANNEL + 1, "lukfu", 5, buy_in=100)
    await db.join_table(lobby.id, 5)
    ended = await db.open_table(GUILD, CHANNEL + 2, "ofc", 6, buy_in=100)
    await db.cancel_table(ended.id)
    await db.set_away(playing, 2, True)
    tables = await db.list_active_tables()
    assert [(t.id, t.status, len(t.seats)) for t in tables] == [(playing, "playing", 2), (lobby.id, "lobby", 1)]
    assert tables[0].seats[1].away
    assert tables[0].record == '{"v":1}'
    assert [t.id for t in await db.list_active_tables(GUILD + 1)] == [lobby.id]
    with pytest.raises(StorageError):
        await db.set_away(playing, 42, True)


async def test_mixed_scenario_ledger_sums_to_zero(ledger_checked: Database, clock: Any) -> None:
    db = ledger_checked
    await db.set_config(GUILD, actor_id=MOD, give_enabled=True, bots_play_for_chips=True)
    for user in range(1, 7):
        await db.claim_daily(GUILD, user)
    await db.grant(GUILD, 1, 5000, actor_id=MOD)
    await db.take(GUILD, 2, 300, actor_id=MOD)
    await asyncio.gather(*(db.give(GUILD, 1, 2 + i % 5, 150) for i in range(20)), return_exceptions=True)
    table_id = await chip_table(db, players=(1, 2, 3), start=False)
    await db.add_bot_seat(table_id, "Oni")
    await db.join_table(table_id, 4)
    await db.leave_lobby(table_id, 4)
    await db.start_table(table_id)
    await db.settle_deal(table_id, 1, [60, -90, 10, 20], {})
    await db.settle_deal(table_id, 2, [-200, 150, 100, -50], {})
    await db.close_table(table_id)
    other = await db.open_table(GUILD, CHANNEL, "lukfu", 5, buy_in=200)
    await db.join_table(other.id, 5)
    await db.join_table(other.id, 6)
    await db.cancel_table(other.id)
    clock.advance(86400)
    await db.claim_daily(GUILD, 1)

    assert await db.verify_ledger() == []
    total = await db._scalar("SELECT sum(delta) FROM ledger")
    assert total == 0
    wallets = await db._scalar("SELECT sum(balance) FROM wallets WHERE guild_id = ?", (GUILD,))
    mint = await db._scalar("SELECT balance FROM guild_accounts WHERE guild_id = ? AND kind = 'mint'", (GUILD,))
    assert wallets + await db.house_balance(GUILD) + mint == 0  # no chips left in any seat


async def test_make_practice_refunds_every_buy_in_and_keeps_virtual_stacks(ledger_checked: Database) -> None:
    db = ledger_checked
    table_id = await chip_table(db, players=(1, 2), buy_in=300, start=False)
    assert await db.balance(GUILD, 1) == 700
    practice = await db.make_practice(table_id, actor_id=1)
    assert practice.practice
    assert [s.stack for s in practice.seats] == [300, 300]
    assert await db.balance(GUILD, 1) == 1000
    assert await db.balance(GUILD, 2) == 1000
    again = await db.make_practice(table_id, actor_id=1)  # idempotent: nothing is refunded twice
    assert again.practice
    assert await db.balance(GUILD, 1) == 1000
    await db.add_bot_seat(table_id, "Tanuki")  # a practice table takes bots without the house
    assert await db.house_balance(GUILD) == 0
    closed = await db.close_table(table_id)
    assert closed.returned == ()
    assert await db.balance(GUILD, 2) == 1000


async def test_a_pot_carries_between_deals_and_is_paid_back_at_the_close(ledger_checked: Database) -> None:
    """Hachi-Hachi's fold fees: a deal may put chips into the table's pot, a later deal pay them out, and a
    table stopped with chips in its pot pays them back to whoever the game says paid them."""
    db = ledger_checked
    table_id = await chip_table(db, players=(1, 2, 3))
    # Deal 1: nobody plays; each folds, 20 + 30 + 40 into the pot.
    first = await db.settle_deal(table_id, 1, [-20, -30, -40], {}, pot=90)
    assert first.stacks == (280, 270, 260)
    assert (await db.get_table(table_id)).pot == 90
    # Deal 2: seat 2 takes the pot plus 10 from seat 0.
    await db.settle_deal(table_id, 2, [-10, 0, 100], {}, pot=-90)
    assert (await db.get_table(table_id)).pot == 0
    # Deal 3 puts 50 in; refusals change nothing.
    await db.settle_deal(table_id, 3, [-20, -30, 0], {}, pot=50)
    before = await db.get_table(table_id)
    for deltas, pot, code in (
        ([60, 0, 0], -60, "storage.settlement_overdraws_pot"),
        ([10, 0, 0], -5, "storage.settlement_unbalanced"),
    ):
        with pytest.raises(InvalidValue) as err:
            await db.settle_deal(table_id, 4, deltas, {}, pot=pot)
        assert err.value.code == code
    assert await db.get_table(table_id) == before
    # Closing without saying whose the pot is is refused, and so is a payback that is not the pot.
    with pytest.raises(InvalidState) as unsaid:
        await db.close_table(table_id)
    assert unsaid.value.code == "storage.pot_not_empty"
    with pytest.raises(InvalidValue) as wrong:
        await db.close_table(table_id, pot_back=[20, 20, 0])
    assert wrong.value.code == "storage.pot_back_mismatch"
    assert await db.get_table(table_id) == before
    closure = await db.close_table(table_id, actor_id=MOD, voided=True, pot_back=[20, 30, 0])
    assert sorted(closure.returned) == [(0, 270), (1, 270), (2, 360)]
    assert [await db.balance(GUILD, u) for u in (1, 2, 3)] == [970, 970, 1060]
    assert (await db.get_table(table_id)).pot == 0


async def test_the_ledger_check_sees_a_pot_that_drifted(ledger_checked: Database) -> None:
    db = ledger_checked
    table_id = await chip_table(db, players=(1, 2))
    await db.settle_deal(table_id, 1, [-20, -30], {}, pot=50)
    assert await db.verify_ledger() == []
    await db._exec("UPDATE tables SET pot = 49 WHERE id = ?", (table_id,))
    problems = await db.verify_ledger()
    assert any(p.startswith("table pot differs from its ledger") for p in problems), problems
    await db._exec("UPDATE tables SET pot = 50 WHERE id = ?", (table_id,))


async def test_a_table_in_a_thread_gets_its_place_once_the_thread_exists(ledger_checked: Database) -> None:
    db = ledger_checked
    # Two lobbies opened at once in one channel's threads: each waits on a placeholder of its own.
    first = await db.open_table(GUILD, -1, "oicho", 1, buy_in=100, parent_id=CHANNEL)
    second = await db.open_table(GUILD, -2, "oicho", 2, buy_in=100, parent_id=CHANNEL)
    assert (first.parent_id, first.pace, first.turn_seconds) == (CHANNEL, "live", None)
    await db.set_place(first.id, 7001)
    with pytest.raises(StorageError) as busy:
        await db.set_place(second.id, 7001)  # a thread holds one active table
    assert busy.value.code == "storage.channel_busy"
    await db.set_place(second.id, 7002)
    assert (await db.active_table_in(7001)).id == first.id  # type: ignore[union-attr]
    assert (await db.active_table_in(7002)).id == second.id  # type: ignore[union-attr]
    await db.join_table(first.id, 1)
    await db.start_table(first.id, record='{"v":1}')
    with pytest.raises(InvalidState):
        await db.set_place(first.id, 7003)  # only a lobby moves into its thread


async def test_a_correspondence_table_keeps_its_pace_turn_start_and_pings(ledger_checked: Database, clock: Any) -> None:
    db = ledger_checked
    table = await db.open_table(GUILD, CHANNEL, "oicho", 1, buy_in=100, pace="correspondence", turn_seconds=86400)
    for bad in (("live", 5), ("live", 8 * 86400), ("slow", None)):
        with pytest.raises(InvalidValue):
            await db.open_table(GUILD, CHANNEL + 1, "oicho", 1, buy_in=100, pace=bad[0], turn_seconds=bad[1])  # type: ignore[arg-type]
    await db.join_table(table.id, 1)
    await db.join_table(table.id, 2)
    started_at = clock.now
    await db.start_table(table.id, record='{"v":1}')
    loaded = await db.get_table(table.id)
    assert loaded is not None and (loaded.pace, loaded.turn_seconds, loaded.turn_started_at) == (
        "correspondence",
        86400,
        started_at,
    )
    clock.advance(3600)
    step = await db.append_step(table.id, [LogEntry(1, "action", "bet 1 5", seat=0)])
    assert step.at == clock.now
    clock.advance(60)
    await db.set_away(table.id, 1, True)  # not a step of the game: the turn still began at the move
    await db.set_pinged(table.id, {1: 4, 0: 2})
    loaded = await db.get_table(table.id)
    assert loaded is not None and loaded.turn_started_at == step.at and dict(loaded.pinged) == {0: 2, 1: 4}


async def test_where_tables_open_is_a_server_setting(ledger_checked: Database) -> None:
    db = ledger_checked
    assert (await db.get_config(GUILD)).table_place == "thread"
    config = await db.set_config(GUILD, actor_id=MOD, table_place="channel", correspondence_max_hours=24)
    assert (config.table_place, config.correspondence_max_hours) == ("channel", 24)
    assert (await db.get_config(GUILD)).table_place == "channel"
    with pytest.raises(InvalidValue) as bad:
        await db.set_config(GUILD, actor_id=MOD, table_place="forum")  # type: ignore[typeddict-item]
    assert bad.value.code == "storage.config_bad_choice"
    with pytest.raises(InvalidValue):
        await db.set_config(GUILD, actor_id=MOD, correspondence_max_hours=169)
