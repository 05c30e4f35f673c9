package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"
)

// ReviewProject is a Keeper-curation project over one dataset, kept whole.
type ReviewProject struct {
	ID          string
	DatasetName string
	// Format is the dataset's format ("jsonl" or "csv") and Data its bytes as reviewed.
	Format string
	Data   []byte
	// Reviewers are in the order they were named; the first of a sample's two is rater 1.
	Reviewers []string
	// Adjudicators are the reviewers who may settle a sample.
	Adjudicators []string
	// OwnerHash is the hash of the owner's token (the agreement page's key); "" for none.
	OwnerHash string
	Seed      int64
	Created   time.Time
}

// ReviewAssignment gives one sample to one reviewer: slot 1 or 2 (the blind pair) or 3
// (the third review); Position orders a reviewer's queue.
type ReviewAssignment struct {
	SampleID string
	Reviewer string
	Slot     int
	Position int
}

// The roles a decision is made in.
const (
	RoleReview       = "review"
	RoleAdjudication = "adjudication"
)

// ReviewDecision is a reviewer's decision on a sample: approve, correct (Changes holds the
// edited fields) or reject.
type ReviewDecision struct {
	SampleID string            `json:"sample"`
	Reviewer string            `json:"reviewer"`
	Role     string            `json:"role"`
	Decision string            `json:"decision"`
	Changes  map[string]string `json:"changes,omitempty"`
	Note     string            `json:"note,omitempty"`
	At       time.Time         `json:"at"`
}

// same reports whether d and o say the same thing (who and when aside).
func (d *ReviewDecision) same(o *ReviewDecision) bool {
	return d.Decision == o.Decision && d.Note == o.Note && maps.Equal(d.Changes, o.Changes)
}

// ReviewEvent is one line of a project's audit trail.
type ReviewEvent struct {
	Seq      int64           `json:"seq"`
	SampleID string          `json:"sample"`
	Reviewer string          `json:"reviewer"`
	Role     string          `json:"role"`
	Action   string          `json:"action"` // "decide", "change" or "undo"
	Before   *ReviewDecision `json:"before"`
	After    *ReviewDecision `json:"after"`
	At       time.Time       `json:"at"`
}

