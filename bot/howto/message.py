"""The guide on Discord: a private paged message with a topic menu, ◀ ▶, and a Share button.

Custom ids (at most 100 characters; the member's id makes the guide theirs)::

    fdb:howto:<member>:<game>:<topic>:<page>:<verb>

``<page>`` is the page shown, 0-based within its topic; ``<verb>`` is ``p`` (previous), ``n`` (next), ``s`` (share
it in the channel) or ``m`` (the topic menu, whose value is the topic to open). Ids come from the client and can be
forged: every press is read strictly (:func:`parse`), refused with a clear private answer when it does not fit (not
the member's guide, a topic that does not exist, a press from a message that is not their private guide), and
nothing is edited or posted then.

The picture is drawn off the event loop by the game's own renderer (:mod:`bot.render.runner`), after the
interaction is deferred.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.howto import GAMES, guide, page, page_count, sequence, topic_ids, topic_title
from bot.howto.model import Page
from bot.i18n import lang_of, t
from bot.render import render_in_thread

if TYPE_CHECKING:
    from pydantic import BaseModel

PREFIX = "fdb:howto:"
TEMPLATE = r"fdb:howto:(?P<rest>[\s\S]*)"
"""Every id under the guide's prefix comes to the guide, so a malformed one is answered by it too."""
_ID = re.compile(
    r"fdb:howto:(?P<user>[1-9][0-9]{0,19}):(?P<game>[a-z_]{1,20}):(?P<topic>[a-z0-9_]{1,30})"
    r":(?P<page>0|[1-9][0-9]{0,2}):(?P<verb>[pnsm])",
    re.ASCII,
)
COLOUR = discord.Colour.from_rgb(0x2E, 0x7D, 0x32)


@dataclass(frozen=True)
class GuideId:
    user: int
    game: str
    topic: str
    index: int
    verb: str


def custom_id(user: int, game: str, topic: str, index: int, verb: str) -> str:
    return f"{PREFIX}{user}:{game}:{topic}:{index}:{verb}"


def parse(text: str) -> GuideId:
    """A guide component's id, read strictly; :class:`UserError` ``howto.bad_button`` for anything else."""
    match = _ID.fullmatch(text)
    if match is None:
        raise UserError("howto.bad_button")
    return GuideId(int(match["user"]), match["game"], match["topic"], int(match["page"]), match["verb"])


# ---------------------------------------------------------------------------- the message


def embed_of(p: Page, *, filename: str | None, shared: bool = False) -> discord.Embed:
    """A page as an embed (within Discord's limits: the tests check every page); a shared one says where it is from
    instead of where it stands in the member's guide."""
    from bot.cogs.economy import game_name

    embed = discord.Embed(
        title=t("howto.title", p.lang, emoji=p.emoji, game=game_name(p.game, p.lang), title=p.title),
        description=p.body,
        colour=COLOUR,
    )
    if p.house_rules:
        lines = []
        for rule in p.house_rules:
            if rule.group:
                key = "howto.rule_group_changed" if rule.changed else "howto.rule_group_default"
                lines.append(t(key, p.lang, path=rule.path, n=rule.value))
            elif rule.changed:
                lines.append(t("howto.rule_changed", p.lang, path=rule.path, value=rule.value, default=rule.default))
            else:
                lines.append(t("howto.rule_default", p.lang, path=rule.path, value=rule.value))
        lines.append(t("howto.rules_more", p.lang, game=p.game))
        embed.add_field(name=t("howto.rules_field", p.lang), value="\n".join(lines)[:1024], inline=False)
    if filename is not None:
        embed.set_image(url=f"attachment://{filename}")
    where = sequence(p.game).index((p.topic, p.index))
    footer = t(
        "howto.footer",
        p.lang,
        page=where + 1,
        pages=len(sequence(p.game)),
        topic=p.topic_title,
        part=p.index + 1,
        parts=p.count,
    )
    if shared:
        footer = t("howto.footer_shared", p.lang, game=p.game, topic=p.topic)
    embed.set_footer(text=footer)
    return embed


def view_of(p: Page, user: int) -> discord.ui.View:
    """The topic menu, then ◀ ▶ and Share."""
    where = sequence(p.game).index((p.topic, p.index))
    last = len(sequence(p.game)) - 1
    view = discord.ui.View(timeout=None)
    options = [
        discord.SelectOption(
            label=topic_title(p.game, tp.id, p.lang)[:100], value=tp.id, emoji=tp.emoji, default=tp.id == p.topic
        )
        for tp in guide(p.game).topics
    ]
    view.add_item(
        discord.ui.Select(
            custom_id=custom_id(user, p.game, p.topic, p.index, "m"),
            placeholder=t("howto.menu", p.lang),
            options=options,
            row=0,
        )
    )
    for verb, key, emoji, disabled in (
        ("p", "howto.previous", "◀️", where == 0),
        ("n", "howto.next", "▶️", where == last),
    ):
        view.add_item(
            discord.ui.Button(
                label=t(key, p.lang),
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=custom_id(user, p.game, p.topic, p.index, verb),
                row=1,
            )
        )
    view.add_item(
        discord.ui.Button(
            label=t("howto.share", p.lang),
            emoji="📤",
            style=discord.ButtonStyle.primary,
            custom_id=custom_id(user, p.game, p.topic, p.index, "s"),
            row=1,
        )
    )
    view.stop()  # answered from the custom id (see bot.cogs.howto), never kept by discord.py
    return view


