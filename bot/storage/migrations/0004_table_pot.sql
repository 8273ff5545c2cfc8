-- A table's pot: points paid into the table itself and carried between deals (Hachi-Hachi Trick's fold fees,
-- kept when nobody plays a round), owned by no seat until a deal pays it out. Like a seat's stack it is escrow
-- moved only by movements with ledger legs; the ledger's new 'pot' account names no member or seat, the table
-- being the movement's table. A table cannot close with chips in its pot.
ALTER TABLE tables ADD COLUMN pot INTEGER NOT NULL DEFAULT 0 CHECK (pot >= 0);

CREATE TABLE ledger_new (
    id          INTEGER PRIMARY KEY,
    movement_id INTEGER NOT NULL REFERENCES movements (id),
    guild_id    INTEGER NOT NULL,
    account     TEXT    NOT NULL CHECK (account IN ('wallet', 'seat', 'house', 'mint', 'pot')),
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
