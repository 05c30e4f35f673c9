-- PostgreSQL form of ../003_court.sql: the same tables, columns and constraints (BIGINT for
-- INTEGER, BYTEA for BLOB, DOUBLE PRECISION for REAL, an identity for AUTOINCREMENT).
-- Court cases: case records made here (by a model from a prior, or saved by a player),
-- kept whole as JSON so they load exactly as they were validated.
CREATE TABLE court_cases (
    case_id    TEXT PRIMARY KEY,
    origin     TEXT NOT NULL,
    prior      TEXT NOT NULL DEFAULT '',
    model      TEXT NOT NULL DEFAULT '',
    record     TEXT NOT NULL,
    created_at TEXT NOT NULL
);

-- Court games: one row per game (browser or terminal). state is the game layer's JSON
-- (the case record, seed, models, the defense's moves); the turns' model calls are results
-- of run_id, keyed by call, so a game is rebuilt from its state and its run.
CREATE TABLE court_games (
    game_id    TEXT PRIMARY KEY,
    case_id    TEXT NOT NULL,
    title      TEXT NOT NULL DEFAULT '',
    run_id     TEXT NOT NULL DEFAULT '',
    phase      TEXT NOT NULL DEFAULT '',
    outcome    TEXT NOT NULL DEFAULT '',
    turns      BIGINT NOT NULL DEFAULT 0,
    state      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX court_games_updated ON court_games(updated_at);
