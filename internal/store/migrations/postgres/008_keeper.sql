-- PostgreSQL form of ../008_keeper.sql: the same tables and columns.
-- The Keeper game (issue 31): players who talk their way past a Keeper model, their rounds,
-- and every attempt. A player is known by a token whose hash alone is kept; share says
-- whether their statements may leave the store in the human corpus (seduce.md section 8),
-- and is read at export time, so a withdrawn consent removes every earlier statement from
-- later exports. An attempt keeps the scenario's fields as it was shown, so the export needs
-- no dataset.
CREATE TABLE keeper_players (
    player_id  TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    pseudonym  TEXT NOT NULL,
    share      INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE keeper_rounds (
    round_id   TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL,
    model      TEXT NOT NULL,
    samples    TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX keeper_rounds_player ON keeper_rounds(player_id);

CREATE TABLE keeper_attempts (
    attempt_id  TEXT PRIMARY KEY,
    player_id   TEXT NOT NULL,
    round_id    TEXT NOT NULL,
    position    INTEGER NOT NULL,
    author      TEXT NOT NULL,
    sample_id   TEXT NOT NULL,
    scenario_id TEXT NOT NULL,
    setting     TEXT NOT NULL,
    category    TEXT NOT NULL,
    skill       TEXT NOT NULL,
    gold_skill  TEXT NOT NULL,
    context     TEXT NOT NULL,
    statement   TEXT NOT NULL,
    style       TEXT NOT NULL,
    model       TEXT NOT NULL,
    run_id      TEXT NOT NULL,
    job_key     TEXT NOT NULL,
    reply       TEXT NOT NULL,
    ruling      TEXT NOT NULL,
    named_skill TEXT NOT NULL,
    reason      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    UNIQUE (round_id, position)
);
CREATE INDEX keeper_attempts_player ON keeper_attempts(player_id);
