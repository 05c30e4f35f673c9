package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// appID is the SQLite application_id of an arbiter store ("Arbi"), set on first open.
const appID = 0x41726269

var (
	// ErrNoStore means OpenExisting found no file at the path.
	ErrNoStore = errors.New("no store at this path")
	// ErrNotStore means the file is a SQLite database of another program; it was left
	// unchanged.
	ErrNotStore = errors.New("a SQLite database that is not an arbiter store")
)

// fileURI turns a file path into the file: URI the SQLite driver opens. Every byte a URI
// would read as something else — '?' (options), '#' (a fragment), '%' (an escape) and
// anything outside a small safe set — is percent-encoded, so the path names exactly one
// file whatever it contains. The path is made absolute first, which also keeps a leading
// "//" from being read as a host.
func fileURI(path string) (string, error) {
	if path == "" {
		return "", errors.New("empty path")
	}
	if strings.IndexByte(path, 0) >= 0 {
		return "", errors.New("path contains a NUL byte")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString("file:")
	for i := 0; i < len(abs); i++ {
		c := abs[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '/', c == '-', c == '_', c == '.', c == '~':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String(), nil
}

// inspect decides, reading only, whether the file at path may be opened as a store: it
// is missing (allowed unless mustExist), empty, marked with appID, or a store written
// before the mark existed (its migration table records the first migration). Anything
// else is another program's database and is refused before a single write.
func inspect(ctx context.Context, path, uri string, mustExist bool) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if mustExist {
			return ErrNoStore
		}
		return nil
	case err != nil:
		return err
	case fi.IsDir():
		return errors.New("is a folder, not a file")
	case !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	case fi.Size() == 0:
		return nil
	}
	// mode=ro: this connection cannot write, whatever the file turns out to be.
	db, err := sql.Open("sqlite", uri+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// Every read below in one transaction, so they see one snapshot: another process
	// creating this store at the same moment commits its mark (the migration table and
	// the application id together) either before all of them or after.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id int64
	if err := tx.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&id); err != nil {
		return err
	}
	if id == appID {
		return nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if id == 0 && len(tables) == 0 {
		return nil // an empty database: ours to set up
	}
	if id == 0 && legacy(ctx, tx, tables) {
		return nil
	}
	if id != 0 {
		return fmt.Errorf("%w (its application id is %#x); it was left unchanged", ErrNotStore, id)
	}
	if len(tables) > 5 {
		tables = append(tables[:5], "…")
	}
	return fmt.Errorf("%w (it holds tables %s); it was left unchanged", ErrNotStore, strings.Join(tables, ", "))
}

// legacy recognises a store written before stores carried appID: it has the tables of
// the first migration and says it applied it.
func legacy(ctx context.Context, tx *sql.Tx, tables []string) bool {
	for _, t := range []string{"schema_migrations", "runs", "results", "cache"} {
		if !slices.Contains(tables, t) {
			return false
		}
	}
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE name = 'migrations/001_init.sql'`).Scan(&n)
	return err == nil && n == 1
}
