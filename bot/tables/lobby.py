"""Lobbies: opening a table, joining and leaving, bot players, starting, cancelling and expiry.

The database is the one source of truth for who sits where: after every change the lobby's seats are read
back from it (ordered by position, which becomes the engine's seat index when the table starts), so the seat
a member's chips are settled to is the seat they play.

A table opens only once its lobby message is in the channel: if posting fails, the table is cancelled and
the host's buy-in returned before they are told. Refusals (a buy-in above the balance, a busy channel) are
private.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.i18n import lang_of, t
from bot.limits import check_can_sit
from bot.storage import LeaseLost
from bot.tables import ids
from bot.tables.access import IsModerator, require_host
from bot.tables.components import lobby_view
from bot.tables.places import is_thread, missing_thread_permissions, thread_name
from bot.tables.session import Outcome, SeatInfo, TableSession
from bot.ui import bot_levels
from games.core.house_rules import changed_options
from games.core.rule_tables import find_row, row_text, row_value
from games.registry import DEFAULT_LEVEL, Level, get_game

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence

    from bot.storage import Database, TablePace, TablePlace
    from bot.tables.places import Places
    from bot.tables.play import Play
    from bot.tables.public import PublicMessages
    from bot.tables.registry import Registry
    from games.core.rng import Shuffler

log = logging.getLogger(__name__)

BOT_VERBS: dict[str, Level] = {"boteasy": "easy", "bot": DEFAULT_LEVEL, "botstrong": "strong"}
"""The lobby's add-bot buttons by the level of the bot each seats (the plain **Add bot** seats the default level)."""

BOT_NAMES = ("Tanuki", "Kitsune", "Tengu", "Kappa", "Tsuru", "Kame", "Usagi", "Saru", "Shika")


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:64]


