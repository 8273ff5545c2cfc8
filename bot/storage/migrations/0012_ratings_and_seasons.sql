-- Skill ratings and seasons (bot/storage/ratings.py, bot/storage/seasons.py).
--
-- `seasons`: a server's seasons, at most one running (`ended_at` NULL). `name_key` is the name casefolded, so two
-- seasons of a server never differ only by case. A season counts the settled deals whose hand ids are from
-- `first_hand` (the next id when it started) to `last_hand` (the last id when it ended; NULL while it runs).
-- `reset_ratings`: its start began a new rating period (the ratings before it are kept, under the earlier period).
CREATE TABLE seasons (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    name           TEXT    NOT NULL,
    name_key       TEXT    NOT NULL,
    started_at     REAL    NOT NULL,
    started_by     INTEGER NOT NULL,
    first_hand     INTEGER NOT NULL,
    reset_balances INTEGER NOT NULL CHECK (reset_balances IN (0, 1)),
    reset_ratings  INTEGER NOT NULL CHECK (reset_ratings IN (0, 1)),
    ended_at       REAL,
    ended_by       INTEGER,
    last_hand      INTEGER,
    CHECK ((ended_at IS NULL) = (last_hand IS NULL))
);
CREATE UNIQUE INDEX seasons_name ON seasons (guild_id, name_key);
CREATE UNIQUE INDEX seasons_running ON seasons (guild_id) WHERE ended_at IS NULL;

-- `rated_games`: every finished game that was rated, the source of truth of the ratings (a rebuild replays them in
-- id order). `source` names what was rated, once (`table:<id>` for a table's game): the same source is never rated
-- twice. `period` is the rating period it counted in (0, or the id of the season whose start reset the ratings),
-- `season_id` the season running when it finished, `model` the rating model and its parameters.
CREATE TABLE rated_games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    source      TEXT    NOT NULL UNIQUE,
    table_id    INTEGER REFERENCES tables (id),
    period      INTEGER NOT NULL CHECK (period >= 0),
    season_id   INTEGER REFERENCES seasons (id),
    model       TEXT    NOT NULL,
    finished_at REAL    NOT NULL
);
CREATE INDEX rated_games_replay ON rated_games (guild_id, game, id);

-- `rated_places`: each seat's final standing in a rated game, bots' included: its score (chips at the close minus
-- the buy-in) and place (1 first; equal scores share a place). A member's seat has the rating before and after.
CREATE TABLE rated_places (
    rated_id     INTEGER NOT NULL REFERENCES rated_games (id),
    position     INTEGER NOT NULL CHECK (position >= 0),
    user_id      INTEGER,
    score        INTEGER NOT NULL,
    place        INTEGER NOT NULL CHECK (place >= 1),
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL,
    sigma_after  REAL,
    PRIMARY KEY (rated_id, position),
    CHECK ((user_id IS NULL) = (mu_after IS NULL))
) WITHOUT ROWID;

-- `ratings`: each member's rating per server, game and rating period. `ordinal` is mu - 3 sigma (what boards sort by),
-- `games` the rated games it counts, `model` the model that last updated it.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    period     INTEGER NOT NULL CHECK (period >= 0),
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    ordinal    REAL    NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 1),
    model      TEXT    NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, period, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (guild_id, game, period, ordinal DESC, user_id);

-- `season_ratings`: a member's rating after their last rated game of a season (`games`: their rated games in it;
-- `rated`: the games that rating counts, earlier seasons' included when it was not reset), written with each rated
-- game, so a season's board, running or past, is one index range.
CREATE TABLE season_ratings (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    game      TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL CHECK (sigma > 0),
    ordinal   REAL    NOT NULL,
    games     INTEGER NOT NULL CHECK (games >= 1),
    rated     INTEGER NOT NULL CHECK (rated >= games),
    PRIMARY KEY (season_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX season_ratings_board ON season_ratings (season_id, game, ordinal DESC, user_id);

-- `season_chips`: the chips each member won in an ended season (net over its chip deals), per game and for every game
-- together (game '*'), written when the season ends. A running season's are summed from `deal_seats_guild`, which
-- holds every column that sum reads: one range of a server's deals by hand id.
CREATE TABLE season_chips (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    game      TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    net       INTEGER NOT NULL,
    deals     INTEGER NOT NULL CHECK (deals >= 1),
    PRIMARY KEY (season_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX season_chips_board ON season_chips (season_id, game, net DESC, user_id);
CREATE INDEX deal_seats_guild ON deal_seats (guild_id, hand_id, practice, game, user_id, delta);
