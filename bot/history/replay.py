"""A replay of one settled deal, privately the member's: one picture per step, ⏮ ◀ ▶ ⏭ and a "jump to" menu.

A step is built off the event loop (:func:`frame`, on the render pool: it replays the deal to that step from its
start) and its picture is drawn there too, by the game's own renderer from the **public** view
(:func:`bot.render.render_in_thread`, cached like a table's picture). See :mod:`bot.history` for what is shown to whom.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.history import ids
from bot.i18n import t
from bot.render import render_in_thread
from bot.render.runner import off_loop
from bot.storage.replays import HistoryQueries, ReplaySource
from bot.storage.retention import RetentionQueries
from bot.ui import ui_for
from bot.ui.base import TableContext
from bot.ui.bot_levels import stored_names
from games.core.errors import GameError
from games.core.record import TableRecord
from games.core.rng import Shuffle
from games.registry import get_game
from games.tape import DealTape, cut

if TYPE_CHECKING:
    from bot.storage import Database, Table

log = logging.getLogger(__name__)

COLOUR = discord.Colour.from_rgb(0x45, 0x5A, 0x64)
MENU_OPTIONS = 25
NARRATION_LINES = 8
CACHE_TAPES = 16
FILENAME = "replay.png"


# ---------------------------------------------------------------------------- loading a deal


@dataclass(frozen=True)
class Loaded:
    """A deal ready to step: its tape and the table it was played at."""

    tape: DealTape
    table: Table
    seeds: tuple[str, ...] = ()
    """The deal's shuffle seeds, revealed when it was settled (its results message shows them too)."""


def _rows(source: ReplaySource) -> tuple[TableRecord, list[tuple[int, str, Any]], bool]:
    """The record to walk from, its log rows as :func:`games.tape.cut` reads them, and whether the starts found on
    the way can be kept (not for a table stored before the log: its rows have no log positions)."""
    origin = TableRecord.loads(source.origin)
    if source.table.opening is None:
        rows: list[tuple[int, str, Any]] = [(i + 1, "shuffle", s) for i, s in enumerate(origin.shuffles)]
        rows += [(len(rows) + i + 1, "action", a) for i, a in enumerate(origin.actions)]
        return origin.head(), rows, False
    rows = []
    for entry in source.rows:
        if entry.kind == "shuffle":
            rows.append((entry.seq, "shuffle", Shuffle.from_json(json.loads(entry.body))))
        elif entry.seat is not None:
            rows.append((entry.seq, "action", (entry.seat, entry.body)))
    return origin, rows, True


def build(source: ReplaySource) -> tuple[DealTape, list[tuple[int, int, str]]]:
    """The deal's tape and the starts to keep ``(deal, seq, record JSON)`` (run on the worker pool: a walk from an
    early start costs as many deals as it passes)."""
    origin, rows, keep = _rows(source)
    tape, starts = cut(origin, rows, source.hand.deal_no, origin_seq=source.origin_seq)
    found = [(s.deal, s.seq, s.record.dumps()) for s in starts if s.deal > source.origin_deal] if keep else []
    return tape, found


class _Memory:
    """Deals recently stepped, per bot (a restarted bot starts with none), and the reads under way."""

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[int, int], Loaded] = OrderedDict()
        self.loading: dict[tuple[int, int], asyncio.Future[Loaded]] = {}


_memories: weakref.WeakKeyDictionary[Any, _Memory] = weakref.WeakKeyDictionary()


