package store

// The Keeper game's records (migration 008): players, their rounds and every attempt.
// The store does not read the scenario fields or the rulings; the game (web/keeper.go)
// and the human corpus (seduce/human.go) do.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// KeeperPlayer is a player of the Keeper game, known by the hash of their token.
type KeeperPlayer struct {
	ID        string
	TokenHash string
	Pseudonym string
	// Share: the player agreed that their statements may be exported for research.
	Share   bool
	Created time.Time
	Updated time.Time
}

// KeeperRound is a series of scenarios one player plays against one Keeper model.
type KeeperRound struct {
	ID       string
	PlayerID string
	Model    string
	// Samples are the ids of the scenarios' samples, in the order they are played.
	Samples []string
	Created time.Time
}

// KeeperAttempt is one statement a player wrote against the Keeper, with the ruling.
type KeeperAttempt struct {
	ID       string
	PlayerID string
	RoundID  string
	// Position is the attempt's place in its round, from 0.
	Position int
	// Author is the player's pseudonym when they wrote it.
	Author string
	// The scenario as the player saw it.
	SampleID, ScenarioID, Setting, Category, Skill, GoldSkill, Context string
	Statement, Style                                                   string
	// Model is the Keeper; Run and JobKey find its stored request and reply.
	Model  string
	Run    RunID
	JobKey string
	Reply  string
	// Ruling is the parsed decision (pass, roll, refused, unparsed); NamedSkill and
	// Reason what the reply said besides.
	Ruling, NamedSkill, Reason string
	Created                    time.Time
}

// keeperTime is fixed-width, so the attempts sort by time as text on both engines.
const keeperTime = "2006-01-02T15:04:05.000000000Z07:00"

