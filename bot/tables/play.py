"""The one path every change of a playing table takes: commit, then react.

A member's click, a bot's or an away member's move, a turn timer running out, "My hand" bringing an away member
back, a lobby starting and a table rebuilt after a restart all come here. :class:`Play` commits the change through
the table's session (:meth:`~bot.tables.session.TableSession.commit`, under the table's lock, one transaction), and
handles in one place what can go wrong with the write:

* the table's lease was taken by another bot process — this process stops driving the table;
* the database went away — the table is rebuilt once it answers (the mover, the clicker: whoever it was);
* the decision was stale (someone moved first, or a double click) — :class:`Stale`, which each caller reads in its
  own way (a click shows the panel as it is now; a bot looks again; a timer lets the move that beat it stand).

Then it answers the one who asked (if anyone did) and runs the follow-up, written once here
(:meth:`Play.follow_up`): the results message, the end of the game, the table picture, the open panels, the turn
timer and the bots. The follow-up never waits for Discord's budget of channel requests: results are posted in the
background (the next table picture is posted below them), so panels, timers and bots move on at once.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.storage import LeaseLost
from bot.tables.session import Outcome, Settled, TableSession
from games.core.actions import Action

if TYPE_CHECKING:
    from bot.storage import Database
    from bot.tables.autoplay import Autoplay
    from bot.tables.ending import Ending
    from bot.tables.mentions import Mentions
    from bot.tables.panels import Panels
    from bot.tables.public import PublicMessages
    from bot.tables.registry import Registry
    from bot.tables.restore import Restorer
    from bot.tables.results import Results

log = logging.getLogger(__name__)

Answer = Callable[[Outcome], Awaitable[None]]
"""Tells the one who made the change what it did (a member's panel), before the follow-up runs."""


Watcher = Callable[["TableSession", Outcome], None]
"""Told of every change of a playing table once it is written and followed up (a feature that acts on what happened,
such as a practice lesson ending after its hand). It must not block: slow work goes in a task of its own."""


STALE_KEYS = frozenset({"table.stale_decision", "table.future_decision"})


class Stale(UserError):
    """The change was for a decision that is not the seat's current one: an earlier one (someone moved first, a
    double click: ``table.stale_decision``) or one never offered (a forged id: ``table.future_decision``)."""

    def __init__(self, key: str = "table.stale_decision") -> None:
        super().__init__(key)


class Play:
    """Commits changes of playing tables and runs what follows each, once."""

    def __init__(
        self,
        db: Database,
        registry: Registry,
        *,
        results: Results,
        public: PublicMessages,
        panels: Panels,
        autoplay: Autoplay,
        ending: Ending,
        restorer: Restorer,
        mentions: Mentions,
    ) -> None:
        self.db = db
        self.registry = registry
        self.results = results
        self.public = public
        self.panels = panels
        self.autoplay = autoplay
        self.ending = ending
        self.restorer = restorer
        self.mentions = mentions
        self.watchers: list[Watcher] = []
        """Told of each change after its follow-up (see :data:`Watcher`)."""

    # ------------------------------------------------------------------ changes

    async def move(
        self,
        session: TableSession,
        seat: int,
        action: Action,
        *,
        decision: int | None = None,
        by_policy: bool = False,
        answer: Answer | None = None,
    ) -> Outcome:
        """Make ``action`` for ``seat``; raises :class:`Stale`, a :class:`UserError` or the engine's refusal, having
        changed nothing. ``answer`` is told what the move did before the follow-up runs."""

        async def change() -> Outcome:
            return await session.commit(self.db, seat, action, decision=decision, by_policy=by_policy)

        return await self._run(session, change, answer)

    async def away(
        self, session: TableSession, seats: Sequence[int], away: bool = True, *, expect_serial: int | None = None
    ) -> Outcome:
        """Mark members away (their turn timer ran out) or back ("My hand")."""

        async def change() -> Outcome:
            return await session.mark_away(self.db, seats, away, expect_serial=expect_serial)

        return await self._run(session, change, None)

    async def started(self, session: TableSession, outcome: Outcome) -> None:
        """A lobby became a game (the lobby committed it under its own lock): what follows a start."""
        await self.follow_up(session, outcome)

    async def restored(self, session: TableSession, settled: list[Settled]) -> None:
        """A table was rebuilt from the database (after a restart, or the database coming back). A live table's
        turn timer starts afresh (nobody could act while the bot was away); a correspondence table keeps its
        deadline."""
        if session.pace != "correspondence":
            session.turn_started_at = None
        await self.follow_up(session, Outcome(None, None, settled=settled), restored=True)

    async def _run(
        self, session: TableSession, change: Callable[[], Awaitable[Outcome]], answer: Answer | None
    ) -> Outcome:
        try:
            outcome = await change()
        except LeaseLost:
            self.registry.lost(session)  # another bot process drives the table now; the caller is told so
            raise
        except UserError as error:
            if error.key in STALE_KEYS:
                raise Stale(error.key) from None
            self.restorer.revive(session)  # a write that found the database away left the table to rebuild
            raise
        # Before anything awaits: a stop waiting for the table's lock must find this deal's results owed (it posts
        # the final message after them), not have its final message turned into them a moment later.
        self._owe_results(session, outcome)
        try:
            if answer is not None:
                await answer(outcome)
        finally:
            # The change was made: what follows it runs, whatever Discord did.
            await self.follow_up(session, outcome, results_owed=True)
        return outcome

    def _owe_results(self, session: TableSession, outcome: Outcome) -> None:
        if outcome.settled:
            self.results.post_soon(session, outcome.settled, into_table=outcome.closure is None)
            if session.engine is not None:
                session.runtime.deal_pause_from = session.engine.serial

    # ------------------------------------------------------------------ what follows

    async def follow_up(
        self, session: TableSession, outcome: Outcome, *, restored: bool = False, results_owed: bool = False
    ) -> None:
        """Everything a change sets off on Discord, from what it did. ``restored``: the table was just rebuilt (its
        picture is redrawn after live tables' changes). ``results_owed``: the deal's results are already on their
        way (:meth:`_run` sends them off the moment the change is committed)."""
        if not results_owed:
            self._owe_results(session, outcome)
        if outcome.closure is not None:
            await self.ending.finish(session)
            self._tell(session, outcome)
            return
        if session.status != "playing":
            return  # stopped meanwhile: whoever stopped it has said how it ended
        engine = session.engine
        member_acted = outcome.seat is not None and not outcome.by_policy
        # A member's turn that begins with this change (not their own next step: their panel already shows that).
        member_to_act = engine is not None and any(
            not session.seats[s].autoplayed and s != outcome.seat for s in outcome.began
        )
        # After a deal's results, the table goes below them, so it stays at the bottom of the channel.
        self.public.mark(
            session,
            repost=bool(outcome.settled),
            low=restored and not outcome.settled,
            member=member_acted,
            to_act=member_to_act,
        )
        self.panels.follow(session)
        self.autoplay.arm_timer(session)
        self.autoplay.wake(session)
        self.mentions.after(session, actor=outcome.seat if member_acted else None)
        self._tell(session, outcome)

    def _tell(self, session: TableSession, outcome: Outcome) -> None:
        for watcher in self.watchers:
            try:
                watcher(session, outcome)
            except Exception:
                log.exception("table %s: a watcher of its changes failed", session.id)
