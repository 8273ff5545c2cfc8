"""``/export ledger|hands [from] [to]`` (moderators) and ``/export mine [from] [to]`` (any member): a server's records
as files, privately; and the retention setting's daily purge, which starts and stops with this cog.

``/export`` is one command for everyone (``mine`` is every member's), so Discord does not hide ``ledger`` and
``hands``: the bot refuses them to anyone who is not a moderator, as every moderator command checks
(:func:`bot.cogs.moderation.require_moderator`). The reply is deferred first (an export reads and replays as long as it
takes), then the files come in private follow-ups, at most ten (and the server's upload limit) to a message.

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

import logging
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.moderation import require_moderator
from bot.errors import UserError, guarded
from bot.export.hands import write_hands
from bot.export.ledger import header, write_ledger
from bot.export.parts import BlockTooLarge, Part, Parts, budget_for, messages
from bot.export.period import Period, period
from bot.export.retention import RetentionJob
from bot.i18n import lang_of, t
from bot.i18n.translator import L
from bot.storage.exports import ExportQueries

if TYPE_CHECKING:
    from bot.app import FudabaBot

log = logging.getLogger(__name__)

DAY_OPTIONS = {
    "first": L("First day, YYYY-MM-DD (UTC; default: the beginning)", "export.cmd_from"),
    "last": L("Last day, YYYY-MM-DD (UTC; default: today)", "export.cmd_to"),
}


class ExportCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot
        self.upload_limit: int | None = None
        """The most bytes a message's files may hold; None: the server's own limit (tests set a small one)."""
        self.retention = RetentionJob(bot)
        self._running: set[tuple[int, int]] = set()

    async def cog_load(self) -> None:
        self.retention.start()

    async def cog_unload(self) -> None:
        self.retention.stop()

    export = app_commands.Group(
        name="export",
        description=L("Download this server's records as files", "export.cmd"),
        guild_only=True,
    )

    @export.command(
        name="ledger", description=L("Every chip movement with its legs, as CSV (moderators)", "export.cmd_ledger")
    )
    @app_commands.rename(first="from", last="to")
    @app_commands.describe(**DAY_OPTIONS)
    @guarded
    async def ledger(
        self,
        interaction: discord.Interaction,
        first: app_commands.Range[str, 1, 40] | None = None,
        last: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await require_moderator(interaction)
        await self._export(interaction, "ledger", period(first, last))

    @export.command(
        name="hands", description=L("Every settled deal's full record, as JSON Lines (moderators)", "export.cmd_hands")
    )
    @app_commands.rename(first="from", last="to")
    @app_commands.describe(**DAY_OPTIONS)
    @guarded
    async def hands(
        self,
        interaction: discord.Interaction,
        first: app_commands.Range[str, 1, 40] | None = None,
        last: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await require_moderator(interaction)
        await self._export(interaction, "hands", period(first, last))

    @export.command(name="mine", description=L("Your own deals as you saw them, as JSON Lines", "export.cmd_mine"))
    @app_commands.rename(first="from", last="to")
    @app_commands.describe(**DAY_OPTIONS)
    @guarded
    async def mine(
        self,
        interaction: discord.Interaction,
        first: app_commands.Range[str, 1, 40] | None = None,
        last: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise UserError("export.guild_only")
        await self._export(interaction, "mine", period(first, last))

    # ------------------------------------------------------------------ writing and sending

    def _budget(self, interaction: discord.Interaction) -> int:
        limit = self.upload_limit
        if limit is None:
            limit = interaction.guild.filesize_limit if interaction.guild is not None else 10 * 1024 * 1024
        return budget_for(limit)

    async def _export(self, interaction: discord.Interaction, kind: str, when: Period) -> None:
        assert interaction.guild_id is not None
        guild_id, user_id = interaction.guild_id, interaction.user.id
        if (guild_id, user_id) in self._running:
            raise UserError("export.busy")
        self._running.add((guild_id, user_id))
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            with tempfile.TemporaryDirectory(prefix="fudaba-export-") as folder:
                await self._write_and_send(interaction, kind, when, Path(folder))
        finally:
            self._running.discard((guild_id, user_id))

    async def _write_and_send(self, interaction: discord.Interaction, kind: str, when: Period, folder: Path) -> None:
        assert interaction.guild_id is not None
        locale = interaction.locale
        budget = self._budget(interaction)
        stem = f"fudaba-{kind}-{interaction.guild_id}-{when.label}"
        db = self.bot.db
        try:
            if kind == "ledger":
                parts = Parts(folder, stem, "csv", budget, header())
                tally = await write_ledger(ExportQueries(db), interaction.guild_id, when, parts)
                written = parts.close()
                if not written:
                    raise UserError("export.nothing_ledger")
                text = t("export.done_ledger", locale, movements=f"{tally.movements:,}", legs=f"{tally.legs:,}")
            else:
                parts = Parts(folder, stem, "jsonl", budget)
                member = interaction.user.id if kind == "mine" else None
                counted = await write_hands(
                    db, interaction.guild_id, when, parts.add, member=member, lang=lang_of(locale)
                )
                written = parts.close()
                notes = []
                if counted.purged:
                    notes.append(t("export.purged", locale, n=f"{counted.purged:,}"))
                if counted.failed:
                    notes.append(t("export.failed", locale, n=f"{counted.failed:,}"))
                if not written:
                    raise UserError(
                        "export.nothing_hands" if not notes else "export.nothing_kept", notes="\n".join(notes)
                    )
                done = "export.done_mine" if kind == "mine" else "export.done_hands"
                text = "\n".join([t(done, locale, deals=f"{counted.deals:,}"), *notes])
        except BlockTooLarge as exc:
            parts.close()
            raise UserError("export.too_large", size=f"{exc.size:,}", budget=f"{exc.budget:,}") from None
        await self._send(interaction, text, written, budget)

    async def _send(self, interaction: discord.Interaction, text: str, written: list[Part], budget: int) -> None:
        groups = messages(written, budget)
        if len(written) > 1:
            text += "\n" + t("export.parts", interaction.locale, n=len(written), messages=len(groups))
        for index, group in enumerate(groups):
            files = [discord.File(part.path, filename=part.name) for part in group]
            try:
                more = t("export.more", interaction.locale, n=index + 1, of=len(groups))
                await interaction.followup.send(text if index == 0 else more, files=files, ephemeral=True)
            finally:
                for file in files:
                    file.close()
