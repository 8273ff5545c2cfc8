-- Which bot process drives a table (several processes over one database, each serving its own shards). A lease
-- names its owner (a process id made at start) and when it runs out; the owner renews all of its leases at once,
-- and another process takes a table's lease only once it ran out (or was released). Every write that changes a
-- table checks, in its own transaction, that the writer still holds the lease (fencing): a process that lost a
-- table while paused cannot write to it. A table's lease goes when the table ends.
CREATE TABLE table_leases (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (id),
    owner      TEXT    NOT NULL,
    expires_at REAL    NOT NULL
);
CREATE INDEX table_leases_owner ON table_leases (owner);
