"""The deal limit a table may carry (migration 0014): stored with the table and read back, bounded, and the closing
written with a step (``append_step(close=True, pot_back=…)``) paying a pot back to its seats as a stop does."""

from __future__ import annotations

import pytest

from bot.storage import Database, DealToSettle, InvalidState, InvalidValue, LogEntry

GUILD = 10


async def _playing(db: Database, *, deal_limit: int | None, practice: bool = False) -> int:
    table = await db.open_table(GUILD, 100, "hachi_hachi", 1, buy_in=100, practice=practice, deal_limit=deal_limit)
    for user in (1, 2, 3):
        await db.join_table(table.id, user)
    await db.start_table(table.id)
    return table.id


async def test_the_limit_is_kept_with_the_table(ledger_checked: Database) -> None:
    table_id = await _playing(ledger_checked, deal_limit=3)
    row = await ledger_checked.get_table(table_id)
    assert row is not None and row.deal_limit == 3
    assert [t.deal_limit for t in await ledger_checked.list_active_tables(GUILD)] == [3]
    plain = await ledger_checked.open_table(GUILD, 101, "oicho", 1, buy_in=100)
    assert plain.deal_limit is None


@pytest.mark.parametrize("limit", [0, -1, 10_001, True, 2.5])
async def test_a_limit_out_of_bounds_is_refused(ledger_checked: Database, limit: object) -> None:
    with pytest.raises(InvalidValue) as refused:
        await ledger_checked.open_table(GUILD, 100, "oicho", 1, buy_in=100, deal_limit=limit)  # type: ignore[arg-type]
    assert refused.value.code == "storage.invalid_deal_limit"
    assert await ledger_checked.active_table_in(100) is None


@pytest.mark.parametrize("practice", [False, True])
async def test_a_step_that_closes_the_table_pays_its_pot_back(ledger_checked: Database, practice: bool) -> None:
    db = ledger_checked
    table_id = await _playing(db, deal_limit=1, practice=practice)
    deal = [DealToSettle(1, (-20, -30, 0), {}, 50)]
    # Without saying whose the pot is, the close is refused and nothing of the step is written.
    with pytest.raises(InvalidState) as unsaid:
        await db.append_step(table_id, [LogEntry(1, "action", "fold", seat=0)], settle=deal, close=True)
    assert unsaid.value.code == "storage.pot_not_empty"
    row = await db.get_table(table_id)
    assert row is not None and row.status == "playing" and row.pot == 0
    step = await db.append_step(
        table_id, [LogEntry(1, "action", "fold", seat=0)], settle=deal, close=True, pot_back=[20, 30, 0]
    )
    assert step.closure is not None and step.closure.status == "ended"
    row = await db.get_table(table_id)
    assert row is not None and row.status == "ended" and row.pot == 0
    if not practice:
        # Every member got their whole buy-in back: the deal's losses were all in the pot.
        assert dict(step.closure.returned) == {0: 100, 1: 100, 2: 100}
