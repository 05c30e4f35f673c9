package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/arbiter-eval/arbiter/internal/config"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise it comes from
// the module's build info.
var version = ""

// Exit statuses of the CLI contract.
const (
	exitOK       = 0
	exitFailed   = 1
	exitBadInput = 2
)

// usageError marks bad usage or bad input: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func badInput(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// app carries what every command shares: streams, environment, logger.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	env            config.Env
	log            *slog.Logger
	verbose        bool
	quiet          bool
	interactive    bool
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, env config.Env) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, env: env}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		a.interactive = true
	}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
		fmt.Fprintln(stderr, "arbiter: "+line)
	}
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return exitBadInput
	}
	return exitFailed
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "arbiter",
		Short: "Test whether LLMs can be trusted as game masters and role-playing agents",
		Long: `arbiter tests LLMs that act as game masters and role-playing agents.

  seduce   the CoC-Seduce adjudication benchmark: must the Keeper call for a roll?
  check    RPA-Check: a yes/no checklist judged by an LLM over role-play transcripts
  court    LLM Court: play the defense, simulate trials, generate case records
  serve    the web UI: runs, reports, recorded replies, the bundled dataset, and the LLM Court game

Models are named provider/model: openai/gpt-4.1, anthropic/claude-sonnet-4-5,
google/gemini-2.5-flash, ollama/llama3.1:8b, baseline/keyword. Keys come from the
environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY) or a --config file.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			level := slog.LevelWarn
			if a.verbose {
				level = slog.LevelDebug
			}
			a.log = slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level}))
			return nil
		},
	}
	root.PersistentFlags().BoolVarP(&a.verbose, "verbose", "v", false, "log every retry and failure")
	root.PersistentFlags().BoolVarP(&a.quiet, "quiet", "q", false, "no progress output")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%s: %w (see '%s --help')", cmd.CommandPath(), err, cmd.CommandPath())}
	})
	root.AddCommand(a.versionCmd(), a.workerCmd())
	for _, cmd := range []*cobra.Command{a.checkCmd(), a.courtCmd(), a.runsCmd(), a.seduceCmd(), a.serveCmd()} {
		root.AddCommand(asGroup(cmd))
	}
	return root
}

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print arbiter's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(a.stdout, "arbiter "+versionString())
			return nil
		},
	}
}

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// isCobraUsage recognises the usage errors cobra itself returns (unknown commands,
// wrong argument counts), which carry no type of their own.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires at least", "requires at most", "invalid argument", "flag needs an argument", "required flag"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// asGroup makes a command that only holds subcommands reject unknown ones (exit 2)
// instead of printing its help and succeeding.
func asGroup(cmd *cobra.Command) *cobra.Command {
	if cmd.HasSubCommands() && cmd.RunE == nil && cmd.Run == nil {
		cmd.Args = cobra.NoArgs
		cmd.RunE = func(c *cobra.Command, args []string) error { return c.Help() }
	}
	return cmd
}
