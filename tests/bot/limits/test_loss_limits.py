"""Loss limits as members meet them: at their edges (one chip under, exactly at, one chip over), lowered at once,
raised or removed only after 24 hours, refusing seats and buy-ins privately with the time they end, and a limit
reached during a game letting that game finish."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.storage.limits import DAY, WEEK
from tests.bot.conftest import LOCALES
from tests.bot.limits.kit import past_deal, told
from tests.bot.tables.driver import live_table, lobby_message, play_until

BOTH = pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)


async def can_open(world: Any, member: Any) -> str:
    """``/play`` by ``member``: what they were told; a table opened is cancelled again."""
    result = await member.slash(world.channel, "play", game="oicho")
    tables = world.env.bot.tables.tables
    if tables:
        assert live_table(world).seat_of(member.id) == 0
        await member.click(lobby_message(world), label="Cancel")
        return "opened"
    return told(result)


@BOTH
async def test_a_daily_loss_limit_at_its_edges(world: Any, clock: Any) -> None:
    db = world.env.bot.db
    alice, bob = world.alice, world.bob
    await past_deal(world, {alice: -100, bob: 100})
    dealt = clock.now
    clock.advance(60)
    set_101 = await alice.slash(world.channel, "limits loss", window="daily", amount=101)
    assert set_101.ephemeral and "daily loss limit is now 101 chips, in force at once" in told(set_101)
    assert await can_open(world, alice) == "opened"  # lost 100, one chip under the limit
    lowered = await alice.slash(world.channel, "limits loss", window="daily", amount=100)
    assert "now 100 chips, in force at once" in told(lowered)  # lowering: at once
    at_limit = await can_open(world, alice)  # exactly at the limit
    assert "lost 100 chips" in at_limit and "daily loss limit of 100" in at_limit
    assert f"<t:{int(dealt + DAY)}:f>" in at_limit and "Practice tables" in at_limit
    await past_deal(world, {alice: -1, bob: 1})
    over = await can_open(world, alice)  # one chip over: the end is still when the 100 leave the window
    assert "lost 101 chips" in over and f"<t:{int(dealt + DAY)}:f>" in over
    # A buy-in is refused too: Join, privately, nothing paid.
    balance = await db.balance(world.guild.id, alice.id)
    await bob.slash(world.channel, "play", game="oicho")
    join = await alice.click(lobby_message(world), label="Join")
    assert join.ephemeral and "daily loss limit of 100" in told(join)
    assert live_table(world).seat_of(alice.id) is None and await db.balance(world.guild.id, alice.id) == balance
    await bob.click(lobby_message(world), label="Cancel")
    # Practice stays open.
    await alice.slash(world.channel, "play", game="oicho", practice=True)
    assert live_table(world).practice and live_table(world).seat_of(alice.id) == 0
    await alice.click(lobby_message(world), label="Cancel")
    # Bob won: his own limit does not stop him.
    await bob.slash(world.channel, "limits loss", window="daily", amount=1)
    assert await can_open(world, bob) == "opened"
    # A second before the losses are a day old she is still refused; then free.
    clock.now = dealt + DAY - 1
    assert "daily loss limit" in await can_open(world, alice)
    clock.now = dealt + DAY
    assert await can_open(world, alice) == "opened"


@BOTH
async def test_raising_or_removing_takes_24_hours(world: Any, clock: Any) -> None:
    alice, bob = world.alice, world.bob
    await past_deal(world, {alice: -150, bob: 150})
    dealt = clock.now
    await alice.slash(world.channel, "limits loss", window="weekly", amount=100)
    clock.advance(3600)
    asked = clock.now
    raised = await alice.slash(world.channel, "limits loss", window="weekly", amount=200)
    assert raised.ephemeral
    assert f"stays 100 chips until <t:{int(asked + DAY)}:f>" in told(raised) and "then becomes 200 chips" in told(
        raised
    )
    shown = await alice.slash(world.channel, "limits show")
    embed = str(shown.response.embeds[0].to_dict())
    assert "100 chips" in embed and f"Becomes 200 chips from <t:{int(asked + DAY)}:f>" in embed
    assert "-150" in embed  # her net at tables in the week
    refused = await can_open(world, alice)
    assert "weekly loss limit of 100" in refused and f"<t:{int(dealt + WEEK)}:f>" in refused
    clock.now = asked + DAY - 1
    assert "weekly loss limit of 100" in await can_open(world, alice)
    clock.now = asked + DAY
    assert await can_open(world, alice) == "opened"  # 150 lost, under 200
    # Removing waits too; lowering is at once, and drops the pending removal.
    removing = await alice.slash(world.channel, "limits loss", window="weekly", amount=0)
    assert "then is removed" in told(removing)
    lowered = await alice.slash(world.channel, "limits loss", window="weekly", amount=150)
    assert "now 150 chips, in force at once" in told(lowered)
    assert "weekly loss limit of 150" in await can_open(world, alice)
    clock.advance(DAY)  # the removal had been given up
    assert "weekly loss limit of 150" in await can_open(world, alice)


async def test_a_loss_limit_in_japanese(world: Any, clock: Any) -> None:
    LOCALES[world.alice.id] = "ja"
    await past_deal(world, {world.alice: -80, world.bob: 80})
    set_limit = await world.alice.slash(world.channel, "limits loss", window="daily", amount=50)
    assert "すぐに有効" in told(set_limit)
    raised = await world.alice.slash(world.channel, "limits loss", window="daily", amount=500)
    assert "24時間後" in told(raised)
    refused = await can_open(world, world.alice)
    assert "1日の損失上限 50" in refused and f"<t:{int(clock.now + DAY)}:f>" in refused


async def test_bad_loss_limit_input_is_refused_by_what_discord_is_told(world: Any) -> None:
    command = world.env.backend.find_command("limits", world.guild.id, type=1)
    loss = next(o for o in command["options"] if o["name"] == "loss")["options"]
    amount = next(o for o in loss if o["name"] == "amount")
    assert (amount["min_value"], amount["max_value"]) == (0, 1_000_000_000)
    assert [c["value"] for c in next(o for o in loss if o["name"] == "window")["choices"]] == ["daily", "weekly"]
    # Asking to remove a limit one does not have changes nothing, and says so.
    none = await world.alice.slash(world.channel, "limits loss", window="daily", amount=0)
    assert "You have no daily loss limit" in told(none)


@BOTH
async def test_a_limit_reached_during_a_game_lets_it_finish_then_refuses_the_next_seat(world: Any, clock: Any) -> None:
    db = world.env.bot.db
    gid, alice, bob, carol = world.guild.id, world.alice, world.bob, world.carol
    await db.set_house_rule(
        gid, "oicho", {"dealer_rounds": 1}, actor_id=world.mod.id, path="dealer_rounds", old_value=3, new_value=1
    )
    await alice.slash(world.channel, "limits loss", window="daily", amount=50)
    await alice.slash(world.channel, "play", game="oicho")
    await bob.click(lobby_message(world), label="Join")
    await alice.click(lobby_message(world), label="Start")
    table = live_table(world)
    members = {alice.id: alice, bob.id: bob}
    await play_until(world, members, stop=lambda tb: tb.engine is not None and tb.engine.serial >= 3)
    # Meanwhile she loses 500 at another table (settled while this game is in play): far over her limit, more than
    # this game could win back (Bob brought 100).
    await past_deal(world, {alice: -500, carol: 500})
    lost_at = clock.now
    await play_until(world, members, stop=lambda tb: False)
    assert table.engine is not None and table.engine.is_over  # her seat was hers to the end
    hands = await db.table_history(table.id, limit=10_000)
    won = sum(h.deltas[0] for h in hands)
    assert await db.balance(gid, alice.id) == 1000 - 500 + won
    refused = await can_open(world, alice)
    assert "daily loss limit of 50" in refused
    # She may sit again once the 500 (and any loss of this game's that keeps her over) are a day old.
    found = re.search(r"<t:([0-9]+):f>", refused)
    assert found is not None and lost_at + DAY <= int(found[1]) <= clock.now + DAY
