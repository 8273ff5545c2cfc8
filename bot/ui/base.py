"""The contract between the table runtime and one game's Discord presentation.

An adapter never decides a rule: it reads the engine's views, legal actions and events, and describes what
a seat must decide (:mod:`bot.ui.decisions`); the one generic panel (:mod:`bot.ui.panel`) draws that and
turns clicks back into engine actions, which the engine checks.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.errors import UserError
from bot.ui.decisions import PanelSpec
from games.core.actions import Action, LegalAction
from games.core.engine import DealResult
from games.core.events import Event


@dataclass(frozen=True)
class TableContext:
    """What an adapter needs to know about the table beyond the engine."""

    table_id: int
    names: Sequence[str]
    stake: int
    practice: bool
    lang: str
    rules: Any = field(default=None, repr=False, compare=False)
    """The table's house rules (the engine's views carry them too; results need them without a view). Left out
    of ``repr``: a render's cache key is the repr of its arguments, and a rules model's repr is slow."""


class GameUI(ABC):
    """One game's presentation."""

    game_id: str = ""

    @abstractmethod
    def public_summary(self, view: Any, ctx: TableContext) -> discord.Embed:
        """The public table message's embed (state in words) from the public view."""

    @abstractmethod
    def render(self, view: Any, ctx: TableContext) -> bytes:
        """The public table image (PNG bytes) from the public view. Runs off the event loop (a worker thread or
        process): it must only read its arguments."""

    @abstractmethod
    def panel(
        self, view: Any, seat: int, legal: Sequence[LegalAction], ctx: TableContext, state: dict[str, str]
    ) -> PanelSpec:
        """A seat's private panel from its own view and legal actions: its text and the decisions to make.
        ``state`` holds the seat's panel choices so far (read it, do not change it)."""

    @abstractmethod
    def howto_topic(self, view: Any, legal: Sequence[LegalAction]) -> str:
        """The ``/howto`` topic (one of :func:`bot.howto.topic_ids` of this game) about the decision in front of the
        seat whose view and legal actions these are: what its panel's "?" opens. A seat with nothing to decide gets
        the topic of the table's moment (what the others are deciding, or how the game ends)."""

    @abstractmethod
    def result_embed(self, result: DealResult[Any], ctx: TableContext) -> discord.Embed:
        """The public results message of one finished deal."""

    def card_label(self, card: str, lang: str) -> str | None:
        """One card, given in the engine's notation (``5s``, ``7M``), named as this game's panels name it in
        ``lang`` (``en`` or ``ja``); None when ``card`` is not one of this game's cards. Refusals name the cards
        in their parameters with it (:func:`bot.errors.message_for`), so a refusal reads like the panel."""
        return None

    def describe(self, event: Event, ctx: TableContext) -> str | None:
        """One line narrating an event for the table (None: not worth a line). Only public events and a seat's
        own private ones are ever passed, each to whoever may see it."""
        return None

    def ui_step(
        self, view: Any, seat: int, legal: Sequence[LegalAction], verb: str, arg: str, state: dict[str, str]
    ) -> Action | None:
        """A click on one of the game's own :class:`~bot.ui.decisions.Extra` buttons: update ``state`` and return a
        move to submit, or None. Raise :class:`UserError` to refuse (the state is then kept as it was)."""
        raise UserError("table.stale_button")


def run_ui_step(
    game_id: str, view: Any, seat: int, legal: Sequence[LegalAction], verb: str, arg: str, state: dict[str, str]
) -> tuple[Action | None, dict[str, str]]:
    """A game's own panel step, as the worker pool runs it (a hint can search for tens of milliseconds): the move it
    makes, if any, and the seat's panel state after it (the caller's copy is not changed across processes)."""
    from bot.ui import ui_for

    changed = dict(state)
    return ui_for(game_id).ui_step(view, seat, legal, verb, arg, changed), changed
