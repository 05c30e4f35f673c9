package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
	"github.com/arbiter-eval/arbiter/internal/web"
)

func init() { commandGroups = append(commandGroups, (*app).serveCmd) }

// shutdownGrace is how long requests in flight may finish after Ctrl-C.
const shutdownGrace = 5 * time.Second

func (a *app) serveCmd() *cobra.Command {
	var addr, db string
	var public bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web UI: runs, report tables and figures, replies, the dataset",
		Long: `Serve starts the web UI over a results store: every run with its counts, a run's
report tables and figures rebuilt from the store (no model is asked), its recorded
replies page by page, and the bundled reference set with filters.

It listens on loopback only unless --public is given: the UI has no login, and a store
holds every prompt and reply of your runs. Ctrl-C stops it cleanly.`,
		Example: `  arbiter serve
  arbiter serve --addr 127.0.0.1:9000 --db study.db`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.serve(cmd.Context(), addr, db, public)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on, host:port (port 0 picks a free one)")
	cmd.Flags().StringVar(&db, "db", "", "results store (default $ARBITER_DB or ~/.local/share/arbiter/arbiter.db)")
	cmd.Flags().BoolVar(&public, "public", false, "allow an address other than loopback (the UI has no login)")
	return cmd
}

func (a *app) serve(ctx context.Context, addr, db string, public bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return badInput("--addr %q: want host:port, such as 127.0.0.1:8080", addr)
	}
	if !public && !isLoopback(host) {
		return badInput("--addr %s is not a loopback address: the UI has no login, so pass --public to serve it to the network anyway", addr)
	}
	st, err := a.openExistingStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	srv, err := web.New(web.Options{Store: st, Seduce: a.scoreStored, Log: a.log})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another server using the port? try --addr 127.0.0.1:0)", addr, err)
	}
	fmt.Fprintf(a.stderr, "arbiter: serving %s on http://%s/ (Ctrl-C to stop)\n", st.Path(), ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shut down: %w", err)
	}
	if err := <-done; err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if !a.quiet {
		fmt.Fprintln(a.stderr, "arbiter: stopped")
	}
	return nil
}

// isLoopback reports whether host names only this machine: localhost or a loopback IP.
// An empty host means every interface.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// scoreStored rescores a stored seduce run for the web UI the way 'seduce report' does:
// the datasets and taxonomy its configuration names, the default bootstrap.
func (a *app) scoreStored(ctx context.Context, st *store.Store, r *store.Run) (*seduce.Results, error) {
	var cfg runConfig
	if err := json.Unmarshal(r.Config, &cfg); err != nil {
		return nil, fmt.Errorf("run %s: config: %w", r.ID, err)
	}
	f := seduceFlags{datasets: cfg.Datasets, taxonomy: cfg.Taxonomy, bootstrap: 1000, seed: 1}
	tax, err := f.loadTaxonomy()
	if err != nil {
		return nil, err
	}
	ds, _, err := loadDatasets(f.datasets, tax)
	if err != nil {
		return nil, err
	}
	if ds.Hash != r.DatasetHash {
		return nil, fmt.Errorf("run %s scored dataset %s (hash %.12s) but it now hashes to %.12s; 'arbiter seduce report --dataset' can score it against the original file",
			r.ID, strings.Join(cfg.Datasets, "+"), r.DatasetHash, ds.Hash)
	}
	return a.scoreRun(ctx, st, r.ID, ds, tax, &f, nil)
}
