package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// Holder names one process answering jobs of a run: its host, its pid and a random part,
// so that no two processes (nor two runs in one process) share a name, and a person who
// reads a claim can tell where the job is being answered.
type Holder string

// NewHolder returns a fresh holder name for this process.
func NewHolder() Holder {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	var b [4]byte
	rand.Read(b[:])
	return Holder(fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(b[:])))
}

// ClaimState says what Claim found for one job.
type ClaimState int

// The outcomes of a claim.
const (
	// Claimed: the job is now the caller's until its lease runs out.
	Claimed ClaimState = iota
	// Held: another holder's lease on the job has not run out.
	Held
	// Finished: the job is answered, or got a result (even a failure) since the caller's
	// run began, so nobody needs to ask it again in this run.
	Finished
)

// Claim is what Claim found for one job.
type Claim struct {
	Key   string
	State ClaimState
	// Holder and Expires describe the other holder of a Held job.
	Holder  Holder
	Expires time.Time
}

// The statements of Claim, prepared once per store.
const (
	claimResultSQL = `SELECT error, updated_at FROM results WHERE run_id = ? AND job_key = ?`
	claimTakeSQL   = `INSERT INTO claims(run_id, job_key, holder, expires_at) VALUES (?, ?, ?, ?)
		ON CONFLICT(run_id, job_key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
		WHERE claims.holder = excluded.holder OR claims.expires_at <= ?`
	claimOtherSQL = `SELECT holder, expires_at FROM claims WHERE run_id = ? AND job_key = ?`
)

// Claim tries, in one transaction, to take the jobs keys of run for holder until ttl
// from now. A job is taken when no one holds it, the holder already holds it, or the
// other holder's lease has run out; it is Finished instead when it has an answer or a
// result written at or after since (the caller's start). The answers come in the order
// of keys.
func (s *Store) Claim(ctx context.Context, run RunID, holder Holder, keys []string, since time.Time, ttl time.Duration) ([]Claim, error) {
	if s.pg {
		return s.claimSet(ctx, run, holder, keys, since, ttl)
	}
	// Prepared before the transaction: on SQLite it holds the store's one connection.
	var ps [3]*sql.Stmt
	for i, q := range []string{claimResultSQL, claimTakeSQL, claimOtherSQL} {
		p, err := s.prepared(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("claim jobs of %s: %w", run, err)
		}
		ps[i] = p
	}
	lctx := s.local(ctx)
	tx, err := s.db.BeginTx(lctx, nil)
	if err != nil {
		return nil, fmt.Errorf("claim jobs of %s: %w", run, err)
	}
	defer tx.Rollback()
	result, take, other := tx.StmtContext(lctx, ps[0]), tx.StmtContext(lctx, ps[1]), tx.StmtContext(lctx, ps[2])
	now := time.Now()
	expires := now.Add(ttl).UnixMilli()
	finished := func(k string) (bool, error) {
		var errText, updated string
		switch err := result.QueryRowContext(lctx, string(run), k).Scan(&errText, &updated); {
		case err == nil:
			at, perr := time.Parse(time.RFC3339Nano, updated)
			return errText == "" || (perr == nil && !at.Before(since)), nil
		case errors.Is(err, sql.ErrNoRows):
			return false, nil
		default:
			return false, err
		}
	}
	out := make([]Claim, len(keys))
	for i, k := range keys {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("claim jobs of %s: %w", run, err)
		}
		out[i].Key = k
		if done, err := finished(k); err != nil {
			return nil, fmt.Errorf("claim job %s: %w", k, err)
		} else if done {
			out[i].State = Finished
			continue
		}
		res, err := take.ExecContext(lctx, string(run), k, string(holder), expires, now.UnixMilli())
		if err != nil {
			return nil, fmt.Errorf("claim job %s: %w", k, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, fmt.Errorf("claim job %s: %w", k, err)
		} else if n == 1 {
			out[i].State = Claimed
			continue
		}
		var h string
		var ms int64
		if err := other.QueryRowContext(lctx, string(run), k).Scan(&h, &ms); err != nil {
			return nil, fmt.Errorf("claim job %s: %w", k, err)
		}
		out[i].State, out[i].Holder, out[i].Expires = Held, Holder(h), time.UnixMilli(ms)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("claim jobs of %s: %w", run, err)
	}
	return out, nil
}

// RenewClaims extends every lease holder has on jobs of run to ttl from now. A live
// process calls it well within ttl, so that only a dead one's jobs are taken over.
func (s *Store) RenewClaims(ctx context.Context, run RunID, holder Holder, ttl time.Duration) error {
	_, err := s.db.ExecContext(ctx, `UPDATE claims SET expires_at = ? WHERE run_id = ? AND holder = ?`,
		time.Now().Add(ttl).UnixMilli(), string(run), string(holder))
	if err != nil {
		return fmt.Errorf("renew claims on %s: %w", run, err)
	}
	return nil
}

// ReleaseClaims gives up holder's claims on the jobs keys of run (all of them when keys
// is nil): their results are written, or the holder is stopping.
func (s *Store) ReleaseClaims(ctx context.Context, run RunID, holder Holder, keys []string) error {
	if keys == nil {
		if _, err := s.db.ExecContext(ctx, `DELETE FROM claims WHERE run_id = ? AND holder = ?`, string(run), string(holder)); err != nil {
			return fmt.Errorf("release claims on %s: %w", run, err)
		}
		return nil
	}
	if len(keys) == 0 {
		return nil
	}
	args := make([]any, 0, 2+len(keys))
	args = append(args, string(run), string(holder))
	for _, k := range keys {
		args = append(args, k)
	}
	// At most 500 keys a statement, well under SQLite's limit on bound variables.
	for len(args) > 2 {
		n := min(len(args)-2, 500)
		q := `DELETE FROM claims WHERE run_id = ? AND holder = ? AND job_key IN (?` + strings.Repeat(", ?", n-1) + `)`
		if _, err := s.db.ExecContext(ctx, q, args[:2+n]...); err != nil {
			return fmt.Errorf("release claims on %s: %w", run, err)
		}
		args = append(args[:2], args[2+n:]...)
	}
	return nil
}

