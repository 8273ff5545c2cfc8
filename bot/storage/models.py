"""Typed results returned by :class:`bot.storage.Database`, and the types of what it is given. Results are frozen;
chips are ints, times Unix seconds."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, TypedDict, TypeVar

JsonValue: TypeAlias = bool | int | float | str | Sequence["JsonValue"] | Mapping[str, "JsonValue"] | None
"""A value JSON can carry: what the storage accepts where it stores a caller's JSON (a table's rules, a deal's
summary, a house-rules dump; tuples are written as lists) and, read as immutable, what it gives back."""

JsonObject: TypeAlias = dict[str, Any]
"""A JSON object read back from the database (``json.loads``): the caller's own data, whose shape the caller knows
and checks (a rules model's ``model_validate``, say). Its values are ``Any``, not :data:`JsonValue`: a ``dict`` is
invariant, so ``dict[str, JsonValue]`` could not be handed to the engines' ``from_json(data: dict[str, object])``
nor to code that reads a summary's known keys."""

TableStatus = Literal["lobby", "playing", "ended", "cancelled"]
TablePlace = Literal["thread", "channel"]
"""Where ``/play`` opens a table: its own thread of the channel, or the channel itself."""
TablePace = Literal["live", "correspondence"]
"""How fast a table moves: the server's turn timer, or hours per decision with a mention for each."""
TABLE_PLACES: tuple[TablePlace, ...] = ("thread", "channel")
TABLE_PACES: tuple[TablePace, ...] = ("live", "correspondence")
ACTIVE_STATUSES: tuple[TableStatus, ...] = ("lobby", "playing")

# Reasons a movement may carry (mirrors the CHECK constraint of the `movements` table).
REASONS = (
    "starting_credit",  # mint → wallet, once per member
    "daily",  # mint → wallet
    "grant",  # mint → wallet, by a moderator
    "take",  # wallet → mint, by a moderator
    "give",  # wallet → wallet
    "buy_in",  # wallet → seat
    "cash_out",  # seat → wallet when a table closes
    "refund",  # seat → wallet when a member leaves the lobby or the table is cancelled
    "settlement",  # seat ↔ seat at the end of a deal
    "house_fund",  # house → bot seat
    "house_return",  # bot seat → house
    "void",  # seat → wallet / house when a table is stopped mid-deal (the deal moved nothing)
)


@dataclass(frozen=True)
class GuildConfig:
    """Per-guild settings; a guild without a stored row gets these defaults."""

    guild_id: int
    starting_balance: int = 1000
    daily_amount: int = 100
    daily_cooldown_seconds: int = 86400
    turn_timer_seconds: int = 60
    allowed_channel_ids: tuple[int, ...] = ()
    bots_play_for_chips: bool = False
    give_enabled: bool = False
    moderator_role_id: int | None = None
    bot_pace_ms: int = 1200
    """How long bot players (and players marked away) wait before each move, so people can follow the game."""
    table_place: TablePlace = "thread"
    """Where ``/play`` opens a table: in its own thread of the channel (``thread``), or in the channel itself."""
    correspondence_max_hours: int = 72
    """The longest a host may give each decision at a correspondence table."""
    watch_delay: bool = False
    """Watchers see a table one deal late: the last settled deal as it ended, never the deal in play (bot.watch)."""
    updated_by: int | None = None
    updated_at: float | None = None

    def channel_allowed(self, channel_id: int) -> bool:
        """Whether tables may open in ``channel_id`` (an empty list allows every channel)."""
        return not self.allowed_channel_ids or channel_id in self.allowed_channel_ids


class ConfigChanges(TypedDict, total=False):
    """The settings :meth:`~bot.storage.Database.set_config` may change (as keyword arguments), with the types it
    accepts; each is validated (``storage.config_*``) before anything is stored."""

    starting_balance: int
    daily_amount: int
    daily_cooldown_seconds: int
    turn_timer_seconds: int
    allowed_channel_ids: list[int] | tuple[int, ...] | set[int] | frozenset[int]
    bots_play_for_chips: bool
    give_enabled: bool
    moderator_role_id: int | None
    bot_pace_ms: int
    table_place: TablePlace
    correspondence_max_hours: int
    watch_delay: bool


@dataclass(frozen=True)
class Wallet:
    guild_id: int
    user_id: int
    balance: int
    last_daily_at: float | None
    created_at: float


@dataclass(frozen=True)
class DailyClaim:
    """``claimed`` False means the cooldown is running: nothing moved, ``retry_after`` seconds remain."""

    claimed: bool
    amount: int
    balance: int
    retry_after: float
    replayed: bool = False


@dataclass(frozen=True)
class Transfer:
    """A grant, take or give. ``sender_balance`` / ``recipient_balance`` are None for the mint side."""

    movement_id: int
    key: str
    reason: str
    amount: int
    sender_balance: int | None
    recipient_balance: int | None
    replayed: bool = False


@dataclass(frozen=True)
class Seat:
    id: int
    table_id: int
    position: int
    user_id: int | None
    bot_name: str | None
    stack: int
    buy_in: int
    away: bool
    joined_at: float
    display_name: str | None = None
    """The member's name when they sat down (a bot's name for a bot)."""
    bot_level: str | None = None
    """The level a bot plays at (``games.registry.LEVELS``); None for a member."""

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def name(self) -> str:
        return self.bot_name or self.display_name or f"player {self.user_id}"


@dataclass(frozen=True)
class Table:
    """A table row and its seats (ordered by position, which is the engine's seat index)."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    host_id: int
    status: TableStatus
    stake: int
    buy_in: int
    rules: JsonObject
    practice: bool
    message_id: int | None
    message_created_at: float | None
    record: str | None
    created_at: float
    updated_at: float
    seats: tuple[Seat, ...] = ()
    lang: str = "en"
    """The language of the table's public messages ("en" or "ja")."""
    opening: str | None = None
    """The record as the table opened (JSON, no shuffles or actions); ``record`` is the one to restart from."""
    checkpoint_seq: int = 0
    """The last log row ``record`` includes."""
    pot: int = 0
    """Chips in the table's pot (escrow owned by no seat, carried between deals)."""
    parent_id: int | None = None
    """The channel the table's thread hangs off (its lobby message is there); None: the table is in ``channel_id``."""
    pace: TablePace = "live"
    turn_seconds: int | None = None
    """How long each decision may take (a correspondence table); None: the server's turn timer."""
    turn_started_at: float | None = None
    """When the current decisions began: the turn timer counts from here (it survives a restart)."""
    pinged: Mapping[int, int] = field(default_factory=dict)
    """Seat → the decision its member was last mentioned for (a correspondence table pings once per decision)."""
    deal_limit: int | None = None
    """The table ends by itself once this deal is settled (None: when its game ends by its own rules)."""

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)