async def load(client: Any, db: Database, table_id: int, deal: int, guild_id: int | None) -> Loaded:
    """The settled deal ``deal`` of the table, ready to step; refused (``history.no_deal``) when the table is not of
    this server or the deal was not settled. The bot keeps the deals it stepped last in memory; anything else is
    read from the database (after a restart, everything)."""
    memory = _memories.get(client)
    if memory is None:
        memory = _memories[client] = _Memory()
    key = (table_id, deal)
    loaded = memory.kept.get(key)
    if loaded is None:
        pending = memory.loading.get(key)
        if pending is None:
            pending = memory.loading[key] = asyncio.ensure_future(_read(db, table_id, deal, guild_id))
            pending.add_done_callback(lambda _f: memory.loading.pop(key, None))
        loaded = await asyncio.shield(pending)
        memory.kept[key] = loaded
        while len(memory.kept) > CACHE_TAPES:
            memory.kept.popitem(last=False)
    memory.kept.move_to_end(key)
    if loaded.table.guild_id != guild_id:
        raise UserError("history.no_deal")
    return loaded


async def _read(db: Database, table_id: int, deal: int, guild_id: int | None) -> Loaded:
    queries = HistoryQueries(db)
    source = await queries.replay_source(table_id, deal)
    if source is None or source.table.guild_id != guild_id:  # refused before any walk through the log
        raise UserError("history.no_deal")
    if deal <= await RetentionQueries(db).purged_to(table_id):  # the server's retention setting dropped its details
        raise UserError("export.details_gone", deal=deal, table=table_id)
    try:
        tape, found = await off_loop(build, source)
    except GameError as exc:
        log.error("table %s: deal %s does not replay from its log (%s)", table_id, deal, exc)
        raise UserError("history.no_replay") from None
    if found:
        try:
            await queries.keep_starts(table_id, found)
        except Exception:  # a replay shown is worth more than the start kept: it is found again next time
            log.exception("table %s: could not keep %d deal starts", table_id, len(found))
    seeds = source.hand.summary.get("seeds") or []
    return Loaded(tape, source.table, tuple(str(s) for s in seeds) if isinstance(seeds, list) else ())


# ---------------------------------------------------------------------------- one step


@dataclass(frozen=True)
class Frame:
    """What one step shows its viewer (built on the worker pool, from the tape and the viewer's seat alone)."""

    index: int
    last: int
    view: Any
    """The public view the picture is drawn from."""
    lines: tuple[str, ...]
    """The step's narration: its public events, and the viewer's own private ones."""
    own: str | None
    """The viewer's own view at this step, in words (seated viewers; not at the last step, when the next deal's
    cards may already be theirs)."""
    moments: tuple[tuple[int, str], ...]
    """The key moments: (step, label)."""


def context(table: Table, lang: str) -> TableContext:
    spec = get_game(table.game)
    rules = spec.rules_model.model_validate(table.rules)
    names = stored_names(table.seats, lang)
    return TableContext(table.id, names, table.stake, table.practice, lang, rules)


def frame(game: str, tape: DealTape, index: int, seat: int | None, ctx: TableContext) -> Frame:
    """Step ``index`` of the deal as ``seat`` (None: someone who did not sit) may see it."""
    ui = ui_for(game)
    engine = tape.engine_at(index)
    if index == tape.last and engine.shuffler.missing and index > 0:
        view = tape.engine_at(index - 1).public_view()  # the next deal was dealt from a stub: never drawn
    else:
        view = engine.public_view()
    lines = tuple(line for e in tape.told(index) if e.visible_to(seat) and (line := ui.describe(e, ctx)))
    own = None
    if seat is not None and index < tape.last:
        own = ui.panel(engine.view(seat), seat, [], ctx, {}).text
    moments = []
    for s in tape.steps:
        if not s.key:
            continue
        if s.index == 0:
            label = t("history.moment_start", ctx.lang)
        elif s.index == tape.last:
            label = t("history.moment_result", ctx.lang)
        else:
            said = [line for e in s.events if e.public and (line := ui.describe(e, ctx))]
            label = said[-1] if said else t("history.moment_step", ctx.lang, n=s.index)
        moments.append((s.index, label))
    return Frame(index, tape.last, view, lines, own, tuple(moments))


# ---------------------------------------------------------------------------- the message


