-- A store as arbiter wrote it before stores carried an application id and claims:
-- schema_migrations as the old migrate created it, 001_init.sql as it was, one run and
-- one result. TestStoreWrittenBeforeClaimsOpens builds a file from it.
PRAGMA journal_mode = WAL;
CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL);
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
CREATE TABLE results (
    run_id           TEXT NOT NULL REFERENCES runs(id),
    job_key          TEXT NOT NULL,
    model            TEXT NOT NULL,
    item             TEXT NOT NULL,
    replicate        INTEGER NOT NULL DEFAULT 0,
    request_hash     TEXT NOT NULL,
    reply_text       TEXT NOT NULL DEFAULT '',
    reasoning        TEXT NOT NULL DEFAULT '',
    refusal          TEXT NOT NULL DEFAULT '',
    finish           TEXT NOT NULL DEFAULT '',
    raw              BLOB,
    input_tokens     INTEGER NOT NULL DEFAULT 0,
    output_tokens    INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms       REAL NOT NULL DEFAULT 0,
    attempts         INTEGER NOT NULL DEFAULT 0,
    error            TEXT NOT NULL DEFAULT '',
    outcome          TEXT NOT NULL DEFAULT '',
    source           TEXT NOT NULL DEFAULT 'provider',
    updated_at       TEXT NOT NULL,
    PRIMARY KEY (run_id, job_key)
);
CREATE INDEX results_model ON results(run_id, model);
CREATE TABLE cache (
    key        TEXT PRIMARY KEY,
    model      TEXT NOT NULL,
    reply      BLOB NOT NULL,
    created_at TEXT NOT NULL
);
INSERT INTO schema_migrations VALUES ('migrations/001_init.sql', '2025-01-01T00:00:00Z');
INSERT INTO runs(id, kind, config, config_hash, version, started_at, ended_at, status)
    VALUES ('seduce-old', 'seduce', '{}', 'h', 'v0', '2025-01-01T00:00:00Z', '2025-01-01T00:01:00Z', 'done');
INSERT INTO results(run_id, job_key, model, item, request_hash, reply_text, updated_at)
    VALUES ('seduce-old', 'openai/x|s1|0', 'openai/x', 's1', 'rh', 'roll', '2025-01-01T00:00:30Z');
