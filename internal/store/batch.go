package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// Batch is a provider batch a run submitted.
type Batch struct {
	Run   RunID
	ID    string
	Model llm.ModelName
	// Attempt is how many batches each of its lines has been in, this one included.
	Attempt int
	// Keys are the job keys of its lines, in order.
	Keys   []string
	Status string
	Ended  bool
}

// PutBatch records a batch the provider has just accepted.
func (s *Store) PutBatch(ctx context.Context, b Batch) error {
	keys, err := json.Marshal(b.Keys)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO batches(run_id, batch_id, model, attempt, keys, status, submitted_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		string(b.Run), b.ID, string(b.Model), b.Attempt, string(keys), b.Status, now())
	if err != nil {
		return fmt.Errorf("record batch %s of run %s: %w", b.ID, b.Run, err)
	}
	return nil
}

// SetBatchStatus records how a batch stands; ended marks its results as written.
func (s *Store) SetBatchStatus(ctx context.Context, run RunID, id, status string, ended bool) error {
	var end any
	if ended {
		end = now()
	}
	_, err := s.db.ExecContext(ctx, `UPDATE batches SET status = ?, ended_at = coalesce(ended_at, ?) WHERE run_id = ? AND batch_id = ?`,
		status, end, string(run), id)
	if err != nil {
		return fmt.Errorf("record batch %s of run %s: %w", id, run, err)
	}
	return nil
}

// Batches lists the batches of a run in the order they were submitted.
func (s *Store) Batches(ctx context.Context, run RunID) ([]Batch, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT batch_id, model, attempt, keys, status, ended_at FROM batches WHERE run_id = ? ORDER BY submitted_at, `+s.insertOrder(), string(run))
	if err != nil {
		return nil, fmt.Errorf("batches of run %s: %w", run, err)
	}
	defer rows.Close()
	var out []Batch
	for rows.Next() {
		b := Batch{Run: run}
		var keys, model string
		var ended sql.NullString
		if err := rows.Scan(&b.ID, &model, &b.Attempt, &keys, &b.Status, &ended); err != nil {
			return nil, fmt.Errorf("batches of run %s: %w", run, err)
		}
		if err := json.Unmarshal([]byte(keys), &b.Keys); err != nil {
			return nil, fmt.Errorf("batches of run %s: batch %s: keys: %w", run, b.ID, err)
		}
		b.Model, b.Ended = llm.ModelName(model), ended.Valid
		out = append(out, b)
	}
	return out, rows.Err()
}

// OutputHistory is a model's average output tokens over the replies the store holds
// from its provider (not the cache's copies), and how many replies that is.
func (s *Store) OutputHistory(ctx context.Context, model llm.ModelName) (avg float64, n int, err error) {
	var a sql.NullFloat64
	err = s.db.QueryRowContext(ctx, `SELECT avg(output_tokens), count(*) FROM results WHERE model = ? AND error = '' AND source = ?`,
		string(model), string(SourceProvider)).Scan(&a, &n)
	if err != nil {
		return 0, 0, fmt.Errorf("output history of %s: %w", model, err)
	}
	return a.Float64, n, nil
}
