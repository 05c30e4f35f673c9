package main

import (
	"context"
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// watchFlags are the flags of 'arbiter court watch'.
type watchFlags struct {
	db    string
	cases string
	every time.Duration
}

func (a *app) courtWatchCmd() *cobra.Command {
	var f watchFlags
	cmd := &cobra.Command{
		Use:   "watch ID",
		Short: "Follow a game being played, or replay a stored simulated trial, in the terminal",
		Long: `Follow a trial in the terminal, asking no model. ID is a game's id (from the browser or
'arbiter court play'): its turns are printed as they are saved, until the verdict. Or ID is
a trial id of 'arbiter court simulate' (a model defense's): it is replayed from the store
turn by turn. --cases names where the simulated trial's case is (builtin by default, or
stored for the store's own). 'arbiter serve' replays the same trials in the browser, on the
game's stage (its menu's "Watch a trial").`,
		Example: `  arbiter court watch g3f9a1c2e
  arbiter court watch summit-ridge-s7-a1b2c3 --every 500ms`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.courtWatch(cmd.Context(), &f, args[0])
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.db, "db", "", "the results store (default $ARBITER_DB)")
	fs.StringVar(&f.cases, "cases", "builtin", "where a simulated trial's case is: a file, a folder, builtin or stored")
	fs.DurationVar(&f.every, "every", time.Second, "how often a game is read again; the pause after each replayed turn")
	refuseBatch(cmd)
	return cmd
}

func (a *app) courtWatch(ctx context.Context, f *watchFlags, id string) error {
	if f.every < 0 || f.every > time.Minute {
		return badInput("--every %s: want 0 to 1m", f.every)
	}
	st, err := a.openExistingStore(ctx, f.db)
	if err != nil {
		return err
	}
	defer st.Close()
	out := a.stdout
	if _, err := st.CourtGame(ctx, id); err == nil {
		gs := &court.Games{Session: &runner.Session{Store: st}}
		return court.FollowGame(ctx, gs, id, out, max(f.every, 50*time.Millisecond))
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	cases, err := a.loadCourtCases(ctx, f.cases, f.db)
	if err != nil {
		return err
	}
	tr, err := court.FindStoredTrial(ctx, st, id, func(cid string) (*court.Case, error) {
		for _, c := range cases {
			if c.ID == cid {
				return c, nil
			}
		}
		return nil, nil
	})
	if errors.Is(err, court.ErrNoStoredTrial) {
		return badInput("%s: no game and no simulated trial of that id in the store (or its case is not in --cases %s)", id, f.cases)
	}
	if err != nil {
		return err
	}
	return tr.Follow(ctx, st, out, f.every)
}
