"""Reading a tournament's start time: delays, a time of day and a day and time in UTC, and clear refusals."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.errors import UserError
from bot.tournaments.when import start_at

NOW = datetime(2030, 1, 31, 12, 0, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("typed", "after"),
    [
        ("45m", 45 * 60),
        ("2h", 2 * 3600),
        ("1h30m", 90 * 60),
        ("1d", 86400),
        ("1m", 60),
        ("18:30", 6.5 * 3600),
        ("11:00", 23 * 3600),  # passed today: tomorrow
        ("2030-02-01 12:00", 86400),
        ("2030-02-01T12:00", 86400),
    ],
)
def test_accepted_forms(typed: str, after: float) -> None:
    assert start_at(typed, NOW) == NOW + after


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("soon", "tournaments.bad_start"),
        ("25:00", "tournaments.bad_start"),
        ("2030-02-30 10:00", "tournaments.bad_start"),
        ("0m", "tournaments.start_out_of_range"),
        ("30s", "tournaments.bad_start"),
        ("31d", "tournaments.start_out_of_range"),
        ("2029-12-31 10:00", "tournaments.start_out_of_range"),
    ],
)
def test_refused_forms(typed: str, key: str) -> None:
    with pytest.raises(UserError) as refused:
        start_at(typed, NOW)
    assert refused.value.key == key
