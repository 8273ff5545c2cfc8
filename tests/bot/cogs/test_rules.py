"""/rules: everyone reads the house rules; moderators change, reset and audit them."""

from __future__ import annotations

from typing import Any

from bot.cogs.rules import PAGE_CHARS
from games.core.house_rules import options
from games.registry import all_games
from tests.bot.cogs.conftest import button_labels, embed_text
from tests.bot.conftest import LOCALES

OICHO_OPTIONS = len(options(all_games()["oicho"].rules_model))


def _option_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "`" in line and " = " in line]


async def test_show_lists_every_option_with_its_default_on_pages(world: Any) -> None:
    shown = await world.alice.slash(world.channel, "rules show", game="ofc")
    assert not shown.ephemeral
    first = embed_text(shown.response)
    assert "House rules — Open-Face Chinese Poker" in first
    assert "`variant` = c · default c · a / b / c / d" in first
    assert f"✏️ 0 of {len(options(all_games()['ofc'].rules_model))} options changed" in first
    seen = _option_lines(first)
    assert button_labels(shown.response) == [("Previous", True), ("Next", False)]

    message = shown.response
    while ("Next", False) in button_labels(message):
        await world.bob.click(message, label="Next")
        message = world.channel.history(viewer=world.bob)[-1]
        seen += _option_lines(embed_text(message))
        message = _raw(world, message)
    paths = [line.split("`")[1] for line in seen]
    assert paths == [o.path for o in options(all_games()["ofc"].rules_model)]


async def test_a_rule_table_is_shown_as_a_table(world: Any) -> None:
    """Oicho's local hands are rows of the same options: one table, each row a line, instead of 28 lines."""
    shown = await world.alice.slash(world.channel, "rules show", game="oicho")
    text = embed_text(shown.response)
    assert f"✏️ 0 of {OICHO_OPTIONS} options changed" in text
    assert "`bank_cap` = 50 · default 50 · 1–1000000" in text
    assert not any(line.startswith("`local_yaku.") for line in text.splitlines())
    assert (
        "**`local_yaku`** (a table: set a whole row with `/rules set option:local_yaku.gogo value:enabled "
        "multiplier scope`" in text
    )
    block = text.split("```")[1].splitlines()
    assert block[1].split() == ["row", "enabled", "multiplier", "scope", "strict_order"]
    assert block[2].split() == ["gogo", "off", "1", "both", "–"]
    assert block[-1].split() == ["doshippin", "off", "1", "both", "off"]
    assert all(len(line) <= 56 for line in block)  # narrow enough to read on a phone


def _raw(world: Any, message: Any) -> Any:
    """The stored message (raw components), as the next click needs it."""
    from simcord.results import ResponseMessage

    return ResponseMessage(world.env, world.env.backend.get_message(message.channel.id, message.id))


async def test_show_keeps_every_page_within_embed_limits(world: Any) -> None:
    shown = await world.alice.slash(world.channel, "rules show", game="ofc")
    message = shown.response
    pages = 1
    while True:
        embed = message.embeds[0]
        assert len(embed.description or "") <= PAGE_CHARS
        assert len(embed) <= 6000
        if ("Next", False) not in button_labels(message):
            break
        await world.alice.click(message, label="Next")
        message = _raw(world, world.channel.history(viewer=world.alice)[-1])
        pages += 1
    assert f"Page {pages} of {pages}" in embed_text(message)
    assert pages > 1


async def test_moderator_sets_a_rule_seen_in_show_and_history(world: Any, database: Any) -> None:
    changed = await world.mod.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="80")
    assert not changed.ephemeral
    assert "`bank_cap`: 50 → **80**" in changed.response.content
    assert "tables already open keep their rules" in changed.response.content
    assert (await database.get_house_rules(world.guild.id, "oicho"))["bank_cap"] == 80

    shown = await world.alice.slash(world.channel, "rules show", game="oicho")
    text = embed_text(shown.response)
    assert "✏️ `bank_cap` = **80** · default 50" in text
    assert f"✏️ 1 of {OICHO_OPTIONS} options changed" in text

    history = await world.mod.slash(world.channel, "rules history", game="oicho")
    assert history.ephemeral
    assert f"<@{world.mod.id}> `bank_cap`: 50 → 80" in embed_text(history.response)
    [change] = await database.house_rule_history(world.guild.id, "oicho")
    assert (change.path, change.old_value, change.new_value, change.actor_id) == ("bank_cap", 50, 80, world.mod.id)


