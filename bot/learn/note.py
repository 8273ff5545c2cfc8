"""What a game's coach says at one decision, as data; the generic coach (:mod:`bot.learn.coach`) lays it out.

Each game's presentation (``bot/ui/<game>.py``) writes its own notes, in the words its panel uses, with two methods
on its adapter (:class:`Coached`); nothing else of the coach knows any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from bot.ui.base import TableContext
    from games.core.actions import Action, LegalAction


@dataclass(frozen=True)
class CoachNote:
    """One decision explained: what is being decided, each option and what it does under the rules, the move the
    bot (the game's policy) would make, and why."""

    about: str
    options: Sequence[str]
    pick: str
    why: str
    extra: Sequence[str] = field(default_factory=tuple)
    """Anything else worth knowing now (a house rule at work, a warning about the choices made so far)."""


@runtime_checkable
class Coached(Protocol):
    """A game adapter that can coach: both methods only read their arguments (they run on the worker pool)."""

    def coach(
        self,
        view: Any,
        seat: int,
        legal: Sequence[LegalAction],
        ctx: TableContext,
        state: dict[str, str],
        pick: Action,
    ) -> CoachNote:
        """The note for ``seat``'s decision now; ``pick`` is the policy's move, ``state`` the panel's choices so far."""
        ...

    def move_words(self, view: Any, seat: int, action: Action, lang: str) -> str:
        """``action``, made by ``seat`` from ``view``, in the panel's words (the review names moves with it)."""
        ...
