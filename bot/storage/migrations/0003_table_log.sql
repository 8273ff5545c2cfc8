-- The table record as an append-only log, with a snapshot after each settled deal.
--
-- `tables.opening` is the record as the table opened (game, rules, seats, stacks, stake: no shuffles or
-- actions). `table_log` holds every shuffle and action since, in order; a commit appends only its own rows.
-- `tables.record` is the record to restart from: the opening, or since the last settled deal a snapshot of
-- the engine (with the shuffles of unsettled deals), and `checkpoint_seq` the last log row it includes. A
-- restart replays only the log rows after it, so it costs one deal whatever the table's age; the opening
-- plus the whole log is the full record (`/verify`, the hand history, `python -m games replay`).
ALTER TABLE tables ADD COLUMN opening TEXT;
ALTER TABLE tables ADD COLUMN checkpoint_seq INTEGER NOT NULL DEFAULT 0 CHECK (checkpoint_seq >= 0);

CREATE TABLE table_log (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    kind     TEXT    NOT NULL CHECK (kind IN ('action', 'shuffle')),
    seat     INTEGER,            -- actions: the engine seat
    deal     INTEGER,            -- shuffles: the deal the shuffle belongs to
    body     TEXT    NOT NULL,   -- actions: the action's text; shuffles: the shuffle's JSON
    PRIMARY KEY (table_id, seq),
    CHECK ((kind = 'action') = (seat IS NOT NULL)),
    CHECK ((kind = 'shuffle') = (deal IS NOT NULL))
) WITHOUT ROWID;
CREATE INDEX table_log_shuffles ON table_log (table_id, deal) WHERE kind = 'shuffle';

-- A seat keeps the member's name as it was when they sat down, so a table rebuilt after a restart (and its
-- results) still shows names rather than ids.
ALTER TABLE seats ADD COLUMN display_name TEXT;

-- A deal's results message is owed to the channel: posted = 0 until it is, so a failed post is retried
-- (later, or after a restart) rather than lost. Deals settled before this migration were posted.
ALTER TABLE hand_history ADD COLUMN posted INTEGER NOT NULL DEFAULT 1 CHECK (posted IN (0, 1));
CREATE INDEX hand_history_unposted ON hand_history (table_id) WHERE posted = 0;

-- How long bot players (and players marked away) wait before each move, so people can follow them.
ALTER TABLE guild_config ADD COLUMN bot_pace_ms INTEGER NOT NULL DEFAULT 1200
    CHECK (bot_pace_ms BETWEEN 0 AND 10000);

-- Each seat's latest private panel (its interaction token lives 15 minutes), so that after a restart the
-- open panels can be brought up to date with the table's real state.
CREATE TABLE table_panels (
    table_id       INTEGER NOT NULL REFERENCES tables (id),
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    application_id INTEGER NOT NULL,
    token          TEXT    NOT NULL,
    locale         TEXT    NOT NULL,
    opened_at      REAL    NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
