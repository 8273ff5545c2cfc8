"""/howto as a member meets it: every page of every game in both languages, its picture drawn from the page's own
set-up, the topic menu and ◀ ▶, sharing a page, refusals of forged presses, and pages following house rules."""

from __future__ import annotations

from typing import Any

import pytest

from bot import howto
from bot.howto.message import filename_of
from bot.i18n import t
from games.registry import all_games
from tests.bot.conftest import LOCALES
from tests.bot.howto.conftest import Shown, button, shown
from tests.bot.tables.driver import forge_click

EMBED_TOTAL = 6000
EMBED_DESCRIPTION = 4096
EMBED_FIELD = 1024


async def check_page(view: Shown, page: howto.Page, where: int, pages: int) -> None:
    """The message shows exactly this page: its words, its place, its picture (drawn from the page's scene)."""
    assert view.ephemeral
    assert view.title.endswith(page.title) and page.emoji in view.title
    assert view.body == page.body
    assert "howto_" not in view.body and "howto." not in view.title  # no catalog key left untranslated
    assert view.length <= EMBED_TOTAL and len(view.body) <= EMBED_DESCRIPTION
    assert all(len(value) <= EMBED_FIELD for value in view.fields.values())
    assert view.footer.startswith(
        t(
            "howto.footer",
            page.lang,
            page=where + 1,
            pages=pages,
            topic=page.topic_title,
            part=page.index + 1,
            parts=page.count,
        )
    )
    picture = page.picture()
    if picture is None:
        assert view.attachments == [] and view.image is None
        return
    [attachment] = view.attachments
    assert attachment.filename == filename_of(page)
    assert view.image is not None and view.image.endswith(attachment.filename)
    assert await attachment.read() == picture.render()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", howto.GAMES)
async def test_every_page_opens_in_both_languages_with_its_picture(world: Any, game: str, lang: str) -> None:
    """From the first page, ▶ walks every page of the game in order; each is the page written for that place, in the
    member's language, within Discord's embed limits, with the picture its scene draws."""
    member = world.alice
    if lang == "ja":
        LOCALES[member.id] = "ja"
    rules = all_games()[game].rules_model()
    order = howto.sequence(game)
    opened = await member.slash(world.channel, "howto", game=game)
    assert opened.ephemeral
    message = opened.response
    for where, (topic, index) in enumerate(order):
        view = shown(message)
        page = howto.page(game, topic, index, lang, rules)
        await check_page(view, page, where, len(order))
        if lang == "ja":
            assert view.body != howto.page(game, topic, index, "en", rules).body
        assert all(b["custom_id"].startswith(f"fdb:howto:{member.id}:{game}:") for b in view.buttons)
        assert button(view, t("howto.previous", lang))["disabled"] == (where == 0)
        forward = button(view, t("howto.next", lang))
        if where == len(order) - 1:
            assert forward["disabled"]
            break
        clicked = await member.click(message, custom_id=forward["custom_id"])
        assert clicked.response is not None and clicked.response.id == message.id
        message = clicked.response


async def test_previous_and_the_topic_menu(world: Any) -> None:
    member = world.alice
    rules = all_games()["oicho"].rules_model()
    opened = await member.slash(world.channel, "howto", game="oicho", topic="showdown")
    message = opened.response
    view = shown(message)
    assert view.body == howto.page("oicho", "showdown", 0, "en", rules).body
    assert view.menu is not None
    assert [o["value"] for o in view.menu["options"]] == list(howto.topic_ids("oicho"))
    assert [o["value"] for o in view.menu["options"] if o.get("default")] == ["showdown"]

    # ◀ from a topic's first page goes to the last page of the topic before it.
    back = await member.click(message, label="Previous")
    before = howto.sequence("oicho")[howto.sequence("oicho").index(("showdown", 0)) - 1]
    assert shown(back.response).body == howto.page("oicho", *before, "en", rules).body

    # The menu opens a topic at its first page.
    jumped = await member.select(back.response, ["dealer"])
    view = shown(jumped.response)
    assert view.body == howto.page("oicho", "dealer", 0, "en", rules).body
    assert [o["value"] for o in view.menu["options"] if o.get("default")] == ["dealer"]  # type: ignore[index]


