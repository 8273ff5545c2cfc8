-- Where each deal began, for replaying it (PostgreSQL's version of ../0007_deal_starts.sql, which explains it).
CREATE TABLE deal_starts (
    table_id bigint NOT NULL REFERENCES tables (id),
    deal_no  bigint NOT NULL CHECK (deal_no >= 1),
    seq      bigint NOT NULL CHECK (seq >= 0),
    record   text   NOT NULL,
    PRIMARY KEY (table_id, deal_no)
);
