-- PostgreSQL form of ../004_batch.sql: the same tables, columns and constraints (BIGINT for
-- INTEGER, BYTEA for BLOB, DOUBLE PRECISION for REAL, an identity for AUTOINCREMENT).
-- Batches: every provider batch a run has submitted, recorded the moment the provider
-- accepted it, so a rerun after a crash polls it instead of paying for its lines again.
-- keys is a JSON array of the run's job keys; line i of the batch has custom id "l<i>".
-- attempt counts the batches a line has been in (1 for its first); ended_at is set once
-- the batch's results are in the results table.
CREATE TABLE batches (
    run_id       TEXT NOT NULL,
    batch_id     TEXT NOT NULL,
    model        TEXT NOT NULL,
    attempt      BIGINT NOT NULL,
    keys         TEXT NOT NULL,
    status       TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    ended_at     TEXT,
    -- seq orders batches submitted in the same instant, as SQLite's rowid does there.
    seq          BIGINT GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (run_id, batch_id)
);
