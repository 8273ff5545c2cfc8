-- How long a server keeps hand details (bot/export/retention.py). ``hand_details_days`` on guild_config: NULL (the
-- default) keeps them forever; otherwise, once a day, the details of settled deals older than that many days on
-- finished tables are dropped: their actions in table_log and their deal_starts (the shuffles stay: their seeds were
-- revealed in the deal's results message and /verify shows them). The ledger, the movements and hand_history (the
-- listings, stats and results) are never dropped. ``details_purged_to`` on tables: the last deal whose details are
-- gone (0: none), so a replay or an export of such a deal says so instead of failing.
ALTER TABLE guild_config ADD COLUMN hand_details_days INTEGER CHECK (hand_details_days BETWEEN 1 AND 3650);
ALTER TABLE tables ADD COLUMN details_purged_to INTEGER NOT NULL DEFAULT 0 CHECK (details_purged_to >= 0);
