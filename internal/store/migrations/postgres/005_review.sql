-- PostgreSQL form of ../005_review.sql: the same tables, columns and constraints (BIGINT for
-- INTEGER, BYTEA for BLOB, DOUBLE PRECISION for REAL, an identity for AUTOINCREMENT).
-- Keeper curation (issue 15): a review project over one dataset, kept whole so that the
-- export never depends on the original file still being there.
CREATE TABLE review_projects (
    project_id   TEXT PRIMARY KEY,
    dataset_name TEXT NOT NULL,
    format       TEXT NOT NULL,
    data         BYTEA NOT NULL,
    reviewers    TEXT NOT NULL, -- JSON array, in --reviewers order
    seed         BIGINT NOT NULL,
    created_at   TEXT NOT NULL
);

-- Who reviews which sample: slot 1 and 2 are the two blind reviews, slot 3 the third
-- review of the seeded 10%. A slot of a sample belongs to one reviewer only.
CREATE TABLE review_assignments (
    project_id TEXT NOT NULL REFERENCES review_projects(project_id),
    sample_id  TEXT NOT NULL,
    reviewer   TEXT NOT NULL,
    slot       BIGINT NOT NULL,
    position   BIGINT NOT NULL,
    PRIMARY KEY (project_id, sample_id, reviewer),
    UNIQUE (project_id, sample_id, slot)
);
CREATE INDEX review_assignments_reviewer ON review_assignments(project_id, reviewer, position);

-- The decision in force per (sample, reviewer, role): role is 'review' for an assigned
-- reviewer and 'adjudication' for the one who settles a disagreement.
CREATE TABLE review_decisions (
    project_id TEXT NOT NULL REFERENCES review_projects(project_id),
    sample_id  TEXT NOT NULL,
    reviewer   TEXT NOT NULL,
    role       TEXT NOT NULL,
    decision   TEXT NOT NULL,
    changes    TEXT NOT NULL DEFAULT '{}',
    note       TEXT NOT NULL DEFAULT '',
    decided_at TEXT NOT NULL,
    PRIMARY KEY (project_id, sample_id, reviewer, role)
);

-- The audit trail: every change to a decision, in order, with what it was before and after
-- (JSON of the decision, '' for none).
CREATE TABLE review_audit (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES review_projects(project_id),
    sample_id  TEXT NOT NULL,
    reviewer   TEXT NOT NULL,
    role       TEXT NOT NULL,
    action     TEXT NOT NULL,
    before     TEXT NOT NULL,
    after      TEXT NOT NULL,
    at         TEXT NOT NULL
);
CREATE INDEX review_audit_project ON review_audit(project_id, seq);

-- Per-reviewer tokens for a public server; only a hash of the token is kept.
CREATE TABLE review_tokens (
    project_id TEXT NOT NULL REFERENCES review_projects(project_id),
    reviewer   TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, reviewer)
);