// claimSet is Claim on PostgreSQL: the same decisions taken a statement per step for all
// keys at once (a network round trip costs what a whole SQLite claim does).
func (s *Store) claimSet(ctx context.Context, run RunID, holder Holder, keys []string, since time.Time, ttl time.Duration) ([]Claim, error) {
	wrap := func(err error) ([]Claim, error) { return nil, fmt.Errorf("claim jobs of %s: %w", run, err) }
	var err error
	for try := 1; try <= 5; try++ {
		var out []Claim
		if out, err = s.claimSetOnce(ctx, run, holder, keys, since, ttl); err == nil {
			return s.reclaimVanished(ctx, run, holder, out, since, ttl)
		}
		if !retryable(err) {
			break
		}
	}
	return wrap(err)
}

func (s *Store) claimSetOnce(ctx context.Context, run RunID, holder Holder, keys []string, since time.Time, ttl time.Duration) ([]Claim, error) {
	uniq := slices.Clone(keys)
	slices.Sort(uniq) // one locking order for every holder
	uniq = slices.Compact(uniq)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	state := make(map[string]Claim, len(uniq))
	// finishedAmong marks Finished the keys with an answer, or a result written since.
	finishedAmong := func(ks []string) ([]string, error) {
		rows, err := tx.QueryContext(ctx, `SELECT job_key, error, updated_at FROM results WHERE run_id = ? AND job_key = ANY(?)`, string(run), ks)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var done []string
		for rows.Next() {
			var k, errText, updated string
			if err := rows.Scan(&k, &errText, &updated); err != nil {
				return nil, err
			}
			at, perr := time.Parse(time.RFC3339Nano, updated)
			if errText == "" || (perr == nil && !at.Before(since)) {
				state[k] = Claim{Key: k, State: Finished}
				done = append(done, k)
			}
		}
		return done, rows.Err()
	}
	if _, err := finishedAmong(uniq); err != nil {
		return nil, err
	}
	var open []string
	for _, k := range uniq {
		if _, ok := state[k]; !ok {
			open = append(open, k)
		}
	}
	if len(open) > 0 {
		now := time.Now()
		rows, err := tx.QueryContext(ctx, `INSERT INTO claims(run_id, job_key, holder, expires_at) SELECT ?, k, ?, ? FROM unnest(CAST(? AS TEXT[])) AS k
			ON CONFLICT(run_id, job_key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
			WHERE claims.holder = excluded.holder OR claims.expires_at <= ? RETURNING job_key`,
			string(run), string(holder), now.Add(ttl).UnixMilli(), open, now.UnixMilli())
		if err != nil {
			return nil, err
		}
		var taken []string
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				rows.Close()
				return nil, err
			}
			state[k] = Claim{Key: k, State: Claimed}
			taken = append(taken, k)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if len(taken) > 0 {
			// Transactions do not serialise here as on SQLite: a holder that wrote a
			// result and released its claim after the first look is visible now that
			// the claim was ours to take. Look again, so no job is asked twice.
			done, err := finishedAmong(taken)
			if err != nil {
				return nil, err
			}
			if len(done) > 0 {
				if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE run_id = ? AND holder = ? AND job_key = ANY(?)`, string(run), string(holder), done); err != nil {
					return nil, err
				}
			}
		}
		var held []string
		for _, k := range open {
			if _, ok := state[k]; !ok {
				held = append(held, k)
			}
		}
		if len(held) > 0 {
			rows, err := tx.QueryContext(ctx, `SELECT job_key, holder, expires_at FROM claims WHERE run_id = ? AND job_key = ANY(?)`, string(run), held)
			if err != nil {
				return nil, err
			}
			for rows.Next() {
				var k, h string
				var ms int64
				if err := rows.Scan(&k, &h, &ms); err != nil {
					rows.Close()
					return nil, err
				}
				state[k] = Claim{Key: k, State: Held, Holder: Holder(h), Expires: time.UnixMilli(ms)}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	out := make([]Claim, len(keys))
	for i, k := range keys {
		c, ok := state[k]
		if !ok {
			// Released between the take and the look: reclaimVanished asks again.
			c = Claim{Key: k, State: Held}
		}
		out[i] = c
	}
	return out, nil
}

// reclaimVanished claims once more the jobs whose holder let go between claimSetOnce's
// take and its look (Held by no one), so that a caller never hears of a holder that is
// not there; a job that vanishes again stays Held and is claimed on the caller's retry.
func (s *Store) reclaimVanished(ctx context.Context, run RunID, holder Holder, out []Claim, since time.Time, ttl time.Duration) ([]Claim, error) {
	var again []string
	for _, c := range out {
		if c.State == Held && c.Holder == "" {
			again = append(again, c.Key)
		}
	}
	if len(again) == 0 {
		return out, nil
	}
	more, err := s.claimSetOnce(ctx, run, holder, again, since, ttl)
	if err != nil {
		return nil, fmt.Errorf("claim jobs of %s: %w", run, err)
	}
	by := make(map[string]Claim, len(more))
	for _, c := range more {
		by[c.Key] = c
	}
	for i, c := range out {
		if n, ok := by[c.Key]; ok {
			out[i] = n
		}
	}
	return out, nil
}
