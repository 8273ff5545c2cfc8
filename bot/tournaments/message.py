"""The tournament message: what members follow a tournament by, in the server's language.

One message in the channel where the tournament was opened, edited as it goes: its settings and start, the prize
pool, while signing up its entrants and the **Sign up** / **Withdraw** buttons; once it runs, the round in play with
its tables and the standings (tournament chips won, best first, ties sharing a place); at the end the places and
prizes; or that it was cancelled and the buy-ins refunded. Its buttons carry the tournament's id, so they work after
a restart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.storage.tournaments import RoundTable, Tournament
from bot.tournaments.payout import PAYOUTS
from bot.tournaments.seating import places
from games.registry import get_game

COLOUR = 0xC9A227
NAMES_SHOWN = 40
"""Entrants named in the message while signing up (the count is always given)."""
STANDINGS_SHOWN = 25


def button_id(tournament_id: int, verb: str) -> str:
    return f"fdb:tourney:{tournament_id}:{verb}"


def game_name(game: str, lang: str) -> str:
    spec = get_game(game)
    return spec.name_ja if lang == "ja" else spec.name_en


def payout_text(name: str, lang: str) -> str:
    if name == "winner":
        return t("tournaments.payout_winner", lang)
    return " / ".join(f"{share} %" for share in PAYOUTS[name])


def settings_text(tournament: Tournament, lang: str) -> str:
    return t(
        "tournaments.settings",
        lang,
        buy_in=f"{tournament.buy_in:,}",
        size=tournament.table_size,
        rounds=tournament.rounds,
        deals=tournament.deals_per_round,
        payout=payout_text(tournament.payout, lang),
    )


def standings_lines(tournament: Tournament, lang: str, *, prizes: bool = False) -> list[str]:
    """``1. **alice** +30`` (and ``→ 260 chips`` once paid), best first; ties share a place."""
    ordered = [(e.user_id, e.score) for e in tournament.entries]
    lines = []
    for entry, place in zip(tournament.entries, places(ordered), strict=True):
        line = t("tournaments.standing", lang, place=place, name=entry.name, score=f"{entry.score:+,}")
        if prizes and entry.prize:
            line += " " + t("tournaments.prize", lang, prize=f"{entry.prize:,}")
        lines.append(line)
    return lines


def _clip(lines: Sequence[str], most: int, lang: str, limit: int = 1000) -> str:
    shown = list(lines[:most])
    if len(lines) > most:
        shown.append(t("tournaments.and_more", lang, n=len(lines) - most))
    text = "\n".join(shown)
    return text if len(text) <= limit else text[: text.rfind("\n", 0, limit - 10)] + "\n…"


def tables_text(tables: Sequence[RoundTable], lang: str) -> str:
    """Each table of the round where it is played, with who sits there."""
    lines = []
    for table in tables:
        where = f"<#{table.channel_id}>" if table.channel_id is not None else "…"
        names = ", ".join(name for _, name in table.members)
        if table.bots:
            names += " " + t("tournaments.with_bots", lang, n=table.bots)
        lines.append(t("tournaments.table_line", lang, n=table.table_no, where=where, names=names))
    return _clip(lines, 20, lang)


def embed(
    tournament: Tournament, *, tables: Sequence[RoundTable] = (), nets: Mapping[int, Mapping[int, int]] | None = None
) -> discord.Embed:
    """The tournament message's embed as the tournament stands."""
    lang = tournament.lang
    title = t("tournaments.title", lang, id=tournament.id, game=game_name(tournament.game, lang))
    out = discord.Embed(title=title, colour=COLOUR)
    start = int(tournament.start_at)
    status = tournament.status
    if status == "signup":
        out.description = t("tournaments.signing_up", lang, start=f"<t:{start}:F>", relative=f"<t:{start}:R>")
    elif status == "running":
        out.description = t("tournaments.running", lang, round=tournament.round, rounds=tournament.rounds)
    elif status == "finished":
        out.description = t("tournaments.finished", lang)
    else:
        out.description = t("tournaments.cancelled", lang)
        out.colour = discord.Colour.dark_grey()
    out.add_field(name=t("tournaments.f_settings", lang), value=settings_text(tournament, lang), inline=False)
    pool = sum(e.buy_in for e in tournament.entries)  # the pool while it is held; what it was once paid or refunded
    out.add_field(name=t("tournaments.f_pool", lang), value=t("tournaments.pool", lang, pool=f"{pool:,}"))
    out.add_field(name=t("tournaments.f_start", lang), value=f"<t:{start}:F>")
    count = len(tournament.entries)
    if status == "signup" or (status == "cancelled" and not tournament.round):
        names = [e.name for e in tournament.entries]
        out.add_field(
            name=t("tournaments.f_entrants", lang, n=count), value=_clip(names, NAMES_SHOWN, lang) or "—", inline=False
        )
    else:
        played = len(nets or {})
        heading = t("tournaments.f_standings", lang, played=played, rounds=tournament.rounds)
        lines = standings_lines(tournament, lang, prizes=status == "finished")
        out.add_field(name=heading, value=_clip(lines, STANDINGS_SHOWN, lang) or "—", inline=False)
    if status == "running" and tables:
        out.add_field(
            name=t("tournaments.f_tables", lang, round=tournament.round), value=tables_text(tables, lang), inline=False
        )
    out.set_footer(text=t("tournaments.footer", lang, id=tournament.id))
    return out


def view(tournament: Tournament) -> discord.ui.View | None:
    """**Sign up** and **Withdraw** while signing up; nothing after."""
    if tournament.status != "signup":
        return None
    lang = tournament.lang
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(
        discord.ui.Button(
            label=t("tournaments.sign_up", lang),
            emoji="✍️",
            style=discord.ButtonStyle.success,
            custom_id=button_id(tournament.id, "join"),
        )
    )
    buttons.add_item(
        discord.ui.Button(
            label=t("tournaments.withdraw", lang),
            style=discord.ButtonStyle.secondary,
            custom_id=button_id(tournament.id, "leave"),
        )
    )
    buttons.stop()  # answered by the cog's dynamic items, by custom id
    return buttons


def message_fields(
    tournament: Tournament, *, tables: Sequence[RoundTable] = (), nets: Mapping[int, Mapping[int, int]] | None = None
) -> dict[str, Any]:
    """What to send or edit the tournament message with."""
    return {"embed": embed(tournament, tables=tables, nets=nets), "view": view(tournament)}
