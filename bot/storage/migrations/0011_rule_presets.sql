-- Rule presets (bot/presets): a server's named sets of house rules per game, which a moderator saves from the rules in
-- force, loads back (one change, one row of house_rule_audit), exports and imports. ``options`` is the JSON object of
-- option path -> value the preset sets (every option the game had when it was saved; an imported file's, as many as it
-- named); ``rules_schema`` the fingerprint of the game's options then, which tells a preset saved under other rules.
-- A name is unique per server and game as the bot compares names: ``name_key`` is the name folded (NFKC, spaces
-- collapsed, case-folded); ``name`` keeps it as it was typed.
CREATE TABLE rule_presets (
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    name_key     TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    options      TEXT    NOT NULL,
    rules_schema TEXT    NOT NULL,
    saved_by     INTEGER,
    saved_at     REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, name_key)
) WITHOUT ROWID;
