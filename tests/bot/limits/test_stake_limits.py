"""Stake limits as moderators set them and members meet them: the server's largest stake and buy-in, a role's
overriding it for its members (the most generous of several), refused privately by /play and at Join with the limit,
never at a practice table; bad settings refused with nothing changed."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.bot.conftest import LOCALES
from tests.bot.limits.kit import told
from tests.bot.tables.driver import buttons, live_table, lobby_message, said

BOTH = pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)


async def opens(world: Any, member: Any, **options: Any) -> str:
    """``/play`` oicho with ``options``: "opened" (the lobby is cancelled again), or what the member was told."""
    result = await member.slash(world.channel, "play", game="oicho", **options)
    if world.env.bot.tables.tables:
        assert live_table(world).seat_of(member.id) == 0
        await member.click(lobby_message(world), label="Cancel")
        return "opened"
    assert result.ephemeral
    return told(result)


@BOTH
async def test_the_servers_limits_with_and_without_roles(world: Any) -> None:
    db = world.env.bot.db
    guild, mod, alice, bob = world.guild, world.mod, world.alice, world.bob
    assert await opens(world, alice, stake=10) == "opened"  # no limits yet
    saved = await mod.slash(world.channel, "server-limits set", stake=5, buy_in=400)
    assert saved.ephemeral and "stake up to 5 per point" in str(saved.response.embeds[0].to_dict())
    refused = await opens(world, alice, stake=10, buy_in=400)
    assert "largest stake in this server is 5 chips per point; this table's is 10" in refused
    assert await db.balance(guild.id, alice.id) == 1000 and world.channel.last_message is not None
    refused = await opens(world, alice, stake=4, buy_in=800)
    assert "largest buy-in in this server is 400 chips; this table's is 800" in refused
    # The default buy-in (starting points × stake) is checked as well: 100 × 5 = 500.
    assert "largest buy-in in this server is 400" in await opens(world, alice, stake=5)
    assert await opens(world, alice, stake=4) == "opened"
    # A practice table is never limited.
    assert await opens(world, alice, stake=100, practice=True) == "opened"

    # Roles: a role's limit overrides the server's for its members; with several, the most generous.
    vip = guild.create_role("VIP")
    low = guild.create_role("Low")
    vic = guild.add_member(world.env.create_user("vic"), roles=[vip])
    lou = guild.add_member(world.env.create_user("lou"), roles=[low])
    both = guild.add_member(world.env.create_user("bea"), roles=[vip, low])
    await mod.slash(world.channel, "server-limits set", role=vip, stake=50, buy_in=1000)
    await mod.slash(world.channel, "server-limits set", role=low, stake=2)
    assert await opens(world, vic, stake=10, buy_in=1000) == "opened"
    refused = await opens(world, vic, stake=60, buy_in=600)
    assert f"largest stake for you in this server is 50 chips per point (role <@&{vip.id}>)" in refused
    assert "(role <@&" in await opens(world, lou, stake=3, buy_in=300)  # less than the server allows
    assert "largest buy-in in this server is 400" in await opens(world, lou, stake=2, buy_in=600)  # Low: no buy-in
    assert await opens(world, both, stake=50, buy_in=1000) == "opened"

    # Join: the joiner's own limits, against the table's stake and buy-in.
    await vic.slash(world.channel, "play", game="oicho", stake=10, buy_in=1000)
    join = await bob.click(lobby_message(world), label="Join")
    assert join.ephemeral and "largest stake in this server is 5" in told(join)
    assert live_table(world).seat_of(bob.id) is None and await db.balance(guild.id, bob.id) == 1000
    await both.click(lobby_message(world), label="Join")
    assert live_table(world).seat_of(both.id) == 1
    await vic.click(lobby_message(world), label="Cancel")

    shown = await mod.slash(world.channel, "server-limits show")
    text = str(shown.response.embeds[0].to_dict())
    assert f"<@&{vip.id}>: stake up to 50 per point · buy-in up to 1,000" in text and f"<@&{low.id}>" in text
    # Cleared, it no longer refuses.
    await mod.slash(world.channel, "server-limits clear", what="stake")
    assert await opens(world, alice, stake=20, buy_in=400) == "opened"
    await mod.slash(world.channel, "server-limits clear")
    assert await opens(world, alice, stake=20, buy_in=800) == "opened"


async def test_a_stake_refusal_in_japanese(world: Any) -> None:
    await world.mod.slash(world.channel, "server-limits set", stake=3)
    LOCALES[world.alice.id] = "ja"
    refused = await world.alice.slash(world.channel, "play", game="oicho", stake=5)
    assert "ステーク上限は1点 3 チップです（この卓は 5）" in told(refused)


async def test_bad_stake_limit_settings_are_refused_and_nothing_changes(world: Any) -> None:
    db = world.env.bot.db
    nothing = await world.mod.slash(world.channel, "server-limits set")
    assert nothing.ephemeral and "Give a stake, a buy-in, or both" in told(nothing)
    everyone = await world.mod.slash(world.channel, "server-limits set", role=world.guild.default_role, stake=5)
    assert everyone.ephemeral and "leave the role out" in told(everyone)
    assert await db._scalar("SELECT count(*) FROM stake_limits") == 0
    # A member is refused by the bot even if an admin granted them the command.
    from tests.bot.cogs.conftest import allow_command

    allow_command(world, "server-limits", world.alice)
    sneaky = await world.alice.slash(world.channel, "server-limits set", stake=1_000_000)
    assert "Only moderators" in told(sneaky)
    assert await db._scalar("SELECT count(*) FROM stake_limits") == 0
    command = world.env.backend.find_command("server-limits", world.guild.id, type=1)
    options = next(o for o in command["options"] if o["name"] == "set")["options"]
    ranges = {o["name"]: (o.get("min_value"), o.get("max_value")) for o in options if o["type"] == 4}
    assert ranges == {"stake": (1, 1_000_000), "buy_in": (1, 1_000_000_000)}
    assert int(command["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
    world.env.errors.clear()


@pytest.mark.place("thread")
async def test_where_threads_cannot_be_made_a_stake_over_the_limit_is_refused_not_offered_the_channel(
    world: Any,
) -> None:
    """The offer to open the table in the channel instead would only lead to the refusal: the host is told the
    refusal, with nothing to press."""
    await world.mod.slash(world.channel, "server-limits set", stake=5)
    closed = world.guild.create_text_channel(
        "no-threads", overwrites={world.env.bot.user: discord.PermissionOverwrite(create_public_threads=False)}
    )
    refused = await world.alice.slash(closed, "play", game="oicho", stake=10)
    text = said(refused)
    assert refused.ephemeral and "Create Public Threads" not in text and "5" in text, text
    offer = refused.followups[-1] if refused.followups else refused.response
    assert not buttons(offer), "nothing to press"
    assert world.env.bot.tables.tables == {}
