"""The bot-wide budget of channel requests, in real time: never more than its rate in any second (its burst
included), in priority order, promotion without losing a turn, waiters that leave, and two processes sharing one
token's budget. Real time only ever makes a grant later, so the upper bounds here cannot fail by a slow machine."""

from __future__ import annotations

import asyncio
import bisect

from bot.tables.budget import BOTS, LOW, MEMBER, EditBudget, share


def most_in_a_second(stamps: list[float]) -> int:
    stamps = sorted(stamps)
    return max((bisect.bisect_left(stamps, t + 1.0) - i for i, t in enumerate(stamps)), default=0)


async def _hammer(budget: EditBudget, stamps: list[float], seconds: float, requesters: int = 20) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds

    async def one() -> None:
        while loop.time() < end:
            await budget.take()
            stamps.append(loop.time())

    await asyncio.gather(*(one() for _ in range(requesters)))


async def test_no_second_ever_holds_more_than_the_rate_burst_included() -> None:
    budget = EditBudget(per_second=60.0, burst=5.0)
    stamps: list[float] = []
    await _hammer(budget, stamps, 1.6)
    assert most_in_a_second(stamps) <= 60
    assert len(stamps) >= 60  # and it does serve about its rate


async def test_members_go_before_bots_before_restart_redraws_oldest_first() -> None:
    budget = EditBudget(per_second=100.0, burst=1.0)
    await budget.take()  # the burst is spent: everyone below waits their turn
    served: list[str] = []

    async def request(name: str, priority: int) -> None:
        await budget.take(priority)
        served.append(name)

    tasks = [asyncio.create_task(request(f"low{i}", LOW)) for i in range(3)]
    await asyncio.sleep(0)
    tasks += [asyncio.create_task(request(f"bots{i}", BOTS)) for i in range(3)]
    await asyncio.sleep(0)
    tasks += [asyncio.create_task(request(f"member{i}", MEMBER)) for i in range(3)]
    await asyncio.gather(*tasks)
    assert served == [f"{kind}{i}" for kind in ("member", "bots", "low") for i in range(3)]


async def test_a_promoted_request_moves_up_and_never_loses_a_granted_turn() -> None:
    budget = EditBudget(per_second=100.0, burst=1.0)
    await budget.take()
    others = [budget.request(BOTS) for _ in range(3)]
    redraw = budget.request(LOW)
    budget.promote(redraw, MEMBER)  # a member moved at that table meanwhile
    await redraw
    assert not any(t.done for t in others[1:]), "it went before the bots' requests queued earlier"
    budget.promote(redraw, MEMBER)  # promoting a request already granted changes nothing
    for ticket in others:
        await ticket
    assert budget._waiting == 0


async def test_a_waiter_that_gives_up_passes_its_turn_on_and_blocks_nobody() -> None:
    budget = EditBudget(per_second=100.0, burst=1.0)
    await budget.take()
    waiter = asyncio.create_task(budget.take(LOW))
    await asyncio.sleep(0)
    waiter.cancel()
    await asyncio.sleep(0)
    assert budget._waiting == 0
    await asyncio.sleep(0.05)  # a token refills
    ticket = budget.request(BOTS)
    assert ticket.done, "with nobody waiting and a token there, a request is granted at once"


async def test_a_zero_budget_never_waits() -> None:
    budget = EditBudget(per_second=0.0)
    loop = asyncio.get_running_loop()
    start = loop.time()
    for _ in range(1000):
        await budget.take()
    assert loop.time() - start < 0.5
    assert not budget._waiting  # nobody was ever queued


async def test_two_processes_sharing_a_token_never_exceed_its_budget_together() -> None:
    total = 80.0
    assert share(total, 1, 2) == 40.0 and share(total, 3, 4) == 60.0 and share(total, 2, 0) == total
    first, second = EditBudget(share(total, 1, 2)), EditBudget(share(total, 1, 2))
    stamps: list[float] = []
    await asyncio.gather(_hammer(first, stamps, 1.6), _hammer(second, stamps, 1.6))
    assert most_in_a_second(stamps) <= total


async def test_a_withdrawn_request_gives_up_its_place_and_its_awaiter_is_told() -> None:
    from bot.tables.budget import Withdrawn

    budget = EditBudget(per_second=100.0, burst=1.0)
    await budget.take()
    stale = budget.request(BOTS)
    behind = budget.request(BOTS)
    assert budget.withdraw(stale) and not budget.withdraw(stale)
    try:
        await stale
    except Withdrawn:
        pass
    else:
        raise AssertionError("the awaiter of a withdrawn request must be told")
    await behind  # served in the place the withdrawn one left
    granted = budget.request(MEMBER)
    await granted
    assert not budget.withdraw(granted), "a granted request cannot be taken back"


async def test_a_request_given_an_earlier_age_waits_as_if_made_then() -> None:
    budget = EditBudget(per_second=100.0, burst=1.0)
    await budget.take()
    before = budget.request(MEMBER)
    then = budget.age()  # what needs the request happens now; the request is made later
    after = [budget.request(MEMBER) for _ in range(3)]
    late = budget.request(MEMBER, age=then)
    served: list[object] = []
    for ticket in (before, late, *after):
        ticket.granted.add_done_callback(lambda _, t=ticket: served.append(t))
    await asyncio.gather(before, late, *after)
    assert served == [before, late, *after], "after the one made before its age, before the ones made after"
