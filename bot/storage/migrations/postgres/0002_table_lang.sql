-- The language of a table's public messages (the server's language when it opened), so a table
-- rebuilt after a restart keeps talking in it.
ALTER TABLE tables ADD COLUMN lang text NOT NULL DEFAULT 'en' CHECK (lang IN ('en', 'ja'));
