"""Coached practice tables at run time: opening one, the coach's note on the learner's panel, and the end of the
lesson with its review.

A lesson's table is a normal practice table (its record, its log, its restarts, ``/verify``): what makes it a lesson
is its first shuffle, the lesson's seat-draw seed (:mod:`bot.learn.lessons`). So a table is recognised as a lesson
after a restart from its own log, with nothing stored beside it. The learner is its one member; every other seat is
a bot, so nobody else can act at it.

The teacher plugs into the table runtime through its two general hooks: a note source for panels
(:attr:`bot.tables.panels.Panels.note_sources`), which adds the coach's note under the learner's panel at every
decision, worked out on the worker pool; and a watcher of changes (:attr:`bot.tables.play.Play.watchers`), which stops
the table once the lesson's deals are settled and posts the review button in the table's place.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.i18n import lang_of, t
from bot.learn.coach import note_text
from bot.learn.lessons import BOT_LEVEL, Lesson, by_seed
from bot.learn.review import review, review_text
from bot.render.runner import off_loop, think
from bot.tables.places import missing_thread_permissions
from bot.ui.bot_levels import stored_names

if TYPE_CHECKING:
    from bot.app import FudabaBot
    from bot.storage import TablePlace
    from bot.tables.panels import Snapshot
    from bot.tables.session import Outcome, TableSession

log = logging.getLogger(__name__)

LESSON_TURN_SECONDS = 24 * 3600
"""A lesson's time for each decision: a newcomer reading the coach's note is not played for by the away policy after
the server's turn timer (a minute by default); "My hand" brings the panel back any time that day."""
NOTES_KEPT = 256
"""Coach's notes kept, by what they were drawn from (a panel redrawn unchanged does not ask the worker pool again)."""


def review_id(table_id: int) -> str:
    return f"fdb:learn:review:{table_id}"


@dataclass
class Taught:
    """A lesson's table: which lesson, and who is learning."""

    lesson: Lesson
    learner: int
    ended: bool = False


def lesson_title(lesson: Lesson, lang: str) -> str:
    return t(f"learn.lesson_{lesson.game}_{lesson.id}", lang)