@dataclass(frozen=True)
class SeatChange:
    """A seat taken or given up. ``wallet_balance`` is None for bot seats and practice tables."""

    table_id: int
    seat_id: int
    position: int
    stack: int
    wallet_balance: int | None
    movement_id: int | None
    replayed: bool = False


@dataclass(frozen=True)
class Settlement:
    """A settled deal: ``deltas`` and ``stacks`` (after) by seat position."""

    table_id: int
    deal_no: int
    hand_id: int
    movement_id: int
    deltas: tuple[int, ...]
    stacks: tuple[int, ...]
    replayed: bool = False


@dataclass(frozen=True)
class Closure:
    """A table ended or cancelled; ``returned`` is (position, chips) for each stack paid back."""

    table_id: int
    status: TableStatus
    returned: tuple[tuple[int, int], ...]
    replayed: bool = False


@dataclass(frozen=True)
class LeaderboardEntry:
    rank: int  # competition ranking: equal values share a rank
    user_id: int
    value: int
    deals_played: int | None = None  # only for the per-game board


@dataclass(frozen=True)
class LeaderboardPage:
    entries: tuple[LeaderboardEntry, ...]
    total: int
    offset: int
    limit: int


@dataclass(frozen=True)
class HandRecord:
    id: int
    table_id: int
    guild_id: int
    game: str
    deal_no: int
    deltas: tuple[int, ...]
    summary: JsonObject
    created_at: float
    position: int | None = None  # set when queried for one member: their seat position
    posted: bool = True
    """Whether the results message reached the channel (it is retried until it does)."""


@dataclass(frozen=True)
class LogEntry:
    """One row of a table's log: an action (``seat``, ``body`` its text) or a shuffle (``deal``, ``body`` JSON)."""

    seq: int
    kind: Literal["action", "shuffle"]
    body: str
    seat: int | None = None
    deal: int | None = None


@dataclass(frozen=True)
class DealToSettle:
    """A finished deal for :meth:`append_step`: chips by seat position, chips into the table's pot (negative:
    out of it), so that ``sum(deltas) + pot == 0``, and its summary."""

    deal_no: int
    deltas: tuple[int, ...]
    summary: Mapping[str, JsonValue]
    pot: int = 0
    facts: tuple[Mapping[str, int], ...] | None = None
    """Each seat's statistics facts (by position), derived from the typed result before the transaction; None: the
    settling transaction derives them from ``summary`` (:mod:`bot.storage.stats`)."""


@dataclass(frozen=True)
class Step:
    """What one :meth:`append_step` wrote, in one transaction."""

    settlements: tuple[Settlement, ...] = ()
    closure: Closure | None = None
    at: float = 0.0
    """When it was written (the database's clock): the seats now to act began their decisions then."""


@dataclass(frozen=True)
class PanelRow:
    """A seat's latest private panel: enough to edit it (through its interaction token) after a restart."""

    table_id: int
    seat: int
    application_id: int
    token: str
    locale: str
    opened_at: float


@dataclass(frozen=True)
class WatcherRow:
    """A watcher's open panel on a table: enough to edit it (through its interaction token) after a restart."""

    table_id: int
    user_id: int
    application_id: int
    token: str
    locale: str
    opened_at: float


@dataclass(frozen=True)
class RuleChange:
    id: int
    guild_id: int
    game: str
    actor_id: int | None
    at: float
    path: str
    old_value: JsonValue
    new_value: JsonValue
    reset: bool


T = TypeVar("T")


def dump_outcome(result: Any) -> str:
    """JSON of a result dataclass, stored with its movement so a replayed key returns it again."""
    data = dataclasses.asdict(result)
    data.pop("replayed", None)
    return json.dumps(data, separators=(",", ":"))


def load_outcome(cls: Callable[..., T], text: str) -> T:
    """The result stored by :func:`dump_outcome`, marked ``replayed``."""
    data = {k: _tuples(v) for k, v in json.loads(text).items()}
    return cls(**data, replayed=True)


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value
