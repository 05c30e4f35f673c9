package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// CaseOrigin says where a stored court case came from.
type CaseOrigin string

// The origins of stored court cases.
const (
	// CaseGenerated: a model wrote it from a prior.
	CaseGenerated CaseOrigin = "generated"
	// CaseSaved: a person saved it (from a file or a generation they kept).
	CaseSaved CaseOrigin = "saved"
)

// CourtCase is a case record kept in the store, with where it came from.
type CourtCase struct {
	ID     string
	Origin CaseOrigin
	// Prior and Model are what a generated case was made from and by.
	Prior, Model string
	// Record is the case record as spec court.md section 1, exactly as validated.
	Record  json.RawMessage
	Created time.Time
}

// PutCourtCase keeps c, replacing a stored case with the same id.
func (s *Store) PutCourtCase(ctx context.Context, c CourtCase) error {
	if c.ID == "" || len(c.Record) == 0 {
		return errors.New("store: a court case needs an id and a record")
	}
	created := c.Created
	if created.IsZero() {
		created = time.Now()
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO court_cases(case_id, origin, prior, model, record, created_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(case_id) DO UPDATE SET origin = excluded.origin, prior = excluded.prior, model = excluded.model,
		record = excluded.record, created_at = excluded.created_at`,
		c.ID, string(c.Origin), c.Prior, c.Model, string(c.Record), created.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("store court case %s: %w", c.ID, err)
	}
	return nil
}

// CourtCase returns the stored case id, or ErrNotFound.
func (s *Store) CourtCase(ctx context.Context, id string) (*CourtCase, error) {
	cs, err := s.courtCases(ctx, `WHERE case_id = ?`, id)
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("court case %s: %w", id, ErrNotFound)
	}
	return cs[0], nil
}

// CourtCases returns every stored case, newest first.
func (s *Store) CourtCases(ctx context.Context) ([]*CourtCase, error) {
	return s.courtCases(ctx, `ORDER BY created_at DESC, case_id`)
}

// DeleteCourtCase removes a stored case; a case not stored is ErrNotFound.
func (s *Store) DeleteCourtCase(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM court_cases WHERE case_id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete court case %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("court case %s: %w", id, ErrNotFound)
	}
	return nil
}

func (s *Store) courtCases(ctx context.Context, tail string, args ...any) ([]*CourtCase, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT case_id, origin, prior, model, record, created_at FROM court_cases `+tail, args...)
	if err != nil {
		return nil, fmt.Errorf("read court cases: %w", err)
	}
	defer rows.Close()
	var out []*CourtCase
	for rows.Next() {
		var c CourtCase
		var origin, record, created string
		if err := rows.Scan(&c.ID, &origin, &c.Prior, &c.Model, &record, &created); err != nil {
			return nil, fmt.Errorf("read court cases: %w", err)
		}
		c.Origin, c.Record = CaseOrigin(origin), json.RawMessage(record)
		c.Created, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, &c)
	}
	return out, rows.Err()
}

// CourtGame is one game of the courtroom, as its list and its page need it. State is
// the game layer's own JSON, from which it rebuilds the game; the store does not read it.
type CourtGame struct {
	ID      string
	CaseID  string
	Title   string
	Run     RunID
	Phase   string
	Outcome string
	Turns   int
	State   json.RawMessage
	Created time.Time
	Updated time.Time
}

// PutCourtGame keeps g, replacing the stored game with its id; Created is kept from the
// first time, Updated set to now.
func (s *Store) PutCourtGame(ctx context.Context, g *CourtGame) error {
	_, err := s.SaveCourtGame(ctx, g, time.Time{})
	return err
}

// The statements of SaveCourtGame: a game kept whatever is stored, and one kept only
// over the save the caller knows.
const (
	putCourtGameSQL = `INSERT INTO court_games(game_id, case_id, title, run_id, phase, outcome, turns, state, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(game_id) DO UPDATE SET case_id = excluded.case_id, title = excluded.title, run_id = excluded.run_id,
		phase = excluded.phase, outcome = excluded.outcome, turns = excluded.turns, state = excluded.state, updated_at = excluded.updated_at`
	swapCourtGameSQL = `UPDATE court_games SET case_id = ?, title = ?, run_id = ?, phase = ?, outcome = ?, turns = ?, state = ?, updated_at = ?
		WHERE game_id = ? AND updated_at = ?`
)

