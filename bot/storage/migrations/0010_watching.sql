-- Watching a table (bot/watch). ``watch_delay`` (a moderator's /config setting, off by default): watchers see a table
-- one deal late, as the last settled deal ended, never the deal in play. ``table_watchers`` keeps each watcher's open
-- panel (its interaction token, which Discord honours for 15 minutes), so a restart can bring those panels up to date,
-- as ``table_panels`` does for the seats' panels; rows are dropped when the watcher stops or the table ends, and rows
-- older than a token's life are dropped whenever a table's watcher panel is written.
ALTER TABLE guild_config ADD COLUMN watch_delay INTEGER NOT NULL DEFAULT 0 CHECK (watch_delay IN (0, 1));
CREATE TABLE table_watchers (
    table_id       INTEGER NOT NULL REFERENCES tables (id),
    user_id        INTEGER NOT NULL,
    application_id INTEGER NOT NULL,
    token          TEXT    NOT NULL,
    locale         TEXT    NOT NULL,
    opened_at      REAL    NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;
