package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// IsPostgres reports whether dsn names a PostgreSQL store (a postgres:// or
// postgresql:// URL) rather than a SQLite file.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// DSNFromEnv is the store a command opens: the --db flag's value when given, else
// ARBITER_DB from look, else "" (the caller's default SQLite file).
func DSNFromEnv(flag string, look func(string) (string, bool)) string {
	if flag != "" {
		return flag
	}
	if look != nil {
		if v, ok := look("ARBITER_DB"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Redact returns dsn with any password replaced, for messages: a PostgreSQL URL may
// carry one, and secrets never reach an error or a log.
func Redact(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(unreadable URL)"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "REDACTED")
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "REDACTED")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// pgLockKey is the advisory lock every migration of a PostgreSQL store is applied
// under ("Arbi" again), so that many machines opening one fresh database at once apply
// each migration exactly once.
const pgLockKey = appID

func openPostgres(ctx context.Context, dsn string, mustExist bool) (*Store, error) {
	name := Redact(dsn)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx's message may quote the URL, password and all: say only what is wrong.
		return nil, fmt.Errorf("open store %s: not a PostgreSQL URL pgx can read", name)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", name, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open store %s: %w", name, scrub(err, dsn))
	}
	s := &Store{db: db{DB: stdlib.OpenDBFromPool(pool), pg: true, rebound: new(sync.Map)}, path: name, pool: pool, pg: true}
	if mustExist {
		var ok bool
		if err := s.db.QueryRowContext(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&ok); err != nil {
			s.Close()
			return nil, fmt.Errorf("open store %s: %w", name, err)
		}
		if !ok {
			s.Close()
			return nil, fmt.Errorf("open store %s: %w", name, ErrNoStore)
		}
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open store %s: %w", name, err)
	}
	return s, nil
}

// scrub keeps a password out of a connection error's text.
func scrub(err error, dsn string) error {
	u, perr := url.Parse(dsn)
	if perr != nil {
		return err
	}
	if p, ok := u.User.Password(); ok && p != "" && strings.Contains(err.Error(), p) {
		return errors.New(strings.ReplaceAll(err.Error(), p, "REDACTED"))
	}
	return err
}

// rebind turns the '?' placeholders of a statement into PostgreSQL's $1, $2, …,
// leaving any '?' inside a quoted literal or identifier alone.
func rebind(q string) string {
	if strings.IndexByte(q, '?') < 0 {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	var quote byte
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// stmts caches prepared statements by their text, so the hot path (result writes,
// cache lookups, claims) parses and plans each statement once per store.
type stmts struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// q is query in the store's dialect.
func (s *Store) q(query string) string { return s.db.q(query) }

// rebindCached is rebind remembering its answers in cache: the store's statements are
// a bounded set of strings, rebound on every call of the hot path otherwise.
func rebindCached(cache *sync.Map, q string) string {
	if v, ok := cache.Load(q); ok {
		return v.(string)
	}
	r := rebind(q)
	cache.Store(q, r)
	return r
}

// prepared returns the cached prepared statement for query (written with '?').
func (s *Store) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	return s.preparedRaw(ctx, s.q(query))
}

// preparedRaw is prepared for a query already in the store's dialect.
func (s *Store) preparedRaw(ctx context.Context, query string) (*sql.Stmt, error) {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if st, ok := s.cache.m[query]; ok {
		return st, nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if s.cache.m == nil {
		s.cache.m = map[string]*sql.Stmt{}
	}
	s.cache.m[query] = st
	return st, nil
}

// Postgres reports whether the store is on PostgreSQL.
func (s *Store) Postgres() bool { return s.pg }

// Pool is the pgx pool a PostgreSQL store's *sql.DB is built on, for callers (River's
// riverpgxv5 driver) that share its connections; nil on SQLite.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// insertOrder is the column that orders a table's rows as they were inserted: SQLite's
// rowid, or the seq column the PostgreSQL schema adds where an order is read back.
func (s *Store) insertOrder() string {
	if s.pg {
		return "seq"
	}
	return "rowid"
}
