-- Rule presets (PostgreSQL's version of ../0011_rule_presets.sql, which explains it).
CREATE TABLE rule_presets (
    guild_id     bigint NOT NULL,
    game         text   NOT NULL,
    name_key     text   NOT NULL,
    name         text   NOT NULL,
    options      text   NOT NULL,
    rules_schema text   NOT NULL,
    saved_by     bigint,
    saved_at     double precision NOT NULL,
    PRIMARY KEY (guild_id, game, name_key)
);
