package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// TestPathIsAFileNotAURI: every --db is the file of exactly that name. The names are
// ones a URI would read otherwise: a fragment, options, an escape, a space.
func TestPathIsAFileNotAURI(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	names := []string{"study#1.db", "study#2.db", "x.db?mode=ro", "100%41.db", "a b.db", "ünï.db", "q?.db#"}
	for _, name := range names {
		s := open(t, filepath.Join(dir, name))
		if _, err := s.BeginRun(ctx, Run{ID: RunID("run-" + name), Kind: "seduce", Config: []byte(`{}`), Version: "t"}); err != nil {
			t.Fatalf("%s: BeginRun = %v; want a writable store", name, err)
		}
		s.Close()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range entries {
		got[e.Name()] = true
	}
	for _, name := range names {
		if !got[name] {
			t.Errorf("no file %q in %v", name, got)
		}
	}
	for _, name := range names {
		runs, err := open(t, filepath.Join(dir, name)).Runs(ctx, "")
		if err != nil || len(runs) != 1 || runs[0].ID != RunID("run-"+name) {
			t.Errorf("Runs of %q = %v, %v; want only its own run", name, runs, err)
		}
	}
}

func TestFileURI(t *testing.T) {
	cases := []struct{ in, want string }{
		{"/tmp/study#1.db", "file:/tmp/study%231.db"},
		{"/tmp/x.db?mode=ro", "file:/tmp/x.db%3Fmode%3Dro"},
		{"/tmp/100%.db", "file:/tmp/100%25.db"},
		{"//tmp/a b", "file:/tmp/a%20b"},
	}
	for _, c := range cases {
		if got, err := fileURI(c.in); err != nil || got != c.want {
			t.Errorf("fileURI(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := fileURI("a\x00b"); err == nil {
		t.Error("fileURI with a NUL byte = nil error")
	}
}

// snapshot is what must not change about a file that is refused.
type snapshot struct {
	body  []byte
	mtime time.Time
}

func snap(t *testing.T, path string) snapshot {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return snapshot{b, fi.ModTime()}
}

// sqliteFile makes a SQLite file the way another program would.
func sqliteFile(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestForeignDatabaseIsRefusedUnchanged: a SQLite file of another program is neither
// given our tables nor switched to WAL; its bytes and mtime stay as they were.
func TestForeignDatabaseIsRefusedUnchanged(t *testing.T) {
	dir := t.TempDir()
	cases := map[string][]string{
		"notes.db": {`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)`, `INSERT INTO notes(body) VALUES ('keep me')`},
		// Another program's marked but empty file.
		"marked.db": {`PRAGMA application_id = 42`},
		// Tables that look like ours, but no record of our migrations.
		"lookalike.db": {`CREATE TABLE runs (id TEXT)`, `CREATE TABLE results (id TEXT)`, `CREATE TABLE cache (key TEXT)`, `CREATE TABLE schema_migrations (name TEXT)`},
	}
	for name, stmts := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			sqliteFile(t, path, stmts...)
			before := snap(t, path)
			for _, openFn := range []func(context.Context, string) (*Store, error){Open, OpenExisting} {
				s, err := openFn(context.Background(), path)
				if err == nil {
					s.Close()
					t.Fatalf("Open(%s) = nil error; want it refused", name)
				}
				if !errors.Is(err, ErrNotStore) {
					t.Fatalf("Open(%s) = %v; want ErrNotStore", name, err)
				}
			}
			after := snap(t, path)
			if !bytes.Equal(before.body, after.body) || !before.mtime.Equal(after.mtime) {
				t.Errorf("refused file %s changed (size %d -> %d, mtime %v -> %v)", name, len(before.body), len(after.body), before.mtime, after.mtime)
			}
			if _, err := os.Stat(path + "-wal"); err == nil {
				t.Errorf("refused file %s got a WAL file", name)
			}
		})
	}
	t.Run("not SQLite", func(t *testing.T) {
		path := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(path, bytes.Repeat([]byte("plain text, not a database\n"), 200), 0o644); err != nil {
			t.Fatal(err)
		}
		before := snap(t, path)
		if s, err := Open(context.Background(), path); err == nil {
			s.Close()
			t.Fatal("Open(a text file) = nil error")
		}
		if after := snap(t, path); !bytes.Equal(before.body, after.body) {
			t.Error("refused text file changed")
		}
	})
}

// TestStoreWrittenBeforeClaimsOpens: a store as the code before application ids and
// claims wrote it opens, keeps its data, and is marked and migrated.
func TestStoreWrittenBeforeClaimsOpens(t *testing.T) {
	ctx := context.Background()
	fixture, err := os.ReadFile("testdata/store_before_claims.sql")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	sqliteFile(t, path, string(fixture))
	for _, openFn := range []func(context.Context, string) (*Store, error){OpenExisting, Open} {
		s, err := openFn(ctx, path)
		if err != nil {
			t.Fatalf("open a store written before claims: %v", err)
		}
		st, err := s.RunStats(ctx, "seduce-old")
		if err != nil || st.Answered != 1 {
			t.Errorf("RunStats(seduce-old) = %+v, %v; want the old answer", st, err)
		}
		var id int64
		if err := s.db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&id); err != nil || id != appID {
			t.Errorf("application_id = %#x, %v; want %#x", id, err, appID)
		}
		if _, err := s.Claim(ctx, "seduce-old", "h", []string{"k"}, time.Now(), time.Minute); err != nil {
			t.Errorf("Claim on a migrated old store: %v", err)
		}
		s.Close()
	}
}

