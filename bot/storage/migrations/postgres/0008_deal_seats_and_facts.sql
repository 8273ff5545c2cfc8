-- A member's settled deals and statistics, read through indexes of their own (PostgreSQL's version of
-- ../0008_deal_seats_and_facts.sql, which explains it).
-- A page is one index-only scan of the member's key (the primary key's index includes every column a line shows),
-- once the table is vacuumed, as autovacuum does.
CREATE TABLE deal_seats (
    guild_id   bigint           NOT NULL,
    user_id    bigint           NOT NULL,
    hand_id    bigint           NOT NULL REFERENCES hand_history (id),
    position   bigint           NOT NULL CHECK (position >= 0),
    game       text             NOT NULL,
    delta      bigint           NOT NULL,
    table_id   bigint           NOT NULL,
    deal_no    bigint           NOT NULL,
    created_at double precision NOT NULL,
    channel_id bigint           NOT NULL,
    parent_id  bigint,
    seated     text             NOT NULL,
    seat_id    bigint           NOT NULL REFERENCES seats (id),
    practice   bigint           NOT NULL CHECK (practice IN (0, 1)),
    PRIMARY KEY (guild_id, user_id, hand_id)
        INCLUDE (position, game, delta, table_id, deal_no, created_at, channel_id, parent_id, seated)
);
CREATE UNIQUE INDEX deal_seats_hand ON deal_seats (hand_id, position);
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

INSERT INTO deal_seats (guild_id, user_id, hand_id, position, game, delta, table_id, deal_no, created_at, channel_id,
                        parent_id, seated, seat_id, practice)
    SELECT h.guild_id, s.user_id, h.id, s.position, h.game, (h.deltas::jsonb ->> s.position::int)::bigint,
           h.table_id, h.deal_no, h.created_at, t.channel_id, t.parent_id,
           (SELECT coalesce(string_agg(coalesce('🤖 ' || o.bot_name, o.display_name, 'player ' || o.user_id), ', '
                                       ORDER BY o.position), '')
            FROM seats o WHERE o.table_id = h.table_id AND o.left_at IS NULL),
           s.id, t.practice
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

