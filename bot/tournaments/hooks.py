"""Where other features plug into tournaments (issue 18 builds them beside this one).

* **Responsible play** (migration 0012) exposes ``check_can_sit(...)``, which refuses a member who is self-excluded or
  past a loss limit (privately, with when it ends). A sign-up is a buy-in, so it must pass that check: the feature adds
  a :data:`SignUpCheck` to :attr:`Hooks.sign_up_checks` (or the lead replaces the call site in
  :meth:`bot.tournaments.director.Director.sign_up` by a direct call). A check refuses by raising
  :class:`bot.errors.UserError`; nothing is moved then.
* **Ratings** (migration 0011) expose a function that rates a finished game from its final standings. Each table of a
  round is a finished game between its members: once a round's results are written, every table's standings are
  given to each :data:`TableRated` in :attr:`Hooks.table_results`, once (the call site is
  :meth:`bot.tournaments.director.Director._finish_round`). The tables are practice tables (tournament chips), which
  the ratings skip on their own; this hook is how tournament games can count. The standings are chips won at that
  table by seat, bots included with ``None`` for their user id (ratings leave bots out).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TableStandings:
    """One round's table as it ended: chips won by seat (``(user id, chips)``, a bot's user id None)."""

    guild_id: int
    game: str
    tournament_id: int
    round: int
    table_id: int
    standings: tuple[tuple[int | None, int], ...]


SignUpCheck = Callable[[int, int, int], Awaitable[None]]
"""``(guild_id, user_id, buy_in)``: raise :class:`bot.errors.UserError` to refuse the sign-up."""
TableRated = Callable[[TableStandings], Awaitable[None]]
"""Told each round table's final standings once the round's results are written."""


@dataclass
class Hooks:
    sign_up_checks: list[SignUpCheck] = field(default_factory=list)
    table_results: list[TableRated] = field(default_factory=list)
