"""The contract between the table runtime and one game's Discord presentation.

An adapter never decides a rule: it reads the engine's views and legal actions, and turns
clicks back into engine actions (whose text travels in the component's custom id).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from games.core.actions import Action, LegalAction
from games.core.engine import DealResult


@dataclass(frozen=True)
class ButtonSpec:
    """One button of a private panel: either an engine action or a UI step (``ui`` verb + args)."""

    label: str
    action: Action | None = None
    ui: str | None = None
    enabled: bool = True
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    row: int | None = None
    emoji: str | None = None


@dataclass(frozen=True)
class SelectSpec:
    """A select menu of a private panel; choosing runs the UI verb ``ui`` with the chosen values (comma-joined).

    ``chosen`` are the values shown as already picked; with ``max_values`` above 1 it is a multi-select
    (up to 25 options)."""

    ui: str
    placeholder: str
    options: Sequence[tuple[str, str]]  # (label, value)
    chosen: Sequence[str] = ()
    row: int | None = None
    min_values: int = 1
    max_values: int = 1
    disabled: bool = False


@dataclass
class Panel:
    """A private panel: its text and its controls."""

    content: str
    buttons: list[ButtonSpec] = field(default_factory=list)
    selects: list[SelectSpec] = field(default_factory=list)
    modal_amount: tuple[str, int, int, str] | None = None


@dataclass(frozen=True)
class TableContext:
    """What an adapter needs to know about the table beyond the engine."""

    table_id: int
    names: Sequence[str]
    stake: int
    practice: bool
    lang: str
    rules: Any = None
    """The table's house rules (the engine's views carry them too; results need them without a view)."""


class GameUI(ABC):
    """One game's presentation."""

    game_id: str = ""

    @abstractmethod
    def public_summary(self, view: Any, ctx: TableContext) -> discord.Embed:
        """The public table message's embed (state in words) from the public view."""

    @abstractmethod
    def render(self, view: Any, ctx: TableContext) -> bytes:
        """The public table image (PNG bytes) from the public view. Runs in a worker thread."""

    @abstractmethod
    def panel(
        self, view: Any, seat: int, legal: Sequence[LegalAction], ctx: TableContext, state: dict[str, str]
    ) -> Panel:
        """A seat's private panel from its own view and legal actions. ``state`` holds UI choices (a pile …)."""

    @abstractmethod
    def result_embed(self, result: DealResult, ctx: TableContext) -> discord.Embed:
        """The public results message of one finished deal."""

    def ui_step(self, view: Any, seat: int, legal: Sequence[LegalAction], verb: str, arg: str,
                state: dict[str, str]) -> Action | None:
        """A click on a UI control (not an engine action): update ``state``; return an engine action to submit
        when the step completes one (a "confirm" built from choices made step by step), else ``None``.

        Raise :class:`bot.errors.UserError` to refuse a step (the table then keeps the state as it was)."""
        state[verb] = arg
        return None

    def amount_action(self, ui_args: str, amount: int) -> Action | None:
        """The engine action for a custom amount typed into the amount modal (games with amounts)."""
        return None
