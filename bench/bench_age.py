"""The cost of a table's age: an old table must cost what a new one does.

    python bench/bench_age.py [deals] [game]        # game: oicho, ofc or both (default)

For each game one table is played to ``deals`` finished deals (default 1,000) and a second, new table to one,
both through the real runtime: ``TableSession.commit`` (engine step plus the ``append_step`` transaction,
with a restart point after every settled deal) on a real SQLite file, set up as ``Lobby.open``/``Lobby._start``
do (``open_table``, ``join_table``, ``start_table`` with the opening record and log rows). The baseline of
each measure is the new table, measured in the same run, on the same file and interleaved with the old one
(round-robin, in a random order each round), so load on a shared machine hits both alike. (Not alternating
by parity: the deal-ending commits of both tables fall on the same rounds, and the second of two like commits
runs about 10% faster, warm.)

And only the age differs: the two tables play the same deals. The measured stretch of each starts at a deal
where the state that decides play is the same at both (Oicho: the dealer and his rounds so far; OFC: the
dealer, and no Fantasyland), so the old table plays on until it meets the new one's; from there both draw
their shuffles from one deterministic seed stream (swapped into the live shuffler one deal ahead) and their
moves from equally seeded policies, so they deal the same cards and make the same moves (checked and printed).
Without this the deal-ending ratio wanders by up to 10% with what happens to be dealt (a run of Fantasyland
hands, say).
Measured:

* restart: ``TableSession.load`` on a session built as ``Restorer.restore`` builds it (``restart_point``, i.e.
  the last settled deal's snapshot plus the log since, and the replay of the deal in progress), with both tables
  the same few moves into the first deal of the measured stretch (the old table's after deal ``deals``, the
  new one's deal 2 or so), and the size of what it reads (restart record + log rows since it);
* commit: one action through ``TableSession.commit``, the same number of commits at each table; the
  deal-ending commits (settlement and restart point) are also reported alone, since they are the ones that
  write a snapshot.

Each table's median and p99 are printed; the ratios old / new come from the ratios of the rounds (the same
move, or a rebuild, at both tables back to back, so a burst of load hits both): the geometric mean of their
median over the rounds where the old table ran first and over those where it ran second. The goal is about
1x, i.e. nothing grows with age.

The tables: Oicho-Kabu with two members and a bot (a chip table, so the bot is funded by the house), every move
chosen by the game's policy; its length is capped by the rules (at most 10 dealer cycles of 50 rounds per
seat, so 500 deals per seat), and more bots sit down when more deals are asked for. OFC variant c with two
members; ``dealer_orbits`` has no upper bound, so one game lasts as long as asked. The OFC policy costs about
7 ms a decision (it scores every placement and rolls out the last streets), too slow to age a table by a
thousand hands in seconds, so the OFC table is aged with uniformly random legal placements (Fantasyland hands:
the solver's board) and the measured commits use the policy again; the choice of a move is never timed.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import math
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from bot.storage import Database
from bot.tables.session import SeatInfo, TableSession
from games.core.actions import Action, ActionFamily
from games.core.rng import Shuffler
from games.ofc.actions import Arrangements
from games.registry import GameSpec, get_game

GUILD = 1
MEMBERS = (101, 102)
CHIPS = 1_000_000
"""Every seat's stack (points, stake 1): far more than a thousand deals can move."""
PRESET_MOVES = 2
"""Moves into the deal in progress when the tables are rebuilt (the replay part of a restart)."""
LOADS = 100
"""Rebuilds timed per table."""
COMMITS = 300
"""Commits timed per table (about 70 Oicho deals, 50 OFC hands)."""

WINDOW_SEED = 7
"""Seeds the policy of both tables for the measured stretch."""

Chooser = Callable[[TableSession, int, random.Random], Action]
Key = Callable[[Any], Any]
Pair = tuple[float, float, bool]
"""One round's (old, new) wall times, and whether the old table ran first."""


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def policy_move(session: TableSession, seat: int, rng: random.Random) -> Action:
    engine = session.playing_engine()
    return session.spec.policy(engine.view(seat), engine.legal_actions(seat), rng)


