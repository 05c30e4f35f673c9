package main

import (
	"context"
	"slices"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
	"github.com/arbiter-eval/arbiter/internal/web"
)

// serveKeeperFlags are serve's flags for "Talk your way past the Keeper": the Keeper
// models a player may choose and where the game's scenarios come from. The endpoint
// flags (--base-url, --config, --timeout) and the limits are the court's.
type serveKeeperFlags struct {
	models  []string
	dataset string
}

func (f *serveKeeperFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringArrayVar(&f.models, "keeper-model", nil, "the Keeper game's model, as provider/model; repeat to offer players several (the first is the default)")
	fs.StringVar(&f.dataset, "keeper-dataset", "", "dataset whose scenarios that require a roll the Keeper game plays (default: the bundled reference set)")
}

// on says whether a Keeper model was named.
func (f *serveKeeperFlags) on() bool { return len(f.models) > 0 }

// names are the Keeper models not already in have, for opening them with the court's.
func (f *serveKeeperFlags) names(have []string) []string {
	out := slices.Clone(have)
	for _, m := range f.models {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// keeperOptions fills the game's part of the web options over sess, which has the
// Keeper models open.
func (f *serveKeeperFlags) keeperOptions(sess *runner.Session, opt *web.Options) error {
	if !f.on() {
		return nil
	}
	if f.dataset != "" {
		ds, err := loadDatasets([]string{f.dataset}, nil)
		if err != nil {
			return err
		}
		opt.KeeperDataset = ds
	}
	opt.Keeper = seduce.NewKeeper(sess, nil)
	for _, m := range f.models {
		opt.KeeperModels = append(opt.KeeperModels, llm.ModelName(m))
	}
	return nil
}

// gameOptions opens one session for every game model (the court's and the Keeper's), so
// that their calls are stored in the one store, and fills the games' web options.
func (a *app) gameOptions(ctx context.Context, cf *serveCourtFlags, kf *serveKeeperFlags, db string, opt *web.Options) (*store.Store, func(), error) {
	if cf.on() {
		return a.courtOptions(ctx, cf, kf, db, opt)
	}
	retry := llm.DefaultRetry()
	rf := runFlags{models: kf.names(nil), baseURL: cf.baseURL, configPath: cf.configPath, db: db,
		concurrency: 4, retries: retry.MaxAttempts - 1, timeout: cf.timeout, replicates: 1}
	sess, _, done, err := a.session(ctx, &rf, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := kf.keeperOptions(sess, opt); err != nil {
		done()
		return nil, nil, err
	}
	return sess.Store, done, nil
}
