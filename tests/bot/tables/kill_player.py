"""A bot process reduced to its table runtime, for ``test_kill.py``: opens the SQLite file given, opens an Oicho-Kabu
chip table (two members and a house-funded bot), starts it as ``Lobby._start`` does, then plays random legal moves
through the real ``TableSession.commit`` (engine step plus the ``append_step`` transaction) until it is killed.
Prints ``ready <table id>`` once a few moves are stored.

    python tests/bot/tables/kill_player.py DB_PATH SEED [IDENTITY_DIR]
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # run as a script from a checkout

from bot.instance import claim
from bot.storage import Database
from bot.tables.session import SeatInfo, TableSession
from games.core.actions import Action
from games.core.rng import Shuffler
from games.registry import get_game

GUILD = 1
MEMBERS = (101, 102)
BUY_IN = 100_000
READY_AFTER = 10


def random_move(session: TableSession, seat: int, rng: random.Random) -> Action:
    legal = session.playing_engine().legal_actions(seat)
    listed = [a for a in legal if isinstance(a, Action)]
    return rng.choice(listed) if listed else legal[0].example  # type: ignore[union-attr]


async def main(path: str, seed: int, identity_dir: str | None = None) -> None:
    rng = random.Random(seed)
    spec = get_game("oicho")
    rules = spec.rules_model()
    # As ``python -m bot`` does when given a data directory: a lasting identity as the owner of table leases.
    db = await Database.open(path, owner=claim(identity_dir) if identity_dir else None)
    await db.set_config(GUILD, actor_id=0, starting_balance=10 * BUY_IN, bots_play_for_chips=True)
    row = await db.open_table(
        GUILD, 500, spec.id, MEMBERS[0], buy_in=BUY_IN, stake=1, rules=rules.model_dump(mode="json")
    )
    for user in MEMBERS:
        await db.join_table(row.id, user, display_name=f"member{user}")
    await db.add_bot_seat(row.id, "Bot0")
    session = TableSession(
        id=row.id,
        guild_id=GUILD,
        channel_id=500,
        game=spec.id,
        host_id=MEMBERS[0],
        rules=rules,
        stake=1,
        buy_in=BUY_IN,
        practice=False,
        lang="en",
        status="lobby",
        seats=[],
    )
    lobby = await db.get_table(row.id)
    assert lobby is not None
    await session.begin(db, [SeatInfo(s.user_id, s.name, bot=s.is_bot) for s in lobby.seats], Shuffler())
    moves = 0
    while session.status == "playing":
        engine = session.playing_engine()
        seat = min(engine.to_act())
        # the bot's moves as its policy's, the members' as their clicks
        await session.commit(db, seat, random_move(session, seat, rng), by_policy=session.seats[seat].bot)
        moves += 1
        if moves == READY_AFTER:
            print(f"ready {row.id}", flush=True)
    print("ended", flush=True)  # the game ran its course before the kill (not expected in a test's time)
    await db.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None))