async def test_nested_bool_and_choice_options(world: Any, database: Any) -> None:
    await world.mod.slash(world.channel, "rules set", game="oicho", option="local_yaku.gogo.enabled", value="on")
    await world.mod.slash(world.channel, "rules set", game="oicho", option="local_yaku.gogo.scope", value="dealer")
    stored = await database.get_house_rules(world.guild.id, "oicho")
    assert stored["local_yaku"]["gogo"] == {"enabled": True, "multiplier": 1, "scope": "dealer"}
    same = await world.mod.slash(
        world.channel, "rules set", game="oicho", option="local_yaku.gogo.enabled", value="true"
    )
    assert same.ephemeral
    assert "already true: nothing changed" in same.response.content


async def test_bad_option_and_out_of_range_value_are_refused_with_the_range(world: Any, database: Any) -> None:
    unknown = await world.mod.slash(world.channel, "rules set", game="oicho", option="bank_capp", value="5")
    assert unknown.ephemeral
    assert "no rule option `bank_capp`" in unknown.response.content

    too_big = await world.mod.slash(world.channel, "rules set", game="oicho", option="arashi_multiplier", value="9")
    assert too_big.ephemeral
    assert "`arashi_multiplier` must be 1–5; “9” is out of range" in too_big.response.content

    not_bool = await world.mod.slash(world.channel, "rules set", game="oicho", option="maki_fuda", value="maybe")
    assert "takes true or false" in not_bool.response.content
    bad_choice = await world.mod.slash(world.channel, "rules set", game="ofc", option="variant", value="z")
    assert "must be one of a / b / c / d" in bad_choice.response.content

    assert await database.get_house_rules(world.guild.id, "oicho") is None
    assert await database.house_rule_history(world.guild.id) == []


async def test_member_cannot_change_rules_or_read_the_audit(world: Any, database: Any) -> None:
    setting = await world.alice.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="80")
    assert setting.ephemeral
    assert "Only moderators can do that" in setting.response.content
    reset = await world.alice.slash(world.channel, "rules reset", game="oicho")
    assert "Only moderators can do that" in reset.response.content
    history = await world.alice.slash(world.channel, "rules history", game="oicho")
    assert "Only moderators can do that" in history.response.content
    assert await database.get_house_rules(world.guild.id, "oicho") is None
    assert await database.house_rule_history(world.guild.id) == []


async def test_reset_one_option_then_all(world: Any, database: Any) -> None:
    await world.mod.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="80")
    await world.mod.slash(world.channel, "rules set", game="oicho", option="dealer_rounds", value="5")

    one = await world.mod.slash(world.channel, "rules reset", game="oicho", option="bank_cap")
    assert "`bank_cap` to its default: 80 → **50**" in one.response.content
    stored = await database.get_house_rules(world.guild.id, "oicho")
    assert (stored["bank_cap"], stored["dealer_rounds"]) == (50, 5)
    again = await world.mod.slash(world.channel, "rules reset", game="oicho", option="bank_cap")
    assert "already at its default (50)" in again.response.content

    everything = await world.mod.slash(world.channel, "rules reset", game="oicho")
    assert "reset every Oicho-Kabu house rule" in everything.response.content
    assert await database.get_house_rules(world.guild.id, "oicho") is None

    history = embed_text((await world.mod.slash(world.channel, "rules history", game="oicho")).response)
    lines = [line for line in history.splitlines() if line.startswith("<t:")]
    assert "reset every option to its default" in lines[0]
    assert "reset `bank_cap`: 80 → 50" in lines[1]
    assert "`dealer_rounds`: 3 → 5" in lines[2]


