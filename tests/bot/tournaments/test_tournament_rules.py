"""What moderators and members meet around a tournament besides its play: a cancel in the middle of a round (every
buy-in back, the tables stopped, nothing else moved), a cancel while signing up, too few entrants, a member who goes
away and is played for, sign-up refusals that change nothing, who may open and cancel, refused settings, a restart
while signing up, ``/tournaments``, and the hooks the limits and ratings features plug into."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import UserError
from bot.tournaments.hooks import TableStandings
from tests.bot.cogs.conftest import allow_command
from tests.bot.conftest import make_bot
from tests.bot.tables.driver import buttons, forge_click, play_one_turn, said
from tests.bot.tournaments.helpers import (
    START_BALANCE,
    later,
    open_tournament,
    over,
    press,
    run_until,
    store,
    text_of,
    tournament,
    tournament_message,
)

pytestmark = pytest.mark.place("thread")


def words(result: Any) -> str:
    return said(result)


async def _balances(world: Any, members: list[Any]) -> list[int | None]:
    db = world.env.bot.db
    return [await db.balance(world.guild.id, m.id) for m in members]


async def test_a_cancel_in_the_middle_of_a_round_refunds_every_buy_in_and_stops_the_tables(
    world: Any, clock: Any
) -> None:
    db = world.env.bot.db
    members = [world.alice, world.bob, world.carol, world.mod]
    tid = await open_tournament(world, game="oicho", table_size=2, rounds=3, deals_per_round=5)
    for member in members:
        await press(world, member, tid, "Sign up")
    assert await _balances(world, members) == [START_BALANCE - 100] * 4
    await later(world, clock, 300)
    tables = await store(world).round_tables(tid, 1)
    assert [t.status for t in tables] == ["playing", "playing"]
    allow_command(world, "tournament", world.alice)  # a server admin shows her the command: the bot checks itself
    refused = await world.alice.slash(world.channel, "tournament cancel", tournament=tid)
    assert "moderator" in words(refused).lower() and (await tournament(world, tid)).status == "running"

    done = await world.mod.slash(world.channel, "tournament cancel", tournament=tid)
    assert done.ephemeral and f"Tournament #{tid} is cancelled: 400 chips went back to 4 entrant(s)" in words(done)
    assert await _balances(world, members) == [START_BALANCE] * 4
    found = await tournament(world, tid)
    assert found.status == "cancelled" and found.pool == 0
    assert [t.status for t in await store(world).round_tables(tid, 1)] == ["ended", "ended"]
    assert not world.env.bot.tables.tables
    assert await db.verify_ledger(world.guild.id) == [] and await store(world).escrow_problems() == []
    # Only the buy-ins moved: four into escrow, one refund of all four; the tables' chips were tournament chips.
    moves = await db._all(
        "SELECT reason, count(*) AS n FROM movements WHERE idem_key LIKE ? GROUP BY reason ORDER BY reason",
        (f"tournament:{tid}:%",),
    )
    assert [(m["reason"], m["n"]) for m in moves] == [("buy_in", 4), ("refund", 1)]
    legs = await db._all(
        "SELECT count(*) AS n FROM ledger l JOIN movements m ON m.id = l.movement_id WHERE m.table_id IN (?, ?)",
        tuple(t.table_id for t in tables),
    )
    assert legs[0]["n"] == 0
    assert "cancelled" in text_of(tournament_message(world, tid))
    assert f"was cancelled by <@{world.mod.id}>" in "\n".join(m.content or "" for m in world.channel.history())
    # Nothing more happens to it, and it cannot be cancelled twice.
    await later(world, clock, 120)
    assert (await tournament(world, tid)).status == "cancelled"
    again = await world.mod.slash(world.channel, "tournament cancel", tournament=tid)
    assert "already over" in words(again)


async def test_a_cancel_while_signing_up_and_too_few_entrants_refund(world: Any, clock: Any) -> None:
    tid = await open_tournament(world, start_time="10m")
    await press(world, world.alice, tid, "Sign up")
    await press(world, world.bob, tid, "Sign up")
    await world.mod.slash(world.channel, "tournament cancel", tournament=tid)
    assert await _balances(world, [world.alice, world.bob]) == [START_BALANCE] * 2
    assert not buttons(tournament_message(world, tid))
    lonely = await open_tournament(world, start_time="5m")
    await press(world, world.carol, lonely, "Sign up")
    await later(world, clock, 300)
    found = await tournament(world, lonely)
    assert found.status == "cancelled" and await _balances(world, [world.carol]) == [START_BALANCE]
    assert "needs at least 2 entrants" in "\n".join(m.content or "" for m in world.channel.history())
    assert await store(world).escrow_problems() == []


async def test_a_member_who_goes_away_is_played_for_by_the_away_policy(world: Any, clock: Any) -> None:
    """Alice plays her turns through her panel; Bob never acts: the turn timer marks him away and the policy plays
    for him, round after round, and the tournament reaches its payout."""
    db = world.env.bot.db
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, game="oicho", table_size=2, rounds=2, deals_per_round=2)
    await press(world, world.alice, tid, "Sign up")
    await press(world, world.bob, tid, "Sign up")
    await later(world, clock, 300)
    alice_moved = 0
    for _ in range(300):
        if await over(world, tid):
            break
        live = list(world.env.bot.tables.tables.values())
        engine = live[0].engine if live else None
        seat = live[0].seat_of(world.alice.id) if live else None
        if engine is not None and seat in engine.to_act():
            await play_one_turn(world, world.alice)
            alice_moved += 1
        else:
            await later(world, clock, 10)
    assert await over(world, tid) and alice_moved >= 2
    tables = [t for r in (1, 2) for t in await store(world).round_tables(tid, r)]
    away = await db._all(
        f"SELECT user_id, away FROM seats WHERE table_id IN ({', '.join('?' * len(tables))})",
        tuple(t.table_id for t in tables),
    )
    assert {r["user_id"] for r in away if r["away"]} == {world.bob.id}  # Bob went away; Alice never did
    found = await tournament(world, tid)
    assert found.status == "finished" and sum(e.prize or 0 for e in found.entries) == 200


async def test_sign_up_refusals_change_nothing(world: Any, clock: Any) -> None:
    db = world.env.bot.db
    dear = await open_tournament(world, buy_in=5000)
    refused = await press(world, world.alice, dear, "Sign up")
    assert "The buy-in is 5,000 chips and your balance is 1,000." in words(refused)
    assert (await tournament(world, dear)).entries == () and await _balances(world, [world.alice]) == [START_BALANCE]

    tid = await open_tournament(world)
    await press(world, world.alice, tid, "Sign up")
    twice = await press(world, world.alice, tid, "Sign up")
    assert "already signed up" in words(twice) and await _balances(world, [world.alice]) == [START_BALANCE - 100]
    never = await press(world, world.bob, tid, "Withdraw")
    assert "not signed up" in words(never)
    left = await press(world, world.alice, tid, "Withdraw")
    assert "your 100 chips are back" in words(left) and await _balances(world, [world.alice]) == [START_BALANCE]
    await press(world, world.alice, tid, "Sign up")
    await press(world, world.bob, tid, "Sign up")
    join_id = next(b["custom_id"] for b in buttons(tournament_message(world, tid)) if b.get("label") == "Sign up")
    await later(world, clock, 300)  # started: the buttons are gone, and a stale one is refused
    assert not buttons(tournament_message(world, tid))
    late = await forge_click(world, world.carol, join_id)
    assert "Sign-up is over" in words(late)
    leave_late = await forge_click(world, world.alice, join_id.replace(":join", ":leave"))
    assert "Sign-up is over" in words(leave_late)
    assert await _balances(world, [world.alice, world.carol]) == [START_BALANCE - 100, START_BALANCE]
    # A tournament of another server, or none, is refused as unknown.
    unknown = await forge_click(world, world.carol, f"fdb:tourney:{tid + 50}:join")
    assert "no such tournament" in words(unknown)
    assert await db.verify_ledger(world.guild.id) == [] and await store(world).escrow_problems() == []


async def test_only_moderators_open_and_cancel_and_bad_settings_are_refused(world: Any) -> None:
    listed = world.env.backend.find_command("tournament", world.guild.id, type=1)
    assert int(listed["default_member_permissions"]) == 0x20  # hidden from members: Manage Server
    allow_command(world, "tournament", world.alice)  # a server admin shows her the command: the bot checks itself
    refused = await world.alice.slash(
        world.channel,
        "tournament open",
        game="oicho",
        buy_in=100,
        table_size=2,
        rounds=1,
        deals_per_round=1,
        start_time="5m",
    )
    assert refused.ephemeral and "moderator" in words(refused).lower()
    assert await store(world).of_guild(world.guild.id) == []
    cases = [
        ({"start_time": "soon"}, "is not a start time"),
        ({"start_time": "45d"}, "too soon or too late"),
        ({"game": "luk_fu", "table_size": 4}, "Luk Fu is played by exactly 3 players"),
        ({"game": "hachi_hachi", "table_size": 2}, "is played by 3 to 7 players"),
    ]
    for change, expected in cases:
        settings: dict[str, Any] = {
            "game": "oicho",
            "buy_in": 100,
            "table_size": 2,
            "rounds": 1,
            "deals_per_round": 1,
            "start_time": "5m",
            **change,
        }
        answer = await world.mod.slash(world.channel, "tournament open", **settings)
        assert answer.ephemeral and expected in words(answer), (change, words(answer))
    assert await store(world).of_guild(world.guild.id) == []  # nothing was opened
    elsewhere = world.guild.create_text_channel("elsewhere")
    await world.env.bot.db.set_config(world.guild.id, actor_id=world.mod.id, allowed_channel_ids=[elsewhere.id])
    world.env.bot.tables.config_changed(world.guild.id)
    barred = await world.mod.slash(
        world.channel,
        "tournament open",
        game="oicho",
        buy_in=100,
        table_size=2,
        rounds=1,
        deals_per_round=1,
        start_time="5m",
    )
    assert "not allowed" in words(barred).lower() or "channel" in words(barred).lower()
    assert await store(world).of_guild(world.guild.id) == []


async def test_a_restart_while_signing_up_keeps_the_buttons_and_the_start(
    world: Any, database: Any, clock: Any
) -> None:
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, rounds=1, deals_per_round=1)
    await press(world, world.alice, tid, "Sign up")
    await world.env.restart_bot(make_bot(database, clock))
    joined = await press(world, world.bob, tid, "Sign up")  # the button of the message posted before the restart
    assert "signed up for tournament" in words(joined)
    assert "Entrants (2)" in text_of(tournament_message(world, tid))
    await world.env.restart_bot(make_bot(database, clock))
    await later(world, clock, 300)
    assert (await tournament(world, tid)).status == "running"
    await run_until(world, clock, lambda: over(world, tid))
    listing = await world.carol.slash(world.channel, "tournaments")
    assert listing.ephemeral
    text = text_of(listing.response)
    assert f"#{tid}" in text and "over" in text and "2 entrant(s)" in text


async def test_the_limits_and_ratings_hooks(world: Any, clock: Any) -> None:
    """A sign-up check refuses privately and nothing moves; each round table's standings reach the ratings hook once,
    after the round is written."""
    director = world.env.bot.get_cog("TournamentsCog").director
    excluded = {world.carol.id}
    rated: list[TableStandings] = []

    async def check(guild_id: int, user_id: int, buy_in: int) -> None:
        if user_id in excluded:
            raise UserError("tournaments.not_enough_chips", buy_in=buy_in, balance=0)

    async def rate(result: TableStandings) -> None:
        rated.append(result)

    director.hooks.sign_up_checks.append(check)
    director.hooks.table_results.append(rate)
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, rounds=2, deals_per_round=1)
    refused = await press(world, world.carol, tid, "Sign up")
    assert "The buy-in is 100 chips" in words(refused) and await _balances(world, [world.carol]) == [START_BALANCE]
    await press(world, world.alice, tid, "Sign up")
    await press(world, world.bob, tid, "Sign up")
    await later(world, clock, 300)
    await run_until(world, clock, lambda: over(world, tid))
    assert [(r.tournament_id, r.round) for r in rated] == [(tid, 1), (tid, 2)]
    nets = await store(world).round_nets(tid)
    for result in rated:
        members = {user: chips for user, chips in result.standings if user is not None}
        assert members == nets[result.round] and result.game == "oicho"
        assert sum(chips for _, chips in result.standings) == 0  # one table's chips only change hands


async def test_a_self_excluded_member_cannot_sign_up_and_round_tables_are_rated(world: Any, clock: Any) -> None:
    """The features themselves, wired in: a member who excluded themself (bot.limits) is refused a sign-up with
    when it ends, nothing moved; every round table, a finished game between its members, is rated once
    (bot.storage.ratings), from the chips each member won there."""
    from bot.storage.limits import LimitsQueries
    from bot.storage.ratings import RatingQueries

    db = world.env.bot.db
    await LimitsQueries(db).exclude(world.guild.id, world.carol.id, until=clock.now + 86400)
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, rounds=2, deals_per_round=1)
    refused = await press(world, world.carol, tid, "Sign up")
    assert "You excluded yourself from play in this server" in words(refused)
    assert await _balances(world, [world.carol]) == [START_BALANCE]
    await press(world, world.alice, tid, "Sign up")
    await press(world, world.bob, tid, "Sign up")
    await later(world, clock, 300)
    await run_until(world, clock, lambda: over(world, tid))
    nets = await store(world).round_nets(tid)
    ratings = RatingQueries(db)
    for round_no in (1, 2):
        [table] = await store(world).round_tables(tid, round_no)
        rated = await ratings.rated_game(f"tournament:{tid}:{round_no}:{table.table_id}")
        assert rated is not None and rated.game == "oicho"
        assert {c.user_id for c in rated.changes} == {world.alice.id, world.bob.id}
        first = max(nets[round_no], key=lambda user: nets[round_no][user])
        if len(set(nets[round_no].values())) > 1:  # the round's winner is rated first
            seats = await db._all("SELECT position, user_id FROM seats WHERE table_id = ?", (table.table_id,))
            place = {s["user_id"]: rated.places[s["position"]] for s in seats if s["user_id"] is not None}
            assert place[first] < place[next(u for u in place if u != first)]


async def test_a_round_table_stopped_by_a_moderator_counts_its_settled_deals(world: Any, clock: Any) -> None:
    """A moderator stops one table of the round with ``/table stop`` in its thread: that table's part of the round
    is what its settled deals gave (a deal in progress is void), and the round ends once the other table has."""
    db = world.env.bot.db
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, game="oicho", table_size=2, rounds=1, deals_per_round=3, payout="winner")
    for member in (world.alice, world.bob, world.carol, world.mod):
        await press(world, member, tid, "Sign up")
    await later(world, clock, 300)
    first, second = await store(world).round_tables(tid, 1)
    thread = next(t for t in world.channel.threads if t.id == first.channel_id)
    stopped = await world.mod.slash(thread, "table stop")
    assert stopped.ephemeral
    assert (await tournament(world, tid)).status == "running"  # the other table still plays
    await run_until(world, clock, lambda: over(world, tid))
    nets = (await store(world).round_nets(tid))[1]
    hands = await db.table_history(first.table_id, limit=10)
    seats = await db._all("SELECT position, user_id FROM seats WHERE table_id = ?", (first.table_id,))
    for seat in seats:
        assert nets[seat["user_id"]] == sum(h.deltas[seat["position"]] for h in hands)
    assert len(await db.table_history(second.table_id, limit=10)) == 3
    found = await tournament(world, tid)
    assert found.status == "finished" and sum(e.prize or 0 for e in found.entries) == 400


async def test_a_table_that_did_not_start_is_cancelled_and_opened_again(
    world: Any, clock: Any, monkeypatch: Any
) -> None:
    """The bot fails between opening a round's table and starting it (as a process stopping there would leave it):
    the table left in its lobby is cancelled at the next look and the round's table opened afresh."""
    from bot.tables.lobby import Lobby

    plain = Lobby.start_now
    failures = [RuntimeError("stopped while starting")]

    async def start_now(self: Lobby, session: Any, deal: Any = None) -> None:
        if failures:
            raise failures.pop()
        await plain(self, session, deal)

    monkeypatch.setattr(Lobby, "start_now", start_now)
    await world.mod.slash(world.channel, "config set", turn_timer=10)
    tid = await open_tournament(world, game="oicho", table_size=2, rounds=1, deals_per_round=1)
    await press(world, world.alice, tid, "Sign up")
    await press(world, world.bob, tid, "Sign up")
    await later(world, clock, 300)
    (table,) = await store(world).round_tables(tid, 1)
    assert table.status == "lobby" and not failures
    left = table.table_id
    await run_until(world, clock, lambda: over(world, tid))
    (table,) = await store(world).round_tables(tid, 1)
    assert table.table_id != left and table.status == "ended"
    row = await world.env.bot.db.get_table(left)
    assert row is not None and row.status == "cancelled"
    assert await world.env.bot.db.verify_ledger(world.guild.id) == [] and await store(world).escrow_problems() == []