// SaveCourtGame keeps g in place of the stored game with its id, but only while the
// stored game is still the one saved at since (the Updated the caller read or last
// saved): a compare-and-swap, so that of two processes playing one game (a server and
// a terminal) only the one that knows the latest save writes the next. A game saved
// by another meanwhile, or gone, is ErrConflict and stays as it is. A zero since keeps
// g whatever is stored (and makes the game when there is none). It returns g's Updated,
// which the caller passes as since next time.
func (s *Store) SaveCourtGame(ctx context.Context, g *CourtGame, since time.Time) (time.Time, error) {
	if g.ID == "" || len(g.State) == 0 {
		return time.Time{}, errors.New("store: a court game needs an id and a state")
	}
	at := time.Now().UTC()
	if since.IsZero() {
		t := savedAt(at)
		if _, err := s.db.ExecContext(ctx, putCourtGameSQL, g.ID, g.CaseID, g.Title, string(g.Run), g.Phase, g.Outcome, g.Turns, string(g.State), t, t); err != nil {
			return time.Time{}, fmt.Errorf("store court game %s: %w", g.ID, err)
		}
		return at, nil
	}
	if !at.After(since) {
		// Every save has a stamp of its own: a clock that has not moved on since the
		// last one must not make the next compare equal to it.
		at = since.Add(time.Nanosecond)
	}
	res, err := s.db.ExecContext(ctx, swapCourtGameSQL, g.CaseID, g.Title, string(g.Run), g.Phase, g.Outcome, g.Turns, string(g.State), savedAt(at),
		g.ID, savedAt(since))
	if err != nil {
		return time.Time{}, fmt.Errorf("store court game %s: %w", g.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return time.Time{}, fmt.Errorf("store court game %s: another player's move was saved first (the game moved on since %s): %w",
			g.ID, savedAt(since), ErrConflict)
	}
	return at, nil
}

// savedAt is how the store writes a time: RFC 3339 in UTC, to the nanosecond, as now().
func savedAt(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// CourtGameSaved is when the stored game id was last saved and how many turns it had
// then (a cheap read for a process that follows a game another moves), or ErrNotFound.
func (s *Store) CourtGameSaved(ctx context.Context, id string) (updated time.Time, turns int, err error) {
	var at string
	err = s.db.QueryRowContext(ctx, `SELECT updated_at, turns FROM court_games WHERE game_id = ?`, id).Scan(&at, &turns)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, 0, fmt.Errorf("court game %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return time.Time{}, 0, fmt.Errorf("read court game %s: %w", id, err)
	}
	updated, _ = time.Parse(time.RFC3339Nano, at)
	return updated, turns, nil
}

// CourtGame returns the stored game id, or ErrNotFound.
func (s *Store) CourtGame(ctx context.Context, id string) (*CourtGame, error) {
	gs, err := s.courtGames(ctx, `WHERE game_id = ?`, id)
	if err != nil {
		return nil, err
	}
	if len(gs) == 0 {
		return nil, fmt.Errorf("court game %s: %w", id, ErrNotFound)
	}
	return gs[0], nil
}

// CourtGames returns every stored game, the latest played first.
func (s *Store) CourtGames(ctx context.Context) ([]*CourtGame, error) {
	return s.courtGames(ctx, `ORDER BY updated_at DESC, game_id`)
}

func (s *Store) courtGames(ctx context.Context, tail string, args ...any) ([]*CourtGame, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT game_id, case_id, title, run_id, phase, outcome, turns, state, created_at, updated_at
		FROM court_games `+tail, args...)
	if err != nil {
		return nil, fmt.Errorf("read court games: %w", err)
	}
	defer rows.Close()
	var out []*CourtGame
	for rows.Next() {
		var g CourtGame
		var run, state, created, updated string
		if err := rows.Scan(&g.ID, &g.CaseID, &g.Title, &run, &g.Phase, &g.Outcome, &g.Turns, &state, &created, &updated); err != nil {
			return nil, fmt.Errorf("read court games: %w", err)
		}
		g.Run, g.State = RunID(run), json.RawMessage(state)
		g.Created, _ = time.Parse(time.RFC3339Nano, created)
		g.Updated, _ = time.Parse(time.RFC3339Nano, updated)
		out = append(out, &g)
	}
	return out, rows.Err()
}

// The accesses a game token gives.
const (
	// GamePlay reads a game and moves in it.
	GamePlay = "play"
	// GameWatch reads a game only.
	GameWatch = "watch"
	// GameInvite reads a two-player game and moves in it for the other counsel than
	// its creator's (the invitation).
	GameInvite = "invite"
)

// PutCourtGameToken keeps the hash of a token that gives access to game id.
func (s *Store) PutCourtGameToken(ctx context.Context, id, tokenHash, access string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO court_game_tokens(token_hash, game_id, access, created_at) VALUES (?, ?, ?, ?)`,
		tokenHash, id, access, now())
	if err != nil {
		return fmt.Errorf("store a token of court game %s: %w", id, err)
	}
	return nil
}

// CourtGameAccess returns what the token with this hash may do in game id, or ErrNotFound.
func (s *Store) CourtGameAccess(ctx context.Context, id, tokenHash string) (string, error) {
	var access string
	err := s.db.QueryRowContext(ctx, `SELECT access FROM court_game_tokens WHERE token_hash = ? AND game_id = ?`, tokenHash, id).Scan(&access)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("court game token: %w", ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("court game token: %w", err)
	}
	return access, nil
}

// CourtGamesOf returns the stored games that one of the token hashes opens, the latest
// played first.
func (s *Store) CourtGamesOf(ctx context.Context, tokenHashes []string) ([]*CourtGame, error) {
	if len(tokenHashes) == 0 {
		return nil, nil
	}
	args := make([]any, len(tokenHashes))
	for i, h := range tokenHashes {
		args[i] = h
	}
	return s.courtGames(ctx, `WHERE game_id IN (SELECT game_id FROM court_game_tokens WHERE token_hash IN (?`+
		strings.Repeat(",?", len(tokenHashes)-1)+`)) ORDER BY updated_at DESC, game_id`, args...)
}

// CourtCaseIDs returns the ids of the stored cases, newest first, limit of them from
// offset, and how many there are in all.
func (s *Store) CourtCaseIDs(ctx context.Context, offset, limit int) (ids []string, total int, err error) {
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM court_cases`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count court cases: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT case_id FROM court_cases ORDER BY created_at DESC, case_id LIMIT ? OFFSET ?`, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("read court cases: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, 0, fmt.Errorf("read court cases: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, total, rows.Err()
}

// AddCourtCase keeps c when no case has its id; ErrExists when one has.
func (s *Store) AddCourtCase(ctx context.Context, c CourtCase) error {
	if c.ID == "" || len(c.Record) == 0 {
		return errors.New("store: a court case needs an id and a record")
	}
	created := c.Created
	if created.IsZero() {
		created = time.Now()
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO court_cases(case_id, origin, prior, model, record, created_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(case_id) DO NOTHING`,
		c.ID, string(c.Origin), c.Prior, c.Model, string(c.Record), created.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("store court case %s: %w", c.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("court case %s: %w", c.ID, ErrExists)
	}
	return nil
}

// ModelUsage is the usage a model's answered provider calls recorded, over every run.
type ModelUsage struct {
	Model                     llm.ModelName
	InputTokens, OutputTokens int64
}

// UsageByModel adds up the tokens of every reply a provider gave (cache and local
// answers aside), per model, over the whole store: what the store's owner paid for.
func (s *Store) UsageByModel(ctx context.Context) ([]ModelUsage, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT model, CAST(coalesce(sum(input_tokens), 0) AS BIGINT), CAST(coalesce(sum(output_tokens), 0) AS BIGINT)
		FROM results WHERE source = ? AND error = '' GROUP BY model ORDER BY model`, string(SourceProvider))
	if err != nil {
		return nil, fmt.Errorf("add up usage: %w", err)
	}
	defer rows.Close()
	var out []ModelUsage
	for rows.Next() {
		var u ModelUsage
		var m string
		if err := rows.Scan(&m, &u.InputTokens, &u.OutputTokens); err != nil {
			return nil, fmt.Errorf("add up usage: %w", err)
		}
		u.Model = llm.ModelName(m)
		out = append(out, u)
	}
	return out, rows.Err()
}

// Result returns the stored result of one job of a run, answered or failed, or
// ErrNotFound. Raw provider bodies are left out.
func (s *Store) Result(ctx context.Context, id RunID, key string) (*Result, error) {
	var out *Result
	err := s.results(ctx, id, false, `AND job_key = ?`, []any{key}, func(r *Result) error {
		out = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		return nil, fmt.Errorf("result %s of %s: %w", key, id, ErrNotFound)
	}
	return out, nil
}

// AnsweredAmong returns which of keys have a reply in run: a few point lookups, for
// callers that ask one job at a time of a run with many.
func (s *Store) AnsweredAmong(ctx context.Context, id RunID, keys []string) (map[string]bool, error) {
	out := map[string]bool{}
	for len(keys) > 0 {
		n := min(len(keys), 500)
		args := []any{string(id)}
		for _, k := range keys[:n] {
			args = append(args, k)
		}
		q := `SELECT job_key FROM results WHERE run_id = ? AND error = '' AND job_key IN (?` + strings.Repeat(",?", n-1) + `)`
		if err := s.keys(ctx, q, args, out); err != nil {
			return nil, fmt.Errorf("read results of %s: %w", id, err)
		}
		keys = keys[n:]
	}
	return out, nil
}

func (s *Store) keys(ctx context.Context, q string, args []any, out map[string]bool) error {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return err
		}
		out[k] = true
	}
	return rows.Err()
}

// RequestCourtHold records that the person playing side called "Hold it!" in game id
// from a process whose court is not speaking (they follow the game another process
// moves); a hold already recorded for them stays one, called again now.
func (s *Store) RequestCourtHold(ctx context.Context, id, side string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO court_holds(game_id, side, requested_at) VALUES (?, ?, ?)
		ON CONFLICT(game_id, side) DO UPDATE SET requested_at = excluded.requested_at`, id, side, now())
	if err != nil {
		return fmt.Errorf("record a hold in court game %s: %w", id, err)
	}
	return nil
}

// TakeCourtHold removes the hold recorded for side in game id and reports whether there
// was one: of two processes taking it at once, one alone is told so.
func (s *Store) TakeCourtHold(ctx context.Context, id, side string) (bool, error) {
	rows, err := s.db.QueryContext(ctx, `DELETE FROM court_holds WHERE game_id = ? AND side = ? RETURNING side`, id, side)
	if err != nil {
		return false, fmt.Errorf("take a hold in court game %s: %w", id, err)
	}
	defer rows.Close()
	taken := rows.Next()
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("take a hold in court game %s: %w", id, err)
	}
	return taken, nil
}