async def test_option_autocomplete_lists_the_games_paths_with_value_and_range(world: Any) -> None:
    choices = await world.mod.autocomplete(world.channel, "rules set", "option", "gogo", game="oicho")
    assert [c["value"] for c in choices] == [
        "local_yaku.gogo",  # the whole row first
        "local_yaku.gogo.enabled",
        "local_yaku.gogo.multiplier",
        "local_yaku.gogo.scope",
    ]
    assert choices[0]["name"] == "local_yaku.gogo = off 1 both (enabled multiplier scope)"
    assert choices[2]["name"] == "local_yaku.gogo.multiplier = 1 (1–5)"

    prefix = await world.mod.autocomplete(world.channel, "rules set", "option", "dealer", game="oicho")
    assert prefix[0]["value"].startswith("dealer")
    everything = await world.mod.autocomplete(world.channel, "rules set", "option", "", game="ofc")
    assert len(everything) == 25
    assert all(len(c["name"]) <= 100 for c in everything)


async def test_value_autocomplete_offers_bools_choices_and_number_hints(world: Any) -> None:
    await world.mod.slash(world.channel, "rules set", game="oicho", option="maki_fuda", value="true")
    bools = await world.mod.autocomplete(world.channel, "rules set", "value", "", game="oicho", option="maki_fuda")
    assert [c["value"] for c in bools] == ["true", "false"]
    assert bools[0]["name"] == "true (current)"
    assert bools[1]["name"] == "false (default)"

    choice = await world.mod.autocomplete(
        world.channel, "rules set", "value", "", game="oicho", option="first_extra_visibility"
    )
    assert [c["value"] for c in choice] == ["all_children", "pile_bettors"]

    number = await world.mod.autocomplete(
        world.channel, "rules set", "value", "3", game="oicho", option="arashi_multiplier"
    )
    assert number[0] == {"name": "3 (1–5)", "value": "3"}


async def test_japanese_member_reads_japanese_rules(world: Any) -> None:
    LOCALES[world.alice.id] = "ja"
    LOCALES[world.mod.id] = "ja"
    shown = await world.alice.slash(world.channel, "rules show", game="oicho")
    text = embed_text(shown.response)
    assert "ハウスルール — おいちょかぶ" in text
    assert "`bank_cap` = 50 · 既定 50" in text
    assert "（表: `/rules set option:local_yaku.gogo" in text
    paged = await world.alice.slash(world.channel, "rules show", game="ofc")
    assert button_labels(paged.response) == [("前へ", True), ("次へ", False)]
    refused = await world.alice.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="2")
    assert "モデレーターのみ" in refused.response.content
    bad = await world.mod.slash(world.channel, "rules set", game="oicho", option="arashi_multiplier", value="9")
    assert "1–5 の範囲で指定してください" in bad.response.content


async def test_new_tables_open_with_the_rules_in_force_and_keep_them(world: Any, database: Any) -> None:
    await world.mod.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="80")
    opened = await world.alice.slash(world.channel, "play", game="oicho", practice=True)
    assert opened.acknowledged
    row = await database.active_table_in(world.channel.id)
    assert row is not None
    assert row.rules["bank_cap"] == 80

    await world.mod.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="60")
    live = world.env.bot.tables.in_channel(world.channel.id)
    assert live.rules.bank_cap == 80  # the open table keeps the rules it started with
    assert (await database.get_table(row.id)).rules["bank_cap"] == 80


