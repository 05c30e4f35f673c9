// Package store keeps arbiter's results in an embedded SQLite database (modernc.org/sqlite,
// pure Go): runs with their configuration and hashes, every request's outcome — raw reply,
// parsed outcome, tokens, latency, attempts, final error — and a response cache shared by
// all runs. A run can be audited and re-scored from the store without calling a provider.
//
// Writes of results are committed one group at a time as they arrive, in WAL mode, so a
// killed process loses at most what had not yet been handed to the store.
package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"modernc.org/sqlite" // also registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql migrations/postgres/*.sql
var migrations embed.FS

// RunID identifies a run.
type RunID string

// Kind says what a run does: "seduce", "check-judge", …; each package that begins runs
// names its own.
type Kind string

// Status is how a run stands.
type Status string

// The statuses of a run: queued while its jobs wait for workers (--enqueue), running
// while a command works on it, then how it ended.
const (
	StatusQueued      Status = "queued"
	StatusRunning     Status = "running"
	StatusDone        Status = "done"
	StatusIncomplete  Status = "incomplete"
	StatusFailed      Status = "failed"
	StatusInterrupted Status = "interrupted"
)

// Source says where a recorded reply came from.
type Source string

// The sources of a reply.
const (
	SourceProvider Source = "provider" // asked of the model in this run
	SourceCache    Source = "cache"    // another run's identical request
	SourceBuiltin  Source = "builtin"  // an in-process model (a baseline)
)

// ErrNoRuns means a store holds no run of the kind asked for; ErrNotFound means no run
// matches the id asked for. Callers say what to do about them.
var (
	ErrNoRuns   = errors.New("no runs")
	ErrNotFound = errors.New("not in the store")
	// ErrExists: a record with that id is stored already, and is kept.
	ErrExists = errors.New("already in the store")
	// ErrConflict: the record was written by another (another process playing the
	// same game) since the caller read it; the caller's write is not kept.
	ErrConflict = errors.New("written by another since it was read")
)

// Store is an open results database. It is safe for concurrent use.
type Store struct {
	db    db
	path  string
	pg    bool
	pool  *pgxpool.Pool
	cache stmts
	// dsn opens the file again, for the checkpointer; empty for ":memory:".
	dsn  string
	ckpt checkpoints
}

// Open opens (creating if needed) the database at path and brings its schema up to date.
// A postgres:// or postgresql:// URL opens a shared PostgreSQL store instead (its
// database must exist; the schema is created in it). Otherwise path is a file name, never a URI: "study#1.db" and "x.db?mode=ro" are files of those
// names. A SQLite file of another program is refused unchanged (ErrNotStore). ":memory:"
// gives a private in-memory store for tests.
func Open(ctx context.Context, path string) (*Store, error) { return openPath(ctx, path, false) }

// OpenExisting is Open for commands that only read what runs wrote: a path with no file
// is refused (ErrNoStore) instead of becoming a new, empty store.
func OpenExisting(ctx context.Context, path string) (*Store, error) { return openPath(ctx, path, true) }

