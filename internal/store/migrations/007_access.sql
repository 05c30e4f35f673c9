-- Who may do what on a public server (issue 27). A game's tokens: only their hashes are
-- kept; access is 'play' (read and move) or 'watch' (read only).
CREATE TABLE court_game_tokens (
    token_hash TEXT PRIMARY KEY,
    game_id    TEXT NOT NULL,
    access     TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX court_game_tokens_game ON court_game_tokens(game_id);

-- A review project's adjudicators (JSON array of reviewer names) and the hash of its
-- owner's token, which opens the agreement page ('' until one is made).
ALTER TABLE review_projects ADD COLUMN adjudicators TEXT NOT NULL DEFAULT '[]';
ALTER TABLE review_projects ADD COLUMN owner_hash TEXT NOT NULL DEFAULT '';
