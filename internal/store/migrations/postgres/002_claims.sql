-- PostgreSQL form of ../002_claims.sql: the same tables, columns and constraints (BIGINT for
-- INTEGER, BYTEA for BLOB, DOUBLE PRECISION for REAL, an identity for AUTOINCREMENT).
-- Claims: which process is answering which job of a run right now. A holder (host, pid
-- and a random part) takes a job before asking its model and keeps it while its lease
-- (expires_at, Unix milliseconds) is renewed; the row goes when the result is written or
-- the holder stops. A lease that has run out may be taken over by anyone, so a killed
-- process blocks its jobs only until then.
CREATE TABLE claims (
    run_id     TEXT NOT NULL,
    job_key    TEXT NOT NULL,
    holder     TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (run_id, job_key)
);
CREATE INDEX claims_holder ON claims(run_id, holder);
