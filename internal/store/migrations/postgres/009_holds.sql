-- PostgreSQL form of ../009_holds.sql: the same table and columns.
-- "Hold it!" called from another process (issue 32): a person who follows a two-person
-- game while the other person's process lets its court speak records their hold here,
-- one per side; the process whose court speaks takes it (deletes it) at the end of a
-- court line, as it takes a hold called in its own process.
CREATE TABLE court_holds (
    game_id      TEXT NOT NULL,
    side         TEXT NOT NULL,
    requested_at TEXT NOT NULL,
    PRIMARY KEY (game_id, side)
);
