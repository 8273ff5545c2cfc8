-- Fudaba storage, first schema. Chips are integers; times are Unix seconds (REAL).
-- Every chip movement is one row in `movements` plus `ledger` legs that sum to zero (checked in code).

CREATE TABLE guild_config (
    guild_id               INTEGER PRIMARY KEY,
    starting_balance       INTEGER NOT NULL DEFAULT 1000 CHECK (starting_balance >= 0),
    daily_amount           INTEGER NOT NULL DEFAULT 100 CHECK (daily_amount >= 0),
    daily_cooldown_seconds INTEGER NOT NULL DEFAULT 86400 CHECK (daily_cooldown_seconds >= 0),
    turn_timer_seconds     INTEGER NOT NULL DEFAULT 60 CHECK (turn_timer_seconds > 0),
    allowed_channel_ids    TEXT    NOT NULL DEFAULT '[]',  -- JSON list of ids; empty = every channel
    bots_play_for_chips    INTEGER NOT NULL DEFAULT 0 CHECK (bots_play_for_chips IN (0, 1)),
    give_enabled           INTEGER NOT NULL DEFAULT 0 CHECK (give_enabled IN (0, 1)),
    moderator_role_id      INTEGER,
    updated_by             INTEGER,
    updated_at             REAL
);

CREATE TABLE wallets (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    balance       INTEGER NOT NULL CHECK (balance >= 0),
    last_daily_at REAL,
    created_at    REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX wallets_leaderboard ON wallets (guild_id, balance DESC, user_id);

-- The per-guild house (funds bot seats; may go negative, see bot/storage/__init__.py) and mint
-- (source of starting credits, dailies and grants, sink of takes; its balance is minus the chips minted).
CREATE TABLE guild_accounts (
    guild_id INTEGER NOT NULL,
    kind     TEXT    NOT NULL CHECK (kind IN ('house', 'mint')),
    balance  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, kind)
) WITHOUT ROWID;

CREATE TABLE tables (
    id                 INTEGER PRIMARY KEY,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,
    game               TEXT    NOT NULL,
    host_id            INTEGER NOT NULL,
    status             TEXT    NOT NULL DEFAULT 'lobby' CHECK (status IN ('lobby', 'playing', 'ended', 'cancelled')),
    stake              INTEGER NOT NULL CHECK (stake >= 1),
    buy_in             INTEGER NOT NULL CHECK (buy_in >= 0),
    rules              TEXT    NOT NULL DEFAULT '{}',
    practice           INTEGER NOT NULL DEFAULT 0 CHECK (practice IN (0, 1)),
    message_id         INTEGER,
    message_created_at REAL,
    record             TEXT,
    created_at         REAL    NOT NULL,
    updated_at         REAL    NOT NULL
);
-- At most one active table per channel.
CREATE UNIQUE INDEX tables_one_active_per_channel ON tables (channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_guild ON tables (guild_id, status);

-- A seat's stack is escrow: chips moved out of a wallet (or the house) for the table to play with.
-- `position` is the engine's seat index (compacted when the table starts); `id` is what the ledger refers
-- to. A seat given up in the lobby keeps its row (left_at set) so the ledger's history stays intact.
CREATE TABLE seats (
    id         INTEGER PRIMARY KEY,
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    position   INTEGER NOT NULL CHECK (position >= 0),
    user_id    INTEGER,
    bot_name   TEXT,
    stack      INTEGER NOT NULL CHECK (stack >= 0),
    buy_in     INTEGER NOT NULL CHECK (buy_in >= 0),
    away       INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)),
    joined_at  REAL    NOT NULL,
    left_at    REAL,
    CHECK ((user_id IS NULL) <> (bot_name IS NULL))
);
CREATE UNIQUE INDEX seats_position ON seats (table_id, position) WHERE left_at IS NULL;
CREATE UNIQUE INDEX seats_member ON seats (table_id, user_id) WHERE left_at IS NULL AND user_id IS NOT NULL;
CREATE INDEX seats_user ON seats (user_id, table_id) WHERE user_id IS NOT NULL;

CREATE TABLE movements (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    reason     TEXT    NOT NULL CHECK (reason IN (
                   'starting_credit', 'daily', 'grant', 'take', 'give', 'buy_in', 'cash_out',
                   'refund', 'settlement', 'house_fund', 'house_return', 'void')),
    idem_key   TEXT    NOT NULL UNIQUE,
    actor_id   INTEGER,
    table_id   INTEGER REFERENCES tables (id),
    note       TEXT,
    outcome    TEXT,            -- JSON of the operation's result, returned again when the key is replayed
    created_at REAL    NOT NULL
);
CREATE INDEX movements_guild ON movements (guild_id, created_at);

CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY,
    movement_id INTEGER NOT NULL REFERENCES movements (id),
    guild_id    INTEGER NOT NULL,
    account     TEXT    NOT NULL CHECK (account IN ('wallet', 'seat', 'house', 'mint')),
    user_id     INTEGER,        -- wallet legs; also the seated member on a seat leg
    seat_id     INTEGER REFERENCES seats (id),
    delta       INTEGER NOT NULL CHECK (delta <> 0),
    CHECK (CASE account
               WHEN 'wallet' THEN user_id IS NOT NULL AND seat_id IS NULL
               WHEN 'seat' THEN seat_id IS NOT NULL
               ELSE user_id IS NULL AND seat_id IS NULL END)
);
CREATE INDEX ledger_movement ON ledger (movement_id);
CREATE INDEX ledger_wallet ON ledger (guild_id, user_id) WHERE account = 'wallet';

CREATE TABLE hand_history (
    id         INTEGER PRIMARY KEY,
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    deal_no    INTEGER NOT NULL,
    deltas     TEXT    NOT NULL,  -- JSON list of chip changes, by seat position
    summary    TEXT    NOT NULL,  -- JSON from the engine (includes the seed reveal)
    created_at REAL    NOT NULL,
    UNIQUE (table_id, deal_no)
);
CREATE INDEX hand_history_guild ON hand_history (guild_id, created_at);

CREATE TABLE player_stats (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    net          INTEGER NOT NULL DEFAULT 0,
    deals_played INTEGER NOT NULL DEFAULT 0,
    updated_at   REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, game)
) WITHOUT ROWID;
CREATE INDEX player_stats_leaderboard ON player_stats (guild_id, game, net DESC, user_id);

CREATE TABLE house_rules (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    data       TEXT    NOT NULL,  -- JSON dump of the game's house-rule model
    updated_by INTEGER,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game)
) WITHOUT ROWID;

CREATE TABLE house_rule_audit (
    id        INTEGER PRIMARY KEY,
    guild_id  INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    actor_id  INTEGER,
    at        REAL    NOT NULL,
    path      TEXT    NOT NULL,   -- dotted option path, '*' for a reset of every option
    old_value TEXT,               -- JSON
    new_value TEXT,               -- JSON
    reset     INTEGER NOT NULL DEFAULT 0 CHECK (reset IN (0, 1))
);
CREATE INDEX house_rule_audit_game ON house_rule_audit (guild_id, game, at);
