"""The pure rules of limits: a loss limit reached at its edges and when it ends, how a loss limit changes, and which
stake limit applies to a member with roles."""

from __future__ import annotations

from bot.limits.losses import Over, net_lost, over_limit
from bot.storage.limits import (
    DAY,
    SERVER,
    WEEK,
    Loss,
    LossLimit,
    StakeLimit,
    change_loss_limit,
    effective_stake_limits,
)

NOW = 1_000_000.0


def test_at_the_limit_is_over_one_chip_under_is_not() -> None:
    assert over_limit([Loss(NOW - 10, -99)], "daily", 100, NOW) is None
    assert over_limit([Loss(NOW - 10, -100)], "daily", 100, NOW) == Over("daily", 100, 100, NOW - 10 + DAY)
    assert over_limit([Loss(NOW - 10, -101)], "daily", 100, NOW) == Over("daily", 101, 100, NOW - 10 + DAY)


def test_the_end_is_when_enough_losses_leave_the_window() -> None:
    losses = [Loss(NOW - 5000, -80), Loss(NOW - 3000, -50), Loss(NOW - 1000, 20)]
    # Net lost 110 against 100: once the first loss (80) leaves, 30 remain lost; until then still over.
    assert over_limit(losses, "daily", 100, NOW) == Over("daily", 110, 100, NOW - 5000 + DAY)
    # Against 40: after the first leaves, 50 - 20 = 30 < 40.
    assert over_limit(losses, "daily", 40, NOW) == Over("daily", 110, 40, NOW - 5000 + DAY)
    # Against 20: 30 is still over; once the second leaves, -20 (a win) is under.
    assert over_limit(losses, "daily", 20, NOW) == Over("daily", 110, 20, NOW - 3000 + DAY)


def test_a_win_leaving_the_window_can_keep_a_member_over() -> None:
    losses = [Loss(NOW - 5000, 300), Loss(NOW - 4000, -100), Loss(NOW - 3000, -250)]
    # Net lost 50; when the early win leaves, 350 are lost: the end is after the second loss leaves too.
    assert over_limit(losses, "daily", 50, NOW) == Over("daily", 50, 50, NOW - 3000 + DAY)


def test_windows_count_deals_less_than_their_length_old() -> None:
    losses = [Loss(NOW - WEEK, -500), Loss(NOW - WEEK + 1, -300), Loss(NOW - DAY, -200), Loss(NOW - 1, -10)]
    assert net_lost(losses, "daily", NOW) == 10
    assert net_lost(losses, "weekly", NOW) == 510
    assert over_limit(losses, "daily", 11, NOW) is None
    reached = over_limit(losses, "weekly", 500, NOW)
    assert reached is not None and reached.until == NOW - WEEK + 1 + WEEK


def test_lowering_is_at_once_raising_and_removing_wait_a_day() -> None:
    assert change_loss_limit(LossLimit(), 100, NOW) == (LossLimit(100), "now")
    assert change_loss_limit(LossLimit(100), 50, NOW) == (LossLimit(50), "now")
    assert change_loss_limit(LossLimit(100), 150, NOW) == (LossLimit(100, 150, NOW + DAY), "later")
    assert change_loss_limit(LossLimit(100), None, NOW) == (LossLimit(100, 0, NOW + DAY), "later")
    assert change_loss_limit(LossLimit(100), 100, NOW) == (LossLimit(100), "kept")
    assert change_loss_limit(LossLimit(), None, NOW) == (LossLimit(), "kept")
    pending = LossLimit(100, 150, NOW + 10)
    assert change_loss_limit(pending, 100, NOW) == (LossLimit(100), "cancelled")
    assert change_loss_limit(pending, 80, NOW) == (LossLimit(80), "now")
    # Asking again starts the wait again; a pending raise whose time has come is the limit in force.
    assert change_loss_limit(pending, 200, NOW) == (LossLimit(100, 200, NOW + DAY), "later")
    assert change_loss_limit(pending, 120, NOW + 10) == (LossLimit(120), "now")
    assert pending.at(NOW + 9) == pending and pending.at(NOW + 10) == LossLimit(150)
    assert LossLimit(100, 0, NOW).at(NOW) == LossLimit(None)


def test_the_most_generous_role_overrides_the_server() -> None:
    rows = [StakeLimit(SERVER, 10, 1000), StakeLimit(1, 5, None), StakeLimit(2, 50, None), StakeLimit(3, None, 300)]
    assert effective_stake_limits(rows, []) == ((10, SERVER), (1000, SERVER))
    assert effective_stake_limits(rows, [1]) == ((5, 1), (1000, SERVER))  # a role may allow less than the server
    assert effective_stake_limits(rows, [1, 2]) == ((50, 2), (1000, SERVER))
    assert effective_stake_limits(rows, [3, 99]) == ((10, SERVER), (300, 3))
    assert effective_stake_limits([StakeLimit(2, 50, None)], [5]) == (None, None)
    assert effective_stake_limits([StakeLimit(2, 50, None)], [2]) == ((50, 2), None)
