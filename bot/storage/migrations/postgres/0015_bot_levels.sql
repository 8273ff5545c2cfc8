-- Bot levels (games.registry.LEVELS): ``seats.bot_level`` is the level a bot seat plays at, chosen by the host when
-- the bot was added; NULL for a member's seat. Bots seated before levels existed played the policy that became the
-- normal level, so they keep playing it.
ALTER TABLE seats ADD COLUMN bot_level text CHECK (bot_level IN ('easy', 'normal', 'strong'));
UPDATE seats SET bot_level = 'normal' WHERE user_id IS NULL;