// CreateReviewProject stores p with its assignments in one transaction.
func (s *Store) CreateReviewProject(ctx context.Context, p ReviewProject, as []ReviewAssignment) error {
	reviewers, _ := json.Marshal(p.Reviewers) // a string slice always marshals
	adjudicators, _ := json.Marshal(p.Adjudicators)
	if p.Adjudicators == nil {
		adjudicators = []byte("[]")
	}
	created := p.Created
	if created.IsZero() {
		created = time.Now()
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store review project %s: %w", p.ID, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO review_projects(project_id, dataset_name, format, data, reviewers, adjudicators, owner_hash, seed, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.DatasetName, p.Format, p.Data, string(reviewers), string(adjudicators), p.OwnerHash, p.Seed, created.UTC().Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("store review project %s: %w", p.ID, err)
	}
	for _, a := range as {
		if _, err := tx.ExecContext(ctx, `INSERT INTO review_assignments(project_id, sample_id, reviewer, slot, position) VALUES (?, ?, ?, ?, ?)`,
			p.ID, a.SampleID, a.Reviewer, a.Slot, a.Position); err != nil {
			return fmt.Errorf("store review project %s: assign %s to %s: %w", p.ID, a.SampleID, a.Reviewer, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store review project %s: %w", p.ID, err)
	}
	return nil
}

// ReviewProject returns the stored project id, or ErrNotFound.
func (s *Store) ReviewProject(ctx context.Context, id string) (*ReviewProject, error) {
	ps, err := s.reviewProjects(ctx, `WHERE project_id = ?`, id)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("review project %s: %w", id, ErrNotFound)
	}
	return ps[0], nil
}

// ReviewProjects lists the stored projects, newest first, without their data.
func (s *Store) ReviewProjects(ctx context.Context) ([]*ReviewProject, error) {
	return s.reviewProjects(ctx, `ORDER BY created_at DESC, project_id`)
}

func (s *Store) reviewProjects(ctx context.Context, tail string, args ...any) ([]*ReviewProject, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT project_id, dataset_name, format, data, reviewers, adjudicators, owner_hash, seed, created_at FROM review_projects `+tail, args...)
	if err != nil {
		return nil, fmt.Errorf("read review projects: %w", err)
	}
	defer rows.Close()
	var out []*ReviewProject
	for rows.Next() {
		var p ReviewProject
		var reviewers, adjudicators, created string
		if err := rows.Scan(&p.ID, &p.DatasetName, &p.Format, &p.Data, &reviewers, &adjudicators, &p.OwnerHash, &p.Seed, &created); err != nil {
			return nil, fmt.Errorf("read review projects: %w", err)
		}
		if err := json.Unmarshal([]byte(reviewers), &p.Reviewers); err != nil {
			return nil, fmt.Errorf("read review project %s: reviewers: %w", p.ID, err)
		}
		if err := json.Unmarshal([]byte(adjudicators), &p.Adjudicators); err != nil {
			return nil, fmt.Errorf("read review project %s: adjudicators: %w", p.ID, err)
		}
		p.Created, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, &p)
	}
	return out, rows.Err()
}

// ReviewAssignments returns every assignment of project id, by reviewer and position.
func (s *Store) ReviewAssignments(ctx context.Context, id string) ([]ReviewAssignment, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT sample_id, reviewer, slot, position FROM review_assignments WHERE project_id = ? ORDER BY reviewer, position`, id)
	if err != nil {
		return nil, fmt.Errorf("read review assignments %s: %w", id, err)
	}
	defer rows.Close()
	var out []ReviewAssignment
	for rows.Next() {
		var a ReviewAssignment
		if err := rows.Scan(&a.SampleID, &a.Reviewer, &a.Slot, &a.Position); err != nil {
			return nil, fmt.Errorf("read review assignments %s: %w", id, err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// ReviewDecisions returns the decisions in force in project id.
func (s *Store) ReviewDecisions(ctx context.Context, id string) ([]ReviewDecision, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT sample_id, reviewer, role, decision, changes, note, decided_at FROM review_decisions WHERE project_id = ? ORDER BY sample_id, role, reviewer`, id)
	if err != nil {
		return nil, fmt.Errorf("read review decisions %s: %w", id, err)
	}
	defer rows.Close()
	var out []ReviewDecision
	for rows.Next() {
		d, err := scanDecision(rows)
		if err != nil {
			return nil, fmt.Errorf("read review decisions %s: %w", id, err)
		}
		out = append(out, *d)
	}
	return out, rows.Err()
}

func scanDecision(sc scanner) (*ReviewDecision, error) {
	var d ReviewDecision
	var changes, at string
	if err := sc.Scan(&d.SampleID, &d.Reviewer, &d.Role, &d.Decision, &changes, &d.Note, &at); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(changes), &d.Changes); err != nil {
		return nil, fmt.Errorf("changes of %s by %s: %w", d.SampleID, d.Reviewer, err)
	}
	if len(d.Changes) == 0 {
		d.Changes = nil
	}
	d.At, _ = time.Parse(time.RFC3339Nano, at)
	return &d, nil
}

// PutReviewDecision makes d the decision in force for its sample, reviewer and role, and
// writes the change to the audit trail, in one transaction. A decision that says what the
// one in force already says changes nothing (changed is false), so a decision sent twice
// is applied once.
func (s *Store) PutReviewDecision(ctx context.Context, project string, d ReviewDecision) (changed bool, err error) {
	if d.At.IsZero() {
		d.At = time.Now()
	}
	d.At = d.At.UTC()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store review decision: %w", err)
	}
	defer tx.Rollback()
	before, err := currentDecision(ctx, tx, project, d.SampleID, d.Reviewer, d.Role)
	if err != nil {
		return false, err
	}
	if before != nil && before.same(&d) {
		return false, nil
	}
	changes := []byte("{}")
	if len(d.Changes) > 0 {
		changes, _ = json.Marshal(d.Changes) // a string map always marshals
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO review_decisions(project_id, sample_id, reviewer, role, decision, changes, note, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(project_id, sample_id, reviewer, role) DO UPDATE SET decision = excluded.decision, changes = excluded.changes, note = excluded.note, decided_at = excluded.decided_at`,
		project, d.SampleID, d.Reviewer, d.Role, d.Decision, string(changes), d.Note, d.At.Format(time.RFC3339Nano)); err != nil {
		return false, fmt.Errorf("store review decision on %s by %s: %w", d.SampleID, d.Reviewer, err)
	}
	action := "decide"
	if before != nil {
		action = "change"
	}
	if err := audit(ctx, tx, project, d.SampleID, d.Reviewer, d.Role, action, before, &d, d.At); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store review decision: %w", err)
	}
	return true, nil
}

// DeleteReviewDecision takes back the decision in force (an undo) and audits it; with
// none in force it changes nothing.
func (s *Store) DeleteReviewDecision(ctx context.Context, project, sample, reviewer, role string) (changed bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("undo review decision: %w", err)
	}
	defer tx.Rollback()
	before, err := currentDecision(ctx, tx, project, sample, reviewer, role)
	if err != nil || before == nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM review_decisions WHERE project_id = ? AND sample_id = ? AND reviewer = ? AND role = ?`,
		project, sample, reviewer, role); err != nil {
		return false, fmt.Errorf("undo review decision on %s by %s: %w", sample, reviewer, err)
	}
	if err := audit(ctx, tx, project, sample, reviewer, role, "undo", before, nil, time.Now().UTC()); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("undo review decision: %w", err)
	}
	return true, nil
}

func currentDecision(ctx context.Context, tx *tx, project, sample, reviewer, role string) (*ReviewDecision, error) {
	row := tx.QueryRowContext(ctx, `SELECT sample_id, reviewer, role, decision, changes, note, decided_at FROM review_decisions
		WHERE project_id = ? AND sample_id = ? AND reviewer = ? AND role = ?`, project, sample, reviewer, role)
	d, err := scanDecision(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read review decision on %s by %s: %w", sample, reviewer, err)
	}
	return d, nil
}

func audit(ctx context.Context, tx *tx, project, sample, reviewer, role, action string, before, after *ReviewDecision, at time.Time) error {
	enc := func(d *ReviewDecision) string {
		if d == nil {
			return ""
		}
		b, _ := json.Marshal(d) // strings and a time always marshal
		return string(b)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO review_audit(project_id, sample_id, reviewer, role, action, before, after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		project, sample, reviewer, role, action, enc(before), enc(after), at.UTC().Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("audit review decision on %s by %s: %w", sample, reviewer, err)
	}
	return nil
}

// ReviewAudit returns project id's audit trail in the order the changes were made.
func (s *Store) ReviewAudit(ctx context.Context, id string) ([]ReviewEvent, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, sample_id, reviewer, role, action, before, after, at FROM review_audit WHERE project_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, fmt.Errorf("read review audit %s: %w", id, err)
	}
	defer rows.Close()
	var out []ReviewEvent
	for rows.Next() {
		var e ReviewEvent
		var before, after, at string
		if err := rows.Scan(&e.Seq, &e.SampleID, &e.Reviewer, &e.Role, &e.Action, &before, &after, &at); err != nil {
			return nil, fmt.Errorf("read review audit %s: %w", id, err)
		}
		for _, p := range []struct {
			raw string
			dst **ReviewDecision
		}{{before, &e.Before}, {after, &e.After}} {
			if p.raw == "" {
				continue
			}
			*p.dst = new(ReviewDecision)
			if err := json.Unmarshal([]byte(p.raw), *p.dst); err != nil {
				return nil, fmt.Errorf("read review audit %s: line %d: %w", id, e.Seq, err)
			}
		}
		e.At, _ = time.Parse(time.RFC3339Nano, at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// PutReviewToken keeps the hash of reviewer's token for project, replacing an older one.
func (s *Store) PutReviewToken(ctx context.Context, project, reviewer, tokenHash string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO review_tokens(project_id, reviewer, token_hash, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT(project_id, reviewer) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at`,
		project, reviewer, tokenHash, now())
	if err != nil {
		return fmt.Errorf("store review token for %s: %w", reviewer, err)
	}
	return nil
}

// ReviewerByToken returns whose token hash this is in project, or ErrNotFound.
func (s *Store) ReviewerByToken(ctx context.Context, project, tokenHash string) (string, error) {
	var r string
	err := s.db.QueryRowContext(ctx, `SELECT reviewer FROM review_tokens WHERE project_id = ? AND token_hash = ?`, project, tokenHash).Scan(&r)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("review token: %w", ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("review token: %w", err)
	}
	return r, nil
}

// SetReviewOwner keeps the hash of project's owner token, replacing an older one.
func (s *Store) SetReviewOwner(ctx context.Context, project, tokenHash string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE review_projects SET owner_hash = ? WHERE project_id = ?`, tokenHash, project)
	if err != nil {
		return fmt.Errorf("store the owner token of %s: %w", project, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("review project %s: %w", project, ErrNotFound)
	}
	return nil
}
