-- A table's pot: points paid into the table itself and carried between deals (Hachi-Hachi Trick's fold fees,
-- kept when nobody plays a round), owned by no seat until a deal pays it out. Like a seat's stack it is escrow
-- moved only by movements with ledger legs; the ledger's new 'pot' account names no member or seat, the table
-- being the movement's table. A table cannot close with chips in its pot.
ALTER TABLE tables ADD COLUMN pot bigint NOT NULL DEFAULT 0 CHECK (pot >= 0);

-- SQLite rebuilds the ledger to widen its CHECK; PostgreSQL replaces the constraint in place.
ALTER TABLE ledger DROP CONSTRAINT ledger_account_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_account_check
    CHECK (account IN ('wallet', 'seat', 'house', 'mint', 'pot'));
