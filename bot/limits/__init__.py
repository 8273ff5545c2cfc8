"""Responsible play and stake limits: what a member may set for themself, what moderators may set for a server, and
the one check every way of taking a seat makes.

* :mod:`bot.limits.service` — :func:`check_can_sit`, the check (exclusion, loss limits, stake limits), and
  :class:`Limits`, which the limits cog keeps;
* :mod:`bot.limits.losses` — whether a member is at or over a loss limit, and until when;
* :mod:`bot.limits.reminder` — the reminder of time at a table, a note under the member's own panel;
* :mod:`bot.limits.confirm` — the warning and confirmation of a self-exclusion;
* :mod:`bot.storage.limits` — their storage (migration 0013), and how a loss limit changes;
* :mod:`bot.cogs.limits` — ``/limits`` (the member's own) and ``/server-limits`` (moderators).

Every limit is per server, as balances are.
"""

from bot.limits.service import Limits, check_can_sit

__all__ = ["Limits", "check_can_sit"]
