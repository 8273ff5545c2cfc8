"""An export's period: ``from`` and ``to`` as ``YYYY-MM-DD`` days (UTC), both included, either left open."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot.errors import UserError

DAY_FORMAT = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Period:
    since: float | None
    """The first second included (Unix time), or None: from the beginning."""
    until: float | None
    """The first second after the period, or None: up to now."""
    first: date | None
    last: date | None

    @property
    def label(self) -> str:
        """For file names: ``2026-01-01_2026-01-31``, ``from-2026-01-01``, ``to-2026-01-31`` or ``all``."""
        if self.first and self.last:
            return f"{self.first}_{self.last}"
        if self.first:
            return f"from-{self.first}"
        if self.last:
            return f"to-{self.last}"
        return "all"


def _day(text: str | None, option: str) -> date | None:
    if text is None or not text.strip():
        return None
    value = text.strip()
    try:
        if not DAY_FORMAT.match(value):
            raise ValueError(value)
        return date.fromisoformat(value)
    except ValueError:
        raise UserError("export.bad_date", option=option, value=value[:40]) from None


def _start(day: date) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def period(first: str | None, last: str | None) -> Period:
    """The period from the options as a member typed them; :class:`UserError` for a day that is not one, or a
    ``to`` before the ``from``."""
    since, until = _day(first, "from"), _day(last, "to")
    if since is not None and until is not None and until < since:
        raise UserError("export.bad_period", first=str(since), last=str(until))
    end = None if until is None or until == date.max else _start(until + timedelta(days=1))
    return Period(_start(since) if since else None, end, since, until)


def iso(at: float) -> str:
    """A time as ``2026-01-01T12:34:56Z``."""
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
