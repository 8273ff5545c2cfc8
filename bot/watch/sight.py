"""What a watcher is shown, taken from the public view only: the live table, or (with the server's delay) the last
settled deal as it ended.

Neither path ever asks an engine for a seat's view. The live sight is taken under the table's lock, like a panel's
snapshot, so it never shows a change still being written. The delayed sight comes from the deal's replay
(:func:`bot.history.replay.load`, :mod:`games.tape`): the same tape, the same last step and the same picture a
``/history`` replay ends on, rebuilt from the database, so it is the same after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from bot.history import replay
from bot.render.runner import off_loop
from bot.ui import ui_for

if TYPE_CHECKING:
    from bot.storage import Database
    from bot.tables.session import TableSession
    from bot.ui.base import TableContext
    from games.tape import DealTape

Mode = Literal["live", "delayed", "waiting"]


@dataclass(frozen=True)
class Sight:
    """What a watcher's panel shows.

    ``live``: the table now: ``view`` is its public view, ``lines`` the narration of every public event since the
    current deal (``deal``) began, ``to_act`` who must act now. ``delayed``: the last settled deal (``deal``) as it
    ended: the view its replay ends on, the narration of its every public event; ``playing`` is the deal in play,
    of which nothing is shown (nor who is to act in it). ``waiting``: delayed, but no deal is settled yet: nothing
    of the table is shown but which deal is in play."""

    mode: Mode
    deal: int
    playing: int
    view: Any | None
    lines: tuple[str, ...]
    to_act: tuple[str, ...]
    ctx: TableContext
    over: bool = False
    """The game is over (its final message is on its way)."""


async def live(session: TableSession, lang: str) -> Sight:
    """The table now, as everyone may see it (taken under the table's lock)."""
    ui = ui_for(session.game)
    async with session.lock:
        engine = session.playing_engine()
        view = engine.public_view()
        events = list(session.deal_events)  # public events only (the session keeps no other)
        acting = sorted(engine.to_act())
        ctx = session.ctx(lang)
        deal, over = engine.deal_no, engine.is_over
    names = ctx.names
    lines = tuple(line for e in events if e.public and (line := ui.describe(e, ctx)))
    return Sight("live", deal, deal, view, lines, tuple(names[s] for s in acting), ctx, over)


def settled_parts(game: str, tape: DealTape, ctx: TableContext) -> tuple[Any, tuple[str, ...]]:
    """A settled deal's last public view (the step its replay ends on) and the narration of its every public event
    (runs on the worker pool: the view replays the deal)."""
    ui = ui_for(game)
    view = replay.frame(game, tape, tape.last, None, ctx).view
    lines = tuple(
        line for index in range(tape.last + 1) for e in tape.told(index) if e.public and (line := ui.describe(e, ctx))
    )
    return view, lines


async def delayed(
    client: Any, db: Database, session: TableSession, settled: int | None, playing: int, lang: str
) -> Sight:
    """The last settled deal (``settled``; None: none yet) as it ended, with ``playing`` the deal in play."""
    if settled is None:
        return Sight("waiting", 0, playing, None, (), (), session.ctx(lang))
    loaded = await replay.load(client, db, session.id, settled, session.guild_id)
    ctx = replay.context(loaded.table, lang)
    view, lines = await off_loop(settled_parts, loaded.tape.game, loaded.tape, ctx)
    return Sight("delayed", settled, playing, view, lines, (), ctx)