func openPath(ctx context.Context, path string, mustExist bool) (*Store, error) {
	if IsPostgres(path) {
		return openPostgres(ctx, path, mustExist)
	}
	const tries = 40
	for try := 1; ; try++ {
		s, err := openOnce(ctx, path, mustExist)
		if err == nil || !isBusy(err) || try == tries {
			return s, err
		}
		// Another process is creating the same fresh store: switching it to WAL takes a
		// lock that SQLite's busy timeout does not wait for, so wait here.
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// isBusy reports SQLITE_BUSY (or one of its extended codes).
func isBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

// connParams are the per-connection settings of every store connection. SQLite's own
// page cache is kept at 512 KiB (its default is 2 MiB): a run appends results and looks
// up single keys, the operating system caches the file anyway, and the smaller cache
// takes 2-3 MB off the peak memory of a 5,376-request run with no measurable cost to
// the store path or to reading a 53,760-result run back for a report.
const connParams = "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_txlock=immediate&_pragma=cache_size(-512)"

// walParams are the settings of a store file's connection: a write-ahead log, written at
// each commit and synced only when it is copied back into the database (a checkpoint), so
// a killed process loses nothing it committed. SQLite checkpoints by default, in the
// committing connection, once the log holds 1,000 pages; a run commits a result or two at
// a time, and every checkpoint (copying and syncing the file) held up the commits behind
// it and the workers waiting on them. A store that writes results checkpoints from a
// connection of its own instead (checkpoints.go); the committing connection checkpoints
// only if the log reaches 8,192 pages (32 MiB) all the same. After a checkpoint the log
// file is cut back to 16 MiB.
const walParams = "&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=wal_autocheckpoint(8192)&_pragma=journal_size_limit(16777216)"

func openOnce(ctx context.Context, path string, mustExist bool) (*Store, error) {
	dsn := "file::memory:?" + connParams
	if path != ":memory:" {
		uri, err := fileURI(path)
		if err != nil {
			return nil, fmt.Errorf("open store %s: %w", path, err)
		}
		// Look before any write: the WAL switch below already changes a file.
		if err := inspect(ctx, path, uri, mustExist); err != nil {
			return nil, fmt.Errorf("open store %s: %w", path, err)
		}
		dsn = uri + "?" + connParams + walParams
		if mustExist {
			dsn += "&mode=rw" // never create it, even if it vanished since inspect
		}
	}
	sdb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	// One connection: SQLite serialises writers anyway, and ":memory:" is per connection.
	sdb.SetMaxOpenConns(1)
	s := &Store{db: db{DB: sdb}, path: path}
	if path != ":memory:" {
		s.dsn = dsn
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error {
	s.ckpt.stop()
	s.cache.mu.Lock()
	for _, st := range s.cache.m {
		st.Close()
	}
	s.cache.m = nil
	s.cache.mu.Unlock()
	err := s.db.Close()
	if s.pool != nil {
		s.pool.Close()
	}
	return err
}

// Path is where the store lives: the file, or the PostgreSQL URL without its password.
func (s *Store) Path() string { return s.path }

func (s *Store) migrate(ctx context.Context) error {
	if err := s.mark(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	dir := "migrations"
	if s.pg {
		dir = "migrations/postgres"
	}
	names, err := fs.Glob(migrations, dir+"/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, file := range names {
		body, err := migrations.ReadFile(file)
		if err != nil {
			return err
		}
		// Both engines record a migration under the same name.
		name := "migrations/" + path.Base(file)
		// Check inside the transaction, which holds the write lock (SQLite's immediate
		// transaction, PostgreSQL's advisory lock): another process opening the same
		// fresh store may have applied it since we looked.
		tx, err := s.lockedTx(ctx)
		if err != nil {
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE name = ?`, name).Scan(&n); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		if n > 0 {
			tx.Rollback()
			continue
		}
		if _, err := tx.Tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(name, applied_at) VALUES (?, ?)`, name, now()); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrate %s: %w", name, err)
		}
	}
	return nil
}

// lockedTx begins a transaction that holds the store's schema lock until it ends: on
// SQLite every transaction is immediate (write-locked); on PostgreSQL it takes the
// store's advisory transaction lock.
func (s *Store) lockedTx(ctx context.Context) (*tx, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	if s.pg {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, int64(pgLockKey)); err != nil {
			tx.Rollback()
			return nil, err
		}
	}
	return tx, nil
}

// mark creates the migration table and sets the application id in one transaction, so
// another process that looks at the file in between (inspect) sees either an empty file
// or a marked store, never a bare migration table. PostgreSQL has no application id.
func (s *Store) mark(ctx context.Context) error {
	tx, err := s.lockedTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return err
	}
	if !s.pg {
		var id int64
		if err := tx.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&id); err != nil {
			return err
		}
		if id != appID {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, appID)); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// Run describes one run: what was asked, of what, with which prompt.
type Run struct {
	ID          RunID
	Kind        Kind
	Config      json.RawMessage
	ConfigHash  string
	DatasetHash string
	PromptHash  string
	PromptText  string
	Version     string
	// Models are the specs of the run's models (a JSON array of llm.Spec) and Reader how
	// its replies are read (the run kind's reader settings); empty for older runs.
	Models    json.RawMessage
	Reader    json.RawMessage
	StartedAt time.Time
	EndedAt   time.Time
	Status    Status
}

// Hash is the hex sha256 of b.
func Hash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// RunIDFor derives a run id from its kind and configuration, so the same command on the
// same store finds the same run and resumes it.
func RunIDFor(kind string, config []byte) RunID {
	return RunID(kind + "-" + Hash(config)[:12])
}

// BeginRun records a run, or reopens it when a run with the same id exists.
// It reports whether the run already existed.
func (s *Store) BeginRun(ctx context.Context, r Run) (resumed bool, err error) {
	if r.ConfigHash == "" {
		r.ConfigHash = Hash(r.Config)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO runs(id, kind, config, config_hash, dataset_hash, prompt_hash, prompt_text, version, started_at, status, models, reader)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET status = excluded.status, ended_at = NULL, version = excluded.version,
		models = excluded.models, reader = excluded.reader`,
		string(r.ID), string(r.Kind), string(r.Config), r.ConfigHash, r.DatasetHash, r.PromptHash, r.PromptText, r.Version, now(),
		string(StatusRunning), string(r.Models), string(r.Reader))
	if err != nil {
		return false, fmt.Errorf("begin run %s: %w", r.ID, err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM results WHERE run_id = ?`, string(r.ID)).Scan(&n); err != nil {
		return false, fmt.Errorf("begin run %s: %w", r.ID, err)
	}
	return n > 0, nil
}

// EndRun marks a run finished with a status such as StatusDone or StatusInterrupted.
func (s *Store) EndRun(ctx context.Context, id RunID, status Status) error {
	_, err := s.db.ExecContext(ctx, `UPDATE runs SET ended_at = ?, status = ? WHERE id = ?`, now(), string(status), string(id))
	if err != nil {
		return fmt.Errorf("end run %s: %w", id, err)
	}
	return nil
}

// QueueRunStmt is the statement that marks a run queued (or done when nothing was
// queued), for a queue to run in the transaction that inserts its jobs.
func (s *Store) QueueRunStmt(id RunID, status Status) Stmt {
	return Stmt{s.q(`UPDATE runs SET status = ?, ended_at = NULL WHERE id = ?`), []any{string(status), string(id)}}
}

// EndQueuedRunStmt is the statement that ends a queued run whose last job is done:
// incomplete when a result still failed, else done. A queue runs it in the transaction
// that completes that job.
func (s *Store) EndQueuedRunStmt(id RunID) Stmt {
	return Stmt{s.q(`UPDATE runs SET status = CASE WHEN EXISTS(SELECT 1 FROM results WHERE run_id = ? AND error <> '')
		THEN ? ELSE ? END, ended_at = ? WHERE id = ?`),
		[]any{string(id), string(StatusIncomplete), string(StatusDone), now(), string(id)}}
}

// Runs lists runs, newest first, optionally of one kind.
func (s *Store) Runs(ctx context.Context, kind Kind) ([]*Run, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, kind, config, config_hash, dataset_hash, prompt_hash, prompt_text, version, started_at, coalesce(ended_at, ''), status, models, reader
		FROM runs WHERE ? = '' OR kind = ? ORDER BY started_at DESC`, string(kind), string(kind))
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	defer rows.Close()
	var out []*Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Run reads one run by id (ErrNotFound when there is none).
func (s *Store) Run(ctx context.Context, id RunID) (*Run, error) {
	row := s.db.QueryRowContext(ctx, `SELECT id, kind, config, config_hash, dataset_hash, prompt_hash, prompt_text, version, started_at, coalesce(ended_at, ''), status, models, reader
		FROM runs WHERE id = ?`, string(id))
	r, err := scanRun(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	return r, nil
}

type scanner interface{ Scan(...any) error }

func scanRun(sc scanner) (*Run, error) {
	var r Run
	var id, kind, config, started, ended, status, models, reader string
	if err := sc.Scan(&id, &kind, &config, &r.ConfigHash, &r.DatasetHash, &r.PromptHash, &r.PromptText, &r.Version, &started, &ended, &status,
		&models, &reader); err != nil {
		return nil, err
	}
	if models != "" {
		r.Models = json.RawMessage(models)
	}
	if reader != "" {
		r.Reader = json.RawMessage(reader)
	}
	r.ID, r.Kind, r.Config, r.Status = RunID(id), Kind(kind), json.RawMessage(config), Status(status)
	r.StartedAt, _ = time.Parse(time.RFC3339Nano, started)
	if ended != "" {
		r.EndedAt, _ = time.Parse(time.RFC3339Nano, ended)
	}
	return &r, nil
}

// Result is the recorded outcome of one job.
type Result struct {
	RunID       RunID
	JobKey      string
	Model       llm.ModelName
	Item        string
	Replicate   int
	RequestHash string
	Reply       llm.Reply
	// Err is the final error text of a job that still failed; empty when answered.
	Err string
	// Outcome is the caller's parsed reading of the reply (e.g. a JSON prediction).
	Outcome string
	// Source says where the reply came from.
	Source    Source
	UpdatedAt time.Time
}

// ResultWrite is one result to record: the result itself, the cache key its reply is
// kept under ("" means do not cache; a failed result is never cached), and the holder
// whose claim on the job the write releases ("" means none).
type ResultWrite struct {
	Result   *Result
	CacheKey string
	Holder   Holder
}

// Stmt is one statement in the store's dialect with its arguments.
type Stmt struct {
	Query string
	Args  []any
}

// The statements that record a result; ResultStmts fills them in.
const (
	putResultSQL = `INSERT INTO results(run_id, job_key, model, item, replicate, request_hash, reply_text, reasoning, refusal, finish, raw,
		input_tokens, output_tokens, reasoning_tokens, latency_ms, attempts, error, outcome, source, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(run_id, job_key) DO UPDATE SET request_hash = excluded.request_hash, reply_text = excluded.reply_text, reasoning = excluded.reasoning,
		refusal = excluded.refusal, finish = excluded.finish, raw = excluded.raw, input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
		reasoning_tokens = excluded.reasoning_tokens, latency_ms = excluded.latency_ms, attempts = excluded.attempts, error = excluded.error,
		outcome = excluded.outcome, source = excluded.source, updated_at = excluded.updated_at`
	putCacheSQL     = `INSERT INTO cache(key, model, reply, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(key) DO NOTHING`
	releaseClaimSQL = `DELETE FROM claims WHERE run_id = ? AND job_key = ? AND holder = ?`
)

// ResultStmts returns the statements, in the store's dialect, that record w: write the
// result (replacing an earlier outcome of the job), cache a successful reply and release
// the holder's claim. They only write, so a caller may run them in a transaction of its
// own (a queue worker completing its job in the same transaction); PutResults runs
// exactly these.
func (s *Store) ResultStmts(w ResultWrite) ([]Stmt, error) {
	return s.resultStmts(w, now())
}

func (s *Store) resultStmts(w ResultWrite, ts string) ([]Stmt, error) {
	r, rp := w.Result, w.Result.Reply
	var raw []byte
	if rp.Raw != nil {
		raw = []byte(rp.Raw)
	}
	out := make([]Stmt, 0, 3)
	out = append(out, Stmt{s.q(putResultSQL), []any{string(r.RunID), r.JobKey, string(r.Model), r.Item, r.Replicate, r.RequestHash,
		rp.Text, rp.Reasoning, rp.Refusal, string(rp.Finish), raw, rp.Usage.InputTokens, rp.Usage.OutputTokens,
		rp.Usage.ReasoningTokens, float64(rp.Latency) / float64(time.Millisecond), rp.Attempts, r.Err, r.Outcome, string(r.Source), ts}})
	if w.CacheKey != "" && r.Err == "" {
		b, err := json.Marshal(&rp)
		if err != nil {
			return nil, fmt.Errorf("cache result %s: %w", r.JobKey, err)
		}
		out = append(out, Stmt{s.q(putCacheSQL), []any{w.CacheKey, string(r.Model), b, ts}})
	}
	if w.Holder != "" {
		out = append(out, Stmt{s.q(releaseClaimSQL), []any{string(r.RunID), r.JobKey, string(w.Holder)}})
	}
	return out, nil
}

// PutResults writes results in one transaction, replacing earlier outcomes of the same
// jobs, and caches the successful replies under their cache keys (cacheKeys[i] for
// results[i]; "" means do not cache).
func (s *Store) PutResults(ctx context.Context, results []*Result, cacheKeys []string) error {
	ws := make([]ResultWrite, len(results))
	for i, r := range results {
		ws[i].Result = r
		if i < len(cacheKeys) {
			ws[i].CacheKey = cacheKeys[i]
		}
	}
	return s.WriteResults(ctx, ws)
}

// PutResult records one result: PutResults of one, releasing w.Holder's claim.
func (s *Store) PutResult(ctx context.Context, w ResultWrite) error {
	return s.WriteResults(ctx, []ResultWrite{w})
}

// WriteResults records every write in one transaction (the group commit): each result,
// its cache entry and the release of its claim, by the statements of ResultStmts.
func (s *Store) WriteResults(ctx context.Context, ws []ResultWrite) error {
	if len(ws) == 0 {
		return nil
	}
	s.ckpt.start(s.dsn)
	var all []Stmt
	ts := now()
	for _, w := range ws {
		st, err := s.resultStmts(w, ts)
		if err != nil {
			return err
		}
		all = append(all, st...)
	}
	if s.pg {
		// Rows are locked in one order by every writer, so that two machines writing
		// overlapping groups wait for each other instead of deadlocking.
		slices.SortStableFunc(all, func(a, b Stmt) int {
			if c := strings.Compare(a.Query, b.Query); c != 0 {
				return c
			}
			return strings.Compare(a.Args[0].(string)+"\x00"+a.Args[1].(string), b.Args[0].(string)+"\x00"+b.Args[1].(string))
		})
	}
	var err error
	for try := 1; try <= 5; try++ {
		if err = s.execAll(ctx, all); err == nil || !retryable(err) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}

// execAll runs stmts in one transaction, each through the store's prepared statements.
func (s *Store) execAll(ctx context.Context, stmts []Stmt) error {
	if s.pg {
		// One round trip for the group: pgx pipelines the batch (and prepares and
		// caches each statement on its connection).
		return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			var b pgx.Batch
			for _, st := range stmts {
				b.Queue(st.Query, st.Args...)
			}
			return tx.SendBatch(ctx, &b).Close()
		})
	}
	// Prepared before the transaction: on SQLite it holds the store's one connection.
	ps := make([]*sql.Stmt, len(stmts))
	for i, st := range stmts {
		if i > 0 && st.Query == stmts[i-1].Query {
			ps[i] = ps[i-1]
			continue
		}
		p, err := s.preparedRaw(ctx, st.Query)
		if err != nil {
			return err
		}
		ps[i] = p
	}
	lctx := s.local(ctx)
	tx, err := s.db.DB.BeginTx(lctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	bound := map[*sql.Stmt]*sql.Stmt{}
	for i, st := range stmts {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, ok := bound[ps[i]]
		if !ok {
			b = tx.StmtContext(lctx, ps[i])
			bound[ps[i]] = b
		}
		if _, err := b.ExecContext(lctx, st.Args...); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// local is the context a statement on the local SQLite file runs under: ctx without its
// cancellation. Such a statement takes microseconds, and a context that can end makes the
// driver and database/sql each start a goroutine to watch it, for every statement (eight
// for a job's cache look-up, claim and result); the hot paths check ctx between
// statements instead, so an interruption still stops them at the next one. PostgreSQL
// statements cross the network and keep ctx.
func (s *Store) local(ctx context.Context) context.Context {
	if s.pg {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

// CacheKey identifies a paid request: the model, the endpoint it was asked at ("" for
// the provider's own), the full request and the replicate index (so that k replicates
// are k separate requests, each cached). The endpoint keeps replies from a local or
// stand-in server from ever answering for the real provider.
func CacheKey(model llm.ModelName, endpoint, requestHash string, replicate int) string {
	return Hash([]byte(fmt.Sprintf("%s\x00%s\x00%s\x00%d", model, endpoint, requestHash, replicate)))
}

// CachedReply returns the cached reply for key, if any.
func (s *Store) CachedReply(ctx context.Context, key string) (*llm.Reply, bool, error) {
	var b []byte
	ps, err := s.prepared(ctx, `SELECT reply FROM cache WHERE key = ?`)
	if err != nil {
		return nil, false, fmt.Errorf("read cache: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, false, fmt.Errorf("read cache: %w", err)
	}
	err = ps.QueryRowContext(s.local(ctx), key).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read cache: %w", err)
	}
	var r llm.Reply
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, false, fmt.Errorf("read cache %s: %w", key[:12], err)
	}
	return &r, true, nil
}

// CachedReplies looks up many cache keys, a few hundred to a query, and returns the
// replies found, by key; a key without a reply, or with an entry that does not read back,
// is absent from the map. A runner looks up a batch of jobs at once this way instead of
// taking the store's connection once per job.
func (s *Store) CachedReplies(ctx context.Context, keys []string) (map[string]*llm.Reply, error) {
	out := make(map[string]*llm.Reply)
	// Well under SQLite's and PostgreSQL's limits on the parameters of one statement.
	const perQuery = 500
	for len(keys) > 0 {
		n := min(len(keys), perQuery)
		if err := s.cachedInto(ctx, keys[:n], out); err != nil {
			return nil, fmt.Errorf("read cache: %w", err)
		}
		keys = keys[n:]
	}
	return out, nil
}

// cachedInto adds to out the replies cached under keys, in one query.
func (s *Store) cachedInto(ctx context.Context, keys []string, out map[string]*llm.Reply) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	q := `SELECT key, reply FROM cache WHERE key IN (?` + strings.Repeat(`, ?`, len(keys)-1) + `)`
	rows, err := s.db.QueryContext(s.local(ctx), q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var b []byte
		if err := rows.Scan(&k, &b); err != nil {
			return err
		}
		var r llm.Reply
		if json.Unmarshal(b, &r) != nil {
			continue // an entry that no longer reads is a miss: the request is asked again
		}
		out[k] = &r
	}
	return rows.Err()
}

// AnsweredKeys returns the job keys of a run that already have a reply.
func (s *Store) AnsweredKeys(ctx context.Context, id RunID) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT job_key FROM results WHERE run_id = ? AND error = ''`, string(id))
	if err != nil {
		return nil, fmt.Errorf("read results of %s: %w", id, err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out[k] = true
	}
	return out, rows.Err()
}

// Results calls fn for every result of a run, in job-key order, without holding them all
// in memory. Raw provider bodies are included only when withRaw is set.
func (s *Store) Results(ctx context.Context, id RunID, withRaw bool, fn func(*Result) error) error {
	return s.results(ctx, id, withRaw, "", nil, fn)
}

// results reads the results of a run matching the extra condition where (which starts
// with AND), in job-key order.
func (s *Store) results(ctx context.Context, id RunID, withRaw bool, where string, args []any, fn func(*Result) error) error {
	raw := "NULL"
	if withRaw {
		raw = "raw"
	}
	rows, err := s.db.QueryContext(ctx, `SELECT job_key, model, item, replicate, request_hash, reply_text, reasoning, refusal, finish, `+raw+`,
		input_tokens, output_tokens, reasoning_tokens, latency_ms, attempts, error, outcome, source, updated_at
		FROM results WHERE run_id = ? `+where+` ORDER BY job_key`, append([]any{string(id)}, args...)...)
	if err != nil {
		return fmt.Errorf("read results of %s: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		r := Result{RunID: id}
		var model, finish, source, updated string
		var rawb []byte
		var latency float64
		if err := rows.Scan(&r.JobKey, &model, &r.Item, &r.Replicate, &r.RequestHash, &r.Reply.Text, &r.Reply.Reasoning, &r.Reply.Refusal,
			&finish, &rawb, &r.Reply.Usage.InputTokens, &r.Reply.Usage.OutputTokens, &r.Reply.Usage.ReasoningTokens, &latency,
			&r.Reply.Attempts, &r.Err, &r.Outcome, &source, &updated); err != nil {
			return fmt.Errorf("read results of %s: %w", id, err)
		}
		r.Model, r.Reply.Finish, r.Reply.Raw, r.Source = llm.ModelName(model), llm.Finish(finish), rawb, Source(source)
		r.Reply.Latency = time.Duration(latency * float64(time.Millisecond))
		r.UpdatedAt, _ = time.Parse(time.RFC3339Nano, updated)
		if err := fn(&r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Stats counts a run's results.
type Stats struct {
	Jobs, Answered, Failed    int
	InputTokens, OutputTokens int64
}

// RunStats counts answered and failed jobs of a run.
func (s *Store) RunStats(ctx context.Context, id RunID) (Stats, error) {
	var st Stats
	err := s.db.QueryRowContext(ctx, `SELECT count(*), CAST(coalesce(sum(CASE WHEN error = '' THEN 1 ELSE 0 END), 0) AS BIGINT),
		CAST(coalesce(sum(CASE WHEN error != '' THEN 1 ELSE 0 END), 0) AS BIGINT),
		CAST(coalesce(sum(input_tokens), 0) AS BIGINT), CAST(coalesce(sum(output_tokens), 0) AS BIGINT) FROM results WHERE run_id = ?`, string(id)).
		Scan(&st.Jobs, &st.Answered, &st.Failed, &st.InputTokens, &st.OutputTokens)
	if err != nil {
		return st, fmt.Errorf("count results of %s: %w", id, err)
	}
	return st, nil
}

// ResolveRun finds a run by full id or unique prefix; "latest" (or "") is the newest
// run of the kind. It returns an error wrapping ErrNoRuns when the store holds no run of
// the kind and ErrNotFound when none matches ref.
func (s *Store) ResolveRun(ctx context.Context, kind Kind, ref string) (*Run, error) {
	runs, err := s.Runs(ctx, kind)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s runs in store %s: %w", kind, s.path, ErrNoRuns)
	}
	if ref == "" || ref == "latest" {
		return runs[0], nil
	}
	var match []*Run
	for _, r := range runs {
		if string(r.ID) == ref {
			return r, nil
		}
		if strings.HasPrefix(string(r.ID), ref) {
			match = append(match, r)
		}
	}
	switch len(match) {
	case 0:
		return nil, fmt.Errorf("run %q in store %s: %w", ref, s.path, ErrNotFound)
	case 1:
		return match[0], nil
	}
	return nil, fmt.Errorf("run %q: %d runs match; give more of the id", ref, len(match))
}
