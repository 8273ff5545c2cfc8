"""What ``/history`` and every press on a history page, a replay or a results message's "Replay" does.

Refusals raise :class:`~bot.errors.UserError` (answered privately by :func:`bot.errors.guarded`) and change nothing.
Whose view a replay shows is always the member who pressed (:func:`bot.history.replay.seat_of`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.history import ids, listing, replay
from bot.i18n import lang_of

if TYPE_CHECKING:
    from bot.storage import Database


def _db(interaction: discord.Interaction) -> Database:
    db: Database = getattr(interaction.client, "db")  # noqa: B009 (the bot's, set at start)
    return db


def _values(interaction: discord.Interaction) -> list[str]:
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values") or []]


async def show_history(interaction: discord.Interaction, member: discord.abc.User, game: str | None) -> None:
    """``/history``: the first page of ``member``'s settled deals in this server, privately."""
    if interaction.guild_id is None:
        raise UserError("history.guild_only")
    if member.bot:
        raise UserError("history.no_bots")
    lang = lang_of(interaction.locale)
    page = await listing.page_of(_db(interaction), interaction.guild_id, member.id, game)
    if not page.entries:
        raise UserError(
            "history.none_mine" if member.id == interaction.user.id else "history.none", name=member.display_name
        )
    await interaction.response.send_message(
        **listing.message(page, interaction.user.id, member, game, lang), ephemeral=True
    )


async def open_replay(interaction: discord.Interaction, table: int, deal: int) -> None:
    """A new private replay of the deal, at its first step, for the member who asked."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    loaded = await replay.load(interaction.client, _db(interaction), table, deal, interaction.guild_id)
    seat = replay.seat_of(loaded, interaction.user.id)
    shown = await replay.message(loaded, 0, seat, lang_of(interaction.locale))
    await interaction.followup.send(**shown, ephemeral=True)


def _target(rid: ids.ReplayId, last: int, values: list[str]) -> int:
    if rid.verb == "f":
        return 0
    if rid.verb == "p":
        return rid.step - 1
    if rid.verb == "n":
        return rid.step + 1
    if rid.verb == "l":
        return last
    if len(values) != 1 or not values[0].isdigit():
        raise UserError("history.bad_button")
    return int(values[0])


async def on_press(interaction: discord.Interaction, custom: str) -> None:
    pressed = ids.parse(custom)
    if isinstance(pressed, ids.OpenId):
        await open_replay(interaction, pressed.table, pressed.deal)
        return
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        # Only the member's own private pages carry these ids: never edit anything else.
        raise UserError("history.not_here")
    if isinstance(pressed, ids.ListId):
        await _on_list(interaction, pressed)
        return
    values = _values(interaction)
    await interaction.response.defer()
    loaded = await replay.load(interaction.client, _db(interaction), pressed.table, pressed.deal, interaction.guild_id)
    index = _target(pressed, loaded.tape.last, values)
    shown = await replay.message(
        loaded, index, replay.seat_of(loaded, interaction.user.id), lang_of(interaction.locale)
    )
    file = shown.pop("file")
    await interaction.edit_original_response(attachments=[file], **shown)


async def _on_list(interaction: discord.Interaction, pressed: ids.ListId) -> None:
    if pressed.viewer != interaction.user.id:
        raise UserError("history.not_yours")
    if interaction.guild_id is None:
        raise UserError("history.guild_only")
    if pressed.verb == "o":
        table, deal = listing.opened(_values(interaction))
        await open_replay(interaction, table, deal)
        return
    db = _db(interaction)
    before, after = (pressed.hand, None) if pressed.verb == "n" else (None, pressed.hand)
    page = await listing.page_of(db, interaction.guild_id, pressed.member, pressed.game, before=before, after=after)
    if not page.entries:
        raise UserError("history.no_page")
    member = interaction.guild.get_member(pressed.member) if interaction.guild is not None else None
    who: discord.abc.User = member or await interaction.client.fetch_user(pressed.member)
    await interaction.response.edit_message(
        **listing.message(page, interaction.user.id, who, pressed.game, lang_of(interaction.locale))
    )