def random_move(session: TableSession, seat: int, rng: random.Random) -> Action:
    """A random legal action: a listed one, or one of a family (an OFC street's placements); a Fantasyland hand
    plays the solver's board (a random arrangement would nearly always foul)."""
    legal = session.playing_engine().legal_actions(seat)
    listed = [a for a in legal if isinstance(a, Action)]
    if listed:
        return rng.choice(listed)
    family = legal[0]
    assert isinstance(family, ActionFamily)
    return family.example if isinstance(family, Arrangements) else family.sample(rng)


@dataclass
class Game:
    spec: GameSpec
    rules: Any
    bots: int
    aging: Chooser
    key: Key
    """At the start of a deal, what decides play from there (None: not a good start)."""
    note: str


def oicho(deals: int) -> Game:
    spec = get_game("oicho")
    seats = 3
    # Room for the aging, for meeting the new table's dealer (a tenure per seat at most) and for the timed
    # commits (a deal takes at least four).
    while seats < 10 and seats * 500 < deals + seats * 50 + COMMITS:
        seats += 1
    rules = spec.rules_model(
        starting_chips=CHIPS, dealer_cycles=10, dealer_rounds=50, dealer_bust_ends_tenure=False, dealer_may_resign=False
    )
    return Game(
        spec,
        rules,
        seats - len(MEMBERS),
        policy_move,
        lambda e: (e.dealer, e.tenure_rounds, e.cap),
        f"{seats} seats (2 members, {seats - 2} bot{'s' if seats > 3 else ''}), dealer_cycles 10 x dealer_rounds 50",
    )


def ofc(deals: int) -> Game:
    spec = get_game("ofc")
    orbits = math.ceil((deals + COMMITS + 100) / len(MEMBERS)) + 1

    def key(engine: Any) -> Any:
        return None if any(h.fantasyland for h in engine.hands) else engine.dealer

    rules = spec.rules_model(variant="c", starting_chips=CHIPS, dealer_orbits=orbits)
    return Game(spec, rules, 0, random_move, key, f"variant c, 2 seats (2 members), dealer_orbits {orbits}")


async def open_session(db: Database, game: Game, channel: int) -> TableSession:
    """A playing table, set up as ``Lobby.open`` and ``Lobby._start`` do."""
    spec, rules = game.spec, game.rules
    buy_in = spec.starting_chips(rules)
    row = await db.open_table(
        GUILD,
        channel,
        spec.id,
        MEMBERS[0],
        buy_in=buy_in,
        stake=1,
        rules=rules.model_dump(mode="json"),
        practice=False,
        lang="en",
    )
    for user in MEMBERS:
        await db.join_table(row.id, user, display_name=f"member{user}")
    for i in range(game.bots):
        await db.add_bot_seat(row.id, f"Bot{i}")
    session = TableSession(
        id=row.id,
        guild_id=GUILD,
        channel_id=channel,
        game=spec.id,
        host_id=MEMBERS[0],
        rules=rules,
        stake=1,
        buy_in=buy_in,
        practice=False,
        lang="en",
        status="lobby",
        seats=[],
    )
    # Lobby._start
    lobby = await db.get_table(session.id)
    assert lobby is not None
    await session.begin(db, [SeatInfo(s.user_id, s.name, bot=s.is_bot) for s in lobby.seats], Shuffler())
    return session


async def restored(db: Database, table_id: int) -> TableSession:
    """A session for the table as ``Restorer.restore`` registers it after a restart (not yet loaded)."""
    row = await db.get_table(table_id)
    assert row is not None
    spec = get_game(row.game)
    return TableSession(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        game=row.game,
        host_id=row.host_id,
        rules=spec.rules_model.model_validate(row.rules),
        stake=row.stake,
        buy_in=row.buy_in,
        practice=row.practice,
        lang=row.lang,
        status=row.status,
        seats=[SeatInfo(s.user_id, s.name, bot=s.is_bot, away=s.away) for s in row.seats],
        message_id=row.message_id,
        message_created_at=row.message_created_at or 0.0,
    )


