package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/web"
)

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
holds every prompt and reply of your runs. For the same reason it answers only requests
addressed to it by its listening address (or localhost, 127.0.0.1, [::1] with its port),
so a web page whose name was rebound to this machine reads nothing; --public lifts that
check too. Ctrl-C stops it cleanly.`,
		Example: `  arbiter serve
  arbiter serve --addr 127.0.0.1:9000 --db study.db`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.serve(cmd.Context(), addr, db, public)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on, host:port (port 0 picks a free one)")
	dbFlag(cmd.Flags(), &db)
	cmd.Flags().BoolVar(&public, "public", false, "allow an address other than loopback, and any Host header (the UI has no login)")
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
	srv, err := web.New(web.Options{Store: st, Log: a.log, Public: public})
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
