"""Self-exclusion as members and moderators meet it: confirmed after a warning, refusing seats and buy-ins privately
with its end, lifted by nobody, leaving practice, /howto and /learn open, and letting a game in play finish."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage.limits import DAY
from bot.ui import adapters
from tests.bot.conftest import LOCALES
from tests.bot.limits.kit import button_ids, told
from tests.bot.tables.driver import forge_click, live_table, lobby_message, play_until

BOTH = pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)


async def exclude(world: Any, member: Any, **options: Any) -> tuple[Any, Any]:
    """``/limits exclude`` then **Exclude me**: the warning, and the confirmation."""
    warning = await member.slash(world.channel, "limits exclude", **options)
    assert warning.ephemeral, told(warning)
    confirmed = await member.click(warning.response, label="Exclude me")
    return warning, confirmed


@BOTH
async def test_an_exclusion_is_confirmed_then_refuses_seats_with_its_end(world: Any, clock: Any) -> None:
    db = world.env.bot.db
    gid, alice = world.guild.id, world.alice
    until = int(clock.now + 7 * DAY)
    warning = await alice.slash(world.channel, "limits exclude", period=7)
    assert warning.ephemeral
    text = warning.response.content
    assert f"until <t:{until}:f>" in text and "cannot be undone" in text and "moderators included" in text
    assert [label for label in ("Exclude me", "Cancel") if label in str(warning.response.components)] == [
        "Exclude me",
        "Cancel",
    ]
    # Nothing is stored until it is confirmed.
    assert (await db._scalar("SELECT count(*) FROM member_limits")) == 0
    confirmed = await alice.click(warning.response, label="Exclude me")
    assert f"excluded from play in this server until <t:{until}:f>" in confirmed.response.content
    assert not confirmed.response.components  # no button left to press again

    # /play as host: refused privately with the end, no table, no chips moved.
    refused = await alice.slash(world.channel, "play", game="oicho")
    assert refused.ephemeral
    assert f"until <t:{until}:f>" in told(refused) and "Practice tables" in told(refused)
    assert world.env.bot.tables.tables == {}
    assert world.channel.last_message is None  # nothing reached the channel
    assert await db.balance(gid, alice.id) == 1000

    # Join (the buy-in): refused privately, not seated, nothing paid.
    await world.bob.slash(world.channel, "play", game="oicho")
    join = await alice.click(lobby_message(world), label="Join")
    assert join.ephemeral and f"<t:{until}:f>" in told(join)
    assert live_table(world).seat_of(alice.id) is None
    assert await db.balance(gid, alice.id) == 1000
    await world.bob.click(lobby_message(world), label="Cancel")

    # Practice and the guides stay open.
    await alice.slash(world.channel, "play", game="oicho", practice=True)
    assert live_table(world).seat_of(alice.id) == 0 and live_table(world).practice
    await alice.click(lobby_message(world), label="Cancel")
    guide = await alice.slash(world.channel, "howto", game="oicho")
    assert guide.ephemeral and guide.response.embeds

    # Once it ends, she may sit again.
    clock.advance(7 * DAY)
    again = await alice.slash(world.channel, "play", game="oicho")
    assert live_table(world).seat_of(alice.id) == 0, told(again)
    assert await db.balance(gid, alice.id) == 900


async def test_learn_stays_open_to_an_excluded_member(world: Any) -> None:
    await exclude(world, world.alice, days=30)
    lesson = await world.alice.slash(world.channel, "learn", game="oicho")
    table = live_table(world)
    assert table.practice and table.seat_of(world.alice.id) is not None, told(lesson)


async def test_an_exclusion_in_japanese(world: Any, clock: Any) -> None:
    LOCALES[world.alice.id] = "ja"
    until = int(clock.now + 30 * DAY)
    warning = await world.alice.slash(world.channel, "limits exclude", period=30)
    assert "取り消しはできません" in warning.response.content and f"<t:{until}:f>" in warning.response.content
    confirmed = await world.alice.click(warning.response, label="除外する")
    assert "自分を除外しました" in confirmed.response.content
    refused = await world.alice.slash(world.channel, "play", game="oicho")
    assert "自己排除中" in told(refused) and f"<t:{until}:f>" in told(refused)
    shown = await world.alice.slash(world.channel, "limits show")
    assert "自己排除" in str(shown.response.embeds[0].to_dict())


async def test_cancel_changes_nothing(world: Any) -> None:
    warning = await world.alice.slash(world.channel, "limits exclude", days=3)
    cancelled = await world.alice.click(warning.response, label="Cancel")
    assert "Nothing changed" in cancelled.response.content and not cancelled.response.components
    await world.alice.slash(world.channel, "play", game="oicho")
    assert live_table(world).seat_of(world.alice.id) == 0


@BOTH
async def test_nobody_can_lift_an_exclusion_early(world: Any, clock: Any) -> None:
    alice, mod = world.alice, world.mod
    until = int(clock.now + 90 * DAY)
    _warning, _ = await exclude(world, alice, period=90)
    await alice.slash(world.channel, "limits loss", window="daily", amount=123)
    await alice.slash(world.channel, "limits reminder", every=60)

    # The moderator sees that she is excluded, and until when; not her loss limit or reminder; nothing to press.
    seen = await mod.slash(world.channel, "server-limits member", member=alice)
    assert seen.ephemeral
    assert f"until <t:{until}:f>" in seen.response.content and "Nobody can lift it early" in seen.response.content
    for private in ("123", "loss", "remind", "minutes"):
        assert private not in seen.response.content.replace(str(alice.id), ""), private
    assert not seen.response.components
    # Moderators' stake limits and settings leave it as it is.
    await mod.slash(world.channel, "server-limits set", stake=100, buy_in=100_000)
    await mod.slash(world.channel, "server-limits clear")
    await mod.slash(world.channel, "config set", give_enabled=True)
    # A moderator pressing her confirmation (a forged button) changes nothing; nor does their own exclusion.
    forged = await forge_click(world, mod, f"fdb:limits:exclude:1:{alice.id}:{int(clock.now)}")
    assert "not yours" in told(forged)
    _, own = await exclude(world, mod, period=1)
    assert "excluded" in own.response.content
    # She cannot shorten it herself either: a shorter one is refused, nothing changed.
    shorter = await alice.slash(world.channel, "limits exclude", period=1)
    assert shorter.ephemeral and "can only end later" in told(shorter) and f"<t:{until}:f>" in told(shorter)
    stored = await world.env.bot.db._scalar(
        "SELECT excluded_until FROM member_limits WHERE guild_id = ? AND user_id = ?", (world.guild.id, alice.id)
    )
    assert stored == until
    refused = await alice.slash(world.channel, "play", game="oicho")
    assert f"<t:{until}:f>" in told(refused)
    assert world.env.bot.tables.tables == {}
    # A non-moderator granted the moderators' command is refused by the bot.
    from tests.bot.cogs.conftest import allow_command

    allow_command(world, "server-limits", world.bob)
    nosy = await world.bob.slash(world.channel, "server-limits member", member=alice)
    assert "Only moderators" in told(nosy)
    world.env.errors.clear()


async def test_a_longer_exclusion_lengthens_it(world: Any, clock: Any) -> None:
    await exclude(world, world.alice, period=1)
    _, longer = await exclude(world, world.alice, period=7)
    assert f"<t:{int(clock.now + 7 * DAY)}:f>" in longer.response.content
    clock.advance(2 * DAY)
    refused = await world.alice.slash(world.channel, "play", game="oicho")
    assert f"<t:{int(clock.now - 2 * DAY + 7 * DAY)}:f>" in told(refused)


async def test_a_stale_or_forged_confirmation_is_refused(world: Any, clock: Any) -> None:
    warning = await world.alice.slash(world.channel, "limits exclude", period=7)
    assert any(cid.startswith("fdb:limits:exclude:7:") for cid in button_ids(warning.response))
    clock.advance(11 * 60)
    stale = await world.alice.click(warning.response, label="Exclude me")
    assert "too old" in told(stale)
    # A period out of range, or a time from the future, in a forged id.
    for forged_id in (
        f"fdb:limits:exclude:400:{world.alice.id}:{int(clock.now)}",
        f"fdb:limits:exclude:7:{world.alice.id}:{int(clock.now) + 60}",
    ):
        forged = await forge_click(world, world.alice, forged_id)
        assert "not yours" in told(forged)
    assert await world.env.bot.db._scalar("SELECT count(*) FROM member_limits") == 0
    world.env.errors.clear()


async def test_bad_exclusion_input_is_refused_and_nothing_changes(world: Any) -> None:
    both = await world.alice.slash(world.channel, "limits exclude", period=7, days=3)
    neither = await world.alice.slash(world.channel, "limits exclude")
    for result in (both, neither):
        assert result.ephemeral and "one of the two" in told(result) and not result.response.components
    assert await world.env.bot.db._scalar("SELECT count(*) FROM member_limits") == 0
    command = world.env.backend.find_command("limits", world.guild.id, type=1)
    exclude_options = next(o for o in command["options"] if o["name"] == "exclude")["options"]
    days = next(o for o in exclude_options if o["name"] == "days")
    assert (days["min_value"], days["max_value"]) == (1, 365)  # Discord refuses the rest before the bot sees it
    periods = next(o for o in exclude_options if o["name"] == "period")
    assert [c["value"] for c in periods["choices"]] == [1, 7, 30, 90, 182, 365]
    world.env.errors.clear()


async def _short_oicho(world: Any) -> None:
    await world.env.bot.db.set_house_rule(
        world.guild.id,
        "oicho",
        {"dealer_rounds": 1},
        actor_id=world.mod.id,
        path="dealer_rounds",
        old_value=3,
        new_value=1,
    )


@BOTH
async def test_excluded_mid_game_plays_it_to_the_end_then_is_refused(world: Any, clock: Any) -> None:
    db = world.env.bot.db
    gid, alice, bob = world.guild.id, world.alice, world.bob
    await _short_oicho(world)
    await alice.slash(world.channel, "play", game="oicho")
    await bob.click(lobby_message(world), label="Join")
    await alice.click(lobby_message(world), label="Start")
    table = live_table(world)
    members = {alice.id: alice, bob.id: bob}
    await play_until(world, members, stop=lambda tb: tb.engine is not None and tb.engine.serial >= 3)
    until = int(clock.now + 7 * DAY)
    await exclude(world, alice, period=7)
    # She plays on: her seat is hers to the end (play_until presses her panel at her every turn).
    await play_until(world, members, stop=lambda tb: False)
    assert not world.env.bot.tables.tables
    assert table.engine is not None and table.engine.is_over
    hands = await db.table_history(table.id, limit=10_000)
    won = sum(h.deltas[table.seat_of(alice.id) or 0] for h in hands)
    assert await db.balance(gid, alice.id) == 1000 + won  # nothing forfeited
    assert await db.verify_ledger(gid) == []
    # Then she cannot sit again.
    refused = await alice.slash(world.channel, "play", game="oicho")
    assert f"<t:{until}:f>" in told(refused)
    await bob.slash(world.channel, "play", game="oicho")
    join = await alice.click(lobby_message(world), label="Join")
    assert f"<t:{until}:f>" in told(join) and live_table(world).seat_of(alice.id) is None


async def test_a_warning_confirmed_after_a_restart_still_excludes(world: Any, database: Any, clock: Any) -> None:
    from tests.bot.conftest import make_bot

    until = int(clock.now + 7 * DAY)
    warning = await world.alice.slash(world.channel, "limits exclude", period=7)
    await world.env.restart_bot(make_bot(database, clock))
    clock.advance(60)
    confirmed = await world.alice.click(warning.response, label="Exclude me")
    assert f"until <t:{until}:f>" in confirmed.response.content  # the end the warning said, not a minute later
    refused = await world.alice.slash(world.channel, "play", game="oicho")
    assert f"<t:{until}:f>" in told(refused)


async def test_excluded_in_a_lobby_keeps_the_seat_for_that_game(world: Any) -> None:
    await world.bob.slash(world.channel, "play", game="oicho")
    await world.alice.click(lobby_message(world), label="Join")
    await exclude(world, world.alice, period=1)
    await world.bob.click(lobby_message(world), label="Start")
    table = live_table(world)
    assert table.status == "playing" and table.seat_of(world.alice.id) == 1


@pytest.mark.parametrize("game", sorted(adapters()))
async def test_every_game_refuses_an_excluded_member(world: Any, clock: Any, game: str) -> None:
    until = int(clock.now + DAY)
    await exclude(world, world.alice, period=1)
    refused = await world.alice.slash(world.channel, "play", game=game)
    assert f"<t:{until}:f>" in told(refused) and world.env.bot.tables.tables == {}
    await world.bob.slash(world.channel, "play", game=game)
    join = await world.alice.click(lobby_message(world), label="Join")
    assert f"<t:{until}:f>" in told(join) and live_table(world).seat_of(world.alice.id) is None
