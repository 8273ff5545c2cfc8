"""A watcher's panel as a Discord message: what the watcher is shown (:class:`~bot.watch.sight.Sight`) in words, the
public picture, and its two buttons.

* the text: which table, whose turn it is (live) or which deal is shown and which is in play (delayed), and until
  when the panel updates itself (an interaction token's life), after which **Refresh** brings it back;
* the state in words: the game's own public summary (the table message's embed), with the picture;
* the narration: every line since the deal began (live) or of the whole settled deal (delayed), the oldest left out
  only when Discord's limits would be passed, and then said so;
* **Refresh** (draw it now, and follow the table 14 more minutes) and **Stop watching**.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import t
from bot.render import render_in_thread
from bot.tables import ids
from bot.ui import ui_for
from bot.watch.sight import Sight

FILENAME = "watch.png"
COLOUR = 0x546E7A
CONTENT_LIMIT = 2000
EMBEDS_LIMIT = 5800
"""Discord allows 6,000 characters over a message's embeds: a little is kept spare."""
LOG_LIMIT = 4000
"""An embed's description holds 4,096."""


@dataclass
class Composed:
    """The panel's message fields and what tells two drawings apart."""

    fields: dict[str, Any]
    signature: str


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(f"**{n}**" for n in names)


def _status(sight: Sight, lang: str) -> str:
    if sight.mode == "live":
        if sight.over:
            return t("watch.over", lang)
        if sight.to_act:
            return t("watch.to_act", lang, names=_names(sight.to_act))
        return t("watch.nobody_to_act", lang)
    if sight.mode == "waiting":
        return t("watch.delayed_waiting", lang, playing=sight.playing)
    if sight.playing > sight.deal:
        return t("watch.delayed", lang, deal=sight.deal, playing=sight.playing)
    return t("watch.delayed_between", lang, deal=sight.deal)


def log_embed(sight: Sight, lang: str, room: int) -> discord.Embed:
    """The narration, newest last; when it does not fit in ``room`` characters, the oldest lines are left out and a
    first line says how many."""
    title = t("watch.log_settled" if sight.mode == "delayed" else "watch.log_live", lang, deal=sight.deal)
    embed = discord.Embed(title=title, colour=COLOUR)
    lines = list(sight.lines)
    if not lines:
        embed.description = t("watch.no_moves", lang)
        return embed
    room = min(LOG_LIMIT, room - len(title))
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        cost = len(line) + 1
        if used + cost > room - 60:  # room for the "earlier lines" line
            break
        kept.append(line)
        used += cost
    kept.reverse()
    left_out = len(lines) - len(kept)
    if left_out:
        kept.insert(0, t("watch.earlier", lang, n=left_out))
    embed.description = "\n".join(kept)[:LOG_LIMIT]
    return embed


async def compose(sight: Sight, *, table_id: int, game: str, lang: str, until: float) -> Composed:
    """The panel's message: ``content``, ``embeds``, ``attachments`` (the picture, when there is one) and ``view``."""
    from bot.cogs.economy import game_name

    ui = ui_for(game)
    head = t("watch.title", lang, game=game_name(game, lang), table=table_id)
    content = "\n".join([head, _status(sight, lang), t("watch.until", lang, time=f"<t:{int(until)}:t>")])
    embeds: list[discord.Embed] = []
    attachments: list[discord.File] = []
    digest = ""
    if sight.view is not None:
        summary = ui.public_summary(sight.view, sight.ctx)
        image = await render_in_thread(ui.render, sight.view, sight.ctx)
        digest = hashlib.blake2b(image, digest_size=16).hexdigest()
        summary.set_image(url=f"attachment://{FILENAME}")
        attachments.append(discord.File(io.BytesIO(image), filename=FILENAME))
        embeds.append(summary)
    if sight.mode != "waiting":
        embeds.append(log_embed(sight, lang, EMBEDS_LIMIT - sum(len(e) for e in embeds)))
    view = buttons(table_id, lang)
    signature = repr((content, [e.to_dict() for e in embeds], digest))
    fields = {"content": content[:CONTENT_LIMIT], "embeds": embeds, "attachments": attachments, "view": view}
    return Composed(fields, signature)


def buttons(table_id: int, lang: str, *, stopped: bool = False) -> discord.ui.View:
    """**Refresh** and **Stop watching** (a stopped panel: **Watch again** only). Answered from their ids
    (:mod:`bot.tables.components`), so they work after a restart; never kept by discord.py."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=t("watch.again" if stopped else "watch.refresh", lang),
            emoji="👁️" if stopped else "🔄",
            style=discord.ButtonStyle.primary if stopped else discord.ButtonStyle.secondary,
            custom_id=ids.table(table_id, "watch"),
        )
    )
    if not stopped:
        view.add_item(
            discord.ui.Button(
                label=t("watch.stop", lang),
                style=discord.ButtonStyle.secondary,
                custom_id=ids.table(table_id, "unwatch"),
            )
        )
    view.stop()
    return view
