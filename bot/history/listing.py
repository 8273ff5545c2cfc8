"""``/history [member] [game]``: a member's settled deals, newest first, ten to a page, privately the viewer's.

Each line says when, which game and table (and where it was played), who sat, and the member's result in chips; the
menu under the page opens any of them as a replay (what that shows depends on who presses, never on whose history
it is: see :mod:`bot.history`). ◀ ▶ page by hand id, so a page stays the same while new deals are played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.history import ids
from bot.i18n import t
from bot.storage.replays import DealEntry, DealsPage, HistoryQueries

if TYPE_CHECKING:
    from bot.storage import Database

PAGE = 10
COLOUR = discord.Colour.from_rgb(0x45, 0x5A, 0x64)


async def page_of(
    db: Database,
    guild_id: int,
    member: int,
    game: str | None,
    *,
    before: int | None = None,
    after: int | None = None,
) -> DealsPage:
    return await HistoryQueries(db).member_deals(guild_id, member, game=game, before=before, after=after, limit=PAGE)


def _where(entry: DealEntry) -> str:
    return f"<#{entry.channel_id}>"


def _names(entry: DealEntry) -> str:
    return entry.seated


def _chips(entry: DealEntry) -> int:
    return entry.hand.delta


def message(page: DealsPage, viewer: int, member: discord.abc.User, game: str | None, lang: str) -> dict[str, Any]:
    """``embed`` and ``view`` of a page (``member``: whose history it is)."""
    from bot.cogs.economy import game_name

    title_key = "history.title_game" if game else "history.title"
    embed = discord.Embed(
        title=t(title_key, lang, name=member.display_name, game=game_name(game, lang) if game else ""),
        colour=COLOUR,
    )
    lines = []
    for n, entry in enumerate(page.entries, 1):
        hand = entry.hand
        lines.append(
            t(
                "history.line",
                lang,
                n=n,
                when=f"<t:{int(hand.created_at)}:R>",
                game=game_name(hand.game, lang),
                table=hand.table_id,
                deal=hand.deal_no,
                where=_where(entry),
                names=_names(entry),
                chips=f"{_chips(entry):+,}",
            )
        )
    embed.description = "\n".join(lines)[:4000]
    mine = member.id == viewer
    embed.set_footer(text=t("history.footer_mine" if mine else "history.footer_other", lang))
    view = discord.ui.View(timeout=None)
    options = [
        discord.SelectOption(
            label=t(
                "history.option",
                lang,
                n=n,
                game=game_name(e.hand.game, lang),
                table=e.hand.table_id,
                deal=e.hand.deal_no,
                chips=f"{_chips(e):+,}",
            )[:100],
            description=_names(e)[:100] or None,
            value=f"{e.hand.table_id}.{e.hand.deal_no}",
        )
        for n, e in enumerate(page.entries, 1)
    ]
    newest, oldest = page.entries[0].hand.id, page.entries[-1].hand.id
    view.add_item(
        discord.ui.Select(
            custom_id=ids.list_id(viewer, member.id, game, newest, "o"),
            placeholder=t("history.open", lang),
            options=options,
            row=0,
        )
    )
    for verb, anchor, emoji, key, enabled in (
        ("p", newest, "◀️", "history.newer", page.newer),
        ("n", oldest, "▶️", "history.older", page.older),
    ):
        view.add_item(
            discord.ui.Button(
                label=t(key, lang),
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                disabled=not enabled,
                custom_id=ids.list_id(viewer, member.id, game, anchor, verb),
                row=1,
            )
        )
    view.stop()  # answered from the custom id (bot.cogs.history), never kept by discord.py
    return {"embed": embed, "view": view}


def opened(values: list[str]) -> tuple[int, int]:
    """The ``(table, deal)`` a history menu's choice names; refused when it is not one."""
    if len(values) != 1:
        raise UserError("history.bad_button")
    table, _, deal = values[0].partition(".")
    if not (table.isdigit() and deal.isdigit()) or int(table) < 1 or int(deal) < 1:
        raise UserError("history.bad_button")
    return int(table), int(deal)
