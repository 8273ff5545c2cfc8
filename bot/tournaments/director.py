"""Running tournaments: signing members up, starting on time, opening each round's tables, scoring a round once its
tables have all ended, seating the next round or paying the prize pool out, and cancelling.

Everything a tournament is lives in the database (:mod:`bot.storage.tournaments`); the director keeps nothing it
could not read back. One task per bot process looks at every tournament under way in its servers (at its start time,
whenever one of its tables ends, and at least every minute) and makes the one step due, under the tournament's lock;
each step is written by a transaction that first checks the tournament is still where the step found it, so a step
made again (after a restart, or by a second process) changes nothing. A restart therefore resumes at any point:
signing up (the buttons carry the tournament's id), between rounds (the next round is seated in the same
transaction that scores the last one), or in the middle of a round (its tables are restored by the table runtime and
the round is scored once they have all ended).

A round's tables are practice tables (tournament chips: nothing funds or returns their stacks) opened by
:meth:`bot.tables.lobby.Lobby.open_seated`, each limited to the tournament's deals per round, so each ends by itself
after its last deal (or sooner if its game ends by its own rules). Members who do not act are marked away by the
table's turn timer and played by the game's policy, as at any table. A round's result is each member's stack at the
end less the starting stack (:mod:`bot.tournaments.standings`); it adds to their standing, which seats the next round
(:func:`bot.tournaments.seating.snake`) and, after the last, shares the pool (:mod:`bot.tournaments.payout`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.i18n import t
from bot.limits.service import check_can_sit
from bot.render.runner import off_loop
from bot.storage import InsufficientFunds, LeaseLost
from bot.storage.ratings import RatingQueries, Standing
from bot.storage.tournaments import Plan, RoundTable, Tournament, TournamentStore
from bot.tournaments import message
from bot.tournaments.hooks import Hooks, TableStandings
from bot.tournaments.payout import PAYOUTS, prizes
from bot.tournaments.seating import draw, places, ranked, snake
from bot.tournaments.standings import closing_points
from games.registry import get_game

if TYPE_CHECKING:
    from bot.app import FudabaBot
    from bot.tables.session import TableSession

log = logging.getLogger(__name__)

POLL_SECONDS = 60.0
"""The longest the director waits before looking at the tournaments again (a table stopped by hand, a table that
could not open and is tried again, a step that failed)."""
MIN_ENTRANTS = 2
MAX_ENTRANTS = 200
"""Most entrants of a tournament whose tables open in threads (one table's seats when they open in the channel)."""


class Director:
    def __init__(self, bot: FudabaBot) -> None:
        self.bot = bot
        self.store = TournamentStore(bot.db)
        self.hooks = Hooks(table_results=[self._rate])
        self._locks: dict[int, asyncio.Lock] = {}
        self._message_locks: dict[int, asyncio.Lock] = {}
        self._kick: asyncio.Task[None] | None = None
        """The look at the tournaments under way (one at a time)."""
        self._again = False
        """Something happened during the look: look once more."""
        self._sleeper: asyncio.Task[None] | None = None
        """Sleeps until the next look is due."""
        self._live = True
        """Whether the last look found a tournament under way here (else the director sleeps until woken)."""
        self._warned: set[tuple[int, int]] = set()
        """(tournament, round) whose tables could not all open: said once in the channel."""

    # ------------------------------------------------------------------ life

    def attach(self) -> None:
        """Join the table runtime: a table's final message wakes the director (the cog wakes it when the bot is
        ready, once the table runtime has restored its tables)."""
        finals = self.bot.tables.public.on_final
        if self._table_ended not in finals:
            finals.append(self._table_ended)

    def detach(self) -> None:
        finals = self.bot.tables.public.on_final
        if self._table_ended in finals:
            finals.remove(self._table_ended)
        for task in (self._kick, self._sleeper):
            if task is not None:
                task.cancel()
        self._kick = self._sleeper = None

    def _table_ended(self, session: TableSession) -> None:
        self.wake()

    def wake(self) -> None:
        """Look at the tournaments now (again, if a look is under way), then sleep until the next look is due."""
        if self._kick is not None and not self._kick.done():
            self._again = True
            return
        self._kick = asyncio.create_task(self._look())

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def _look(self) -> None:
        while True:
            self._again = False
            due: float | None = None
            try:
                due = await self.tick()
            except Exception:
                log.exception("tournaments: looking at the tournaments failed; trying again later")
            if not self._again:
                break
        if self._sleeper is not None:
            self._sleeper.cancel()
            self._sleeper = None
        if not self._live:
            return  # nothing under way here: opening a tournament wakes the director again
        wait = POLL_SECONDS if due is None else min(POLL_SECONDS, max(0.0, due - self.bot.clock()))
        self._sleeper = asyncio.create_task(self._sleep(wait))

    async def _sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.wake()

    async def tick(self) -> float | None:
        """Make every step due; returns the next start time to wake for (None: none is waiting), and notes whether
        any tournament is under way here (none: no timer is left running, on an idle bot or in a test)."""
        due: float | None = None
        live = False
        for tournament in await self.store.live():
            if not self.bot.tables.owns(tournament.guild_id):
                continue
            live = True
            try:
                await self.step(tournament.id)
            except Exception:
                log.exception("tournament %s: its step failed; trying again later", tournament.id)
            if tournament.status == "signup" and tournament.start_at > self.bot.clock():
                due = tournament.start_at if due is None else min(due, tournament.start_at)
        self._live = live
        return due

    async def step(self, tournament_id: int) -> None:
        """The step due for one tournament, if any: its start, its round's tables, or its round's end."""
        async with self._lock(tournament_id):
            tournament = await self.store.get(tournament_id)
            if tournament is None or not tournament.live:
                return
            if tournament.status == "signup":
                if self.bot.clock() < tournament.start_at:
                    return
                if not await self._start(tournament):
                    return
                tournament = await self.store.get(tournament_id)
            # A round that ends is followed at once by the next (seated in the same write): open its tables now.
            while tournament is not None and tournament.status == "running" and await self._play_round(tournament):
                tournament = await self.store.get(tournament_id)

    async def _rate(self, table: TableStandings) -> None:
        """A round's table is a finished game between its members: rated once (bot.storage.ratings), though its
        chips are tournament chips (its table is a practice table, which the ratings skip on their own)."""
        standings = [Standing(user_id, chips) for user_id, chips in table.standings]
        source = f"tournament:{table.tournament_id}:{table.round}:{table.table_id}"
        await RatingQueries(self.bot.db).rate(table.guild_id, table.game, standings, source=source)

    # ------------------------------------------------------------------ signing up

    async def sign_up(self, interaction: discord.Interaction, tournament_id: int) -> Tournament:
        """A member's **Sign up**: their buy-in into escrow. Refusals are :class:`UserError` (nothing moved)."""
        user, guild_id = interaction.user, interaction.guild_id
        tournament = await self.store.get(tournament_id)
        if tournament is None or tournament.guild_id != guild_id:
            raise UserError("tournaments.no_such")
        if tournament.status != "signup" or self.bot.clock() >= tournament.start_at:
            raise UserError("tournaments.signup_closed")
        if tournament.entry(user.id) is not None:
            raise UserError("tournaments.already_signed_up")
        # Responsible play: a sign-up is a buy-in, so a member self-excluded, past a loss limit or above the server's
        # largest buy-in is refused here, privately, with when it ends (bot.limits). Tournament chips have no stake.
        if interaction.guild is not None:
            await check_can_sit(interaction, user, 0, tournament.buy_in, practice=False)
        for check in self.hooks.sign_up_checks:
            await check(tournament.guild_id, user.id, tournament.buy_in)
        most = MAX_ENTRANTS if tournament.place == "thread" else tournament.table_size
        name = (getattr(user, "display_name", None) or user.name)[:64]
        try:
            joined = await self.store.sign_up(tournament_id, user.id, name, key=str(interaction.id), most=most)
        except InsufficientFunds as error:
            raise UserError(
                "tournaments.not_enough_chips",
                buy_in=f"{tournament.buy_in:,}",
                balance=f"{int(error.params.get('available', 0)):,}",
            ) from None
        await self.refresh(tournament_id)
        return joined

    async def withdraw(self, interaction: discord.Interaction, tournament_id: int) -> Tournament:
        tournament = await self.store.get(tournament_id)
        if tournament is None or tournament.guild_id != interaction.guild_id:
            raise UserError("tournaments.no_such")
        left = await self.store.withdraw(tournament_id, interaction.user.id, key=str(interaction.id))
        await self.refresh(tournament_id)
        return left

    # ------------------------------------------------------------------ starting

    def _fewest(self, tournament: Tournament) -> int:
        spec = get_game(tournament.game)
        low, _ = spec.seat_range(spec.rules_model.model_validate(tournament.rules))
        return int(low)

    async def _start(self, tournament: Tournament) -> bool:
        """The start time has come: seat the first round by lot, or cancel a tournament too few signed up for."""
        if len(tournament.entries) < MIN_ENTRANTS:
            await self.store.cancel(tournament.id, actor_id=None)
            await self._post(tournament, t("tournaments.too_few", tournament.lang, id=tournament.id, n=MIN_ENTRANTS))
            await self.refresh(tournament.id)
            return False
        fewest = self._fewest(tournament)

        def first_round(scores: Mapping[int, int]) -> Plan:
            return Plan(
                [(p.members, p.bots) for p in draw(list(scores), tournament.seed, tournament.table_size, fewest)]
            )

        return await self.store.start(tournament.id, first_round)

    # ------------------------------------------------------------------ rounds

    async def _play_round(self, tournament: Tournament) -> bool:
        """Open the round's tables still to open; score the round once they have all ended. True when the round was
        scored (the next round, if any, is seated)."""
        tables = await self.store.round_tables(tournament.id, tournament.round)
        waiting = False
        for table in tables:
            if table.table_id is not None and table.status in ("lobby", "cancelled"):
                # The bot stopped while opening this table (it never started): open it again.
                if not await self._drop_unstarted(tournament, table):
                    waiting = True
                    continue
                table = await self._reread(tournament, table.table_no)
            if table.table_id is None and not await self._open_table(tournament, table):
                waiting = True
        if waiting:
            return False
        tables = await self.store.round_tables(tournament.id, tournament.round)
        if await self.store.announce(tournament.id, tournament.round):
            await self._announce(tournament, tables)
            await self.refresh(tournament.id)
        if all(table.status == "ended" for table in tables):
            return await self._finish_round(tournament, tables)
        return False

    async def _reread(self, tournament: Tournament, table_no: int) -> RoundTable:
        tables = await self.store.round_tables(tournament.id, tournament.round)
        return next(table for table in tables if table.table_no == table_no)

    async def _drop_unstarted(self, tournament: Tournament, table: RoundTable) -> bool:
        """A round's table left in its lobby (or cancelled there): cancel it if it is still open here, and forget it
        so it is opened afresh. False when another process holds it (it is looked at again later)."""
        assert table.table_id is not None
        if table.status == "lobby":
            session = self.bot.tables.tables.get(table.table_id)
            if session is None:
                return False
            with contextlib.suppress(UserError):
                await self.bot.tables.stop(session, by=tournament.host_id)
        await self.store.forget_table(tournament.id, table.round, table.table_no, table.table_id)
        return True

    async def _open_table(self, tournament: Tournament, table: RoundTable) -> bool:
        """Open one of the round's tables, started at once with its members and bots; False if it could not open
        (it is tried again at the next look, and the channel is told once)."""
        spec = get_game(tournament.game)
        rules = spec.rules_model.model_validate(tournament.rules)

        async def opened(table_id: int) -> None:
            await self.store.record_table(tournament.id, table.round, table.table_no, table_id)

        try:
            session = await self.bot.tables.lobby.open_seated(
                tournament.guild_id,
                tournament.channel_id,
                tournament.game,
                tournament.host_id,
                table.members,
                where=tournament.place,
                rules=rules,
                buy_in=spec.starting_chips(rules),
                practice=True,
                lang=tournament.lang,
                bots=table.bots,
                deal_limit=tournament.deals_per_round,
                opened=opened,
            )
        except Exception as error:
            log.warning(
                "tournament %s: round %s table %s could not open (%s); trying again later",
                tournament.id,
                table.round,
                table.table_no,
                getattr(error, "key", None) or getattr(error, "code", None) or error,
            )
            if (tournament.id, table.round) not in self._warned:
                self._warned.add((tournament.id, table.round))
                await self._post(tournament, t("tournaments.table_waits", tournament.lang, round=table.round))
            return False
        note = t(
            "tournaments.table_note",
            tournament.lang,
            id=tournament.id,
            round=table.round,
            rounds=tournament.rounds,
            n=table.table_no,
            deals=tournament.deals_per_round,
        )
        await self._send(tournament, session.channel_id, note)
        return True

    async def _announce(self, tournament: Tournament, tables: Sequence[RoundTable]) -> None:
        lang = tournament.lang
        head = t("tournaments.round_begins", lang, id=tournament.id, round=tournament.round, rounds=tournament.rounds)
        text = f"{head}\n{message.tables_text(tables, lang)}"
        await self._post(tournament, text[:1900])

    async def _finish_round(self, tournament: Tournament, tables: Sequence[RoundTable]) -> bool:
        """Every table of the round has ended: score it, then seat the next round or pay out, in one transaction."""
        spec = get_game(tournament.game)
        start = spec.starting_chips(spec.rules_model.model_validate(tournament.rules))
        nets: dict[int, int] = {}
        results: list[TableStandings] = []
        for table in tables:
            assert table.table_id is not None
            record, seats = await self.store.table_closing(table.table_id)
            if record is not None:
                points = await off_loop(closing_points, record)
                won = [p - start for p in points]
            else:  # no record kept (never expected): what the settled deals moved
                won = await self.store.table_deltas(table.table_id) or [0] * len(seats)
            standing = tuple((user, won[position]) for position, user in seats)
            results.append(
                TableStandings(
                    tournament.guild_id, tournament.game, tournament.id, table.round, table.table_id, standing
                )
            )
            for user, chips in standing:
                if user is not None:
                    nets[user] = chips
        fewest = self._fewest(tournament)
        following = tournament.round + 1

        def next_round(scores: Mapping[int, int]) -> Plan:
            plans = snake(scores, tournament.seed, following, tournament.table_size, fewest)
            return Plan([(p.members, p.bots) for p in plans])

        def pay(scores: Mapping[int, int], pool: int) -> tuple[dict[int, int], dict[int, int]]:
            # Ties share their places; who of them gets a rounding remainder is drawn by lot, as for seating.
            order = [(user, scores[user]) for user in ranked(scores, tournament.seed, following)]
            shared = prizes(pool, PAYOUTS[tournament.payout], order)
            return dict(zip((u for u, _ in order), places(order), strict=True)), shared

        last = tournament.round >= tournament.rounds
        done = await self.store.finish_round(
            tournament.id,
            tournament.round,
            nets,
            planner=None if last else next_round,
            payout=pay if last else None,
        )
        if not done:
            return False
        # RATINGS (issue 18, migration 0011): each table of the round is a finished game; its final standings go to
        # the ratings once, here (see bot/tournaments/hooks.py).
        for result in results:
            for rated in self.hooks.table_results:
                try:
                    await rated(result)
                except Exception:
                    log.exception(
                        "tournament %s: a table result hook failed (table %s)", tournament.id, result.table_id
                    )
        if last:
            await self._announce_end(tournament.id)
        await self.refresh(tournament.id)
        return True

    async def _announce_end(self, tournament_id: int) -> None:
        tournament = await self.store.get(tournament_id)
        if tournament is None:
            return
        lang = tournament.lang
        lines = message.standings_lines(tournament, lang, prizes=True)
        head = t("tournaments.over", lang, id=tournament.id, game=message.game_name(tournament.game, lang))
        await self._post(tournament, f"{head}\n" + "\n".join(lines[:15]))

    # ------------------------------------------------------------------ cancelling

    async def cancel(self, tournament_id: int, guild_id: int, by: int) -> Tournament:
        """A moderator's cancel: every buy-in back, in one movement; the round's tables stopped (their chips are
        tournament chips: nothing else moves)."""
        async with self._lock(tournament_id):
            tournament = await self.store.get(tournament_id)
            if tournament is None or tournament.guild_id != guild_id:
                raise UserError("tournaments.no_such")
            if not tournament.live:
                raise UserError("tournaments.not_live")
            cancelled = await self.store.cancel(tournament_id, actor_id=by)
            if tournament.round:
                for table in await self.store.round_tables(tournament_id, tournament.round):
                    session = self.bot.tables.tables.get(table.table_id or 0)
                    if session is None:
                        continue
                    try:
                        await self.bot.tables.stop(session, by=by)
                    except (UserError, LeaseLost) as error:
                        log.info("tournament %s: table %s not stopped (%s)", tournament_id, session.id, error)
        await self._post(cancelled, t("tournaments.cancelled_by", cancelled.lang, id=tournament_id, user=f"<@{by}>"))
        await self.refresh(tournament_id)
        return cancelled

    # ------------------------------------------------------------------ messages

    async def refresh(self, tournament_id: int) -> None:
        """Bring the tournament message up to date (one edit at a time per tournament, each from the state read
        after the one before, so the last edit shows the last state)."""
        lock = self._message_locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            tournament = await self.store.get(tournament_id)
            if tournament is None or tournament.message_id is None:
                return
            fields = await self.fields(tournament)
            channel = self.bot.get_partial_messageable(tournament.channel_id, guild_id=tournament.guild_id)
            try:
                await channel.get_partial_message(tournament.message_id).edit(**fields)
            except discord.HTTPException as exc:
                log.warning("tournament %s: its message could not be edited (%s)", tournament_id, exc)

    async def fields(self, tournament: Tournament) -> dict[str, Any]:
        tables = await self.store.round_tables(tournament.id, tournament.round) if tournament.round else []
        nets = await self.store.round_nets(tournament.id) if tournament.round else {}
        return message.message_fields(tournament, tables=tables, nets=nets)

    async def _post(self, tournament: Tournament, text: str) -> None:
        await self._send(tournament, tournament.channel_id, text)

    async def _send(self, tournament: Tournament, channel_id: int, text: str) -> None:
        channel = self.bot.get_partial_messageable(channel_id, guild_id=tournament.guild_id)
        try:
            await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("tournament %s: a message could not be posted in %s (%s)", tournament.id, channel_id, exc)