func stamp(t time.Time) string {
	if t.IsZero() {
		t = time.Now()
	}
	return t.UTC().Format(keeperTime)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// AddKeeperPlayer keeps a new player; a player id or token hash already stored is ErrExists.
func (s *Store) AddKeeperPlayer(ctx context.Context, p KeeperPlayer) error {
	if p.ID == "" || p.TokenHash == "" {
		return errors.New("store: a keeper player needs an id and a token hash")
	}
	at := stamp(p.Created)
	res, err := s.db.ExecContext(ctx, `INSERT INTO keeper_players(player_id, token_hash, pseudonym, share, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, p.ID, p.TokenHash, p.Pseudonym, b2i(p.Share), at, at)
	if err != nil {
		return fmt.Errorf("store keeper player: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("keeper player %s: %w", p.ID, ErrExists)
	}
	return nil
}

// KeeperPlayerByToken returns the player whose token hashes to hash, or ErrNotFound.
func (s *Store) KeeperPlayerByToken(ctx context.Context, hash string) (*KeeperPlayer, error) {
	var p KeeperPlayer
	var share int
	var created, updated string
	err := s.db.QueryRowContext(ctx, `SELECT player_id, token_hash, pseudonym, share, created_at, updated_at
		FROM keeper_players WHERE token_hash = ?`, hash).Scan(&p.ID, &p.TokenHash, &p.Pseudonym, &share, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("keeper player: %w", ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read keeper player: %w", err)
	}
	p.Share = share != 0
	p.Created, _ = time.Parse(time.RFC3339Nano, created)
	p.Updated, _ = time.Parse(time.RFC3339Nano, updated)
	return &p, nil
}

// UpdateKeeperPlayer sets a player's pseudonym and consent; ErrNotFound when there is
// no such player.
func (s *Store) UpdateKeeperPlayer(ctx context.Context, id, pseudonym string, share bool) error {
	res, err := s.db.ExecContext(ctx, `UPDATE keeper_players SET pseudonym = ?, share = ?, updated_at = ? WHERE player_id = ?`,
		pseudonym, b2i(share), stamp(time.Time{}), id)
	if err != nil {
		return fmt.Errorf("update keeper player %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("keeper player %s: %w", id, ErrNotFound)
	}
	return nil
}

// AddKeeperRound keeps a new round.
func (s *Store) AddKeeperRound(ctx context.Context, r KeeperRound) error {
	samples, err := json.Marshal(r.Samples)
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO keeper_rounds(round_id, player_id, model, samples, created_at) VALUES (?, ?, ?, ?, ?)`,
		r.ID, r.PlayerID, r.Model, string(samples), stamp(r.Created)); err != nil {
		return fmt.Errorf("store keeper round %s: %w", r.ID, err)
	}
	return nil
}

// KeeperRound returns round id, or ErrNotFound.
func (s *Store) KeeperRound(ctx context.Context, id string) (*KeeperRound, error) {
	var r KeeperRound
	var samples, created string
	err := s.db.QueryRowContext(ctx, `SELECT round_id, player_id, model, samples, created_at FROM keeper_rounds WHERE round_id = ?`, id).
		Scan(&r.ID, &r.PlayerID, &r.Model, &samples, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("keeper round %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read keeper round %s: %w", id, err)
	}
	if err := json.Unmarshal([]byte(samples), &r.Samples); err != nil {
		return nil, fmt.Errorf("read keeper round %s: samples: %w", id, err)
	}
	r.Created, _ = time.Parse(time.RFC3339Nano, created)
	return &r, nil
}

// AddKeeperAttempt keeps an attempt. A round's place already taken (two answers to one
// scenario) is ErrExists, and the first is kept.
func (s *Store) AddKeeperAttempt(ctx context.Context, a KeeperAttempt) error {
	res, err := s.db.ExecContext(ctx, `INSERT INTO keeper_attempts(attempt_id, player_id, round_id, position, author, sample_id,
		scenario_id, setting, category, skill, gold_skill, context, statement, style, model, run_id, job_key, reply, ruling,
		named_skill, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		a.ID, a.PlayerID, a.RoundID, a.Position, a.Author, a.SampleID, a.ScenarioID, a.Setting, a.Category, a.Skill, a.GoldSkill,
		a.Context, a.Statement, a.Style, a.Model, string(a.Run), a.JobKey, a.Reply, a.Ruling, a.NamedSkill, a.Reason, stamp(a.Created))
	if err != nil {
		return fmt.Errorf("store keeper attempt: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("keeper attempt %d of round %s: %w", a.Position+1, a.RoundID, ErrExists)
	}
	return nil
}

// KeeperFilter selects attempts: by round, by player, or only those whose player shares
// them now (the export's rule). Empty fields select all.
type KeeperFilter struct {
	RoundID, PlayerID string
	SharedOnly        bool
}

// KeeperAttempts returns the attempts f selects, oldest first. With SharedOnly, Author is
// the player's pseudonym as it stands now, the name they last chose to be known by.
func (s *Store) KeeperAttempts(ctx context.Context, f KeeperFilter) ([]*KeeperAttempt, error) {
	q := `SELECT a.attempt_id, a.player_id, a.round_id, a.position, a.author, p.pseudonym, a.sample_id, a.scenario_id, a.setting,
		a.category, a.skill, a.gold_skill, a.context, a.statement, a.style, a.model, a.run_id, a.job_key, a.reply, a.ruling,
		a.named_skill, a.reason, a.created_at
		FROM keeper_attempts a JOIN keeper_players p ON p.player_id = a.player_id WHERE 1 = 1`
	var args []any
	if f.RoundID != "" {
		q += ` AND a.round_id = ?`
		args = append(args, f.RoundID)
	}
	if f.PlayerID != "" {
		q += ` AND a.player_id = ?`
		args = append(args, f.PlayerID)
	}
	if f.SharedOnly {
		q += ` AND p.share = 1`
	}
	q += ` ORDER BY a.created_at, a.attempt_id`
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read keeper attempts: %w", err)
	}
	defer rows.Close()
	var out []*KeeperAttempt
	for rows.Next() {
		var a KeeperAttempt
		var run, created, current string
		if err := rows.Scan(&a.ID, &a.PlayerID, &a.RoundID, &a.Position, &a.Author, &current, &a.SampleID, &a.ScenarioID,
			&a.Setting, &a.Category, &a.Skill, &a.GoldSkill, &a.Context, &a.Statement, &a.Style, &a.Model, &run, &a.JobKey,
			&a.Reply, &a.Ruling, &a.NamedSkill, &a.Reason, &created); err != nil {
			return nil, fmt.Errorf("read keeper attempts: %w", err)
		}
		if f.SharedOnly {
			a.Author = current
		}
		a.Run = RunID(run)
		a.Created, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, &a)
	}
	return out, rows.Err()
}

// KeeperTally is how many attempts against one Keeper model in one style got through
// (ruling pass) out of how many were ruled.
type KeeperTally struct {
	Model, Style     string
	Attempts, Passed int
}

// KeeperBoard counts every attempt by Keeper model and style, in model then style order.
func (s *Store) KeeperBoard(ctx context.Context) ([]KeeperTally, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT model, style, count(*), sum(CASE WHEN ruling = 'pass' THEN 1 ELSE 0 END)
		FROM keeper_attempts GROUP BY model, style ORDER BY model, style`)
	if err != nil {
		return nil, fmt.Errorf("read keeper board: %w", err)
	}
	defer rows.Close()
	var out []KeeperTally
	for rows.Next() {
		var t KeeperTally
		if err := rows.Scan(&t.Model, &t.Style, &t.Attempts, &t.Passed); err != nil {
			return nil, fmt.Errorf("read keeper board: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
