"""One table in memory: its seats, its engine and the record that rebuilds it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.ui.base import TableContext
from games.core.engine import Engine
from games.core.record import TableRecord
from games.core.rng import Shuffler
from games.registry import GameSpec, get_game
from games.replay import new_engine, record_of, replay


@dataclass
class SeatInfo:
    """Who sits in a seat. Bot players have no user id."""

    user_id: int | None
    name: str
    bot: bool = False
    away: bool = False

    @property
    def label(self) -> str:
        return f"bot:{self.name}" if self.bot else f"user:{self.user_id}:{self.name}"


@dataclass
class OpenPanel:
    """A seat's latest private panel, kept so the table can edit it as the game moves on."""

    interaction: discord.Interaction
    locale: Any
    opened_at: float
    signature: str


@dataclass
class LiveTable:
    """A table's state in memory; the database row and record are its durable form."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    host_id: int
    rules: Any
    stake: int
    buy_in: int
    practice: bool
    lang: str = "en"
    status: str = "lobby"
    seats: list[SeatInfo] = field(default_factory=list)
    engine: Engine[Any] | None = None
    base: TableRecord | None = None
    message_id: int | None = None
    message_created_at: float = 0.0
    settled_deals: set[int] = field(default_factory=set)
    panel_state: dict[int, dict[str, str]] = field(default_factory=dict)
    panels: dict[int, OpenPanel] = field(default_factory=dict, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    timer: asyncio.Task[None] | None = field(default=None, repr=False)
    lobby_timer: asyncio.Task[None] | None = field(default=None, repr=False)
    updater: asyncio.Task[None] | None = field(default=None, repr=False)
    dirty: bool = False
    repost: bool = False

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)

    @property
    def points_per_seat(self) -> int:
        return self.buy_in // self.stake

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if not seat.bot and seat.user_id == user_id:
                return index
        return None

    def names(self) -> list[str]:
        return [("🤖 " + s.name) if s.bot else s.name for s in self.seats]

    def ctx(self) -> TableContext:
        return TableContext(self.id, self.names(), self.stake, self.practice, self.lang, self.rules)

    def start(self, shuffler: Shuffler | None = None) -> None:
        """Create the engine from the seats in order; every stack is the buy-in in points."""
        spec = self.spec
        stacks = [self.points_per_seat] * len(self.seats)
        self.base = TableRecord(
            game=self.game,
            rules=self.rules.model_dump(mode="json"),
            stacks=stacks,
            seats=[s.label for s in self.seats],
            stake=self.stake,
        )
        self.engine = new_engine(spec, self.rules, stacks, shuffler or Shuffler())
        self.status = "playing"

    def record(self) -> TableRecord:
        assert self.engine is not None
        assert self.base is not None
        return record_of(self.engine, self.base)

    def restore(self, record: TableRecord) -> None:
        """Rebuild the engine from a stored record (a live table keeps drawing fresh seeds)."""
        self.base = TableRecord(
            game=record.game, rules=record.rules, stacks=record.stacks, seats=record.seats, stake=record.stake
        )
        self.engine = replay(record, fresh=True)
        self.status = "playing"
