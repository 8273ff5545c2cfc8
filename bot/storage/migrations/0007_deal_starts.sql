-- Where each deal began, for replaying it: `record` is a version-2 table record whose snapshot is the engine right
-- after the move that began the deal (with the shuffles of unfinished deals, as a restart point keeps them), and
-- `seq` the last table_log row that state includes. A replay walks the log from the nearest earlier start (the
-- table's opening at worst) and keeps every start it passes, so a deal once reached replays later in its own moves.
-- Only deals' starts are kept here; the log stays the truth (a start can always be rebuilt from it).
CREATE TABLE deal_starts (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    deal_no  INTEGER NOT NULL CHECK (deal_no >= 1),
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    record   TEXT    NOT NULL,
    PRIMARY KEY (table_id, deal_no)
);
