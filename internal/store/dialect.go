package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
)

// db is the store's *sql.DB speaking its dialect: statements are written once, with '?'
// placeholders and SQL both engines run, and rebound to $n on PostgreSQL here, so no
// method of the store needs a second version.
type db struct {
	*sql.DB
	pg      bool
	rebound *sync.Map // query → its PostgreSQL form
}

func (d db) q(query string) string {
	if d.pg {
		return rebindCached(d.rebound, query)
	}
	return query
}

func (d db) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return d.DB.ExecContext(ctx, d.q(query), args...)
}

func (d db) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return d.DB.QueryContext(ctx, d.q(query), args...)
}

func (d db) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return d.DB.QueryRowContext(ctx, d.q(query), args...)
}

// BeginTx starts a transaction in the store's dialect.
func (d db) BeginTx(ctx context.Context, opts *sql.TxOptions) (*tx, error) {
	t, err := d.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &tx{Tx: t, pg: d.pg, rebound: d.rebound}, nil
}

// tx is a transaction speaking the store's dialect.
type tx struct {
	*sql.Tx
	pg      bool
	rebound *sync.Map
}

func (t *tx) q(query string) string {
	if t.pg {
		return rebindCached(t.rebound, query)
	}
	return query
}

func (t *tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.Tx.ExecContext(ctx, t.q(query), args...)
}

func (t *tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.Tx.QueryContext(ctx, t.q(query), args...)
}

func (t *tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.Tx.QueryRowContext(ctx, t.q(query), args...)
}

func (t *tx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return t.Tx.PrepareContext(ctx, t.q(query))
}

// retryable reports a PostgreSQL deadlock or serialization failure: the transaction was
// rolled back and running it again is safe.
func retryable(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && (e.Code == "40P01" || e.Code == "40001")
}
