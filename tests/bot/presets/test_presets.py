"""``/rules preset …`` as moderators and members meet it: save, load (one change, one audit row), list, show, delete,
export and import between servers, the shipped presets, and every refusal (nothing changed), in both languages."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.presets.format import FORMAT, MAX_FILE_BYTES, MAX_PRESETS, VERSION, option_values, rules_schema
from bot.presets.shipped import shipped
from bot.storage.presets import PresetQueries
from games.core.house_rules import options
from games.registry import all_games
from tests.bot.cogs.conftest import embed_text
from tests.bot.conftest import LOCALES

BOTH = pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)


def said(result: Any) -> str:
    """What the member read last in answer: a follow-up after a deferral, else the reply (its embeds too)."""
    message = result.followups[-1] if result.followups else result.response
    return embed_text(message)


async def audit(database: Any, guild_id: int, game: str) -> list[Any]:
    return await database.house_rule_history(guild_id, game, limit=100)


def second_server(world: Any) -> tuple[Any, Any, Any]:
    """Another server in the same Discord, with a channel and a moderator of its own."""
    import discord

    guild = world.env.create_guild("Other Club")
    channel = guild.create_text_channel("cards")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(world.env.create_user("other-mod"), roles=[mods])
    return guild, channel, mod


def preset_file(game: str = "oicho", version: int = VERSION, **values: Any) -> bytes:
    return json.dumps(
        {"format": FORMAT, "version": version, "game": game, "name": "shared", "options": values}
    ).encode()


# ---------------------------------------------------------------------------------------------------- save and load


@BOTH
async def test_save_then_load_gives_back_the_rules_in_one_audited_change(world: Any, database: Any) -> None:
    guild = world.guild.id
    await world.mod.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="80")
    await world.mod.slash(world.channel, "rules set", game="oicho", option="local_yaku.gogo", value="on 2 dealer")
    await world.mod.slash(world.channel, "rules set", game="oicho", option="maki_fuda", value="true")
    saved_rules = await database.get_house_rules(guild, "oicho")

    saved = await world.mod.slash(world.channel, "rules preset save", game="oicho", name="Our Club")
    assert saved.ephemeral
    assert "Saved the Oicho-Kabu house rules in force as the preset `Our Club`" in said(saved)
    assert "differing from the defaults: 5" in said(saved)  # bank_cap, maki_fuda, gogo's three cells
    stored = await PresetQueries(database).get(guild, "oicho", "our club")
    assert stored is not None
    assert set(stored.options) == {o.path for o in options(all_games()["oicho"].rules_model)}  # every option
    assert stored.rules_schema == rules_schema(all_games()["oicho"].rules_model)

    await world.mod.slash(world.channel, "rules reset", game="oicho")
    assert await database.get_house_rules(guild, "oicho") is None
    before = await audit(database, guild, "oicho")

    loaded = await world.mod.slash(world.channel, "rules preset load", game="oicho", name="our club")
    assert not loaded.ephemeral  # a change of the rules is announced, as /rules set is
    text = said(loaded)
    assert f"<@{world.mod.id}> loaded the Oicho-Kabu preset `Our Club` (house rules changed: 5)" in text
    assert "`bank_cap`: 50 → **80**" in text
    assert "`local_yaku.gogo.scope`: both → **dealer**" in text
    assert "not set by the preset" not in text.lower()
    assert await database.get_house_rules(guild, "oicho") == saved_rules

    after = await audit(database, guild, "oicho")
    assert len(after) == len(before) + 1  # one change, one audit row
    entry = after[0]
    assert (entry.path, entry.actor_id) == ("preset:Our Club", world.mod.id)
    assert entry.old_value["bank_cap"] == 50 and entry.new_value["bank_cap"] == 80
    assert set(entry.new_value) == {
        "bank_cap",
        "maki_fuda",
        "local_yaku.gogo.enabled",
        "local_yaku.gogo.multiplier",
        "local_yaku.gogo.scope",
    }
    history = await world.mod.slash(world.channel, "rules history", game="oicho")
    first = embed_text(history.response).splitlines()[1]
    assert f"<@{world.mod.id}> loaded the preset `Our Club` (options changed: 5: `bank_cap`" in first

    # A table opened after the load plays by the loaded rules.
    opened = await world.alice.slash(world.channel, "play", game="oicho", practice=True)
    assert opened.acknowledged
    row = await database.active_table_in(world.channel.id)
    assert row is not None
    assert row.rules == saved_rules
    live = world.env.bot.tables.in_channel(world.channel.id)
    assert (live.rules.bank_cap, live.rules.maki_fuda, live.rules.yaku("gogo").scope) == (80, True, "dealer")


async def test_loading_what_is_in_force_changes_nothing(world: Any, database: Any) -> None:
    await world.mod.slash(world.channel, "rules preset save", game="ofc", name="defaults")
    before = await audit(database, world.guild.id, "ofc")
    again = await world.mod.slash(world.channel, "rules preset load", game="ofc", name="defaults")
    assert again.ephemeral
    assert "already match the preset `defaults`: nothing changed" in said(again)
    assert await audit(database, world.guild.id, "ofc") == before
    assert await database.get_house_rules(world.guild.id, "ofc") is None


async def test_saving_over_a_name_needs_replace(world: Any, database: Any) -> None:
    await world.mod.slash(world.channel, "rules set", game="hachi_hachi", option="rounds", value="8")
    await world.mod.slash(world.channel, "rules preset save", game="hachi_hachi", name="eight")
    await world.mod.slash(world.channel, "rules set", game="hachi_hachi", option="rounds", value="9")
    taken = await world.mod.slash(world.channel, "rules preset save", game="hachi_hachi", name="EIGHT")
    assert taken.ephemeral
    assert "There is already a preset called `eight`" in said(taken)
    assert "replace: True" in said(taken)
    assert (await PresetQueries(database).get(world.guild.id, "hachi_hachi", "eight")).options["rounds"] == 8  # type: ignore[union-attr]

    replaced = await world.mod.slash(world.channel, "rules preset save", game="hachi_hachi", name="Eight", replace=True)
    assert "The preset `Eight` now holds the Hachi-Hachi Trick house rules in force" in said(replaced)
    stored = await PresetQueries(database).presets(world.guild.id, "hachi_hachi")
    assert [(p.name, p.options["rounds"]) for p in stored] == [("Eight", 9)]


# ---------------------------------------------------------------------------------------------------- export, import


@BOTH
async def test_export_then_import_in_another_server_round_trips(world: Any, database: Any) -> None:
    for option, value in [("oba_ranks", "9,10"), ("zetsuba_ranks", "A"), ("yaku_table.sunashi", "on 7 4")]:
        await world.mod.slash(world.channel, "rules set", game="hachi_hachi", option=option, value=value)
    await world.mod.slash(world.channel, "rules set", game="hachi_hachi", option="void_pot", value="refund")
    ours = await database.get_house_rules(world.guild.id, "hachi_hachi")
    await world.mod.slash(world.channel, "rules preset save", game="hachi_hachi", name="Club rules")

    exported = await world.mod.slash(world.channel, "rules preset export", game="hachi_hachi", name="club rules")
    assert exported.ephemeral
    assert "`/rules preset import` keeps it on another server" in said(exported)
    [attachment] = exported.response.attachments
    assert attachment.filename == "hachi_hachi-Club_rules.json"
    data = await attachment.read()
    document = json.loads(data)
    assert {k: document[k] for k in ("format", "version", "game", "name")} == {
        "format": FORMAT,
        "version": VERSION,
        "game": "hachi_hachi",
        "name": "Club rules",
    }
    assert document["rules_schema"] == rules_schema(all_games()["hachi_hachi"].rules_model)
    assert document["options"]["oba_ranks"] == ["9", "10"]
    assert document["options"]["yaku_table.sunashi.normal"] == 7

    guild, channel, mod = second_server(world)
    imported = await mod.slash(channel, "rules preset import", file=(attachment.filename, data))
    assert imported.ephemeral
    assert "Imported the Hachi-Hachi Trick preset `Club rules`" in said(imported)
    assert await database.get_house_rules(guild.id, "hachi_hachi") is None  # importing keeps; it does not load
    listed = await mod.slash(channel, "rules preset list", game="hachi_hachi")
    assert "📝 `Club rules` — options changed: 6" in said(listed)  # both field sets, sunashi's three cells, void_pot

    loaded = await mod.slash(channel, "rules preset load", game="hachi_hachi", name="Club rules")
    assert "(house rules changed: 6)" in said(loaded)
    assert await database.get_house_rules(guild.id, "hachi_hachi") == ours
    [entry] = await audit(database, guild.id, "hachi_hachi")
    assert entry.path == "preset:Club rules"

    # Under a name of the importer's choosing, too.
    again = await mod.slash(channel, "rules preset import", file=(attachment.filename, data), name="Visitors")
    assert "preset `Visitors`" in said(again)


async def test_a_partial_file_imports_and_its_missing_options_take_their_defaults(world: Any, database: Any) -> None:
    await world.mod.slash(world.channel, "rules set", game="oicho", option="dealer_rounds", value="7")
    imported = await world.mod.slash(
        world.channel, "rules preset import", file=("p.json", preset_file(bank_cap=90, maki_fuda=True))
    )
    total = len(options(all_games()["oicho"].rules_model))
    assert "(options in the file: 2; differing from the defaults: 2)" in said(imported)
    assert f"Options of this game the file does not set: {total - 2}" in said(imported)

    loaded = await world.mod.slash(world.channel, "rules preset load", game="oicho", name="shared")
    text = said(loaded)
    assert "`dealer_rounds`: 7 → **3**" in text  # not in the preset: back to its default
    assert (
        f"Not set by the preset, so at their defaults (options the game gained after the preset was saved, or that its file left out; {total - 2}): `starting_chips`"
        in text
    )
    stored = await database.get_house_rules(world.guild.id, "oicho")
    assert (stored["bank_cap"], stored["maki_fuda"], stored["dealer_rounds"]) == (90, True, 3)


async def test_a_preset_saved_before_the_game_gained_an_option_loads_with_its_default(
    world: Any, database: Any
) -> None:
    """A preset saved when OFC had no ``hints`` option: every other option named, under another fingerprint."""
    await world.mod.slash(world.channel, "rules set", game="ofc", option="hints", value="false")
    old = option_values(all_games()["ofc"].rules_model()) | {"variant": "a"}
    del old["hints"]
    await PresetQueries(database).save(
        world.guild.id, "ofc", "from 2024", old, rules_schema="0123456789ab", actor_id=world.mod.id, limit=MAX_PRESETS
    )
    shown = await world.alice.slash(world.channel, "rules preset show", game="ofc", name="from 2024")
    assert "Not set by the preset, so at their defaults when it is loaded (1): `hints`" in said(shown)

    loaded = await world.mod.slash(world.channel, "rules preset load", game="ofc", name="from 2024")
    text = said(loaded)
    assert "`variant`: c → **a**" in text
    assert "`hints`: false → **true**" in text
    assert "the game gained after the preset was saved" in text and text.endswith("`hints`")
    assert (await database.get_house_rules(world.guild.id, "ofc"))["hints"] is True


async def test_a_stored_preset_that_no_longer_fits_is_refused_and_nothing_changes(world: Any, database: Any) -> None:
    """Options a game has dropped or narrowed since a preset was saved: the load names each and changes nothing."""
    values = option_values(all_games()["luk_fu"].rules_model()) | {"hands_total": 500, "old_rule": True}
    await PresetQueries(database).save(
        world.guild.id, "luk_fu", "ancient", values, rules_schema="x", actor_id=world.mod.id, limit=MAX_PRESETS
    )
    refused = await world.mod.slash(world.channel, "rules preset load", game="luk_fu", name="ancient")
    assert refused.ephemeral
    text = said(refused)
    assert "cannot be loaded as it is, so the house rules are unchanged" in text
    assert "`hands_total` must be 1–200; 500 is out of range." in text
    assert "`old_rule` is not a house rule of Luk Fu." in text
    assert await database.get_house_rules(world.guild.id, "luk_fu") is None
    assert await audit(database, world.guild.id, "luk_fu") == []
    shown = await world.mod.slash(world.channel, "rules preset show", game="luk_fu", name="ancient")
    assert "It cannot be loaded as it is:" in said(shown)


REFUSED_FILES: list[tuple[str, bytes, str, str]] = [
    (
        "malformed JSON",
        b'{"format": "fudaba-rules-preset", "version": 1,, }',
        "The file is not valid JSON: line 1, column 48",
        "ファイルが正しいJSONではありません: 1行48列",
    ),
    (
        "an older format version",
        preset_file(version=0, bank_cap=80),
        "format version 0, older than the version 1 this bot reads",
        "プリセット形式のバージョン0で、このボットが読むバージョン1より古い",
    ),
    (
        "a newer format version",
        preset_file(version=2, bank_cap=80),
        "format version 2, newer than the version 1",
        "バージョン2で、このボットが読むバージョン1より新しい",
    ),
    (
        "an unknown option",
        preset_file(bank_cap=80, bank_capp=90),
        "`bank_capp` is not a house rule of Oicho-Kabu.",
        "`bank_capp` はおいちょかぶのハウスルールではありません。",
    ),
    (
        "an option out of range",
        preset_file(arashi_multiplier=9),
        "`arashi_multiplier` must be 1–5; 9 is out of range.",
        "`arashi_multiplier` は 1–5 の範囲です（9 は範囲外です）。",
    ),
    (
        "a value of the wrong type",
        preset_file(maki_fuda="yes"),
        '`maki_fuda` takes true or false, not "yes".',
        '`maki_fuda` は true か false です（"yes" は使えません）。',
    ),
    (
        "another game's options",
        preset_file(variant="d"),
        "`variant` is not a house rule of Oicho-Kabu.",
        "`variant` はおいちょかぶのハウスルールではありません。",
    ),
    (
        "a game the bot does not have",
        preset_file(game="poker"),
        'The file is for a game this bot does not have: "poker"',
        'ファイルはこのボットにないゲームのものです: "poker"',
    ),
    (
        "too large a file",
        b" " * (MAX_FILE_BYTES + 1) + preset_file(),
        f"The file is {MAX_FILE_BYTES + 1 + len(preset_file())} bytes; a preset file may be at most {MAX_FILE_BYTES}.",
        f"ファイルは{MAX_FILE_BYTES + 1 + len(preset_file())}バイトです。プリセットのファイルは{MAX_FILE_BYTES}バイトまでです。",
    ),
]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("case", "data", "english", "japanese"), REFUSED_FILES, ids=[c[0] for c in REFUSED_FILES])
async def test_a_bad_file_is_refused_with_the_option_and_why(
    world: Any, database: Any, lang: str, case: str, data: bytes, english: str, japanese: str
) -> None:
    if lang == "ja":
        LOCALES[world.mod.id] = "ja"
    refused = await world.mod.slash(world.channel, "rules preset import", file=("preset.json", data))
    assert refused.ephemeral
    text = said(refused)
    head = (
        "ファイルは取り込まれず、何も保存されていません"
        if lang == "ja"
        else "The file was not imported, nothing was stored"
    )
    assert head in text, text
    assert (japanese if lang == "ja" else english) in text, text
    assert await PresetQueries(database).presets(world.guild.id) == []
    assert await database.get_house_rules(world.guild.id, "oicho") is None
    assert await database.house_rule_history(world.guild.id) == []


async def test_an_import_keeps_names_that_are_taken(world: Any, database: Any) -> None:
    await world.mod.slash(world.channel, "rules preset save", game="oicho", name="shared")
    taken = await world.mod.slash(world.channel, "rules preset import", file=("p.json", preset_file(bank_cap=80)))
    assert "There is already a preset called `shared` for this game: import the file with another `name`" in said(taken)
    shipped_name = await world.mod.slash(
        world.channel, "rules preset import", file=("p.json", preset_file(bank_cap=80)), name="Local-Hands"
    )
    assert "`Local-Hands` is the name of a preset shipped with the bot" in said(shipped_name)
    [only] = await PresetQueries(database).presets(world.guild.id)
    assert only.options["bank_cap"] == 50  # the saved one, untouched


# ---------------------------------------------------------------------------------------------------- who may


async def test_members_are_refused_the_moderators_commands(world: Any, database: Any) -> None:
    await world.mod.slash(world.channel, "rules preset save", game="oicho", name="mine")
    for command, options_ in [
        ("rules preset save", {"game": "oicho", "name": "theirs"}),
        ("rules preset load", {"game": "oicho", "name": "mine"}),
        ("rules preset load", {"game": "ofc", "name": "pineapple-progressive"}),
        ("rules preset delete", {"game": "oicho", "name": "mine"}),
        ("rules preset export", {"game": "oicho", "name": "mine"}),
        ("rules preset import", {"file": ("p.json", preset_file(bank_cap=80))}),
    ]:
        refused = await world.alice.slash(world.channel, command, **options_)
        assert refused.ephemeral, command
        assert "Only moderators can do that" in said(refused), command
        assert not refused.response.attachments
    assert [p.name for p in await PresetQueries(database).presets(world.guild.id)] == ["mine"]
    assert await database.get_house_rules(world.guild.id, "ofc") is None
    assert len(await database.house_rule_history(world.guild.id)) == 0

    # Reading them is everyone's, as reading the rules is.
    listed = await world.alice.slash(world.channel, "rules preset list", game="oicho")
    assert listed.ephemeral
    assert "📝 `mine` — options changed: 0" in said(listed)
    shown = await world.alice.slash(world.channel, "rules preset show", game="oicho", name="mine")
    assert "Preset `mine` — Oicho-Kabu" in said(shown)


async def test_japanese_moderator_and_member(world: Any, database: Any) -> None:
    LOCALES[world.mod.id] = "ja"
    LOCALES[world.alice.id] = "ja"
    await world.mod.slash(world.channel, "rules set", game="luk_fu", option="hands_total", value="6")
    saved = await world.mod.slash(world.channel, "rules preset save", game="luk_fu", name="短い対局")
    assert "プリセット `短い対局` として保存しました（既定と違う項目: 1）" in said(saved)
    await world.mod.slash(world.channel, "rules reset", game="luk_fu")
    loaded = await world.mod.slash(world.channel, "rules preset load", game="luk_fu", name="短い対局")
    assert "六虎（ルクフ）のプリセット `短い対局` を読み込みました: ハウスルール1項目が変わりました" in said(loaded)
    history = await world.mod.slash(world.channel, "rules history", game="luk_fu")
    assert "プリセット `短い対局` を読み込み: 1項目（`hands_total`）" in said(history)
    listed = await world.alice.slash(world.channel, "rules preset list", game="luk_fu")
    assert "📦 `knowledge` — 古い札をリードする人が知り得ることで判断" in said(listed)
    refused = await world.alice.slash(world.channel, "rules preset delete", game="luk_fu", name="短い対局")
    assert "モデレーターのみ" in said(refused)
    bad = await world.mod.slash(world.channel, "rules preset save", game="luk_fu", name="a/b")
    assert "プリセットは保存されませんでした" in said(bad)
    assert "プリセット名は文字か数字で始まり" in said(bad)


# ---------------------------------------------------------------------------------------------------- shipped


@pytest.mark.parametrize(("game", "name"), [(p.game, p.name) for p in shipped().values()])
async def test_every_shipped_preset_loads(world: Any, database: Any, game: str, name: str) -> None:
    preset = shipped()[(game, name)]
    loaded = await world.mod.slash(world.channel, "rules preset load", game=game, name=name)
    assert f"(house rules changed: {len(preset.options)})" in said(loaded)
    assert "Not set by the preset" not in said(loaded)  # a shipped preset is the defaults and its changes
    stored = option_values(
        all_games()[game].rules_model.model_validate(await database.get_house_rules(world.guild.id, game))
    )
    assert {path: stored[path] for path in preset.options} == preset.options
    assert stored == option_values(all_games()[game].rules_model()) | preset.options
    # A table opened now plays by them.
    await world.alice.slash(world.channel, "play", game=game, practice=True)
    row = await database.active_table_in(world.channel.id)
    assert row is not None
    assert option_values(all_games()[game].rules_model.model_validate(row.rules)) == stored


async def test_shipped_presets_are_listed_shown_exported_and_kept(world: Any, database: Any) -> None:
    listed = await world.alice.slash(world.channel, "rules preset list")
    text = said(listed)
    assert "📦 `pineapple-progressive` — Pineapple, progressive Fantasyland" in text
    assert "📦 `short` — The short game: 6 rounds" in text
    assert "📦 `knowledge` — Old cards judged on what the leader can know" in text
    assert "📦 `local-hands` — Every local hand on" in text

    shown = await world.alice.slash(world.channel, "rules preset show", game="ofc", name="pineapple-progressive")
    text = said(shown)
    assert "`d_pineapple_streets` = **true** · default false" in text
    assert "`fl_cards.trips` = **17** · default 16" in text
    assert "Loading it now would change this server's house rules: 7." in text
    assert "Shipped with the bot" in text

    deleted = await world.mod.slash(world.channel, "rules preset delete", game="ofc", name="pineapple-progressive")
    assert "`pineapple-progressive` is shipped with the bot and cannot be deleted" in said(deleted)
    over = await world.mod.slash(world.channel, "rules preset save", game="ofc", name="Pineapple-Progressive")
    assert "is the name of a preset shipped with the bot" in said(over)
    assert await PresetQueries(database).presets(world.guild.id) == []

    # Exported whole: every option, so it means the same on a bot whose defaults differ.
    exported = await world.mod.slash(world.channel, "rules preset export", game="hachi_hachi", name="short")
    document = json.loads(await exported.response.attachments[0].read())
    assert document["options"] == option_values(all_games()["hachi_hachi"].rules_model()) | {"rounds": 6}


# ---------------------------------------------------------------------------------------------------- names


async def test_names_are_checked_and_a_game_holds_at_most_25(world: Any, database: Any) -> None:
    long = await world.mod.slash(world.channel, "rules preset save", game="ofc", name="x" * 33)
    assert "A preset name has 1 to 32 characters" in said(long)
    odd = await world.mod.slash(world.channel, "rules preset save", game="ofc", name="<@123>")
    assert "starts with a letter or digit and holds only letters, digits, spaces, `-`, `_` and `.`" in said(odd)
    assert await PresetQueries(database).presets(world.guild.id) == []

    for n in range(MAX_PRESETS):
        await world.mod.slash(world.channel, "rules preset save", game="ofc", name=f"set {n:02}")
    full = await world.mod.slash(world.channel, "rules preset save", game="ofc", name="one more")
    assert "already keeps 25 presets for this game, the most it may" in said(full)
    assert await PresetQueries(database).count(world.guild.id, "ofc") == MAX_PRESETS
    other_game = await world.mod.slash(world.channel, "rules preset save", game="oicho", name="one more")
    assert "Saved" in said(other_game)

    gone = await world.mod.slash(world.channel, "rules preset delete", game="ofc", name="SET 00")
    assert "Deleted the Open-Face Chinese Poker preset `set 00`" in said(gone)
    missing = await world.mod.slash(world.channel, "rules preset delete", game="ofc", name="set 00")
    assert "There is no preset called `set 00` for Open-Face Chinese Poker" in said(missing)
    room = await world.mod.slash(world.channel, "rules preset save", game="ofc", name="one more")
    assert "Saved" in said(room)


async def test_preset_names_autocomplete(world: Any, database: Any) -> None:
    await world.mod.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="70")
    for name in ("Friday", "Weekend long"):
        await world.mod.slash(world.channel, "rules preset save", game="oicho", name=name)
    await world.mod.slash(world.channel, "rules preset save", game="ofc", name="Friday OFC")

    everything = await world.mod.autocomplete(world.channel, "rules preset load", "name", "", game="oicho")
    assert [c["value"] for c in everything] == ["big-payouts", "local-hands", "Friday", "Weekend long"]
    assert everything[0]["name"] == "📦 big-payouts — Arashi ×3, Kuppin and Shippin ×2"
    assert everything[2]["name"] == "Friday (1 changed)"
    typed = await world.mod.autocomplete(world.channel, "rules preset show", "name", "LON", game="oicho")
    assert [c["value"] for c in typed] == ["Weekend long"]
    own_only = await world.mod.autocomplete(world.channel, "rules preset delete", "name", "", game="oicho")
    assert [c["value"] for c in own_only] == ["Friday", "Weekend long"]
    ofc = await world.mod.autocomplete(world.channel, "rules preset export", "name", "fri", game="ofc")
    assert [c["value"] for c in ofc] == ["Friday OFC"]
