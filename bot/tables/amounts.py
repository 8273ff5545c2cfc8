"""Amounts typed into the amount modal: plain digits, thousands separators in the standard places, and
full-width digits (see :func:`games.core.numbers.parse_whole`); anything else is refused, repeating what was
typed so the player sees what went wrong."""

from __future__ import annotations

from bot.errors import UserError
from games.core.numbers import parse_whole

SHOWN = 24
"""How much of a refused entry the refusal repeats."""


def parse_amount(raw: str) -> int:
    """The amount typed, at least 1; :class:`UserError` otherwise."""
    amount = parse_whole(raw)
    shown = raw.strip()[:SHOWN] or "—"
    if amount is None or amount < 0 or raw.strip().startswith("-"):
        raise UserError("table.amount_not_number", value=shown)
    if amount < 1:
        raise UserError("table.amount_too_small")
    return amount