async def test_a_topic_can_be_given_by_id_and_is_offered_by_autocomplete(world: Any) -> None:
    LOCALES[world.alice.id] = "ja"
    choices = await world.alice.autocomplete(world.channel, "howto", "topic", "勝負", game="oicho")
    assert [c["value"] for c in choices] == ["showdown"]
    every = await world.alice.autocomplete(world.channel, "howto", "topic", "", game="oicho")
    assert [c["value"] for c in every] == list(howto.topic_ids("oicho"))

    refused = await world.alice.slash(world.channel, "howto", game="oicho", topic="nope")
    assert refused.ephemeral
    assert "nope" in refused.response.content and "`betting`" in refused.response.content


async def test_share_posts_the_page_publicly_as_the_members_share(world: Any) -> None:
    rules = all_games()["oicho"].rules_model()
    opened = await world.alice.slash(world.channel, "howto", game="oicho", topic="showdown")
    private = shown(opened.response)
    shared = await world.alice.click(opened.response, label="Share in channel")
    assert not shared.ephemeral

    # Bob, who never opened the guide, sees the page in the channel: the same words and picture, no buttons.
    public = [m for m in world.channel.history(viewer=world.bob) if m.embeds]
    assert len(public) == 1
    post = shown(public[0])
    assert not post.ephemeral and post.buttons == [] and post.menu is None
    assert world.alice.mention in post.content
    page = howto.page("oicho", "showdown", 0, "en", rules)
    assert post.title == private.title and post.body == page.body
    [attachment] = post.attachments
    assert await attachment.read() == page.picture().render()  # type: ignore[union-attr]
    assert post.footer == t("howto.footer_shared", "en", game="oicho", topic="showdown")

    # Alice's private guide is as it was.
    assert shown(opened.response) == private


async def test_forged_and_foreign_presses_are_refused_and_change_nothing(world: Any) -> None:
    alice, bob = world.alice, world.bob
    opened = await alice.slash(world.channel, "howto", game="oicho")
    before = shown(opened.response)
    last_topic, last_page = howto.sequence("oicho")[-1]
    cases = [
        ("fdb:howto:", "not one of the guide's"),
        ("fdb:howto:1:oicho:basics:0:x", "not one of the guide's"),
        (f"fdb:howto:{alice.id}:oicho:basics:0:n:extra", "not one of the guide's"),
        (f"fdb:howto:{bob.id}:oicho:basics:0:n", "opened by someone else"),
        (f"fdb:howto:{alice.id}:oicho:no_such_topic:0:n", "no longer exists"),
        (f"fdb:howto:{alice.id}:oicho:basics:9:n", "no longer exists"),
        (f"fdb:howto:{alice.id}:chess:basics:0:n", "no longer exists"),
        (f"fdb:howto:{alice.id}:oicho:basics:0:p", "no page in that direction"),
        (f"fdb:howto:{alice.id}:oicho:{last_topic}:{last_page}:n", "no page in that direction"),
        # A real id of Alice's guide, but on a public message: nothing is edited or shared from there.
        (f"fdb:howto:{alice.id}:oicho:basics:0:n", "only on your own private guide"),
        (f"fdb:howto:{alice.id}:oicho:basics:0:s", "only on your own private guide"),
    ]
    for custom_id, said in cases:
        answer = await forge_click(world, alice, custom_id)
        assert answer.ephemeral, custom_id
        assert said in answer.response.content, (custom_id, answer.response.content)
    # Nothing was posted but the forged buttons' own messages, and every message is as it was.
    for message in world.channel.history(viewer=bob):
        assert message.content == "forged" and not message.embeds and not message.attachments
    assert shown(opened.response) == before


