-- Watching a table (PostgreSQL's version of ../0010_watching.sql, which explains it).
ALTER TABLE guild_config ADD COLUMN watch_delay bigint NOT NULL DEFAULT 0 CHECK (watch_delay IN (0, 1));
CREATE TABLE table_watchers (
    table_id       bigint NOT NULL REFERENCES tables (id),
    user_id        bigint NOT NULL,
    application_id bigint NOT NULL,
    token          text   NOT NULL,
    locale         text   NOT NULL,
    opened_at      double precision NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
