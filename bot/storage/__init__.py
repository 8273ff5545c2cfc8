"""Fudaba's storage: every SQL statement of the project lives in this package.

Two backends behind one :class:`Database` API, chosen by what :meth:`Database.open` is given (``DATABASE_URL``):

* a file path (the default, zero setup) or ``":memory:"``: SQLite, one aiosqlite connection that writes (WAL,
  ``synchronous=NORMAL``, foreign keys), one that reads, and checkpoints on a third, :mod:`bot.storage.sqlite`;
* ``postgresql://…``: PostgreSQL, a pool of asyncpg connections, snapshot transactions guarded against races,
  :mod:`bot.storage.postgres`.

Numbered migrations are applied in order at open, each in one transaction, and recorded in ``schema_version``:
``migrations/NNNN_name.sql`` for SQLite and ``migrations/postgres/NNNN_name.sql`` for PostgreSQL, the same numbers
and names, ending in equivalent schemas. ``python -m bot.storage copy --from FILE --to postgresql://…`` copies a
SQLite database into PostgreSQL and checks every balance and the ledger (:mod:`bot.storage.copy`).

Public API (all methods are coroutines; chips are ints; times are Unix seconds from the clock). Every method is
annotated with the types of :mod:`bot.storage.models`, all exported here, and the package passes mypy's strict mode
(``pyproject.toml``); a caller's JSON (rules, summaries, house rules) goes in as :data:`JsonValue` and comes back as
:data:`JsonObject`::

    db = await Database.open(path_or_url, clock=time.time)  # ":memory:" for tests
    await db.close()                                      # or: async with await Database.open(...) as db
    await db.migrate() -> list[int]; await db.schema_version() -> int

    # guild configuration (defaults when never set)
    get_config(guild_id) -> GuildConfig
    set_config(guild_id, *, actor_id, **changes: ConfigChanges) -> GuildConfig   # validated: storage.config_*

    # economy
    ensure_member(guild_id, user_id) -> Wallet            # first use credits the starting balance
    balance(guild_id, user_id) -> int
    claim_daily(guild_id, user_id, *, now=None, key=None) -> DailyClaim   # claimed / retry_after
    grant(guild_id, user_id, amount, *, actor_id, note=None, key=None) -> Transfer
    take(guild_id, user_id, amount, *, actor_id, note=None, key=None) -> Transfer  # refuses overdraw
    give(guild_id, sender_id, recipient_id, amount, *, key=None) -> Transfer        # needs give_enabled
    house_balance(guild_id) -> int
    leaderboard(guild_id, *, offset=0, limit=10) -> LeaderboardPage                # by balance
    net_leaderboard(guild_id, game, *, offset=0, limit=10) -> LeaderboardPage      # by net winnings
    rank(guild_id, user_id, *, game=None) -> LeaderboardEntry | None

    # tables (each operation is one transaction)
    open_table(guild_id, channel_id, game, host_id, *, buy_in, stake=1, rules=None, practice=False, lang="en",
               parent_id=None, pace="live", turn_seconds=None, deal_limit=None) -> Table  # ends once deal_limit is settled
    set_place(table_id, channel_id) -> None             # the thread a lobby lives in, once made
    get_table(table_id) -> Table | None; active_table_in(channel_id) -> Table | None
    list_active_tables(guild_id=None) -> list[Table]     # lobby + playing, with seats: for restarts
    join_table(table_id, user_id, *, buy_in=None, max_seats=None, key=None, display_name=None) -> SeatChange
    add_bot_seat(table_id, bot_name, *, buy_in=None, max_seats=None, key=None, level="normal") -> SeatChange
    leave_lobby(table_id, user_id=None, *, position=None, key=None) -> SeatChange
    make_practice(table_id, *, actor_id=None, key=None) -> Table     # refund every buy-in, stacks become virtual
    set_away(table_id, user_id, away) -> None
    start_table(table_id, *, record=None, entries=()) -> Table   # positions renumbered 0..n-1 = engine seats
    save_record(table_id, record, *, message_id=None, message_created_at=None) -> None
    set_message(table_id, message_id, created_at) -> None
    set_pinged(table_id, pinged) -> None                 # seat -> decision last mentioned (correspondence)
    settle_deal(table_id, deal_no, deltas, summary, *, key=None, pot=0) -> Settlement

    # the table log: what a change of a playing table writes, in one transaction, and what restarts read
    append_step(table_id, entries, *, away=None, settle=(), checkpoint=None, close=False, pot_back=None) -> Step
    restart_point(table_id) -> (record JSON, last log seq it includes, [LogEntry after it])
    table_log(table_id, *, after=0) -> list[LogEntry]; full_record(table_id) -> JSON; deal_shuffles(table_id, deal)
    adopt_record(table_id, opening, entries) -> None      # a table stored before the log existed
    mark_posted(table_id, deal_no); unposted_results(table_id=None) -> list[HandRecord]
    save_panel(PanelRow); open_panels(table_id, *, since) -> list[PanelRow]; forget_panels(table_id, seat=None)
    save_watcher(WatcherRow, *, drop_before=None); open_watchers(table_id, *, since) -> list[WatcherRow]
    forget_watchers(table_id, user_id=None)                # a watcher's panel (bot.watch), as a seat's above
    cancel_table(table_id, *, actor_id=None, key=None) -> Closure        # lobby only, refunds
    close_table(table_id, *, actor_id=None, voided=False, key=None, pot_back=None) -> Closure
    table_history(table_id, *, limit=20) -> list[HandRecord]
    member_history(guild_id, user_id, *, limit=20) -> list[HandRecord]
    deal_settled(table_id, deal_no) -> bool               # its seeds may be shown

    # table leases: which bot process drives a table (several processes over one database), bot.storage.leases
    db.owner                                              # this process's id (random per open; open(owner=…))
    acquire_leases(table_ids) -> set[int]                 # the ids now held (free, expired or already its own)
    renew_leases() -> set[int]                            # one statement; the ids still held
    release_leases(table_ids=None) -> int; lease_of(table_id) -> (owner, expires_at) | None
    # open_table takes the lease; closing drops it; every write that changes a table refuses with
    # LeaseLost (storage.lease_lost) unless this process holds the table's lease (checked in its transaction)

    # house rules (JSON dumps of the games' pydantic models) and their audit trail
    get_house_rules(guild_id, game) -> dict | None
    set_house_rule(guild_id, game, data, *, actor_id, path, old_value, new_value, reset=False) -> None
    reset_house_rules(guild_id, game, *, actor_id) -> None
    house_rule_history(guild_id, game=None, *, limit=20) -> list[RuleChange]

    # health
    verify_ledger(guild_id=None) -> list[str]            # empty when every balance matches the ledger
    schema() -> dict[str, TableOutline]                  # tables, columns, keys: the same on both backends
    db.dialect                                           # "sqlite" or "postgresql"

Errors are :class:`StorageError` subclasses with a stable ``code`` (``storage.insufficient_funds``,
``storage.channel_busy``, ``storage.settlement_overdraws_stack``, …) and ``params`` for the message.
:class:`StorageUnavailable` (``storage.unavailable``) means the database could not be reached: nothing was
changed (unless ``in_doubt``), and the same call may simply be made again later. :class:`IntegrityError`
(``storage.integrity``) is a statement that broke a constraint of the schema, from either backend.
:class:`LeaseLost` (``storage.lease_lost``): another bot process drives the table; nothing was changed.

The ledger. Every chip movement is one row in ``movements`` (guild, reason, idempotency key,
actor, table, time) and ledger legs that sum to zero, written in the same transaction as the
balances they change. Accounts: member wallets (never below 0), seat stacks (escrow, never below
0), and per guild a *house* and a *mint*. The mint is the counterpart of starting credits, dailies
and grants (and the sink of takes), so its balance is minus the chips in circulation. The house
funds bot seats at chip tables and takes their stacks back at the end; it is not seeded and has no
floor, so a negative house means bots have lost chips to members overall (the guild's subsidy of
bot play, visible with ``house_balance``). A practice table moves no chips: its stacks are virtual
and its movements have no legs. The *tournament* account holds tournaments' buy-ins in escrow until their
payout or refund (:mod:`bot.storage.tournaments`).

Idempotency. Each movement's key is UNIQUE. Replaying a key returns the original result with
``replayed=True`` and changes nothing; using it for a different kind of operation raises
``storage.idempotency_conflict``. Defaults: ``settle:<table>:<deal>``, ``close:<table>``,
``cancel:<table>``, ``starting_credit:<guild>:<user>``; other operations get a random key unless
the caller passes one (an interaction id, say). A refused operation records nothing, so its key
may be used again.

Concurrency. Each operation is one transaction (or one read), written once as a body that awaits
statement requests (:mod:`bot.storage.tx`), and run whole even if the coroutine that sent it is cancelled.
On SQLite it runs whole in one go, however many statements it makes: a write transaction on the event loop
itself when nothing is in its way (a fraction of a millisecond, less than a trip to another thread), a write that
could wait (a write lock held by another connection) in one round trip to the connection's thread; one write at a
time, so none sees another half done; one ``asyncio.Lock`` keeps them out of a transaction driven by hand (tests).
A read runs on the readers' connection in one read transaction (one committed state), beside the writes: no read
holds back a commit. On PostgreSQL the same bodies run side by side on
pooled connections, each transaction run again when it loses a race, so the outcome is
that of one transaction at a time there too (:mod:`bot.storage.postgres`).
"""

