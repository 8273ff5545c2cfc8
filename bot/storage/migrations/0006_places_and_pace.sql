-- Where a table lives and how fast it moves. A table opens in its own thread of the channel where /play was used
-- (``table_place`` 'thread', the default) or in that channel itself ('channel'); ``parent_id`` is the channel a
-- table's thread hangs off (its lobby message, the thread's starter, is there), NULL for a table in a channel.
-- A correspondence table (``pace``) gives each decision up to ``turn_seconds`` (the host's choice within the
-- server's ``correspondence_max_hours``); ``turn_started_at`` is when the current decisions began, written with each
-- change, so a turn timer survives a restart; ``pinged`` is {seat: decision} of the mentions already sent.
ALTER TABLE guild_config ADD COLUMN table_place TEXT NOT NULL DEFAULT 'thread';
ALTER TABLE guild_config ADD COLUMN correspondence_max_hours INTEGER NOT NULL DEFAULT 72;
ALTER TABLE tables ADD COLUMN parent_id INTEGER;
ALTER TABLE tables ADD COLUMN pace TEXT NOT NULL DEFAULT 'live';
ALTER TABLE tables ADD COLUMN turn_seconds INTEGER;
ALTER TABLE tables ADD COLUMN turn_started_at REAL;
ALTER TABLE tables ADD COLUMN pinged TEXT NOT NULL DEFAULT '{}';
-- The tables in a channel's threads (a /table command used in the channel itself).
CREATE INDEX tables_parent ON tables (parent_id) WHERE parent_id IS NOT NULL;