def seed_stream(label: str) -> Callable[[], str]:
    """Deterministic shuffle seeds (64 hex characters, as ``new_seed`` makes)."""
    counter = itertools.count()
    return lambda: hashlib.sha256(f"{label}:{next(counter)}".encode()).hexdigest()


class Player:
    """Plays one table, one commit at a time, as a member's click or the autoplayer would."""

    def __init__(self, db: Database, session: TableSession, chooser: Chooser, seed: int) -> None:
        self.db, self.session, self.chooser = db, session, chooser
        self.rng = random.Random(seed)
        self.commits = 0
        self.moves: list[str] = []

    @property
    def deal(self) -> int:
        return self.session.playing_engine().deal_no

    async def step(self) -> tuple[float, bool]:
        """One commit; returns its wall time and whether it settled a deal."""
        session = self.session
        engine = session.playing_engine()
        seat = min(engine.to_act())
        action = self.chooser(session, seat, self.rng)
        start = time.perf_counter()
        bot = session.seats[seat].bot
        outcome = await session.commit(self.db, seat, action, decision=engine.decision_id(seat), by_policy=bot)
        elapsed = time.perf_counter() - start
        self.commits += 1
        self.moves.append(f"{seat}:{action.text}")
        if outcome.finished:
            raise RuntimeError(f"table {session.id} ended at deal {self.deal}: the rules are too short")
        return elapsed, bool(outcome.settled)

    async def to_deal(self, deal: int) -> None:
        """Play until ``deal`` is in progress (every deal before it settled)."""
        while self.deal < deal:
            await self.step()

    async def next_deal(self) -> None:
        """From the start of a deal, play on until the next one starts, its shuffle drawn from the window's
        seed stream (in these games a deal's only shuffle is made as the deal before it ends)."""
        self.session.playing_engine().shuffler.seed_source = seed_stream("window")
        await self.to_deal(self.deal + 1)

    async def align(self, key: Key, target: Any, earliest: int) -> None:
        """Play on to the first deal from ``earliest`` on at whose start ``key`` is ``target`` (not None), dealt
        from the start of the window's seed stream; then seed the policy for the window."""
        await self.to_deal(earliest - 1)
        await self.next_deal()
        while (found := key(self.session.playing_engine())) is None or (target is not None and found != target):
            await self.next_deal()
        self.rng = random.Random(WINDOW_SEED)
        self.chooser = policy_move
        self.moves = []

    async def preset(self) -> None:
        """A few moves into the deal, so that a rebuild replays some."""
        for _ in range(PRESET_MOVES):
            _, settled = await self.step()
            if settled:
                raise RuntimeError("a deal ended within the preset moves")


async def restart_size(db: Database, table_id: int) -> tuple[int, int, int]:
    record, _seq, entries = await db.restart_point(table_id)
    return len((record or "").encode()), len(entries), sum(len(e.body.encode()) for e in entries)