async def test_a_moderator_sets_a_whole_row_and_the_table_marks_it(world: Any, database: Any) -> None:
    changed = await world.mod.slash(
        world.channel, "rules set", game="oicho", option="local_yaku.hifumi", value="on 3 child on"
    )
    assert not changed.ephemeral
    assert "`local_yaku.hifumi`: off 1 both off → **on 3 child on**" in changed.response.content
    stored = await database.get_house_rules(world.guild.id, "oicho")
    assert stored["local_yaku"]["hifumi"] == {"enabled": True, "multiplier": 3, "scope": "child", "strict_order": True}
    by_name = await world.mod.slash(
        world.channel, "rules set", game="oicho", option="local_yaku.gogo", value="enabled=on multiplier=2"
    )
    assert "off 1 both → **on 2 both**" in by_name.response.content

    text = embed_text((await world.alice.slash(world.channel, "rules show", game="oicho")).response)
    block = text.split("```")[1].splitlines()
    assert next(line for line in block if line.startswith("hifumi")).split() == ["hifumi", "on*", "3*", "child*", "on*"]
    assert "✏️ `local_yaku.hifumi` = **on 3 child on** · default off 1 both off" in text
    assert "✏️ 6 of" in text  # six cells changed

    history = embed_text((await world.mod.slash(world.channel, "rules history", game="oicho")).response)
    assert "`local_yaku.gogo`: off 1 both → on 2 both" in history
    [_latest, first] = await database.house_rule_history(world.guild.id, "oicho")
    assert (first.path, first.old_value["multiplier"], first.new_value["multiplier"]) == ("local_yaku.hifumi", 1, 3)

    # The lobby of a new table shows the changed rows, a row a line.
    await world.alice.slash(world.channel, "play", game="oicho", practice=True)
    lobby = embed_text(world.channel.history(viewer=world.bob)[-1])
    assert "`local_yaku.gogo` = `on 2 both`" in lobby
    assert "`local_yaku.hifumi` = `on 3 child on`" in lobby
    assert "local_yaku.gogo.enabled" not in lobby


async def test_an_impossible_row_is_refused_whole_with_the_reason(world: Any, database: Any) -> None:
    cases = [
        ("on 9 both", "`local_yaku.gogo.multiplier` must be 1–5; “9” is out of range"),
        ("on 2 both on", "`local_yaku.gogo` has only the columns enabled multiplier scope: too many values"),
        ("bonus=2", "`local_yaku.gogo` has no column “bonus”; its columns are enabled multiplier scope"),
        ("on 2 nobody", "`local_yaku.gogo.scope` must be one of both / dealer / child"),
        ("on multiplier=2 multiplier=3", "the column multiplier is given twice"),
    ]
    for value, said in cases:
        refused = await world.mod.slash(world.channel, "rules set", game="oicho", option="local_yaku.gogo", value=value)
        assert refused.ephemeral
        assert said in refused.response.content, (value, refused.response.content)
    assert await database.get_house_rules(world.guild.id, "oicho") is None
    assert await database.house_rule_history(world.guild.id) == []


async def test_reset_a_row_or_a_whole_table(world: Any, database: Any) -> None:
    for row, value in (("gogo", "on 2 dealer"), ("tsuru", "on"), ("hifumi", "on 4 both on")):
        await world.mod.slash(world.channel, "rules set", game="oicho", option=f"local_yaku.{row}", value=value)
    await world.mod.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="70")
    one = await world.mod.slash(world.channel, "rules reset", game="oicho", option="local_yaku.gogo")
    assert "`local_yaku.gogo` to its default: on 2 dealer → **off 1 both**" in one.response.content
    stored = await database.get_house_rules(world.guild.id, "oicho")
    assert stored["local_yaku"]["gogo"]["enabled"] is False and stored["local_yaku"]["tsuru"]["enabled"] is True

    offered = await world.mod.autocomplete(world.channel, "rules reset", "option", "local_yaku", game="oicho")
    assert "local_yaku" in [c["value"] for c in offered]
    table = await world.mod.slash(world.channel, "rules reset", game="oicho", option="local_yaku")
    assert "`local_yaku` to its default" in table.response.content
    stored = await database.get_house_rules(world.guild.id, "oicho")
    assert not any(row["enabled"] for row in stored["local_yaku"].values())
    assert stored["bank_cap"] == 70  # the rest stays


async def test_row_value_autocomplete_offers_the_current_and_default_rows(world: Any) -> None:
    await world.mod.slash(world.channel, "rules set", game="oicho", option="local_yaku.gogo", value="on 2")
    offered = await world.mod.autocomplete(
        world.channel, "rules set", "value", "", game="oicho", option="local_yaku.gogo"
    )
    assert offered == [
        {"name": "on 2 both (current)", "value": "on 2 both"},
        {"name": "off 1 both (default)", "value": "off 1 both"},
    ]
