-- How long a server keeps hand details (PostgreSQL's version of ../0009_hand_retention.sql, which explains it).
ALTER TABLE guild_config ADD COLUMN hand_details_days integer CHECK (hand_details_days BETWEEN 1 AND 3650);
ALTER TABLE tables ADD COLUMN details_purged_to bigint NOT NULL DEFAULT 0 CHECK (details_purged_to >= 0);