class Teacher:
    def __init__(self, bot: FudabaBot) -> None:
        self.bot = bot
        self.known: dict[int, Taught | None] = {}
        self.notes: OrderedDict[tuple[Any, ...], str | None] = OrderedDict()

    def attach(self) -> None:
        """Join the table runtime (once; the cog does it as soon as the runtime exists)."""
        tables = self.bot.tables
        if self.note not in tables.panels.note_sources:
            tables.panels.note_sources.append(self.note)
        if self.watch not in tables.play.watchers:
            tables.play.watchers.append(self.watch)

    def detach(self) -> None:
        tables = self.bot.tables
        if self.note in tables.panels.note_sources:
            tables.panels.note_sources.remove(self.note)
        if self.watch in tables.play.watchers:
            tables.play.watchers.remove(self.watch)

    # ------------------------------------------------------------------ which tables are lessons

    async def taught(self, session: TableSession) -> Taught | None:
        """The lesson a table teaches, known from its first shuffle's seed (asked of the log once per table)."""
        if not session.practice:
            return None
        if session.id in self.known:
            return self.known[session.id]
        shuffles = await self.bot.db.deal_shuffles(session.id, 1)
        seed = shuffles[0].get("seed") if shuffles else None
        found = by_seed(seed) if isinstance(seed, str) else None
        members = [s.user_id for s in session.seats if not s.bot and s.user_id is not None]
        taught = None
        if found is not None and found.game == session.game and len(members) == 1:
            taught = Taught(found, members[0])
        self.known[session.id] = taught
        return taught

    # ------------------------------------------------------------------ opening

    async def open(self, interaction: discord.Interaction, lesson: Lesson) -> None:
        """``/learn``: the lesson's table, started at once with its bots and its deal; the learner is told where."""
        self.attach()
        place: TablePlace | None = "channel" if missing_thread_permissions(interaction.app_permissions) else None
        session = await self.bot.tables.lobby.open(
            interaction,
            lesson.game,
            None,
            None,
            practice=True,
            place=place,
            bots=lesson.bots,
            bot_level=BOT_LEVEL,
            deal=lesson.shuffler(),
            tell=False,
            turn_seconds=LESSON_TURN_SECONDS,
        )
        if session is None:
            return
        self.known.setdefault(session.id, Taught(lesson, interaction.user.id))
        lang = lang_of(interaction.locale)
        where = f"<#{session.channel_id}>"
        said = t(
            "learn.opened",
            lang,
            title=lesson_title(lesson, lang),
            where=where,
            intro=t(f"learn.intro_{lesson.game}_{lesson.id}", lang),
        )
        await interaction.followup.send(said, ephemeral=True)

    # ------------------------------------------------------------------ the coach's note

    async def note(self, session: TableSession, seat: int, snap: Snapshot) -> str | None:
        taught = await self.taught(session)
        if taught is None or session.seats[seat].user_id != taught.learner:
            return None
        lang = snap.ctx.lang
        head = t("learn.note_head", lang, title=lesson_title(taught.lesson, lang))
        key = (session.id, seat, snap.decision, tuple(sorted(snap.state.items())), lang, len(snap.legal))
        if key in self.notes:
            self.notes.move_to_end(key)
            body = self.notes[key]
        else:
            body = await think(
                note_text, session.game, snap.view, seat, list(snap.legal), snap.ctx, snap.state, snap.decision
            )
            self.notes[key] = body
            while len(self.notes) > NOTES_KEPT:
                self.notes.popitem(last=False)
        return f"{head}\n{body or t('learn.note_waiting', lang)}"

    # ------------------------------------------------------------------ the end of a lesson

    def watch(self, session: TableSession, outcome: Outcome | None) -> None:
        if not session.practice or self.known.get(session.id, True) is None:
            return
        self.bot.tables.background.spawn(self._check(session), f"table {session.id}: checking its lesson")

    async def _check(self, session: TableSession) -> None:
        taught = await self.taught(session)
        if taught is None or taught.ended:
            return
        engine = session.engine
        over = session.status != "playing" or (
            engine is not None and (engine.is_over or engine.deal_no > taught.lesson.deals)
        )
        if not over:
            return
        taught.ended = True
        if session.status == "playing":
            try:
                await self.bot.tables.stop(session, by=taught.learner)
            except UserError as error:
                if error.key != "table.already_over":
                    raise
        await self._post_review_button(session, taught)

    async def _post_review_button(self, session: TableSession, taught: Taught) -> None:
        lang = session.lang
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(
                label=t("learn.review_button", lang),
                emoji="📋",
                custom_id=review_id(session.id),
                style=discord.ButtonStyle.primary,
            )
        )
        view.stop()  # answered by the cog's dynamic item, by custom id
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        said = t("learn.over", lang, user=f"<@{taught.learner}>", title=lesson_title(taught.lesson, lang))
        try:
            await channel.send(said, view=view, allowed_mentions=discord.AllowedMentions(users=True))
        except discord.HTTPException as exc:
            log.warning("table %s: the lesson's review button could not be posted (%s)", session.id, exc)

    # ------------------------------------------------------------------ the review

    async def review(self, interaction: discord.Interaction, table_id: int) -> None:
        """The review of a finished lesson, privately, to its learner only."""
        row = await self.bot.db.get_table(table_id)
        if row is None or row.guild_id != interaction.guild_id:
            raise UserError("learn.no_such_lesson")
        shuffles = await self.bot.db.deal_shuffles(table_id, 1)
        seed = shuffles[0].get("seed") if shuffles else None
        lesson = by_seed(seed) if isinstance(seed, str) and row.practice else None
        if lesson is None or lesson.game != row.game:
            raise UserError("learn.no_such_lesson")
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("learn.not_your_lesson")
        if row.active:
            raise UserError("learn.not_over")
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.bot.db.full_record(table_id)
        if record is None:
            raise UserError("learn.no_such_lesson")
        lang = lang_of(interaction.locale)
        names = stored_names(row.seats, lang)
        found = await off_loop(review, record, seat.position, lesson.deals, names, lang)
        embed = discord.Embed(
            title=t("learn.review_title", lang, title=lesson_title(lesson, lang)),
            description=review_text(found, lang)[:4000],
            colour=0x5C6BC0,
        )
        await interaction.followup.send(embed=embed, ephemeral=True)
