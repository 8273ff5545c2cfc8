"""The confirmation of a self-exclusion: a warning with **Exclude me** and **Cancel**, privately to the member.

Both buttons are dynamic items whose ids carry what they confirm, so they work after a restart. The exclusion's end is
fixed when the warning is shown (it says the end, and confirming stores that end), so a second press of the same
button changes nothing. A warning older than :data:`CONFIRM_SECONDS` is refused: the member asks again and reads an
end that is still true. Ids can be forged, so each press is checked: only the member it was made for may confirm it,
and a time from the future or a period out of range is refused.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.errors import UserError, guarded
from bot.i18n import t
from bot.storage.limits import DAY, EXCLUSION_DAYS

if TYPE_CHECKING:
    from bot.limits.service import Limits

CONFIRM_SECONDS = 10 * 60
"""How long a warning may be confirmed."""


def confirm_id(days: int, user_id: int, asked: int) -> str:
    return f"fdb:limits:exclude:{days}:{user_id}:{asked}"


def cancel_id(user_id: int) -> str:
    return f"fdb:limits:keep:{user_id}"


def warning_view(days: int, user_id: int, asked: int, locale: object) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=t("limits.exclude_confirm", locale),
            style=discord.ButtonStyle.danger,
            custom_id=confirm_id(days, user_id, asked),
        )
    )
    view.add_item(
        discord.ui.Button(
            label=t("limits.exclude_cancel", locale), style=discord.ButtonStyle.secondary, custom_id=cancel_id(user_id)
        )
    )
    view.stop()  # answered by the dynamic items below, by custom id
    return view


def _limits(interaction: discord.Interaction) -> Limits:
    client = interaction.client
    cog = client.get_cog("LimitsCog") if isinstance(client, commands.Bot) else None
    found = getattr(cog, "limits", None)
    if found is None:
        raise UserError("limits.gone")
    return found  # type: ignore[no-any-return]


class ConfirmExclusion(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fdb:limits:exclude:(?P<days>[0-9]{1,3}):(?P<user>[0-9]{1,20}):(?P<asked>[0-9]{1,12})",
):
    """**Exclude me**: ``fdb:limits:exclude:<days>:<member>:<time asked>``."""

    def __init__(self, days: int, user_id: int, asked: int) -> None:
        super().__init__(discord.ui.Button(custom_id=confirm_id(days, user_id, asked)))
        self.days, self.user_id, self.asked = days, user_id, asked

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConfirmExclusion:
        return cls(int(match["days"]), int(match["user"]), int(match["asked"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None or interaction.user.id != self.user_id:
            raise UserError("limits.not_yours")
        limits = _limits(interaction)
        now = limits.clock()
        lo, hi = EXCLUSION_DAYS
        if not lo <= self.days <= hi or self.asked > now:
            raise UserError("limits.not_yours")
        if now - self.asked > CONFIRM_SECONDS:
            raise UserError("limits.confirm_expired")
        stored = await limits.queries.exclude(interaction.guild_id, self.user_id, until=self.asked + self.days * DAY)
        limits.changed(stored)
        until = int(stored.excluded_until or 0)
        await interaction.response.edit_message(
            content=t("limits.excluded_now", interaction.locale, until=until), view=None
        )


class CancelExclusion(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fdb:limits:keep:(?P<user>[0-9]{1,20})"
):
    """**Cancel**: nothing changes; the warning says so."""

    def __init__(self, user_id: int) -> None:
        super().__init__(discord.ui.Button(custom_id=cancel_id(user_id)))
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CancelExclusion:
        return cls(int(match["user"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise UserError("limits.not_yours")
        await interaction.response.edit_message(content=t("limits.exclude_cancelled", interaction.locale), view=None)