async def measure(db: Database, name: str, game: Game, deals: int, channel: int) -> tuple[list[str], list[str]]:
    old = Player(db, await open_session(db, game, channel), game.aging, seed=1)
    start = time.perf_counter()
    await old.to_deal(deals)
    aging = time.perf_counter() - start
    new = Player(db, await open_session(db, game, channel + 1), game.aging, seed=2)
    await new.align(game.key, None, earliest=2)
    await old.align(game.key, game.key(new.session.playing_engine()), earliest=deals + 1)
    players = {"new": new, "old": old}
    for player in players.values():
        await player.preset()

    # The rebuilt engine must be the live one, or the timing means nothing.
    for player in players.values():
        copy = await restored(db, player.session.id)
        await copy.load(db)
        assert copy.playing_engine().snapshot() == player.session.playing_engine().snapshot(), "rebuild differs"

    loads: dict[str, list[float]] = {"new": [], "old": []}
    for i in range(LOADS):
        order = ["new", "old"] if i % 2 else ["old", "new"]
        for key in order:
            copy = await restored(db, players[key].session.id)
            t0 = time.perf_counter()
            await copy.load(db)
            loads[key].append(time.perf_counter() - t0)
    load_pairs = [(o, n, i % 2 == 0) for i, (o, n) in enumerate(zip(loads["old"], loads["new"], strict=True))]
    sizes = {key: await restart_size(db, p.session.id) for key, p in players.items()}

    commits: dict[str, list[float]] = {"new": [], "old": []}
    ending: dict[str, list[float]] = {"new": [], "old": []}
    commit_pairs: list[Pair] = []
    ending_pairs: list[Pair] = []
    first = {key: p.deal for key, p in players.items()}
    coin = random.Random(0)  # not by parity (see the docstring)
    for _ in range(COMMITS):
        order = ["new", "old"] if coin.random() < 0.5 else ["old", "new"]
        done = {key: await players[key].step() for key in order}
        for key, (elapsed, settled) in done.items():
            (ending if settled else commits)[key].append(elapsed)
        (o, old_settled), (n, new_settled) = done["old"], done["new"]
        if old_settled == new_settled:
            (ending_pairs if old_settled else commit_pairs).append((o, n, order[0] == "old"))

    def ms(samples: list[float]) -> str:
        return f"median {statistics.median(samples) * 1e3:.3f} ms, p99 {pct(samples, 0.99) * 1e3:.3f} ms"

    def ratio(pairs: list[Pair]) -> float:
        """Old/new from the rounds' own ratios (a burst of load hits both runs of a round): the median of those
        where the old table ran first and of those where it ran second, whose geometric mean cancels the
        second run's advantage (it runs warm)."""
        halves = [statistics.median(o / n for o, n, old_first in pairs if old_first == side) for side in (True, False)]
        return math.sqrt(halves[0] * halves[1])

    def read(key: str) -> int:
        record, _rows, body = sizes[key]
        return record + body

    def size(key: str) -> str:
        record, rows, body = sizes[key]
        return f"{record + body:,} B (record {record:,} B + {rows} log rows, {body} B)"

    same = next((i for i, (a, b) in enumerate(zip(old.moves, new.moves, strict=True)) if a != b), None)

    lines = [
        f"{name}: {game.note}; old table aged to deal {deals} in {aging:.1f} s ({old.commits:,} commits in all)",
        f"  measured from deal {first['new']} (new) and {first['old']} (old): "
        + ("the same cards and moves at both" if same is None else f"the moves differ from move {same + 1} on"),
        f"  restart read: new {size('new')}; old {size('old')}",
        f"  rebuild (load): new {ms(loads['new'])}; old {ms(loads['old'])}",
        f"  commit, deals {first['new']}-{new.deal} vs {first['old']}-{old.deal}: "
        f"new {ms(commits['new'])}; old {ms(commits['old'])}",
        f"  deal-ending commit ({len(ending['new'])} vs {len(ending['old'])}): "
        f"new {ms(ending['new'])}; old {ms(ending['old'])}",
    ]
    summary = [
        f"{name} commit old/new: {ratio(commit_pairs):.2f}x (goal ~1x)",
        f"{name} deal-ending commit old/new: {ratio(ending_pairs):.2f}x (goal ~1x)",
        f"{name} rebuild old/new: {ratio(load_pairs):.2f}x (goal ~1x)",
        f"{name} restart bytes old/new: {read('old') / read('new'):.2f}x (goal ~1x)",
    ]
    return lines, summary


async def main(deals: int, games: list[str]) -> None:
    makers = {"oicho": oicho, "ofc": ofc}
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(str(Path(tmp) / "age.db"))
        await db.set_config(GUILD, actor_id=0, starting_balance=100 * CHIPS, bots_play_for_chips=True)
        details: list[str] = []
        ratios: list[str] = []
        for i, name in enumerate(games):
            lines, summary = await measure(db, name, makers[name](deals), deals, channel=100 + 10 * i)
            details += lines
            ratios += summary
        assert await db.verify_ledger() == [], "the ledger does not reconcile"
        await db.close()
    print(f"deals: {deals}")
    print("\n".join(details))
    print()
    print("\n".join(ratios))


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    which = sys.argv[2] if len(sys.argv) > 2 else "both"
    asyncio.run(main(size, ["oicho", "ofc"] if which == "both" else [which]))