def _window(moments: tuple[tuple[int, str], ...], index: int) -> tuple[tuple[int, str], ...]:
    """At most :data:`MENU_OPTIONS` moments, around the step shown."""
    if len(moments) <= MENU_OPTIONS:
        return moments
    near = min(range(len(moments)), key=lambda i: abs(moments[i][0] - index))
    first = max(0, min(near - MENU_OPTIONS // 2, len(moments) - MENU_OPTIONS))
    return moments[first : first + MENU_OPTIONS]


def view_of(loaded: Loaded, shown: Frame, lang: str) -> discord.ui.View:
    table, deal, index, last = loaded.table.id, loaded.tape.deal, shown.index, shown.last
    view = discord.ui.View(timeout=None)
    for verb, emoji, key, disabled in (
        ("f", "⏮️", "history.first", index == 0),
        ("p", "◀️", "history.previous", index == 0),
        ("n", "▶️", "history.next", index == last),
        ("l", "⏭️", "history.last", index == last),
    ):
        view.add_item(
            discord.ui.Button(
                label=t(key, lang),
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=ids.replay_id(table, deal, index, verb),
                row=0,
            )
        )
    options = [
        discord.SelectOption(
            label=f"{step}. {label}"[:100],
            value=str(step),
            default=step == index,
            emoji="📍" if step == index else None,
        )
        for step, label in _window(shown.moments, index)
    ]
    if options:
        view.add_item(
            discord.ui.Select(
                custom_id=ids.replay_id(table, deal, index, "j"),
                placeholder=t("history.jump", lang),
                options=options,
                row=1,
            )
        )
    view.stop()  # answered from the custom id (bot.cogs.history), never kept by discord.py
    return view


def embeds_of(loaded: Loaded, shown: Frame, ctx: TableContext, seat: int | None) -> list[discord.Embed]:
    from bot.cogs.economy import game_name

    lang = ctx.lang
    tape = loaded.tape
    embed = discord.Embed(
        title=t("history.replay_title", lang, game=game_name(tape.game, lang), table=loaded.table.id, deal=tape.deal),
        colour=COLOUR,
    )
    head = (
        t("history.step_start", lang, last=shown.last)
        if shown.index == 0
        else t("history.step", lang, n=shown.index, last=shown.last)
    )
    lines = list(shown.lines[-NARRATION_LINES:])
    embed.description = "\n".join([f"**{head}**", *lines])[:1500]  # with the result embed, within 6,000 in all
    if shown.own is not None:
        embed.add_field(name=t("history.your_view", lang), value=shown.own[:1024] or "—", inline=False)
    embed.set_image(url=f"attachment://{FILENAME}")
    embed.set_footer(text=t("history.footer_seated" if seat is not None else "history.footer_public", lang))
    out = [embed]
    if shown.index == shown.last and tape.result is not None:
        result = ui_for(tape.game).result_embed(tape.result, ctx)
        if loaded.seeds:  # as the results message gives them
            seeds = "\n".join(f"`{s}`" for s in loaded.seeds)[:1024]
            result.add_field(name=t("table.seed_revealed", lang), value=seeds, inline=False)
        out.append(result)
    return out


async def message(loaded: Loaded, index: int, seat: int | None, lang: str) -> dict[str, Any]:
    """``embeds``, ``view`` and ``file`` for step ``index`` of the deal as ``seat`` sees it."""
    tape = loaded.tape
    if not 0 <= index <= tape.last:
        raise UserError("history.no_step")
    ctx = context(loaded.table, lang)
    shown: Frame = await off_loop(frame, tape.game, tape, index, seat, ctx)
    image = await render_in_thread(ui_for(tape.game).render, shown.view, ctx)
    return {
        "embeds": embeds_of(loaded, shown, ctx, seat),
        "view": view_of(loaded, shown, lang),
        "file": discord.File(io.BytesIO(image), filename=FILENAME),
    }


def seat_of(loaded: Loaded, user_id: int) -> int | None:
    """The viewer's seat in the deal (None: they did not sit at the table)."""
    seat = loaded.table.seat_of(user_id)
    return None if seat is None else seat.position