def filename_of(p: Page) -> str:
    return f"howto-{p.game}-{p.topic}-{p.index + 1}.png".replace("_", "-")


async def draw(p: Page) -> discord.File | None:
    """The page's picture, drawn off the event loop; None for a page without one."""
    picture = p.picture()
    if picture is None:
        return None
    from bot.ui import ui_for

    data = await render_in_thread(ui_for(picture.game).render, picture.view, picture.ctx)
    return discord.File(io.BytesIO(data), filename=filename_of(p))


async def message_of(p: Page, user: int) -> dict[str, Any]:
    """``embed``, ``view`` and ``file`` (when the page has a picture) for a private guide message."""
    file = await draw(p)
    out: dict[str, Any] = {
        "embed": embed_of(p, filename=file.filename if file else None),
        "view": view_of(p, user),
    }
    if file is not None:
        out["file"] = file
    return out


# ---------------------------------------------------------------------------- house rules


async def house_rules(client: Any, guild_id: int | None, game: str) -> BaseModel:
    """The server's rules for the game (defaults outside a server)."""
    from bot.cogs.rules import rules_in_force
    from games.registry import all_games

    spec = all_games()[game]
    if guild_id is None:
        return spec.rules_model()
    return await rules_in_force(client, guild_id, spec)


# ---------------------------------------------------------------------------- entry points


def check_topic(game: str, topic: str | None) -> str:
    """A topic id of the game (its first topic when none is given), or a refusal listing the topics."""
    if game not in GAMES:
        raise UserError("howto.unknown_game", game=game)
    ids = topic_ids(game)
    if topic is None:
        return ids[0]
    if topic not in ids:
        raise UserError("howto.unknown_topic", topic=topic, topics=", ".join(f"`{i}`" for i in ids))
    return topic


async def open_guide(
    interaction: discord.Interaction,
    game: str,
    topic: str | None = None,
    index: int = 0,
    *,
    rules: BaseModel | None = None,
) -> None:
    """Send the guide to the member who interacted, privately, open at ``topic`` (its first page unless
    ``index`` says otherwise), under ``rules`` (a table's own; default: the server's house rules now). Raises
    :class:`UserError` for a game or topic that does not exist (before anything is sent: wrap the caller in
    :func:`bot.errors.guarded`). The "?" of a panel and ``/learn`` call this."""
    topic = check_topic(game, topic)
    if not 0 <= index < page_count(game, topic):
        raise UserError("howto.no_page")
    await interaction.response.defer(ephemeral=True, thinking=True)
    lang = lang_of(interaction.locale)
    if rules is None:
        rules = await house_rules(interaction.client, interaction.guild_id, game)
    message = await message_of(page(game, topic, index, lang, rules), interaction.user.id)
    await interaction.followup.send(**message, ephemeral=True)


async def on_press(interaction: discord.Interaction, custom: str) -> None:
    """A press on a guide: page, jump to a topic, or share. Refusals raise :class:`UserError` before anything is
    answered or changed."""
    gid = parse(custom)
    if gid.user != interaction.user.id:
        raise UserError("howto.not_yours")
    if gid.game not in GAMES or gid.topic not in topic_ids(gid.game):
        raise UserError("howto.stale")
    if not 0 <= gid.index < page_count(gid.game, gid.topic):
        raise UserError("howto.stale")
    order = sequence(gid.game)
    where = order.index((gid.topic, gid.index))
    topic, index = gid.topic, gid.index
    if gid.verb == "p":
        if where == 0:
            raise UserError("howto.no_page")
        topic, index = order[where - 1]
    elif gid.verb == "n":
        if where == len(order) - 1:
            raise UserError("howto.no_page")
        topic, index = order[where + 1]
    elif gid.verb == "m":
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values") or []]
        if len(values) != 1 or values[0] not in topic_ids(gid.game):
            raise UserError("howto.stale")
        topic, index = values[0], 0
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        # Only the member's own private guide carries these buttons: never edit or share from anything else.
        raise UserError("howto.not_here")
    if gid.verb == "s":
        # Public, so in the server's language, as every public message of the bot is (the member's outside a server).
        await share(interaction, gid.game, topic, index, lang_of(interaction.guild_locale or interaction.locale))
        return
    lang = lang_of(interaction.locale)
    await interaction.response.defer()
    rules = await house_rules(interaction.client, interaction.guild_id, gid.game)
    shown = await message_of(page(gid.game, topic, index, lang, rules), interaction.user.id)
    file = shown.pop("file", None)
    await interaction.edit_original_response(attachments=[file] if file else [], **shown)


async def share(interaction: discord.Interaction, game: str, topic: str, index: int, lang: str) -> None:
    """Post the page in the channel for everyone, as the member's share (the message names them): no buttons on it."""
    await interaction.response.defer(thinking=True)
    rules = await house_rules(interaction.client, interaction.guild_id, game)
    p = page(game, topic, index, lang, rules)
    file = await draw(p)
    embed = embed_of(p, filename=file.filename if file else None, shared=True)
    text = t("howto.shared", lang, member=interaction.user.mention)
    extra: dict[str, Any] = {"file": file} if file is not None else {}
    await interaction.followup.send(text, embed=embed, allowed_mentions=discord.AllowedMentions.none(), **extra)
