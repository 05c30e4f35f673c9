// Command arbiter tests whether LLMs can be trusted as game masters and role-playing
// agents: the CoC-Seduce adjudication benchmark, the RPA-Check checklist judge and the
// LLM Court game. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/arbiter-eval/arbiter/internal/config"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, config.FromEnviron())
	stop()
	os.Exit(code)
}
