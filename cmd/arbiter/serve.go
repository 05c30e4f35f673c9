package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
	"github.com/arbiter-eval/arbiter/internal/web"
)

// shutdownGrace is how long requests in flight may finish after Ctrl-C.
const shutdownGrace = 5 * time.Second

func (a *app) serveCmd() *cobra.Command {
	var addr, db string
	var public bool
	var cf serveCourtFlags
	var kf serveKeeperFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web UI: runs, reports, replies, the dataset, and the LLM Court game",
		Long: `Serve starts the web UI over a results store: every run with its counts, a run's
report tables and figures rebuilt from the store (no model is asked), its recorded
replies page by page, the bundled reference set with filters, and the LLM Court game
at /court.

The game needs a model for the court: --court-model for every role, or one flag per
role (--court-judge-model, --court-prosecutor-model, --court-witness-model,
--court-analyzer-model) over it. Every game is kept in the store after every turn, so
a stopped server loses no finished turn. Without a court model the UI serves the rest
and the game's menu says how to give it one. The menu's "Watch a trial" also lists the
store's 'arbiter court simulate' trials (a model defense's, on a bundled or stored case)
and replays one on the stage at /court/replays/ID, asking no model; with --public, the
list and the replays are for the owner's token only.

It listens on loopback only unless --public is given: the UI has no login, and a store
holds every prompt and reply of your runs. For the same reason it answers only requests
addressed to it by its listening address (or localhost, 127.0.0.1, [::1] with its port),
so a web page whose name was rebound to this machine reads nothing; --public lifts that
check too. Ctrl-C stops it cleanly.`,
		Example: `  arbiter serve
  arbiter serve --addr 127.0.0.1:9000 --db study.db
  arbiter serve --court-model ollama/llama3.1:8b
  arbiter serve --court-model openai/gpt-4.1-mini --court-witness-model openai/gpt-4.1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.serve(cmd.Context(), addr, db, public, &cf, &kf)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on, host:port (port 0 picks a free one)")
	dbFlag(cmd.Flags(), &db)
	cmd.Flags().BoolVar(&public, "public", false, "allow an address other than loopback, and any Host header (the UI has no login)")
	cf.register(cmd)
	kf.register(cmd)
	return cmd
}

// serveCourtFlags are serve's flags for the game's models: --court-model for every role
// and one flag per role over it, with the endpoint flags of every model command.
type serveCourtFlags struct {
	model, judge, prosecutor, witness, analyzer []string
	maxTokens                                   []string
	baseURL, configPath                         string
	timeout                                     time.Duration
	limits                                      web.Limits
}

func (f *serveCourtFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringArrayVar(&f.model, "court-model", nil, "the LLM Court's model for every role without its own flag, as provider/model; repeat to offer players several (the first is the default)")
	fs.StringArrayVar(&f.judge, "court-judge-model", nil, "the court's Judge (also the verdict, case generation and the checklist judge); repeatable; default --court-model")
	fs.StringArrayVar(&f.prosecutor, "court-prosecutor-model", nil, "the court's Prosecutor; repeatable; default --court-model")
	fs.StringArrayVar(&f.witness, "court-witness-model", nil, "the court's witnesses; repeatable; default --court-model")
	fs.StringArrayVar(&f.analyzer, "court-analyzer-model", nil, "the court's Sentence Analyzer (who speaks next); repeatable; default --court-model")
	fs.StringArrayVar(&f.maxTokens, "court-max-tokens", nil, "max_tokens of every court call (N, default 1024), or of one agent (judge=N, witness=N, summary=N, …); repeatable")
	fs.IntVar(&f.limits.MaxGames, "max-games", web.DefaultMaxGames, "live games in all (429 beyond); -1 for no limit")
	fs.IntVar(&f.limits.ClientGames, "client-games", web.DefaultClientGames, "games one client address may start per minute (429 beyond)")
	fs.IntVar(&f.limits.ClientRate, "client-rate", web.DefaultClientRate, "model-asking requests one client address may send per minute (429 beyond)")
	fs.Float64Var(&f.limits.Budget, "budget", 0, "US dollars: once the cost recorded in the store reaches it, no model is asked (503); 0 for none")
	fs.StringVar(&f.baseURL, "base-url", "", "endpoint for the court's models (an OpenAI-compatible or stand-in server)")
	fs.StringVar(&f.configPath, "config", "", "config file with extra endpoints, per-model limits, family overrides and the court's models (YAML)")
	fs.DurationVar(&f.timeout, "timeout", llm.DefaultRetry().Timeout, "time limit of one attempt of a court model")
}

// fromConfig fills the court models the flags left empty from the --config file's court
// section.
func (f *serveCourtFlags) fromConfig(a *app) error {
	if f.configPath == "" {
		return nil
	}
	file, _, err := config.LoadFile(f.configPath, a.env.Look)
	if err != nil {
		return usageError{err}
	}
	for _, r := range []struct {
		dst  *[]string
		from string
	}{{&f.model, file.Court.Model}, {&f.judge, file.Court.Judge}, {&f.prosecutor, file.Court.Prosecutor},
		{&f.witness, file.Court.Witness}, {&f.analyzer, file.Court.Analyzer}} {
		if len(*r.dst) == 0 && r.from != "" {
			*r.dst = []string{r.from}
		}
	}
	return nil
}

// on says whether any court model was named.
func (f *serveCourtFlags) on() bool {
	return len(f.model)+len(f.judge)+len(f.prosecutor)+len(f.witness)+len(f.analyzer) > 0
}

// models resolves every role's offered models, the first its default; a role left
// without one is bad input.
func (f *serveCourtFlags) models() (court.Models, map[string][]llm.ModelName, error) {
	var m court.Models
	offers := map[string][]llm.ModelName{}
	for _, r := range []struct {
		role string
		v    []string
		dst  *llm.ModelName
	}{{"judge", f.judge, &m.Judge}, {"prosecutor", f.prosecutor, &m.Prosecutor}, {"witness", f.witness, &m.Witness}, {"analyzer", f.analyzer, &m.Analyzer}} {
		v := r.v
		if len(v) == 0 {
			v = f.model
		}
		if len(v) == 0 {
			return m, nil, badInput("no model for the court's %s: pass --court-model provider/model (or --court-%s-model)", r.role, r.role)
		}
		for _, name := range v {
			offers[r.role] = append(offers[r.role], llm.ModelName(name))
		}
		*r.dst = offers[r.role][0]
	}
	return m, offers, nil
}

// courtOptions opens the court's models through a session on db, so the game's calls
// are stored, and fills the game's part of the web options.
func (a *app) courtOptions(ctx context.Context, f *serveCourtFlags, kf *serveKeeperFlags, db string, opt *web.Options) (*store.Store, func(), error) {
	m, offers, err := f.models()
	if err != nil {
		return nil, nil, err
	}
	maxTokens, byAgent, err := court.ParseMaxTokens(f.maxTokens)
	if err != nil {
		return nil, nil, badInput("--court-max-tokens: %v", err)
	}
	var names []string
	for _, role := range []string{"judge", "prosecutor", "witness", "analyzer"} {
		for _, n := range offers[role] {
			if !slices.Contains(names, string(n)) {
				names = append(names, string(n))
			}
		}
	}
	retry := llm.DefaultRetry()
	rf := runFlags{models: kf.names(names), baseURL: f.baseURL, configPath: f.configPath, db: db,
		concurrency: 4, retries: retry.MaxAttempts - 1, timeout: f.timeout, replicates: 1}
	sess, ms, done, err := a.session(ctx, &rf, nil)
	if err != nil {
		return nil, nil, err
	}
	opt.Court = &court.Games{Session: sess, MaxTokens: maxTokens, MaxTokensBy: byAgent}
	opt.CourtModels, opt.CourtOffers = m, offers
	opt.CourtModelNames = names
	opt.CourtReachable = ms.Reachable
	opt.GenerateCase = generateForPage(sess)
	if err := kf.keeperOptions(sess, opt); err != nil {
		done()
		return nil, nil, err
	}
	return sess.Store, done, nil
}

// generateForPage drafts a case for the game's case screen: each ask gets a fresh seed,
// so "discard and ask again" gives another case, and its calls are stored in a court run
// like the command's. The case is kept only when the player saves it.
func generateForPage(sess *runner.Session) web.GenerateCaseFunc {
	return func(ctx context.Context, prior string, model llm.ModelName) (*court.Case, []string, error) {
		res, err := court.RunGenerate(ctx, sess, court.GenerateRun{Prior: prior, Model: model, Seed: rand.Int64N(1 << 31)})
		var ge *court.GenerateError
		switch {
		case errors.As(err, &ge):
			problems := make([]string, len(ge.Errs))
			for i, fe := range ge.Errs {
				problems[i] = fe.Error()
			}
			return nil, problems, nil
		case err != nil:
			return nil, nil, err
		}
		return res.Cases[0].Case, nil, nil
	}
}

func (a *app) serve(ctx context.Context, addr, db string, public bool, cf *serveCourtFlags, kf *serveKeeperFlags) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return badInput("--addr %q: want host:port, such as 127.0.0.1:8080", addr)
	}
	if !public && !isLoopback(host) {
		return badInput("--addr %s is not a loopback address: the UI has no login, so pass --public to serve it to the network anyway", addr)
	}
	opt := web.Options{Log: a.log, Public: public, Limits: cf.limits, OllamaURL: a.env.Ollama.BaseURL}
	if public {
		opt.OwnerToken = web.NewOwnerToken()
	}
	if err := cf.fromConfig(a); err != nil {
		return err
	}
	if cf.on() || kf.on() {
		// The games write to the store, so they may create it.
		st, done, err := a.gameOptions(ctx, cf, kf, db, &opt)
		if err != nil {
			return err
		}
		defer done()
		opt.Store = st
	} else {
		// serve creates its store (cli.md): a fresh machine opens the game.
		st, err := a.openStore(ctx, db)
		if err != nil {
			return err
		}
		defer st.Close()
		opt.Store = st
	}
	st := opt.Store
	srv, err := web.New(opt)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another server using the port? try --addr 127.0.0.1:0)", addr, err)
	}
	fmt.Fprintf(a.stderr, "arbiter: serving %s on http://%s/ (Ctrl-C to stop)\n", st.Path(), ln.Addr())
	if opt.OwnerToken != "" {
		fmt.Fprintf(a.stderr, "arbiter: owner's token (saving cases): %s\n", opt.OwnerToken)
	}
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
