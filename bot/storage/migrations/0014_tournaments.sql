-- Tournaments (bot/tournaments), and a general table option they use.
--
-- ``tables.deal_limit``: a table ends by itself once that deal is settled, in the same transaction as the deal's
-- settlement, as a table whose game ended does (NULL: when its game ends by its own rules). A tournament's round is a
-- table limited to its deals per round.
ALTER TABLE tables ADD COLUMN deal_limit INTEGER CHECK (deal_limit IS NULL OR deal_limit >= 1);

-- The buy-ins of a tournament are escrow: a sign-up moves the buy-in from the wallet to the guild's 'tournament'
-- account (reason buy_in), a withdrawal or a cancel moves it back (refund), and the payout moves the whole prize pool
-- to the winners' wallets in one movement (cash_out). Each movement's key begins ``tournament:<id>:``, and
-- ``tournaments.pool`` holds what each tournament has in the account, so the account's balance is the sum of the
-- pools of the tournaments not yet paid out or cancelled. Its tables play with tournament chips: practice stacks,
-- which no movement funds. Widening the CHECKs: SQLite rebuilds both tables (as 0004 did for the ledger).
CREATE TABLE guild_accounts_new (
    guild_id INTEGER NOT NULL,
    kind     TEXT    NOT NULL CHECK (kind IN ('house', 'mint', 'tournament')),
    balance  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, kind)
) WITHOUT ROWID;
INSERT INTO guild_accounts_new (guild_id, kind, balance) SELECT guild_id, kind, balance FROM guild_accounts;
DROP TABLE guild_accounts;
ALTER TABLE guild_accounts_new RENAME TO guild_accounts;

CREATE TABLE ledger_new (
    id          INTEGER PRIMARY KEY,
    movement_id INTEGER NOT NULL REFERENCES movements (id),
    guild_id    INTEGER NOT NULL,
    account     TEXT    NOT NULL CHECK (account IN ('wallet', 'seat', 'house', 'mint', 'pot', 'tournament')),
    user_id     INTEGER,        -- wallet legs; also the seated member on a seat leg
    seat_id     INTEGER REFERENCES seats (id),
    delta       INTEGER NOT NULL CHECK (delta <> 0),
    CHECK (CASE account
               WHEN 'wallet' THEN user_id IS NOT NULL AND seat_id IS NULL
               WHEN 'seat' THEN seat_id IS NOT NULL
               ELSE user_id IS NULL AND seat_id IS NULL END)
);
INSERT INTO ledger_new (id, movement_id, guild_id, account, user_id, seat_id, delta)
    SELECT id, movement_id, guild_id, account, user_id, seat_id, delta FROM ledger;
DROP TABLE ledger;
ALTER TABLE ledger_new RENAME TO ledger;
CREATE INDEX ledger_movement ON ledger (movement_id);
CREATE INDEX ledger_wallet ON ledger (guild_id, user_id) WHERE account = 'wallet';
CREATE INDEX ledger_member_seat ON ledger (guild_id, user_id, movement_id) WHERE account = 'seat';  -- from 0013

-- A tournament: its settings as the moderator opened it, where it is followed, and how far it has gone. ``round`` is
-- the round in play (0 while members sign up); a round's tables are ``tournament_tables``; ``pool`` the buy-ins held.
CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,  -- where its message is and its tables open
    message_id      INTEGER,           -- the tournament message (NULL until posted)
    host_id         INTEGER NOT NULL,  -- the moderator who opened it, host of its tables
    game            TEXT    NOT NULL,
    rules           TEXT    NOT NULL,  -- the house rules as it opened (JSON): every round plays them
    buy_in          INTEGER NOT NULL CHECK (buy_in >= 1),
    table_size      INTEGER NOT NULL CHECK (table_size >= 2),
    rounds          INTEGER NOT NULL CHECK (rounds >= 1),
    deals_per_round INTEGER NOT NULL CHECK (deals_per_round >= 1),
    payout          TEXT    NOT NULL,  -- the payout table's name (bot/tournaments/payout.py)
    place           TEXT    NOT NULL CHECK (place IN ('thread', 'channel')),
    lang            TEXT    NOT NULL,
    seed            TEXT    NOT NULL,  -- the first round's draw
    start_at        REAL    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'signup' CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round           INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    announced       INTEGER NOT NULL DEFAULT 0 CHECK (announced >= 0),  -- the last round whose start was posted
    pool            INTEGER NOT NULL DEFAULT 0 CHECK (pool >= 0),
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL,
    ended_at        REAL
);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_live ON tournaments (status, start_at) WHERE status IN ('signup', 'running');

-- Who signed up (a withdrawal deletes the row; the ledger keeps both movements). ``score``: tournament chips won over
-- the rounds played; ``place`` and ``prize`` once it is over.
CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    display_name  TEXT    NOT NULL,
    buy_in        INTEGER NOT NULL CHECK (buy_in >= 1),
    entered_at    REAL    NOT NULL,
    score         INTEGER NOT NULL DEFAULT 0,
    place         INTEGER,
    prize         INTEGER,
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

-- A round's tables, drawn before any opens; ``table_id`` is set the moment its table exists, so a restart finds it.
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    table_no      INTEGER NOT NULL CHECK (table_no >= 1),
    bots          INTEGER NOT NULL DEFAULT 0 CHECK (bots >= 0),
    table_id      INTEGER REFERENCES tables (id),
    PRIMARY KEY (tournament_id, round, table_no)
) WITHOUT ROWID;
CREATE UNIQUE INDEX tournament_tables_table ON tournament_tables (table_id) WHERE table_id IS NOT NULL;

-- Where each entrant sits in each round, and (``net``, NULL until the round is over) the chips they won there.
CREATE TABLE tournament_seats (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    user_id       INTEGER NOT NULL,
    table_no      INTEGER NOT NULL CHECK (table_no >= 1),
    position      INTEGER NOT NULL CHECK (position >= 0),
    net           INTEGER,
    PRIMARY KEY (tournament_id, round, user_id)
) WITHOUT ROWID;
