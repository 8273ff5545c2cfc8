"""Reading a tournament's start time as a moderator types it.

Accepted: a delay from now (``45m``, ``2h``, ``1h30m``, ``1d``), a time of day in UTC (``18:30``: today, or tomorrow
if that time has passed), or a day and time in UTC (``2030-01-31 18:30``, also with a ``T``). Everything else is
refused with the forms allowed. Members see the time in their own time zone (Discord's timestamp markup).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from bot.errors import UserError

EARLIEST = 60
"""A tournament starts at least a minute after it opens: members need time to sign up."""
LATEST = 30 * 86400
"""And at most thirty days after."""

_DELAY = re.compile(r"^(?:(?P<d>\d{1,3})d)?(?:(?P<h>\d{1,4})h)?(?:(?P<m>\d{1,6})m)?$")
_CLOCK = re.compile(r"^(?P<h>\d{1,2}):(?P<m>\d{2})$")
_DAY = re.compile(r"^(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[ t](?P<h>\d{1,2}):(?P<m>\d{2})$")


def start_at(text: str, now: float) -> float:
    """The Unix time ``text`` names (see the module); :class:`UserError` when it cannot be read or is out of range."""
    typed = text.strip().lower().replace("\u00a0", " ")
    found: float | None = None
    delay = _DELAY.match(typed.replace(" ", ""))
    if delay and any(delay.groupdict().values()):
        parts = {k: int(v or 0) for k, v in delay.groupdict().items()}
        found = now + parts["d"] * 86400 + parts["h"] * 3600 + parts["m"] * 60
    elif clock := _CLOCK.match(typed):
        hour, minute = int(clock["h"]), int(clock["m"])
        if hour > 23 or minute > 59:
            raise UserError("tournaments.bad_start", typed=text[:40])
        today = datetime.fromtimestamp(now, UTC).replace(hour=hour, minute=minute, second=0, microsecond=0)
        moment = today if today.timestamp() > now else today + timedelta(days=1)
        found = moment.timestamp()
    elif day := _DAY.match(typed):
        try:
            moment = datetime(int(day["y"]), int(day["mo"]), int(day["d"]), int(day["h"]), int(day["m"]), tzinfo=UTC)
        except ValueError:
            raise UserError("tournaments.bad_start", typed=text[:40]) from None
        found = moment.timestamp()
    if found is None:
        raise UserError("tournaments.bad_start", typed=text[:40])
    if not now + EARLIEST <= found <= now + LATEST:
        raise UserError("tournaments.start_out_of_range", typed=text[:40])
    return found
