-- Responsible play and stake limits (PostgreSQL's version of ../0013_limits.sql, which explains it).
CREATE TABLE member_limits (
    guild_id         bigint NOT NULL,
    user_id          bigint NOT NULL,
    excluded_from    double precision,
    excluded_until   double precision,
    daily_loss       bigint CHECK (daily_loss BETWEEN 1 AND 1000000000),
    daily_next       bigint CHECK (daily_next BETWEEN 0 AND 1000000000),
    daily_next_at    double precision,
    weekly_loss      bigint CHECK (weekly_loss BETWEEN 1 AND 1000000000),
    weekly_next      bigint CHECK (weekly_next BETWEEN 0 AND 1000000000),
    weekly_next_at   double precision,
    reminder_minutes bigint CHECK (reminder_minutes BETWEEN 5 AND 720),
    updated_at       double precision NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    CHECK ((excluded_from IS NULL) = (excluded_until IS NULL)),
    CHECK ((daily_next IS NULL) = (daily_next_at IS NULL)),
    CHECK ((weekly_next IS NULL) = (weekly_next_at IS NULL))
);

CREATE TABLE stake_limits (
    guild_id   bigint NOT NULL,
    role_id    bigint NOT NULL CHECK (role_id >= 0),
    max_stake  bigint CHECK (max_stake BETWEEN 1 AND 1000000),
    max_buy_in bigint CHECK (max_buy_in BETWEEN 1 AND 1000000000),
    updated_by bigint,
    updated_at double precision NOT NULL,
    PRIMARY KEY (guild_id, role_id),
    CHECK (max_stake IS NOT NULL OR max_buy_in IS NOT NULL)
);

CREATE INDEX ledger_member_seat ON ledger (guild_id, user_id, movement_id) WHERE account = 'seat';
