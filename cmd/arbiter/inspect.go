package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/inspect"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// formatInspect is the --format that writes Inspect eval logs to --out instead of a report.
const formatInspect = "inspect"

// registerInspect adds --out, the folder of the Inspect logs --format inspect writes.
func registerInspect(cmd *cobra.Command, out *string) {
	cmd.Flags().StringVar(out, "out", "", "with --format inspect: the folder the Inspect eval logs (JSON) are written to")
	f := cmd.Flags().Lookup("format")
	f.Usage += " or inspect (Inspect eval logs in --out)"
}

// checkReportFormat accepts a report format, or inspect with an --out folder.
func checkReportFormat(format, out string) error {
	switch {
	case format == formatInspect && out == "":
		return badInput("--format inspect: name the folder for the logs with --out DIR")
	case format == formatInspect:
		return nil
	case out != "":
		return badInput("--out %s: only --format inspect writes to a folder", out)
	}
	return checkFormat(format)
}

// writeInspectLogs writes logs to dir and lists the files on stdout.
func (a *app) writeInspectLogs(dir string, logs []*inspect.Log) error {
	paths, err := inspect.WriteDir(dir, logs)
	if err != nil {
		return err
	}
	for _, p := range paths {
		fmt.Fprintln(a.stdout, p)
	}
	return nil
}

// writeSeduceInspect exports the stored runs as Inspect logs, one per model and defense
// (a defense study's none arm, which each defense's run reports, once), and returns the
// number of failed requests among them.
func (a *app) writeSeduceInspect(ctx context.Context, st *store.Store, runs []store.RunID, dir string, opt seduce.RescoreOptions) (int, error) {
	var logs []*inspect.Log
	seen := map[string]bool{}
	failed := 0
	for _, id := range runs {
		r, err := st.Run(ctx, id)
		if err != nil {
			return 0, err
		}
		x, err := seduce.ExportRun(ctx, st, r, opt)
		if err != nil {
			return 0, err
		}
		ls, err := inspect.Seduce(x)
		if err != nil {
			return 0, err
		}
		for i, l := range ls {
			if name := inspect.FileName(l); !seen[name] {
				seen[name] = true
				logs = append(logs, l)
				failed += x.Results.Models[i].Errors
			}
		}
	}
	return failed, a.writeInspectLogs(dir, logs)
}

// inspectRunEnded writes the logs of runs that just ended; requests that still failed
// make the exit status 1, as the report's errors column does.
func (a *app) inspectRunEnded(ctx context.Context, st *store.Store, runs []store.RunID, dir string, opt seduce.RescoreOptions) error {
	failed, err := a.writeSeduceInspect(ctx, st, runs, dir, opt)
	if err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d requests still failed after retries (their samples carry the error); run the same command again to ask only for those", failed)
	}
	return nil
}

// inspectAsPredictions reads one --predictions file whole: an Inspect log is turned into
// predictions JSONL (inspect.SeducePredictions), anything else is passed on unchanged.
func inspectAsPredictions(r io.Reader, path string) (io.Reader, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !inspect.IsLog(b) {
		return bytes.NewReader(b), nil
	}
	jsonl, err := inspect.SeducePredictions(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return bytes.NewReader(jsonl), nil
}

// writeJudgementAs writes a judge run's report, or with --format inspect its Inspect log.
func (a *app) writeJudgementAs(j *check.Judgement, skipped []check.Skipped, format, dir, answers string, figures *figureFlags) error {
	if format != formatInspect {
		return a.writeJudgement(j, skipped, format, answers, figures)
	}
	return a.writeInspectLogs(dir, []*inspect.Log{inspect.Check(j, check.Score(j))})
}
