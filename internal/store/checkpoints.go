package store

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// checkpointEvery is how often a store that writes results copies its write-ahead log
// back into the database file.
var checkpointEvery = 200 * time.Millisecond

// checkpoints copies a store file's write-ahead log back into the database from a
// connection of its own, in the background, so that no commit waits for it: in the
// committing connection a checkpoint (copying the log's pages and syncing the file)
// stalled the commits behind it for tens of milliseconds, and with them every worker
// waiting for its answer to be kept. A passive checkpoint never blocks a writer, and a
// writer starts the log again from its beginning once it has all been copied, so the log
// stays a few megabytes long. It starts with the first results a store writes.
type checkpoints struct {
	mu      sync.Mutex
	closed  bool
	db      *sql.DB
	quit    chan struct{}
	stopped chan struct{}
}

// start runs the checkpoints on the file dsn opens, once; "" (an in-memory store) or a
// closed store has none.
func (c *checkpoints) start(dsn string) {
	if dsn == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.db != nil {
		return
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return // the committing connection still checkpoints at its limit
	}
	db.SetMaxOpenConns(1)
	c.db, c.quit, c.stopped = db, make(chan struct{}), make(chan struct{})
	go c.loop(c.db, c.quit, c.stopped)
}

func (c *checkpoints) loop(db *sql.DB, quit <-chan struct{}, stopped chan<- struct{}) {
	defer close(stopped)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-quit:
			return
		case <-t.C:
		}
		// Busy (another process checkpointing, or the file changing under it) is no
		// failure: the next tick tries again.
		var busy, logged, copied int
		_ = db.QueryRowContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logged, &copied)
	}
}

// stop ends the checkpoints and closes their connection; the store's own connection,
// closed after it, checkpoints what is left.
func (c *checkpoints) stop() {
	c.mu.Lock()
	c.closed = true
	db, quit, stopped := c.db, c.quit, c.stopped
	c.db = nil
	c.mu.Unlock()
	if db == nil {
		return
	}
	close(quit)
	<-stopped
	db.Close()
}
