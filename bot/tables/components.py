"""Discord components of the tables, and the one router every table component press and modal goes through.

The bot never keeps a ``View`` object for a table component: every view is stopped before it is sent, and
each press arrives here through :func:`route` (a listener for every interaction), which reads the custom id
strictly (:mod:`bot.tables.ids`) and answers every press, a stale, forged or malformed one included. So the
buttons work the same after a restart, and no press ever goes unanswered ("This interaction failed").
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import answer_error, apologise
from bot.i18n import t
from bot.tables import ids
from bot.ui.panel import Button, Rendered, Select

if TYPE_CHECKING:
    from bot.tables.manager import TableManager
    from bot.tables.session import TableSession

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _stopped(view: discord.ui.View) -> discord.ui.View:
    # The components are dispatched by custom id (see route): a stopped view is not kept by discord.py, which
    # would otherwise run a timeout task for every message sent.
    view.stop()
    return view


def release(view: discord.ui.View | None) -> None:
    """Let a sent view go at once: a view and its items refer to each other, and a thousand busy tables make
    hundreds a second, which would otherwise wait for the cycle collector (whose full scans stop the process)."""
    if view is not None:
        view.clear_items()


def _fits(text: str, limit: int = 100) -> str:
    """An id or a menu value as bot.ui.panel made it: it already fits Discord's limit (a cut one would send a move
    other than the one shown), so one that does not is a bug to fail on, never a silent cut."""
    if len(text) > limit:
        raise ValueError(f"{text[:40]!r}… is longer than Discord's {limit} characters")
    return text


def panel_view(rendered: Rendered) -> discord.ui.View:
    """A private panel's components as a view (rows as drawn by bot.ui.panel, which keeps every id, value and
    label within Discord's limits; see its ``_clip`` and ``_option``)."""
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(rendered.rows):
        for item in row:
            if isinstance(item, Button):
                view.add_item(
                    discord.ui.Button(
                        label=item.label or None,
                        custom_id=_fits(item.custom_id),
                        style=STYLES.get(item.style, discord.ButtonStyle.secondary),
                        disabled=item.disabled,
                        emoji=item.emoji,
                        row=row_index,
                    )
                )
            elif isinstance(item, Select):
                options = [
                    discord.SelectOption(
                        label=_fits(o.label),
                        value=_fits(o.value),
                        default=o.default,
                        description=(o.description or None) and _fits(o.description),
                    )
                    for o in item.options
                ]
                if not options:
                    continue
                view.add_item(
                    discord.ui.Select(
                        custom_id=_fits(item.custom_id),
                        placeholder=item.placeholder or None,
                        options=options,
                        min_values=min(item.min_values, len(options)),
                        max_values=max(1, min(item.max_values, len(options))),
                        disabled=item.disabled,
                        row=row_index,
                    )
                )
    return _stopped(view)


def table_view(session: TableSession) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    lang = session.lang
    view.add_item(
        discord.ui.Button(
            label=t("table.my_hand", lang),
            custom_id=ids.table(session.id, "hand"),
            style=discord.ButtonStyle.primary,
            emoji="🂠",
        )
    )
    view.add_item(
        discord.ui.Button(
            label=t("watch.button", lang),
            custom_id=ids.table(session.id, "watch"),
            style=discord.ButtonStyle.secondary,
            emoji="👁️",
        )
    )
    view.add_item(
        discord.ui.Button(
            label=t("table.stop", lang), custom_id=ids.table(session.id, "stop"), style=discord.ButtonStyle.danger
        )
    )
    return _stopped(view)


def lobby_view(session: TableSession) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    lang = session.lang
    # The seating buttons on the first row, the bots of each level on the second (the plain "Add bot" in the middle).
    for row, verb, key, style, emoji in (
        (0, "join", "lobby.join", discord.ButtonStyle.success, None),
        (0, "leave", "lobby.leave", discord.ButtonStyle.secondary, None),
        (0, "start", "lobby.start", discord.ButtonStyle.primary, None),
        (0, "cancel", "lobby.cancel", discord.ButtonStyle.danger, None),
        (1, "boteasy", "lobby.add_bot_easy", discord.ButtonStyle.secondary, "🤖"),
        (1, "bot", "lobby.add_bot", discord.ButtonStyle.secondary, "🤖"),
        (1, "botstrong", "lobby.add_bot_strong", discord.ButtonStyle.secondary, "🤖"),
    ):
        view.add_item(
            discord.ui.Button(
                label=t(key, lang), custom_id=ids.lobby(session.id, verb), style=style, emoji=emoji, row=row
            )
        )
    return _stopped(view)


class AmountModal(discord.ui.Modal):
    """Type an amount; the submission is routed by its custom id like any component (it works after a restart)."""

    def __init__(self, custom_id: str, title: str, label: str, hint: str) -> None:
        super().__init__(title=_fits(title, 45), timeout=None, custom_id=_fits(custom_id))
        self.add_item(
            discord.ui.TextInput(
                label=_fits(label, 45),
                placeholder=_fits(hint) or None,
                max_length=24,
                required=True,
                custom_id="amount",
            )
        )


def modal_values(interaction: discord.Interaction) -> dict[str, str]:
    """The text inputs of a submitted modal, by custom id."""
    values: dict[str, str] = {}

    def walk(items: Any) -> None:
        for item in items or []:
            if not isinstance(item, dict):
                continue
            if "custom_id" in item and "value" in item:
                values[str(item["custom_id"])] = str(item.get("value") or "")
            walk(item.get("components"))
            if isinstance(item.get("component"), dict):
                walk([item["component"]])

    walk(_data(interaction).get("components"))
    return values


def _data(interaction: discord.Interaction) -> dict[str, Any]:
    return dict(interaction.data or {})


def select_values(interaction: discord.Interaction) -> list[str]:
    return [str(v) for v in _data(interaction).get("values", [])]


class Router:
    """Answers every component press and modal submission that belongs to the tables."""

    def __init__(self, manager: TableManager, others: Callable[[], Sequence[Any]]) -> None:
        self.manager = manager
        self.others = others
        """Component classes of other features (the leaderboard and rules pages), which answer their own ids."""

    def _theirs(self, custom_id: str) -> bool:
        for cls in self.others():
            template = getattr(cls, "__discord_ui_compiled_template__", None)
            if template is not None and template.fullmatch(custom_id):
                return True
        return False

    async def route(self, interaction: discord.Interaction) -> None:
        kind = interaction.type
        if kind not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return
        custom_id = str(_data(interaction).get("custom_id", ""))
        if self._theirs(custom_id):
            return
        try:
            if kind == discord.InteractionType.modal_submit:
                await self.manager.on_modal(interaction, custom_id, modal_values(interaction))
            else:
                await self.manager.on_component(interaction, custom_id, select_values(interaction))
        except Exception as error:
            try:
                if await answer_error(interaction, error):
                    return
                await apologise(interaction, error, f"component {custom_id[:40]!r}")
            except discord.HTTPException:
                log.warning("could not answer a failed press of %r", custom_id[:60])
            raise
