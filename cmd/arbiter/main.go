// Command arbiter tests whether LLMs can be trusted as game masters and role-playing
// agents: the CoC-Seduce adjudication benchmark, the RPA-Check checklist judge and the
// LLM Court game. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/arbiter-eval/arbiter/internal/config"
)

func main() {
	env := config.FromEnviron()
	if !env.GOGCSet {
		// A run holds little live data but churns through SDK allocations; collecting at
		// 50% growth keeps a 5,376-request run well under 80 MB resident at no visible cost.
		debug.SetGCPercent(50)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, env)
	stop()
	os.Exit(code)
}