from __future__ import annotations

from bot.storage.database import Database, Schema, TableOutline
from bot.storage.errors import (
    IdempotencyConflict,
    InsufficientFunds,
    IntegrityError,
    InvalidState,
    InvalidValue,
    LeaseLost,
    NotFound,
    StorageError,
    StorageUnavailable,
)
from bot.storage.models import (
    ACTIVE_STATUSES,
    REASONS,
    TABLE_PACES,
    TABLE_PLACES,
    Closure,
    ConfigChanges,
    DailyClaim,
    DealToSettle,
    GuildConfig,
    HandRecord,
    JsonObject,
    JsonValue,
    LeaderboardEntry,
    LeaderboardPage,
    LogEntry,
    PanelRow,
    RuleChange,
    Seat,
    SeatChange,
    Settlement,
    Step,
    Table,
    TablePace,
    TablePlace,
    TableStatus,
    Transfer,
    Wallet,
    WatcherRow,
)

__all__ = [
    "ACTIVE_STATUSES",
    "REASONS",
    "TABLE_PACES",
    "TABLE_PLACES",
    "Closure",
    "ConfigChanges",
    "DailyClaim",
    "Database",
    "DealToSettle",
    "GuildConfig",
    "HandRecord",
    "IdempotencyConflict",
    "InsufficientFunds",
    "IntegrityError",
    "InvalidState",
    "InvalidValue",
    "JsonObject",
    "JsonValue",
    "LeaderboardEntry",
    "LeaderboardPage",
    "LeaseLost",
    "LogEntry",
    "NotFound",
    "PanelRow",
    "RuleChange",
    "Schema",
    "Seat",
    "SeatChange",
    "Settlement",
    "Step",
    "StorageError",
    "StorageUnavailable",
    "Table",
    "TableOutline",
    "TablePace",
    "TablePlace",
    "TableStatus",
    "Transfer",
    "Wallet",
    "WatcherRow",
]