// TestOpenExistingRefusesMissing: a mistyped path creates neither folders nor a store.
func TestOpenExistingRefusesMissing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "typo", "results.db")
	if s, err := OpenExisting(context.Background(), path); err == nil || !errors.Is(err, ErrNoStore) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("OpenExisting(missing) = %v; want ErrNoStore", err)
	}
	if s, err := OpenExisting(context.Background(), filepath.Join(dir, "results.db")); err == nil || !errors.Is(err, ErrNoStore) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("OpenExisting(missing file) = %v; want ErrNoStore", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("OpenExisting of a missing store left %v", entries)
	}
	// Once a run made it, it opens.
	open(t, filepath.Join(dir, "results.db")).Close()
	s, err := OpenExisting(context.Background(), filepath.Join(dir, "results.db"))
	if err != nil {
		t.Fatalf("OpenExisting(an existing store) = %v", err)
	}
	s.Close()
	if s, err := OpenExisting(context.Background(), dir); err == nil {
		s.Close()
		t.Fatal("OpenExisting(a folder) = nil error")
	}
}

// TestConnectionSettings: every store connection has the settings of connParams, the
// small page cache among them, and a file's connection those of walParams.
func TestConnectionSettings(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "settings.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for pragma, want := range map[string]int64{"cache_size": -512, "foreign_keys": 1, "busy_timeout": 10000,
		"synchronous": 1, "wal_autocheckpoint": 8192, "journal_size_limit": 16 << 20} {
		var got int64
		if err := s.db.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
			t.Fatalf("PRAGMA %s: %v", pragma, err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %d; want %d", pragma, got, want)
		}
	}
}

// TestCheckpointsInTheBackground: a store that writes results has its write-ahead log
// copied into the database file by its own connection while it writes, before the log
// is anywhere near the committing connection's limit, and Close stops it. Without the
// background checkpoints the database file stays as it was until the store is closed.
func TestCheckpointsInTheBackground(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ckpt.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.BeginRun(ctx, Run{ID: "r", Kind: "seduce", Config: []byte(`{}`), Version: "test"}); err != nil {
		t.Fatal(err)
	}
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	reply := llm.Reply{Text: strings.Repeat("Roll Spot Hidden. ", 40), Attempts: 1}
	for i := range 300 {
		r := &Result{RunID: "r", JobKey: fmt.Sprintf("k%04d", i), Model: "openai/x", Item: fmt.Sprintf("i%04d", i), RequestHash: "h", Reply: reply, Source: SourceProvider}
		if err := s.PutResults(ctx, []*Result{r}, []string{fmt.Sprintf("cache%04d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for size() <= before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if size() <= before {
		t.Fatalf("the database file is still %d bytes after 300 commits and 10 s: nothing checkpointed it", before)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.ckpt.db != nil || !s.ckpt.closed {
		t.Error("Close left the checkpoints running")
	}
	s.ckpt.start(s.dsn) // a closed store starts none
	if s.ckpt.db != nil {
		t.Error("a closed store started checkpoints")
	}
}