class Lobby:
    def __init__(
        self,
        client: discord.Client,
        db: Database,
        registry: Registry,
        public: PublicMessages,
        places: Places,
        *,
        clock: Callable[[], float],
        lobby_timeout: float,
        new_shuffler: Callable[[], Shuffler],
        is_moderator: IsModerator,
    ) -> None:
        self.client = client
        self.db = db
        self.registry = registry
        self.public = public
        self.places = places
        self.clock = clock
        self.lobby_timeout = lobby_timeout
        self.new_shuffler = new_shuffler
        self.is_moderator = is_moderator
        self._play: Play | None = None

    def attach(self, play: Play) -> None:
        """The play path a started table's follow-up goes through."""
        self._play = play

    # ------------------------------------------------------------------ opening

    async def open(
        self,
        interaction: discord.Interaction,
        game_id: str,
        buy_in: int | None,
        stake: int | None,
        practice: bool = False,
        *,
        pace: str = "live",
        hours: int | None = None,
        place: TablePlace | None = None,
        bots: int = 0,
        bot_level: Level = DEFAULT_LEVEL,
        deal: Shuffler | None = None,
        tell: bool = True,
        turn_seconds: int | None = None,
    ) -> TableSession | None:
        """``/play``: a lobby in its own thread of this channel (or in the channel, by the server's setting or when
        ``place`` says so, as the button offered without the permission to make threads does). ``pace``
        ``correspondence`` gives each decision ``hours`` (within the server's longest).

        With ``deal`` the table does not wait in a lobby: ``bots`` bot players (of ``bot_level``) are seated beside the
        opener and the
        game starts at once, its shuffles drawn from ``deal`` (planned seeds first, as a record's are, then fresh
        ones), so the table's record replays and verifies like any other. ``tell`` False: the caller tells the opener
        (the table is returned; None when the opener was offered the channel instead). ``turn_seconds``: a live
        table's own time for each decision instead of the server's turn timer (no mentions: a lesson's learner reads
        the coach's note at their own pace)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        guild_id, channel_id, user = interaction.guild_id, interaction.channel_id, interaction.user
        # Refusals (a balance too small, a busy channel) are private: acknowledge privately, then post the lobby
        # itself as a channel message.
        await interaction.response.defer(ephemeral=True, thinking=True)
        db = self.db
        config = await db.get_config(guild_id)
        here = interaction.channel
        in_thread = is_thread(here)
        home = getattr(here, "parent_id", None) if in_thread else channel_id
        if config.allowed_channel_ids and home not in config.allowed_channel_ids:
            raise UserError("table.channel_not_allowed")
        # A table opened inside a thread is played in that thread; elsewhere the server's setting says.
        where: TablePlace = "channel" if in_thread else (place or config.table_place)
        if where == "channel" and self.registry.in_channel(channel_id) is not None:
            raise UserError("table.channel_busy")
        per_decision = self._turn_seconds(pace, hours, config.correspondence_max_hours)
        spec = get_game(game_id)
        data = await db.get_house_rules(guild_id, game_id)
        rules = spec.rules_model.model_validate(data) if data else spec.rules_model()
        stake = stake or 1
        buy_in = buy_in or spec.starting_chips(rules) * stake
        if buy_in % stake:
            raise UserError("table.buy_in_not_multiple", stake=stake)
        if buy_in // stake < 1:
            raise UserError("table.buy_in_too_small", stake=stake)
        assert interaction.guild is not None
        await check_can_sit(interaction, user, stake, buy_in, practice)  # the host's own seat and buy-in
        if where == "thread":  # offered only to a host who may sit (the offer would otherwise lead to a refusal)
            missing = missing_thread_permissions(interaction.app_permissions)
            if missing:
                await self._offer_channel(interaction, missing, game_id, buy_in, stake, practice, pace, hours)
                return None
        lang = lang_of(interaction.guild_locale or "en")
        session = await self._open(
            guild_id,
            channel_id,
            game_id,
            user.id,
            [(user.id, display_name(user))],
            where=where,
            placeholder=-interaction.id,
            rules=rules,
            buy_in=buy_in,
            stake=stake,
            practice=practice,
            lang=lang,
            pace="correspondence" if per_decision else "live",
            turn_seconds=per_decision or turn_seconds,
            bots=bots if deal is not None else 0,
            bot_level=bot_level,
            start=deal is not None,
            deal=deal,
        )
        if not tell:
            return session
        if where == "thread":
            said = t("table.opened_thread", interaction.locale, id=session.id, thread=f"<#{session.channel_id}>")
        else:
            said = t("table.opened", interaction.locale, id=session.id)
        await interaction.followup.send(said, ephemeral=True)
        return session

    async def open_seated(
        self,
        guild_id: int,
        channel_id: int,
        game_id: str,
        host_id: int,
        members: Sequence[tuple[int, str]],
        *,
        where: TablePlace,
        rules: Any,
        buy_in: int,
        practice: bool,
        lang: str,
        bots: int = 0,
        deal_limit: int | None = None,
        opened: Callable[[int], Awaitable[None]] | None = None,
    ) -> TableSession:
        """A table the bot opens by itself, at nobody's command (a tournament's round): ``members`` (user id, name) sit
        in this order, then ``bots`` bot players, and the game starts at once, in a thread of ``channel_id`` or in the
        channel itself (``where``). ``host_id`` may stop it (with the server's moderators) and need not sit.
        ``deal_limit``: the table ends by itself once that deal is settled (:attr:`TableSession.deal_limit`).
        ``opened`` is told the table's id as soon as it exists, before anyone sits, so a caller that keeps it can
        find the table again after a restart. Raises :class:`UserError` (nothing left open) when the table cannot be
        opened or posted."""
        return await self._open(
            guild_id,
            channel_id,
            game_id,
            host_id,
            members,
            where=where,
            placeholder=-secrets.randbits(62) - 1,
            rules=rules,
            buy_in=buy_in,
            stake=1,
            practice=practice,
            lang=lang,
            bots=bots,
            start=True,
            deal_limit=deal_limit,
            opened=opened,
        )

    async def _open(
        self,
        guild_id: int,
        channel_id: int,
        game_id: str,
        host_id: int,
        members: Sequence[tuple[int, str]],
        *,
        where: TablePlace,
        placeholder: int,
        rules: Any,
        buy_in: int,
        stake: int,
        practice: bool,
        lang: str,
        pace: TablePace = "live",
        turn_seconds: int | None = None,
        bots: int = 0,
        bot_level: Level = DEFAULT_LEVEL,
        start: bool = False,
        deal: Shuffler | None = None,
        deal_limit: int | None = None,
        opened: Callable[[int], Awaitable[None]] | None = None,
    ) -> TableSession:
        """Open a table: its row, its seats (``members`` in order, then ``bots``), its lobby message in
        ``channel_id`` and, ``where`` it is ``thread``, the thread that message starts; then either start it at once
        (``start``: no lobby buttons) or let the lobby wait for its expiry. Anything that fails cancels the table
        (every buy-in refunded) before it raises."""
        db = self.db
        spec = get_game(game_id)
        # A table for a thread waits under a placeholder place of its own until the thread exists.
        place_id = placeholder if where == "thread" else channel_id
        row = await db.open_table(
            guild_id,
            place_id,
            game_id,
            host_id,
            buy_in=buy_in,
            stake=stake,
            rules=rules.model_dump(mode="json"),
            practice=practice,
            lang=lang,
            parent_id=channel_id if where == "thread" else None,
            pace=pace,
            turn_seconds=turn_seconds,
            deal_limit=deal_limit,
        )
        session = TableSession.from_row(row, rules)
        try:
            if opened is not None:
                await opened(row.id)
            for user_id, name in members:
                await db.join_table(row.id, user_id, display_name=name)
            for _ in range(bots):
                await self._reload_seats(session)
                await db.add_bot_seat(session.id, self._bot_name(session), level=bot_level)
        except Exception:
            await db.cancel_table(row.id, actor_id=host_id)
            raise
        await self._reload_seats(session)
        self.registry.add(session)
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            if start:  # a table started at once takes no one else: no lobby buttons
                message = await channel.send(embed=self.embed(session))
            else:
                message = await channel.send(embed=self.embed(session), view=lobby_view(session))
        except discord.HTTPException as exc:
            log.warning("table %s: the lobby could not be posted (%s); cancelling it", session.id, exc)
            self.registry.forget(session)
            await db.cancel_table(session.id, actor_id=host_id)
            raise UserError("table.lobby_not_posted") from None
        if where == "thread":
            name = thread_name(spec.name_ja if lang == "ja" else spec.name_en, session.id)
            try:
                thread_id = await self.places.make_thread(message, name)
                await db.set_place(session.id, thread_id)
            except Exception as exc:
                log.warning("table %s: its thread could not be made (%s); cancelling it", session.id, exc)
                self.registry.forget(session)
                await db.cancel_table(session.id, actor_id=host_id)
                with contextlib.suppress(discord.HTTPException):
                    await message.delete()
                raise UserError("table.thread_not_made") from None
            session.channel_id = thread_id
        session.message_id, session.message_created_at = message.id, self.clock()
        try:
            await db.set_message(session.id, message.id, session.message_created_at)
        except Exception:
            log.exception("table %s: could not remember its lobby message", session.id)
        if start:
            await self.start_now(session, deal)
        else:
            self.arm_expiry(session)
        return session

    async def start_now(self, session: TableSession, deal: Shuffler | None = None) -> None:
        """Start a lobby as its seats are, without the host's press (the shuffles from ``deal``, else fresh): what
        pressing **Start** does, and the lobby message then says where the game is."""
        async with session.lock:
            if session.status != "lobby":
                raise UserError("table.not_lobby")
            outcome = await self._start(session, deal)
        assert self._play is not None
        await self._play.started(session, outcome)
        if session.in_thread:
            await self.places.edit_lobby_message(session, embed=self.embed(session, playing=True), view=None)

    def _bot_name(self, session: TableSession) -> str:
        taken = {s.name for s in session.seats}
        return next(n for n in (*BOT_NAMES, *(f"Bot{i}" for i in range(2, 40))) if n not in taken)

    @staticmethod
    def _turn_seconds(pace: str, hours: int | None, longest: int) -> int | None:
        """A correspondence table's time per decision, within the server's longest; None for a live table."""
        if pace != "correspondence":
            if hours is not None:
                raise UserError("table.hours_need_correspondence")
            return None
        hours = longest if hours is None else hours
        if not 1 <= hours <= longest:
            raise UserError("table.hours_out_of_range", hours=hours, longest=longest)
        return hours * 3600

    async def _offer_channel(
        self,
        interaction: discord.Interaction,
        missing: list[str],
        game_id: str,
        buy_in: int | None,
        stake: int | None,
        practice: bool,
        pace: str,
        hours: int | None,
    ) -> None:
        """No permission to make threads here: say which is missing, and offer the table in the channel itself."""
        names = ", ".join(t(f"table.perm_{name}", interaction.locale) for name in missing)
        view = discord.ui.View(timeout=None)
        custom_id = ids.open_here(game_id, buy_in or 0, stake or 0, practice, pace, hours or 0)
        view.add_item(
            discord.ui.Button(
                label=t("table.open_in_channel", interaction.locale),
                custom_id=custom_id,
                style=discord.ButtonStyle.primary,
            )
        )
        view.stop()  # routed by custom id like every table component
        await interaction.followup.send(
            t("table.no_thread_permission", interaction.locale, missing=names), view=view, ephemeral=True
        )

    async def _reload_seats(self, session: TableSession) -> None:
        """The lobby's seats as the database has them, in position order."""
        row = await self.db.get_table(session.id)
        if row is None:
            raise UserError("table.gone")
        session.seats = [SeatInfo.of(s) for s in row.seats]
        session.practice = row.practice

    # ------------------------------------------------------------------ buttons

    async def on_button(self, interaction: discord.Interaction, session: TableSession, verb: str) -> None:
        if session.status != "lobby":
            raise UserError("table.not_lobby")
        user = interaction.user
        db = self.db
        async with session.lock:
            if session.status != "lobby":
                raise UserError("table.not_lobby")
            if verb == "join":
                if session.seat_of(user.id) is not None:
                    raise UserError("table.already_seated")
                if len(session.seats) >= session.spec.seat_range(session.rules)[1]:
                    raise UserError("table.full")
                assert interaction.guild is not None
                await check_can_sit(interaction, user, session.stake, session.buy_in, session.practice)
                await db.join_table(session.id, user.id, display_name=display_name(user))
            elif verb == "leave":
                if session.seat_of(user.id) is None:
                    raise UserError("table.not_seated")
                if user.id == session.host_id:
                    raise UserError("table.host_cannot_leave")
                await db.leave_lobby(session.id, user.id)
            elif verb in BOT_VERBS:
                await require_host(session, interaction, self.is_moderator)
                if len(session.seats) >= session.spec.seat_range(session.rules)[1]:
                    raise UserError("table.full")
                name = self._bot_name(session)
                config = await db.get_config(session.guild_id)
                if not session.practice and not config.bots_play_for_chips:
                    # A table with a bot is a practice table unless the server lets bots play for chips.
                    await db.make_practice(session.id, actor_id=user.id)
                await db.add_bot_seat(session.id, name, level=BOT_VERBS[verb])
            elif verb == "start":
                await require_host(session, interaction, self.is_moderator)
                low, _high = session.spec.seat_range(session.rules)
                if len(session.seats) < low:
                    raise UserError("table.not_enough_players", needed=low)
                await interaction.response.defer()
                outcome = await self._start(session)
            elif verb == "cancel":
                await require_host(session, interaction, self.is_moderator, moderator_ok=True)
                await db.cancel_table(session.id, actor_id=user.id)
                self.registry.forget(session)
                await interaction.response.edit_message(embed=self.embed(session, closed="table.cancelled"), view=None)
                await self.places.archive(session)
                return
            if verb != "start":
                await self._reload_seats(session)
                self.arm_expiry(session)
        if verb == "start":
            assert self._play is not None
            await self._play.started(session, outcome)
            if session.in_thread:
                # The lobby message stays in the channel as the thread's starter: it says where the game is.
                with contextlib.suppress(discord.HTTPException):
                    await interaction.edit_original_response(embed=self.embed(session, playing=True), view=None)
            return
        await interaction.response.edit_message(embed=self.embed(session), view=lobby_view(session))

    async def _start(self, session: TableSession, deal: Shuffler | None = None) -> Outcome:
        """Lobby → playing (under the lock): the engine from the seats in position order, written at once."""
        row = await self.db.get_table(session.id)
        if row is None:
            raise UserError("table.gone")
        seats = [SeatInfo.of(s) for s in row.seats]
        await session.begin(self.db, seats, deal if deal is not None else self.new_shuffler())
        if session.in_thread:
            # The table's first picture is posted in its thread; the lobby message stays in the channel.
            session.message_id, session.message_created_at = None, 0.0
            try:
                await self.db.set_message(session.id, None, 0.0)
            except Exception:
                log.exception("table %s: could not forget its lobby message as the table's", session.id)
        task = session.runtime.lobby_timer
        session.runtime.lobby_timer = None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        return Outcome(None, None, list(session.recent))

    # ------------------------------------------------------------------ expiry

    def arm_expiry(self, session: TableSession) -> None:
        old = session.runtime.lobby_timer
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        session.runtime.lobby_timer = asyncio.create_task(self._expire(session.id))

    async def _expire(self, table_id: int) -> None:
        await asyncio.sleep(self.lobby_timeout)
        session = self.registry.tables.get(table_id)
        if session is None or session.status != "lobby":
            return
        async with session.lock:
            if session.status != "lobby":
                return
            try:
                await self.db.cancel_table(session.id)
            except LeaseLost:
                self.registry.lost(session)  # another bot process runs the lobby now: its own timer expires it
                return
            self.registry.forget(session)
        embed = self.embed(session, closed="table.expired")
        if session.in_thread:
            await self.places.edit_lobby_message(session, embed=embed, view=None)
            await self.places.archive(session)
        else:
            await self.public.edit_final(session, embed=embed)

    async def abandon(self, session: TableSession) -> None:
        """A lobby whose thread was never made (the process stopped in between): cancel it, refunding every
        buy-in. Nobody could see it (its lobby message, if posted, answers that the table is gone)."""
        try:
            await self.db.cancel_table(session.id)
        except LeaseLost:
            return
        log.warning("table %s: opened for a thread that was never made; cancelled and refunded", session.id)

    # ------------------------------------------------------------------ the lobby message

    def embed(self, session: TableSession, closed: str | None = None, *, playing: bool = False) -> discord.Embed:
        lang = session.lang
        spec = session.spec
        name = spec.name_ja if lang == "ja" else spec.name_en
        embed = discord.Embed(title=t("lobby.title", lang, game=name), colour=0x2E7D32)
        low, high = spec.seat_range(session.rules)
        players = "\n".join(f"{i + 1}. {n}" for i, n in enumerate(session.names())) or "—"
        embed.add_field(
            name=t("lobby.players", lang, count=len(session.seats), low=low, high=high), value=players, inline=False
        )
        money = (
            t("lobby.practice", lang)
            if session.practice
            else t("lobby.stakes", lang, buy_in=session.buy_in, stake=session.stake)
        )
        embed.add_field(name=t("lobby.money", lang), value=money, inline=False)
        if session.pace == "correspondence" and session.turn_seconds:
            hours = session.turn_seconds // 3600
            embed.add_field(
                name=t("lobby.pace", lang), value=t("lobby.correspondence", lang, hours=hours), inline=False
            )
        embed.add_field(name=t("lobby.rules", lang), value=rules_text(session.rules, lang), inline=False)
        if not closed and not playing:
            embed.add_field(name=t("lobby.bots", lang), value=bot_levels.lobby_text(session.game, lang), inline=False)
        if closed:
            embed.description = t(closed, lang)
            embed.colour = discord.Colour.dark_grey()
        elif playing:
            embed.description = t("lobby.playing_in_thread", lang, thread=f"<#{session.channel_id}>")
        else:
            embed.description = t("lobby.description", lang, host=f"<@{session.host_id}>")
        return embed


def rules_text(rules: Any, lang: str) -> str:
    """The options that differ from the default, one line each; a changed row of a rule table (a hand table) is one
    line with the whole row, in the text that sets it."""
    changed = changed_options(rules)
    if not changed:
        return t("lobby.rules_default", lang)
    lines: list[str] = []
    rows_shown: set[str] = set()
    for option, value in changed:
        row = find_row(rules, option.path.rpartition(".")[0])
        if row is None:
            lines.append(f"`{option.path}` = `{value}`")
            continue
        table, key = row
        path = table.row_path(key)
        if path not in rows_shown:
            rows_shown.add(path)
            lines.append(f"`{path}` = `{row_text(row_value(rules, table, key))}`")
    text = "\n".join(lines)
    return text if len(text) <= 1000 else text[: text.rfind("\n", 0, 990)] + "\n…"
