"""The coach's note at a learner's decision: the game's own explanation (:class:`~bot.learn.note.Coached`), laid out
the same way for every game.

The move the coach recommends is the game's strong bot's (``spec.policies["strong"]``, which also plays for away
members and gives the 💡 hint). Its reasons are a search's (the rest of the deal played out many times against the
cards the learner cannot see), which no sentence sums up, so the game explains the **normal** bot's move instead: a
rule of thumb a person can apply (:class:`~bot.learn.note.Coached`). Where the two agree the note gives the rule and
its reason; where they differ it gives both, the rule of thumb and then the strong bot's better move, and never
claims the rule of thumb chose the strong move. Both run with a random source drawn from the decision's id, so the
same decision always gets the same advice. Everything here only reads its arguments: :func:`note_text` runs on the
worker pool.
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
from games.registry import NORMAL, STRONG, get_game


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
    """The move the coach recommends at this decision: the strong bot's."""
    return get_game(game_id).policies[STRONG](view, legal, coach_rng(decision))


def rule_of_thumb(game_id: str, view: Any, legal: Sequence[LegalAction], decision: int) -> Action:
    """The normal bot's move at this decision, the one the game's note explains."""
    return get_game(game_id).policies[NORMAL](view, legal, coach_rng(decision))


def same_move(a: Action, b: Action) -> bool:
    """The same move, however its parts are listed (an OFC placement lists its cards in any order)."""
    return a == b or sorted(a.text.split()) == sorted(b.text.split())


def layout(note: CoachNote, lang: str, stronger: str | None = None) -> str:
    """The note as the panel shows it; ``stronger`` is the strong bot's move in words where it differs from the
    rule of thumb the note explains."""
    lines = [t("learn.coach_head", lang, about=note.about)]
    lines += [f"• {option}" for option in note.options]
    lines += list(note.extra)
    if stronger is None:
        lines.append(t("learn.coach_pick", lang, move=note.pick, why=note.why))
    else:
        lines.append(t("learn.coach_thumb", lang, move=note.pick, why=note.why))
        lines.append(t("learn.coach_strong", lang, move=stronger))
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
    best = pick(game_id, view, legal, decision)
    thumb = rule_of_thumb(game_id, view, legal, decision)
    note = ui.coach(view, seat, legal, ctx, dict(state), thumb)
    stronger = None if same_move(best, thumb) else ui.move_words(view, seat, best, ctx.lang)
    return layout(note, ctx.lang, stronger)
