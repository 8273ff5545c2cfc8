-- A member's settled deals and statistics, read through indexes of their own (PostgreSQL's version of
-- ../0008_deal_seats_and_facts.sql, which explains it).
CREATE TABLE deal_seats (
    hand_id  bigint NOT NULL REFERENCES hand_history (id),
    position bigint NOT NULL CHECK (position >= 0),
    guild_id bigint NOT NULL,
    user_id  bigint NOT NULL,
    game     text   NOT NULL,
    seat_id  bigint NOT NULL REFERENCES seats (id),
    delta    bigint NOT NULL,
    practice bigint NOT NULL CHECK (practice IN (0, 1)),
    PRIMARY KEY (hand_id, position)
);
CREATE INDEX deal_seats_member ON deal_seats (guild_id, user_id, hand_id);
CREATE INDEX deal_seats_member_game ON deal_seats (guild_id, user_id, game, hand_id);

-- `/stats` reads only `deal_facts_member` (an index-only scan, once the table is vacuumed, as autovacuum does).
CREATE TABLE deal_facts (
    hand_id  bigint NOT NULL,
    guild_id bigint NOT NULL,
    user_id  bigint NOT NULL,
    game     text   NOT NULL,
    fact     text   NOT NULL,
    value    bigint NOT NULL,
    PRIMARY KEY (hand_id, user_id, fact)
);
CREATE INDEX deal_facts_member ON deal_facts (guild_id, user_id, game, fact, value);

CREATE TABLE deal_facts_pending (
    hand_id bigint NOT NULL PRIMARY KEY REFERENCES hand_history (id)
);

INSERT INTO deal_seats (hand_id, position, guild_id, user_id, game, seat_id, delta, practice)
    SELECT h.id, s.position, h.guild_id, s.user_id, h.game, s.id, (h.deltas::jsonb ->> s.position::int)::bigint,
           t.practice
    FROM hand_history h
    JOIN tables t ON t.id = h.table_id
    JOIN seats s ON s.table_id = h.table_id AND s.left_at IS NULL AND s.user_id IS NOT NULL
    WHERE s.position < jsonb_array_length(h.deltas::jsonb);
INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value)
    SELECT hand_id, guild_id, user_id, game, 'deals', 0 FROM deal_seats WHERE practice = 0;
INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value)
    SELECT hand_id, guild_id, user_id, game, 'won', delta FROM deal_seats WHERE practice = 0 AND delta > 0;
INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value)
    SELECT hand_id, guild_id, user_id, game, 'lost', delta FROM deal_seats WHERE practice = 0 AND delta < 0;
INSERT INTO deal_facts_pending (hand_id)
    SELECT DISTINCT hand_id FROM deal_seats WHERE practice = 0;

ALTER TABLE hand_history ADD COLUMN seated text;
UPDATE hand_history h SET seated = (
    SELECT coalesce(json_agg(json_build_array(coalesce(s.bot_name, s.display_name, 'player ' || s.user_id),
                                              (s.user_id IS NULL)::int) ORDER BY s.position), '[]'::json)::text
    FROM seats s WHERE s.table_id = h.table_id AND s.left_at IS NULL
);
