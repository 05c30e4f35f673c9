-- PostgreSQL form of ../001_init.sql: the same tables, columns and constraints (BIGINT for
-- INTEGER, BYTEA for BLOB, DOUBLE PRECISION for REAL, an identity for AUTOINCREMENT).
-- Runs: one row per distinct configuration of a job. Rerunning the same command lands in
-- the same run and resumes it.
CREATE TABLE runs (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    config       TEXT NOT NULL,
    config_hash  TEXT NOT NULL,
    dataset_hash TEXT NOT NULL DEFAULT '',
    prompt_hash  TEXT NOT NULL DEFAULT '',
    prompt_text  TEXT NOT NULL DEFAULT '',
    version      TEXT NOT NULL,
    started_at   TEXT NOT NULL,
    ended_at     TEXT,
    status       TEXT NOT NULL DEFAULT 'running'
);

-- Results: the latest outcome of every job of a run, answered or failed. A failed job keeps
-- its final error until a later run answers it.
CREATE TABLE results (
    run_id           TEXT NOT NULL REFERENCES runs(id),
    job_key          TEXT NOT NULL,
    model            TEXT NOT NULL,
    item             TEXT NOT NULL,
    replicate        BIGINT NOT NULL DEFAULT 0,
    request_hash     TEXT NOT NULL,
    reply_text       TEXT NOT NULL DEFAULT '',
    reasoning        TEXT NOT NULL DEFAULT '',
    refusal          TEXT NOT NULL DEFAULT '',
    finish           TEXT NOT NULL DEFAULT '',
    raw              BYTEA,
    input_tokens     BIGINT NOT NULL DEFAULT 0,
    output_tokens    BIGINT NOT NULL DEFAULT 0,
    reasoning_tokens BIGINT NOT NULL DEFAULT 0,
    latency_ms       DOUBLE PRECISION NOT NULL DEFAULT 0,
    attempts         BIGINT NOT NULL DEFAULT 0,
    error            TEXT NOT NULL DEFAULT '',
    outcome          TEXT NOT NULL DEFAULT '',
    source           TEXT NOT NULL DEFAULT 'provider',
    updated_at       TEXT NOT NULL,
    PRIMARY KEY (run_id, job_key)
);
CREATE INDEX results_model ON results(run_id, model);

-- Cache: successful replies keyed by model, full request and replicate, shared by all runs
-- so that an identical request is never paid for twice. Errors are never cached.
CREATE TABLE cache (
    key        TEXT PRIMARY KEY,
    model      TEXT NOT NULL,
    reply      BYTEA NOT NULL,
    created_at TEXT NOT NULL
);
