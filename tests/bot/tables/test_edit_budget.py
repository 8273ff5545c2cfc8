"""The bot-wide budget of channel requests, in real time: its rate and burst, and live changes before restart
redraws."""

from __future__ import annotations

import asyncio

from bot.tables.public import EditBudget


async def test_the_budget_holds_the_rate_after_its_burst() -> None:
    budget = EditBudget(per_second=100.0, burst=5.0)
    loop = asyncio.get_running_loop()
    start = loop.time()
    stamps = []
    for _ in range(25):
        await budget.take()
        stamps.append(loop.time() - start)
    assert all(t < 0.01 for t in stamps[:5])  # the burst goes at once
    assert stamps[-1] >= 0.18  # then 100 a second: 20 more take about 0.2 s
    assert stamps[-1] < 1.0


async def test_live_changes_go_before_restart_redraws() -> None:
    budget = EditBudget(per_second=200.0, burst=1.0)
    await budget.take()  # the burst is spent: everyone below waits their turn
    served: list[str] = []

    async def request(name: str, low: bool) -> None:
        await budget.take(low=low)
        served.append(name)

    lows = [asyncio.create_task(request(f"redraw{i}", True)) for i in range(10)]
    await asyncio.sleep(0)
    live = asyncio.create_task(request("live", False))
    await asyncio.gather(*lows, live)
    assert served.index("live") <= 1  # at most one redraw (already on its way) went first


async def test_a_waiter_that_gives_up_passes_its_turn_on() -> None:
    budget = EditBudget(per_second=100.0, burst=1.0)
    await budget.take()
    waiter = asyncio.create_task(budget.take(low=True))
    await asyncio.sleep(0)
    waiter.cancel()
    loop = asyncio.get_running_loop()
    start = loop.time()
    await asyncio.wait_for(budget.take(), timeout=1.0)  # not stuck behind the waiter that left
    assert waiter.cancelled()
    assert loop.time() - start < 0.5  # served in its turn (one token's worth at 100 a second)


async def test_a_zero_budget_never_waits() -> None:
    budget = EditBudget(per_second=0.0)
    loop = asyncio.get_running_loop()
    start = loop.time()
    for _ in range(1000):
        await budget.take()
    assert loop.time() - start < 0.5
    assert not budget._waiting  # nobody was ever queued
