"""/chips and /config: moderators change things, members are refused and nothing changes."""

from __future__ import annotations

from typing import Any

import discord

from tests.bot.cogs.conftest import allow_command, embed_text


async def test_moderator_grants_and_takes_chips_with_a_reason(world: Any, database: Any) -> None:
    granted = await world.mod.slash(world.channel, "chips grant", member=world.alice, amount=500, reason="tournament")
    assert not granted.ephemeral
    assert "granted **500** chips to" in granted.response.content
    assert "new balance 1,500" in granted.response.content
    assert "Reason: tournament" in granted.response.content

    taken = await world.mod.slash(world.channel, "chips take", member=world.alice, amount=1500, reason="reset")
    assert "took **1,500** chips" in taken.response.content
    assert await database.balance(world.guild.id, world.alice.id) == 0
    assert await database.verify_ledger(world.guild.id) == []


async def test_take_never_goes_below_zero(world: Any, database: Any) -> None:
    refused = await world.mod.slash(world.channel, "chips take", member=world.alice, amount=1001, reason="oops")
    assert refused.ephemeral
    assert "Cannot take 1,001 chips: alice has only 1,000" in refused.response.content
    assert await database.balance(world.guild.id, world.alice.id) == 1000


async def test_member_granted_the_command_is_still_refused(world: Any, database: Any) -> None:
    # A server admin may expose /chips and /config to anyone; the bot checks again.
    allow_command(world, "chips", world.alice)
    allow_command(world, "config", world.alice)
    grant = await world.alice.slash(world.channel, "chips grant", member=world.alice, amount=10**6, reason="me")
    assert grant.ephemeral
    assert "Only moderators can do that" in grant.response.content
    assert await database.rank(world.guild.id, world.alice.id) is None  # not even a wallet was opened

    setting = await world.alice.slash(world.channel, "config set", give_enabled=True, starting_balance=5)
    assert setting.ephemeral
    assert "Only moderators can do that" in setting.response.content
    config = await database.get_config(world.guild.id)
    assert (config.give_enabled, config.starting_balance) == (False, 1000)


async def test_moderation_commands_are_hidden_from_members_by_default(world: Any) -> None:
    visible = world.alice.available_commands(world.channel)
    assert "balance" in visible
    assert not any(c.startswith(("chips", "config")) for c in visible)
    assert "config set" in world.mod.available_commands(world.channel)


async def test_moderator_role_makes_a_member_a_moderator(world: Any, database: Any) -> None:
    helpers = world.guild.create_role("Croupiers", permissions=discord.Permissions.none())
    dave = world.guild.add_member(world.env.create_user("dave"), roles=[helpers])
    allow_command(world, "chips", dave)
    set_role = await world.mod.slash(world.channel, "config set", moderator_role=helpers)
    assert "Moderator role" in embed_text(set_role.response)
    granted = await dave.slash(world.channel, "chips grant", member=world.bob, amount=5, reason="helper")
    assert not granted.ephemeral
    assert await database.balance(world.guild.id, world.bob.id) == 1005

    await world.mod.slash(world.channel, "config set", clear_moderator_role=True)
    refused = await dave.slash(world.channel, "chips grant", member=world.bob, amount=5, reason="helper")
    assert "Only moderators can do that" in refused.response.content


async def test_config_set_reports_the_changes_and_show_lists_everything(world: Any, database: Any) -> None:
    changed = await world.mod.slash(
        world.channel,
        "config set",
        starting_balance=500,
        daily_amount=25,
        daily_cooldown_hours=12,
        turn_timer=90,
        bots_for_chips=True,
    )
    assert changed.ephemeral
    text = embed_text(changed.response)
    assert "**Starting balance**: 1,000 → 500" in text
    assert "**Daily cooldown**: 1 day → 12 hours" in text
    assert "**Turn timer**: 60 seconds → 90 seconds" in text
    assert "**Bots play for chips**: off → on" in text
    config = await database.get_config(world.guild.id)
    assert (config.daily_cooldown_seconds, config.turn_timer_seconds) == (12 * 3600, 90)

    await world.carol.slash(world.channel, "balance")
    assert await database.balance(world.guild.id, world.carol.id) == 500  # new members get the new start

    shown = await world.mod.slash(world.channel, "config show")
    assert shown.ephemeral
    text = embed_text(shown.response)
    for line in (
        "Starting balance: 500",
        "Daily amount: 25",
        "Daily cooldown: 12 hours",
        "Turn timer: 90 seconds",
        "Giving chips (/give): off",
        "Table channels: every channel",
        "Moderator role: none",
    ):
        assert line in text


async def test_config_refuses_nothing_and_everyone(world: Any) -> None:
    empty = await world.mod.slash(world.channel, "config set")
    assert "Choose at least one setting" in empty.response.content
    everyone = await world.mod.slash(world.channel, "config set", moderator_role=world.guild.default_role)
    assert everyone.ephemeral
    assert "@everyone cannot be the moderator role" in everyone.response.content


async def test_config_ranges_are_declared_to_discord(world: Any) -> None:
    command = world.env.backend.find_command("config", world.guild.id, type=1)
    set_options = next(o for o in command["options"] if o["name"] == "set")["options"]
    ranges = {o["name"]: (o.get("min_value"), o.get("max_value")) for o in set_options if o["type"] == 4}
    assert ranges == {
        "starting_balance": (0, 1_000_000_000),
        "daily_amount": (0, 1_000_000_000),
        "daily_cooldown_hours": (1, 720),
        "turn_timer": (10, 3600),
        "correspondence_max_hours": (1, 168),
        "keep_hands_days": (1, 3650),
    }
    places = next(o for o in set_options if o["name"] == "table_place")
    assert [c["value"] for c in places["choices"]] == ["thread", "channel"]
    described = {o["name"]: o["description"] for o in set_options}
    assert "(1–720)" in described["daily_cooldown_hours"]
    assert "Hours" in described["daily_cooldown_hours"]


async def test_table_channels_add_remove_clear(world: Any, database: Any) -> None:
    lounge = world.guild.create_text_channel("lounge")
    await world.mod.slash(world.channel, "config channels add", channel=world.channel)
    await world.mod.slash(world.channel, "config channels add", channel=lounge)
    again = await world.mod.slash(world.channel, "config channels add", channel=lounge)
    assert "already a table channel" in again.response.content
    assert (await database.get_config(world.guild.id)).allowed_channel_ids == tuple(
        sorted((world.channel.id, lounge.id))
    )

    removed = await world.mod.slash(world.channel, "config channels remove", channel=lounge)
    assert f"<#{lounge.id}>" in embed_text(removed.response)
    assert (await database.get_config(world.guild.id)).allowed_channel_ids == (world.channel.id,)

    await world.mod.slash(world.channel, "config channels clear")
    assert (await database.get_config(world.guild.id)).allowed_channel_ids == ()
    missing = await world.mod.slash(world.channel, "config channels remove", channel=lounge)
    assert "is not in the list of table channels" in missing.response.content


async def test_japanese_moderator_reads_japanese(world: Any) -> None:
    from tests.bot.conftest import LOCALES

    LOCALES[world.mod.id] = "ja"
    shown = await world.mod.slash(world.channel, "config show")
    text = embed_text(shown.response)
    assert "サーバー設定" in text
    assert "初期チップ: 1,000" in text
    assert "デイリーの間隔: 1日" in text
    refused = await world.mod.slash(world.channel, "chips take", member=world.alice, amount=2000, reason="x")
    assert "没収できません" in refused.response.content