async def test_the_betting_page_follows_the_servers_bank_cap(world: Any, database: Any) -> None:
    """A moderator raises the bank cap with /rules: the page's words, its house-rule line and its picture change."""
    opened = await world.alice.slash(world.channel, "howto", game="oicho", topic="betting")
    before = shown(opened.response)
    assert "**50**" in before.body
    assert "`bank_cap` = 50 (the default)" in "\n".join(before.fields.values())
    [old_picture] = before.attachments
    old_bytes = await old_picture.read()

    changed = await world.mod.slash(world.channel, "rules set", game="oicho", option="bank_cap", value="80")
    assert not changed.ephemeral

    again = await world.alice.slash(world.channel, "howto", game="oicho", topic="betting")
    after = shown(again.response)
    assert "**80**" in after.body and "**50**" not in after.body
    assert "✏️ `bank_cap` = **80** (changed here; the default is 50)" in "\n".join(after.fields.values())
    rules = all_games()["oicho"].rules_model.model_validate(await database.get_house_rules(world.guild.id, "oicho"))
    page = howto.page("oicho", "betting", 0, "en", rules)
    picture = page.picture()
    assert picture is not None and picture.view.cap == 80
    [new_picture] = after.attachments
    new_bytes = await new_picture.read()
    assert new_bytes == picture.render() and new_bytes != old_bytes


async def test_the_command_and_its_options_are_described_in_japanese(world: Any) -> None:
    command = world.env.backend.find_command("howto", None, type=1)
    assert [o["name"] for o in command["options"]] == ["game", "topic"]
    for item in [command, *command["options"]]:
        localized = item.get("description_localizations") or {}
        assert localized.get("ja") and localized["ja"] != item["description"], item["name"]


HOUSE_RULE_PAGES = [
    # game, topic, page in topic, option, value, words only this value gives
    ("ofc", "variants", 0, "variant", "a", "This server plays **a, one at a time**"),
    ("luk_fu", "old_cards", 1, "old_card_mode", "knowledge", "7S **is** old"),
    ("hachi_hachi", "hands", 0, "yaku_table.karasu", "on 9 5", "  9   5  Karasu 空素"),
    ("hachi_hachi", "field", 0, "zetsuba_mult", "6", "a King makes Zetsuba 絶場 here, M = **6**"),
]


async def open_at(world: Any, member: Any, game: str, topic: str, index: int) -> Any:
    opened = await member.slash(world.channel, "howto", game=game, topic=topic)
    message = opened.response
    for _ in range(index):
        message = (await member.click(message, label="Next")).response
    return message


@pytest.mark.parametrize(("game", "topic", "index", "option", "value", "words"), HOUSE_RULE_PAGES)
async def test_a_page_changes_when_a_moderator_changes_its_house_rule(
    world: Any, database: Any, game: str, topic: str, index: int, option: str, value: str, words: str
) -> None:
    before = shown(await open_at(world, world.alice, game, topic, index))
    assert words not in before.body
    changed = await world.mod.slash(world.channel, "rules set", game=game, option=option, value=value)
    assert not changed.ephemeral
    after = shown(await open_at(world, world.alice, game, topic, index))
    assert words in after.body
    assert f"✏️ `{option.split('.')[0]}`" in "\n".join(after.fields.values())
    rules = all_games()[game].rules_model.model_validate(await database.get_house_rules(world.guild.id, game))
    page = howto.page(game, topic, index, "en", rules)
    assert after.body == page.body
    if after.attachments:
        assert await after.attachments[0].read() == page.picture().render()  # type: ignore[union-attr]


async def test_a_shared_page_is_in_the_servers_language(world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A member reading in English on a Japanese server shares a page: everyone in the channel reads it in Japanese,
    as they read every public message of the bot."""
    import simcord.interactions

    sent = simcord.interactions.base_payload

    def japanese_server(*args: Any, **kwargs: Any) -> Any:
        record, payload = sent(*args, **kwargs)
        if "guild_locale" in payload:
            payload["guild_locale"] = "ja"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", japanese_server)
    rules = all_games()["luk_fu"].rules_model()
    opened = await world.alice.slash(world.channel, "howto", game="luk_fu", topic="call")
    assert shown(opened.response).body == howto.page("luk_fu", "call", 0, "en", rules).body
    await world.alice.click(opened.response, label="Share in channel")
    [post] = [shown(m) for m in world.channel.history(viewer=world.bob) if m.embeds]
    assert post.body == howto.page("luk_fu", "call", 0, "ja", rules).body
    assert world.alice.mention in post.content and "共有" in post.content
