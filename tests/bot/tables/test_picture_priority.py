"""The table pictures spend the budget where people are looking, played with real sessions and engines against a
recording channel (no SimCord: the budget runs in real time): a table where a member's turn begins is drawn and sent
before tables where only bots moved, even those that asked first; the picture waiting when the turn began is drawn
again rather than sent stale first."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.tables.budget import EditBudget
from bot.tables.public import PublicMessages
from bot.tables.session import SeatInfo, TableSession
from games.core.rng import Shuffler
from games.registry import get_game
from games.replay import new_engine


class Channel:
    def __init__(self, sent: list[tuple[int, int]], table: int, sessions: dict[int, TableSession]) -> None:
        self.sent, self.table, self.sessions = sent, table, sessions

    async def send(self, *args: Any, **fields: Any) -> Any:
        self._note()
        return type("Message", (), {"id": 1000 + len(self.sent)})()

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Message:
            async def edit(self, **fields: Any) -> None:
                channel._note()

            async def delete(self) -> None:
                return None

        return Message()

    def _note(self) -> None:
        engine = self.sessions[self.table].engine
        assert engine is not None
        self.sent.append((self.table, engine.serial))


class Client:
    def __init__(self, sent: list[tuple[int, int]], sessions: dict[int, TableSession]) -> None:
        self.sent, self.sessions = sent, sessions

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> Channel:
        return Channel(self.sent, channel_id, self.sessions)


class Db:
    async def set_message(self, *args: Any) -> None:
        return None


def _table(table_id: int) -> TableSession:
    spec = get_game("oicho")
    rules = spec.rules_model()
    session = TableSession(
        id=table_id,
        guild_id=1,
        channel_id=table_id,
        game="oicho",
        host_id=1,
        rules=rules,
        stake=1,
        buy_in=100,
        practice=True,
        lang="en",
        status="playing",
        seats=[SeatInfo(1, "a"), SeatInfo(2, "b")],
        message_id=500 + table_id,
        message_created_at=time.time(),
    )
    session.engine = new_engine(spec, rules, [100, 100], Shuffler(seed_source=lambda: "ab" * 32))
    return session


async def _spent_public(sessions: dict[int, TableSession], sent: list[tuple[int, int]]) -> PublicMessages:
    """Table messages sent to ``sent``, no edit window, a budget of 20 a second whose burst is already spent: from
    here every picture waits its turn."""
    public = PublicMessages(
        Client(sent, sessions),
        Db(),
        clock=time.time,
        edit_interval=0.0,
        budget=EditBudget(20.0, burst=1.0),  # type: ignore[arg-type]
    )
    await public.budget.take()
    return public


async def test_a_members_turn_goes_before_bots_tables_and_its_stale_picture_is_drawn_again() -> None:
    sessions = {i: _table(i) for i in range(1, 6)}
    sent: list[tuple[int, int]] = []
    public = await _spent_public(sessions, sent)
    for i in range(1, 6):
        public.mark(sessions[i])  # bots moved at every table
    for _ in range(300):  # every picture is drawn and waits in the bots' lane (the first picture was sent at once)
        if sum(s.runtime.picture.ticket is not None for s in sessions.values()) == 5 - len(sent):
            break
        await asyncio.sleep(0.01)
    table = sessions[5]  # the last to ask
    waiting = table.runtime.picture.ticket
    assert waiting is not None and not waiting.done
    before = len(sent)  # (a token may have come back meanwhile: one bots' table may be out already)
    table.engine.serial += 1  # (as a move would) a member's turn begins at table 5
    public.mark(table, to_act=True)
    for _ in range(200):
        if len(sent) >= 5 and all(
            s.runtime.picture.updater is None or s.runtime.picture.updater.done() for s in sessions.values()
        ):
            break
        await asyncio.sleep(0.02)
    assert sent[before] == (5, table.engine.serial), "the member's table went next, drawn after their turn began"
    assert sorted(t for t, _ in sent) == [1, 2, 3, 4, 5], "each table sent once: the stale picture of 5 never was"


async def test_a_picture_waiting_for_its_deals_results_keeps_its_place_in_the_members_lane() -> None:
    """A deal ended and a member's turn began in the next: the new picture waits for the deal's results to go first.
    Tables whose member's turn began after that, and which asked meanwhile, do not go before it."""
    sessions = {i: _table(i) for i in range(1, 6)}
    sent: list[tuple[int, int]] = []
    public = await _spent_public(sessions, sent)
    results: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
    sessions[5].runtime.results = results  # type: ignore[assignment]  # deal's results still on their way
    public.mark(sessions[5], to_act=True)
    for _ in range(300):  # table 5 is drawn and waits for its results
        if public.renders == 1:
            break
        await asyncio.sleep(0.01)
    for i in range(1, 5):
        public.mark(sessions[i], to_act=True)  # members' turns begin at four more tables, later
    for _ in range(300):
        if all(sessions[i].runtime.picture.ticket is not None or (i, 0) in sent for i in range(1, 5)):
            break
        await asyncio.sleep(0.01)
    waiting = [i for i in range(1, 5) if (i, 0) not in sent]
    assert len(waiting) >= 2, "the later tables wait in the lane"
    results.set_result(True)  # the results are out: table 5's picture may go below them
    for _ in range(300):
        if len(sent) == 5:
            break
        await asyncio.sleep(0.02)
    assert sorted(t for t, _ in sent) == [1, 2, 3, 4, 5]
    assert sent[4 - len(waiting)] == (5, 0), "the table whose turn began first went first of those waiting"
