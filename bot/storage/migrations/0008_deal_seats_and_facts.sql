-- A member's settled deals and statistics, read through indexes of their own (/history, /stats).
--
-- `deal_seats`: one row per member seat of each settled deal (bots have none), written by the settling
-- transaction, keyed by the member: "the member's deals in a guild, newest first, a page after hand X" is one range of
-- the table itself, rows and all, whatever the number of deals the member or the guild has played (and
-- `deal_seats_member_game` the same for one game). A row holds everything a /history line shows, so a page reads no
-- other row: the deal (`hand_id`, `table_id`, `deal_no`, `game`, `created_at`), where it was played (`channel_id`,
-- `parent_id`), the member's chips (`delta`) and who sat (`seated`: their names by position as the history lists
-- them, "alice, bob, 🤖 Tanuki", a member's name as when they sat down). A row outlives the seat leaving its table. `seat_id` is the seat as it was,
-- `practice` whether no chips moved (a practice deal is in /history, never in /stats).
CREATE TABLE deal_seats (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    hand_id    INTEGER NOT NULL REFERENCES hand_history (id),
    position   INTEGER NOT NULL CHECK (position >= 0),
    game       TEXT    NOT NULL,
    delta      INTEGER NOT NULL,
    table_id   INTEGER NOT NULL,
    deal_no    INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    channel_id INTEGER NOT NULL,
    parent_id  INTEGER,
    seated     TEXT    NOT NULL,
    seat_id    INTEGER NOT NULL REFERENCES seats (id),
    practice   INTEGER NOT NULL CHECK (practice IN (0, 1)),
    PRIMARY KEY (guild_id, user_id, hand_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX deal_seats_hand ON deal_seats (hand_id, position);
CREATE INDEX deal_seats_member_game ON deal_seats (guild_id, user_id, game, hand_id);

-- `deal_facts`: what each chip deal gave each member's statistics, one row per non-zero fact. Three facts are every
-- deal's: `deals` (value 1 when the game's own facts of the deal are stored too, 0 when they could not be known),
-- `won` (the chips of a deal the member won) and `lost` (of one they lost, negative). The others are the game's
-- own (games/<game>/stats.py: `foul`, `royalties`, `bank`, `hand_kabu` …, counts or amounts). `/stats` is one
-- aggregate over `deal_facts_member`, which holds every column it reads: per game and fact, COUNT(*) is how many
-- deals gave it and SUM(value) its total. The rows stay if a deal's hand details are ever dropped (no foreign key).
CREATE TABLE deal_facts (
    hand_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    fact     TEXT    NOT NULL,
    value    INTEGER NOT NULL,
    PRIMARY KEY (hand_id, user_id, fact)
) WITHOUT ROWID;
CREATE INDEX deal_facts_member ON deal_facts (guild_id, user_id, game, fact, value);

-- Deals settled before this migration whose game facts are still to be derived from their stored summaries, by a
-- data step the bot runs in the background (bot/storage/stats.py, `backfill`): it takes the rows a chunk at a time
-- and sets their `deals` facts to 1. Until then /stats says how many deals its game figures leave out.
CREATE TABLE deal_facts_pending (
    hand_id INTEGER NOT NULL PRIMARY KEY REFERENCES hand_history (id)
);

-- The deals already settled: their member seats as the seats are now (a seat never leaves a table once it plays,
-- so every seat not left is one of its deals'), their chips by position from the hand history.
INSERT INTO deal_seats (guild_id, user_id, hand_id, position, game, delta, table_id, deal_no, created_at, channel_id,
                        parent_id, seated, seat_id, practice)
    SELECT h.guild_id, s.user_id, h.id, s.position, h.game, json_extract(h.deltas, '$[' || s.position || ']'),
           h.table_id, h.deal_no, h.created_at, t.channel_id, t.parent_id,
           coalesce((SELECT group_concat(coalesce('🤖 ' || o.bot_name, o.display_name, 'player ' || o.user_id), ', ')
                     FROM (SELECT * FROM seats o WHERE o.table_id = h.table_id AND o.left_at IS NULL
                           ORDER BY o.position) o), ''),
           s.id, t.practice
    FROM hand_history h
    JOIN tables t ON t.id = h.table_id
    JOIN seats s ON s.table_id = h.table_id AND s.left_at IS NULL AND s.user_id IS NOT NULL
    WHERE s.position < json_array_length(h.deltas);
INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value)
    SELECT hand_id, guild_id, user_id, game, 'deals', 0 FROM deal_seats WHERE practice = 0;
INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value)
    SELECT hand_id, guild_id, user_id, game, 'won', delta FROM deal_seats WHERE practice = 0 AND delta > 0;
INSERT INTO deal_facts (hand_id, guild_id, user_id, game, fact, value)
    SELECT hand_id, guild_id, user_id, game, 'lost', delta FROM deal_seats WHERE practice = 0 AND delta < 0;
INSERT INTO deal_facts_pending (hand_id)
    SELECT DISTINCT hand_id FROM deal_seats WHERE practice = 0;

