"""A member's loss limits against what they lost: whether they are at or over one, and until when.

Pure functions over the member's settled deals (:meth:`bot.storage.limits.LimitsQueries.losses`, oldest first). Net
chips lost in a window are minus the sum of the deals settled in it (a deal counts while it is less than the window
old); a member **at or over** a limit (lost at least the limit) may not sit down at a chip table until enough of those
deals have grown older than the window that the net lost falls below the limit again. That moment is exact for the
deals already settled: a deal still in play (the member finishes a game they are at) may move it later.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.limits import WINDOWS, Loss, Window


@dataclass(frozen=True)
class Over:
    """A loss limit reached: chips ``lost`` in the ``window`` against the ``limit``, and ``until`` when the net lost
    falls below it again (with no more deals settled)."""

    window: Window
    lost: int
    limit: int
    until: float


def net_lost(losses: Sequence[Loss], window: Window, now: float) -> int:
    """Net chips lost in the window ending at ``now`` (negative: won)."""
    since = now - WINDOWS[window]
    return -sum(loss.delta for loss in losses if loss.at > since)


def over_limit(losses: Sequence[Loss], window: Window, limit: int, now: float) -> Over | None:
    """The limit reached at ``now`` (the member lost at least ``limit``), with its end; None when below it."""
    span = WINDOWS[window]
    counted = [loss for loss in losses if loss.at > now - span]
    lost = -sum(loss.delta for loss in counted)
    if lost < limit:
        return None
    remaining = lost
    for loss in counted:  # oldest first: each leaves the window at its time plus the window
        remaining += loss.delta
        if remaining < limit:
            return Over(window, lost, limit, loss.at + span)
    raise AssertionError("once every deal has left the window nothing is lost")  # limits are at least 1
