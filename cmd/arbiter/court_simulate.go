package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/inspect"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func (a *app) courtSimulateCmd() *cobra.Command {
	var f courtFlags
	var casesPath, script, out, inspectDir string
	var seeds, seedBase, budget, restarts int
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Play every case with every seed as a trial, the defense a model or a script, and write the transcripts",
		Long: `Simulate plays each case with seeds --seed-base … --seed-base+N-1 (N = --seeds), with a
model (--defense-model) or a script of lines (--defense-script, one move per line) as the
defense, and writes one transcript per trial to --out as <trial_id>.json, where the id is
<case_id>-s<seed>-<tag> and the tag a short hash of the models and the defense: the same
flags give the same ids, and studies of several models can share a folder.

--concurrency trials run at once; the turns of a trial are asked in order, so that is also
the number of requests in flight. Every request and reply is kept in the results store as
one run: a simulation stopped at any point resumes mid-trial when run again, and a rerun
of a finished one asks no model anything. Score the transcripts with
'arbiter check judge --transcripts DIR'.

With --enqueue (a PostgreSQL store) the run is recorded and each trial queued as one job
for 'arbiter worker', and the run id printed; once the run is done, the same command
without --enqueue asks nothing and writes the transcripts (--wait does so itself).

--inspect DIR also writes the simulation as an Inspect eval log in DIR (task llm-court):
one sample per trial, its turns as messages, its outcome, completion and retries as
scores, and the win rate, completed trials and retry rate R as metrics.

Exit 1 when a trial could not finish because of an error (its calls are kept: run the
same command again); a trial abandoned after its restarts is a result (completed false).`,
		Example: `  arbiter court simulate --model ollama/llama3.1:8b --defense-model ollama/llama3.1:8b --seeds 5 --out trials/
  arbiter court simulate --cases cases/ --model openai/gpt-4.1 --witness-model ollama/llama3.1:8b --defense-script defense.txt --out trials/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			switch {
			case out == "":
				return badInput("no --out folder for the transcripts")
			case seeds < 1:
				return badInput("--seeds %d: want at least 1", seeds)
			case f.defense == "" && script == "":
				return badInput("no defense: pass --defense-model provider/model or --defense-script FILE")
			case f.defense != "" && script != "":
				return badInput("--defense-model and --defense-script: give one of them")
			case budget != 0 && budget < len(court.IntroductionOrder):
				return badInput("--turn-budget %d: want at least %d (the introduction)", budget, len(court.IntroductionOrder))
			case restarts < 0:
				return badInput("--max-restarts %d: want 0 or more", restarts)
			}
			enqueue, err := a.enqueueing(cmd, f.run.db)
			if err != nil {
				return err
			}
			cases, err := a.loadCourtCases(cmd.Context(), casesPath, f.run.db)
			if err != nil {
				return err
			}
			sim := &court.Simulation{Cases: cases, Defense: court.ModelDefense{}}
			if script != "" {
				s, err := court.LoadScript(script)
				if err != nil {
					return usageError{err}
				}
				b, _ := json.Marshal(s.Moves)
				sim.Defense, sim.DefenseScript = s, store.Hash(b)
			}
			for i := range seeds {
				sim.Seeds = append(sim.Seeds, int64(seedBase+i))
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return badInput("--out %s: %v", out, err)
			}
			sess, models, done, err := a.courtSession(ctx, &f)
			if err != nil {
				return err
			}
			defer done()
			// The simulation draws its own progress (trials, not requests): the session's
			// per-request bars would be one per call.
			sess.Progress = nil
			sim.Session = sess
			sim.Concurrency = f.run.concurrency
			sim.Settings = court.Settings{Models: models, TurnBudget: budget, MaxRestarts: restarts}
			if restarts == 0 {
				sim.Settings.MaxRestarts = -1
			}
			if enqueue {
				// With --wait the run is followed to its end, then played below from the
				// store: it asks nothing and writes the transcripts.
				if wait, err := a.courtEnqueue(ctx, cmd, sim, f.run.retries); err != nil || !wait {
					return err
				}
			}
			sim.TrialDone = func(tr *court.Transcript) error { return writeTranscript(out, tr) }
			p := a.simProgress()
			sim.Progress = p.draw
			res, err := sim.Run(ctx)
			p.finish()
			if err != nil {
				return err
			}
			if inspectDir != "" {
				if err := a.writeInspectLogs(inspectDir, []*inspect.Log{inspect.Court(res, models)}); err != nil {
					return err
				}
			}
			t := res.Tally
			fmt.Fprintf(a.stdout, "simulate: run %s; %d trials, %d completed, %d wins, %d losses, %d retries; %d requests: %d asked (%d failed), %d from the store, %d from the cache\n",
				res.Run, len(res.Trials), res.Completed(), res.Wins(), res.Losses(), res.Retries(),
				t.Jobs, t.Asked, t.Failed, t.Resumed, t.Cached)
			errs := res.Errors()
			if len(errs) == 0 {
				return nil
			}
			var ue usageError
			if errors.As(errs[0].Err, &ue) {
				return ue // the server cannot be reached, say: bad input, whichever trial met it
			}
			for i, e := range errs {
				if i == 3 {
					fmt.Fprintf(a.stderr, "arbiter: … and %d more\n", len(errs)-3)
					break
				}
				fmt.Fprintf(a.stderr, "arbiter: %v\n", e.Err)
			}
			return fmt.Errorf("%d of %d trials could not finish; their calls so far are kept: run the same command again to resume them", len(errs), len(res.Trials))
		},
	}
	f.register(cmd, true)
	fs := cmd.Flags()
	// A trial asks one request at a time, so trials in parallel are requests in flight.
	fs.Lookup("concurrency").Usage = "trials played at once (each has one request in flight)"
	_ = fs.MarkHidden("replicates") // a trial is replicated by its seeds
	fs.StringVar(&casesPath, "cases", "builtin", "case records: a .json or .jsonl file, a folder of them, or builtin")
	fs.StringVar(&script, "defense-script", "", "a file of defense moves, one per line ('@Witness_x text', 'Objection…', 'rest'), in place of --defense-model")
	fs.IntVar(&seeds, "seeds", 1, "trials per case, with seeds --seed-base, --seed-base+1, …")
	fs.IntVar(&seedBase, "seed-base", 1, "the first seed")
	fs.StringVar(&out, "out", "", "folder for the transcripts, one <trial_id>.json per trial")
	fs.StringVar(&inspectDir, "inspect", "", "also write the simulation as an Inspect eval log (task llm-court) to this folder")
	fs.IntVar(&budget, "turn-budget", court.DefaultTurnBudget, "turns the introduction and interrogation may take before closing")
	fs.IntVar(&restarts, "max-restarts", court.DefaultMaxRestarts, "times a failed trial starts again with a new seed before it is recorded incomplete")
	refuseBatch(cmd)
	registerEnqueue(cmd)
	return cmd
}

// writeTranscript writes tr to dir/<trial_id>.json through a temporary file, so that a
// reader never sees half a transcript.
func writeTranscript(dir string, tr *court.Transcript) error {
	b, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		return fmt.Errorf("transcript %s: %w", tr.TrialID, err)
	}
	if err := writeFileAtomic(filepath.Join(dir, tr.TrialID+".json"), append(b, '\n')); err != nil {
		return fmt.Errorf("transcript %s: %w", tr.TrialID, err)
	}
	return nil
}

// simProgressView draws a simulation's progress on stderr: one line redrawn in place on
// a terminal, a line every ten seconds otherwise, nothing with --quiet.
type simProgressView struct {
	out         io.Writer
	interactive bool
	every       time.Duration

	mu   sync.Mutex
	last time.Time
	st   court.SimProgress
	any  bool
}

func (a *app) simProgress() *simProgressView {
	v := &simProgressView{interactive: a.interactive, every: 10 * time.Second}
	if a.interactive {
		v.every = 150 * time.Millisecond
	}
	if !a.quiet {
		v.out = a.stderr
	}
	return v
}

func (v *simProgressView) draw(p court.SimProgress) {
	if v.out == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.st, v.any = p, true
	if time.Since(v.last) < v.every && p.Done < p.Trials {
		return
	}
	v.last = time.Now()
	v.line()
}

func (v *simProgressView) line() {
	p := v.st
	eta := "–"
	if p.Done > 0 && p.Done < p.Trials {
		eta = p.ETA.Round(time.Second).String()
	}
	text := fmt.Sprintf("simulate: %d/%d trials, %d turns, %d restarts, %d errors, %s elapsed, ETA %s",
		p.Done, p.Trials, p.Turns, p.Restarts, p.Errors, p.Elapsed.Round(time.Second), eta)
	if v.interactive {
		fmt.Fprintf(v.out, "\r\033[K%s", text)
		return
	}
	fmt.Fprintln(v.out, text)
}

// finish ends the progress display.
func (v *simProgressView) finish() {
	if v.out == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.interactive && v.any {
		fmt.Fprintln(v.out)
	}
}
