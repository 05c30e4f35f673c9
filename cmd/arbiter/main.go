// Command arbiter tests whether LLMs can be trusted as game masters and role-playing
// agents: the CoC-Seduce adjudication benchmark, the RPA-Check checklist judge and the
// LLM Court game. See README.md.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/procmem"
)

// stopGrace is how long a command may take to wind down after Ctrl-C or SIGTERM before
// the process ends anyway: cli.md allows 2 seconds from the signal to the exit.
const stopGrace = 1500 * time.Millisecond

func main() {
	// Start-up touched every linked package's initialisation; give those pages back.
	procmem.ReleaseStartup()
	env := config.FromEnviron()
	if !env.GOGCSet {
		// A run holds little live data but churns through allocations; collecting at 60%
		// growth keeps a 5,376-request run at about 62 MB resident, under issue 26's 64
		// (BenchmarkSeduceRunProcess, 2026-12-06; when this was set, 75% cost 2-3 MB more
		// and 50% saved 2 MB for 6% more processor time).
		debug.SetGCPercent(60)
	}
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		cancel()
		// The command stops asking and saves what it has; results already stored are
		// committed, so ending the process after the grace (or at a second signal) loses
		// nothing that was kept, only a read or a request that would not stop.
		select {
		case <-sigs:
		case <-time.After(stopGrace):
		}
		fmt.Fprintln(os.Stderr, "arbiter: interrupted")
		os.Exit(exitFailed)
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, env)
	os.Exit(code)
}
