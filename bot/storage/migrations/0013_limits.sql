-- Responsible play and stake limits (bot/limits, bot/storage/limits.py).
--
-- `member_limits`: what a member set for themself in one server, one row each. A self-exclusion runs from
-- `excluded_from` to `excluded_until` (both NULL: none); nothing shortens it. A loss limit (`daily_loss` over the
-- last 24 hours, `weekly_loss` over the last 7 days; NULL: none) is lowered at once, while a raise or a removal
-- waits 24 hours: `*_next` is the limit asked for (0: no limit) and `*_next_at` when it takes over (both NULL: none
-- pending). A read applies a pending change whose time has come. `reminder_minutes`: the time at a table after which
-- (and again after each such period) the member's panel reminds them how long they have played (NULL: off).
CREATE TABLE member_limits (
    guild_id         INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    excluded_from    REAL,
    excluded_until   REAL,
    daily_loss       INTEGER CHECK (daily_loss BETWEEN 1 AND 1000000000),
    daily_next       INTEGER CHECK (daily_next BETWEEN 0 AND 1000000000),
    daily_next_at    REAL,
    weekly_loss      INTEGER CHECK (weekly_loss BETWEEN 1 AND 1000000000),
    weekly_next      INTEGER CHECK (weekly_next BETWEEN 0 AND 1000000000),
    weekly_next_at   REAL,
    reminder_minutes INTEGER CHECK (reminder_minutes BETWEEN 5 AND 720),
    updated_at       REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    CHECK ((excluded_from IS NULL) = (excluded_until IS NULL)),
    CHECK ((daily_next IS NULL) = (daily_next_at IS NULL)),
    CHECK ((weekly_next IS NULL) = (weekly_next_at IS NULL))
) WITHOUT ROWID;

-- `stake_limits`: a server's largest stake and buy-in (`role_id` 0), and a role's (its members': the most generous of
-- their roles' limits overrides the server's). NULL: no limit of that kind on the row.
CREATE TABLE stake_limits (
    guild_id   INTEGER NOT NULL,
    role_id    INTEGER NOT NULL CHECK (role_id >= 0),
    max_stake  INTEGER CHECK (max_stake BETWEEN 1 AND 1000000),
    max_buy_in INTEGER CHECK (max_buy_in BETWEEN 1 AND 1000000000),
    updated_by INTEGER,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, role_id),
    CHECK (max_stake IS NOT NULL OR max_buy_in IS NOT NULL)
) WITHOUT ROWID;

-- A member's seat legs by movement, for their net at tables over a recent window: the settlements' seat legs of one
-- member in one server from a movement id on are one range of this index (bot/storage/limits.py, `losses`).
CREATE INDEX ledger_member_seat ON ledger (guild_id, user_id, movement_id) WHERE account = 'seat';
