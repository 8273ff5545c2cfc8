-- The table record as an append-only log, with a snapshot after each settled deal (PostgreSQL's version of
-- ../0003_table_log.sql, which explains it).
ALTER TABLE tables ADD COLUMN opening text;
ALTER TABLE tables ADD COLUMN checkpoint_seq bigint NOT NULL DEFAULT 0 CHECK (checkpoint_seq >= 0);

CREATE TABLE table_log (
    table_id bigint NOT NULL REFERENCES tables (id),
    seq      bigint NOT NULL CHECK (seq >= 1),
    kind     text   NOT NULL CHECK (kind IN ('action', 'shuffle')),
    seat     bigint,             -- actions: the engine seat
    deal     bigint,             -- shuffles: the deal the shuffle belongs to
    body     text   NOT NULL,    -- actions: the action's text; shuffles: the shuffle's JSON
    PRIMARY KEY (table_id, seq),
    CHECK ((kind = 'action') = (seat IS NOT NULL)),
    CHECK ((kind = 'shuffle') = (deal IS NOT NULL))
);
CREATE INDEX table_log_shuffles ON table_log (table_id, deal) WHERE kind = 'shuffle';

-- A seat keeps the member's name as it was when they sat down, so a table rebuilt after a restart (and its
-- results) still shows names rather than ids.
ALTER TABLE seats ADD COLUMN display_name text;

-- A deal's results message is owed to the channel: posted = 0 until it is, so a failed post is retried
-- (later, or after a restart) rather than lost. Deals settled before this migration were posted.
ALTER TABLE hand_history ADD COLUMN posted bigint NOT NULL DEFAULT 1 CHECK (posted IN (0, 1));
CREATE INDEX hand_history_unposted ON hand_history (table_id) WHERE posted = 0;

-- How long bot players (and players marked away) wait before each move, so people can follow them.
ALTER TABLE guild_config ADD COLUMN bot_pace_ms bigint NOT NULL DEFAULT 1200
    CHECK (bot_pace_ms BETWEEN 0 AND 10000);

-- Each seat's latest private panel (its interaction token lives 15 minutes), so that after a restart the
-- open panels can be brought up to date with the table's real state.
CREATE TABLE table_panels (
    table_id       bigint NOT NULL REFERENCES tables (id),
    seat           bigint NOT NULL CHECK (seat >= 0),
    application_id bigint NOT NULL,
    token          text   NOT NULL,
    locale         text   NOT NULL,
    opened_at      double precision NOT NULL,
    PRIMARY KEY (table_id, seat)
);
