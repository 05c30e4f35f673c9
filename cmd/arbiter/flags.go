package main

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// dbHelp is the --db help of the commands that read a store.
const dbHelp = "results store: a SQLite file or a postgres:// URL (default $ARBITER_DB or ~/.local/share/arbiter/arbiter.db)"

// dbFlag adds --db to a command that reads a store.
func dbFlag(fs *pflag.FlagSet, db *string) { fs.StringVar(db, "db", "", dbHelp) }

// reportFormatFlag adds --format (-f) for a report, text by default.
func reportFormatFlag(fs *pflag.FlagSet, format *string) {
	fs.StringVarP(format, "format", "f", report.FormatText, "report format: "+orList(report.Formats))
}

// checkFormat accepts the report formats.
func checkFormat(format string) error {
	if slices.Contains(report.Formats, format) {
		return nil
	}
	return badInput("--format %q: want %s", format, orList(report.Formats))
}

// orList is "a, b, c or d".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// resolveRun finds the run of kind that ref names (an id, a unique prefix or latest) and
// says what to do when there is none; first is the command that makes such runs.
func resolveRun(ctx context.Context, st *store.Store, kind store.Kind, ref, first string) (*store.Run, error) {
	r, err := st.ResolveRun(ctx, kind, ref)
	switch {
	case errors.Is(err, store.ErrNoRuns):
		return nil, badInput("no %s runs in store %s: run '%s' first", kind, st.Path(), first)
	case errors.Is(err, store.ErrNotFound):
		return nil, badInput("run %q: not in store %s (see 'arbiter runs')", ref, st.Path())
	case err != nil:
		return nil, usageError{err}
	}
	return r, nil
}
