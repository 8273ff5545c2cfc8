"""The coach's note at a learner's decision: the game's own explanation (:class:`~bot.learn.note.Coached`), laid out
the same way for every game.

The move the coach recommends is the game's strong bot (``spec.policies["strong"]``, which also plays for away
members; for OFC the policy with the exact foul check, or the Fantasyland solver), run with a random source drawn
from the decision's id, so the same decision always gets the same advice. Everything here only reads its
arguments: :func:`note_text` runs on the worker pool.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.i18n import t
from bot.learn.note import Coached, CoachNote
from bot.ui import ui_for
from bot.ui.base import TableContext
from games.core.actions import Action, LegalAction
from games.registry import STRONG, get_game


def coach_rng(decision: int) -> random.Random:
    """The random source of the coach's advice at one decision (by its decision id, the engine serial at which it
    began): the same decision always gets the same advice (on the panel, in the review, in the lessons' search), and
    the policy's random choices still vary from one decision to the next as they do for a bot."""
    return random.Random(f"coach:{decision}")


def coached(game_id: str) -> Coached | None:
    """The game's adapter if it can coach, else None (such a game offers no lessons)."""
    ui = ui_for(game_id)
    return ui if isinstance(ui, Coached) else None


def pick(game_id: str, view: Any, legal: Sequence[LegalAction], decision: int) -> Action:
    """The move the bot would make at this decision."""
    return get_game(game_id).policies[STRONG](view, legal, coach_rng(decision))


def layout(note: CoachNote, lang: str) -> str:
    lines = [t("learn.coach_head", lang, about=note.about)]
    lines += [f"• {option}" for option in note.options]
    lines += list(note.extra)
    lines.append(t("learn.coach_pick", lang, move=note.pick, why=note.why))
    return "\n".join(lines)


def note_text(
    game_id: str,
    view: Any,
    seat: int,
    legal: Sequence[LegalAction],
    ctx: TableContext,
    state: dict[str, str],
    decision: int,
) -> str | None:
    """The coach's note for ``seat``'s decision (None when it has none to make now)."""
    if not legal:
        return None
    ui = coached(game_id)
    if ui is None:
        return None
    return layout(ui.coach(view, seat, legal, ctx, dict(state), pick(game_id, view, legal, decision)), ctx.lang)
