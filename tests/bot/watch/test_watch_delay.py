"""The moderators' watch delay: with it on, a watcher never sees the deal in play, only the last settled deal as it
ended (replayed from the database, so the same after a restart); with it off, every move at once."""

from __future__ import annotations

from typing import Any

from tests.bot.cogs.conftest import embed_text
from tests.bot.conftest import LOCALES, make_bot
from tests.bot.tables.driver import live_table, open_oicho, play_one_turn, whose_turn
from tests.bot.watch.kit import log_lines, narration, panel_now, stored_story, watch


async def one_turn(world: Any) -> None:
    _, member = whose_turn(world)
    await play_one_turn(world, member)


async def settled_deals(world: Any, table: Any) -> list[int]:
    return sorted(h.deal_no for h in await world.env.bot.db.table_history(table.id, limit=1000))


async def play_until_settled(world: Any, table: Any, deal: int) -> None:
    for _ in range(200):
        if deal in await settled_deals(world, table):
            return
        await one_turn(world)
    raise AssertionError(f"deal {deal} was never settled")


def shown(message: Any) -> tuple[Any, ...]:
    """Everything the watcher's panel shows, to compare two moments."""
    return (message.content, [e.to_dict() for e in message.embeds], [a.filename for a in message.attachments])


async def test_moderators_turn_the_delay_on_and_off_with_config(world: Any) -> None:
    changed = await world.mod.slash(world.channel, "config set", watch_delay=True)
    assert changed.ephemeral
    assert "**Watchers see**: the table live → one deal behind" in embed_text(changed.response)
    assert (await world.env.bot.db.get_config(world.guild.id)).watch_delay is True
    shown_config = await world.mod.slash(world.channel, "config show")
    assert "Watchers see: one deal behind" in embed_text(shown_config.response)
    LOCALES[world.mod.id] = "ja"
    shown_config = await world.mod.slash(world.channel, "config show")
    assert "観戦者に見える内容: 1局遅れ" in embed_text(shown_config.response)
    await world.mod.slash(world.channel, "config set", watch_delay=False)
    assert (await world.env.bot.db.get_config(world.guild.id)).watch_delay is False


async def test_with_the_delay_a_watcher_sees_each_deal_only_once_it_is_settled(world: Any) -> None:
    await world.mod.slash(world.channel, "config set", watch_delay=True)
    table = await open_oicho(world, world.bob)
    opened = await watch(world, world.carol)
    panel_id = opened.response.id
    panel = panel_now(world, world.carol, panel_id)
    # Deal 1 in play, none settled: nothing of the table but which deal is being played.
    assert "deal 1 is being played, and nothing of it is shown" in panel.content
    assert "To act" not in panel.content and panel.embeds == [] and panel.attachments == []
    first = shown(panel)
    await one_turn(world)
    await one_turn(world)
    assert narration(table, table.deal_events), "deal 1 has narrated moves by now"
    assert shown(panel_now(world, world.carol, panel_id)) == first  # never the deal in play
    await play_until_settled(world, table, 1)
    panel = panel_now(world, world.carol, panel_id)
    # Deal 1 as it ended: its every move (as its hand history tells them) and the picture its replay ends on.
    assert panel.embeds[-1].title == "Deal 1, every move"
    assert log_lines(panel) == await stored_story(world, table, 1)
    assert "round 1" in panel.embeds[0].title.lower() and [a.filename for a in panel.attachments] == ["watch.png"]
    assert "deal 1 as it ended" in panel.content and "To act" not in panel.content
    if table.engine.deal_no == 1:  # Oicho-Kabu: the dealer keeps or passes the bank before the next round
        assert "The next deal has not begun" in panel.content
    while table.engine.deal_no < 2:
        await one_turn(world)
    await one_turn(world)  # a move of deal 2
    assert narration(table, table.deal_events)
    panel = panel_now(world, world.carol, panel_id)
    assert "Deal 2 is being played" in panel.content
    assert log_lines(panel) == await stored_story(world, table, 1)  # still deal 1: deal 2 is in play
    during = shown(panel)
    await one_turn(world)
    assert shown(panel_now(world, world.carol, panel_id)) == during
    await play_until_settled(world, table, 2)
    panel = panel_now(world, world.carol, panel_id)
    assert panel.embeds[-1].title == "Deal 2, every move"
    assert log_lines(panel) == await stored_story(world, table, 2)
    assert live_table(world) is table


async def test_without_the_delay_every_move_shows_at_once_and_turning_it_off_shows_the_table_live(world: Any) -> None:
    await world.mod.slash(world.channel, "config set", watch_delay=True)
    table = await open_oicho(world, world.bob)
    opened = await watch(world, world.carol)
    await one_turn(world)
    assert panel_now(world, world.carol, opened.response.id).embeds == []
    await world.mod.slash(world.channel, "config set", watch_delay=False)
    await one_turn(world)  # the setting shows at the table's next move
    panel = panel_now(world, world.carol, opened.response.id)
    assert panel.embeds[-1].title == f"Since deal {table.engine.deal_no} began"
    assert log_lines(panel) == (narration(table, table.deal_events) or ["No moves yet."])
    assert "To act" in panel.content


async def test_the_delayed_view_is_the_same_after_a_restart(world: Any, database: Any, clock: Any) -> None:
    await world.mod.slash(world.channel, "config set", watch_delay=True)
    table = await open_oicho(world, world.bob)
    opened = await watch(world, world.carol)
    await play_until_settled(world, table, 1)
    while table.engine.deal_no < 2:
        await one_turn(world)
    before = shown(panel_now(world, world.carol, opened.response.id))
    assert "Deal 2 is being played" in before[0]
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    restored = live_table(world)
    await one_turn(world)
    await play_until_settled(world, restored, 2)
    panel = panel_now(world, world.carol, opened.response.id)
    # The new process knows nothing but the database: deal 2 is replayed from it, as it ended.
    assert panel.embeds[-1].title == "Deal 2, every move"
    assert log_lines(panel) == await stored_story(world, restored, 2)


async def test_a_new_watcher_after_a_restart_sees_the_last_settled_deal(world: Any, database: Any, clock: Any) -> None:
    await world.mod.slash(world.channel, "config set", watch_delay=True)
    table = await open_oicho(world, world.bob)
    await play_until_settled(world, table, 1)
    await world.env.restart_bot(make_bot(database, clock))
    await world.env.settle()
    opened = await watch(world, world.carol)
    panel = panel_now(world, world.carol, opened.response.id)
    assert panel.embeds[-1].title == "Deal 1, every move"
    assert log_lines(panel) == await stored_story(world, live_table(world), 1)


async def test_a_settled_deal_is_replayed_once_for_all_its_delayed_watchers(world: Any, monkeypatch: Any) -> None:
    from bot.watch import sight

    replays: list[int] = []
    plain = sight.settled_parts

    def counted(game: str, tape: Any, ctx: Any) -> Any:
        replays.append(tape.deal)
        return plain(game, tape, ctx)

    monkeypatch.setattr(sight, "settled_parts", counted)
    await world.mod.slash(world.channel, "config set", watch_delay=True)
    table = await open_oicho(world, world.bob)
    carol = await watch(world, world.carol)
    mod = await watch(world, world.mod)
    await play_until_settled(world, table, 1)
    while table.engine.deal_no < 2:
        await one_turn(world)
    await one_turn(world)
    assert replays == [1]
    story = await stored_story(world, table, 1)
    assert log_lines(panel_now(world, world.carol, carol.response.id)) == story
    assert log_lines(panel_now(world, world.mod, mod.response.id)) == story
