package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

func (a *app) checkJudgeCmd() *cobra.Command {
	var rf runFlags
	var transcripts []string
	var checklist, cases, format, answers, inspectOut string
	var opt check.JudgeOptions
	var figures figureFlags
	var read readFlags
	var skipBad bool
	cmd := &cobra.Command{
		Use:   "judge",
		Short: "Have a judge model answer the checklist about transcripts and print the scores",
		Long: `Judge shows a judge model each transcript (player turns withheld, by role and by flag),
its case description and the checklist's questions of one dimension,
--questions-per-request at a time, and reads its "Qn - question: yes (reasoning: …)"
answers. A question left unanswered is asked again (--follow-ups times) and then recorded
as missing, never as "no". With several --judge models or --replicates k, agreement is
reported as Fleiss' and Cohen's kappa and Gwet's AC1. Every score records the checklist's
hash. The run is resumable.

Transcripts are read in the formats 'arbiter check transcripts' shows (JSON, chat
messages, plain text in English or Chinese), each speaker's role from the turn's role,
--roles or the built-in role words; the judge is told a transcript's language and still
answers in English. A folder with a bad file is refused whole, each bad file named with
its first problem; --skip-bad judges the good files and lists the others in the report.

--batch sends the judge's requests through the providers' batch APIs at their batch price
(each round of follow-ups is a batch of its own); --dry-run prints what the first round
would send and what it would cost, and sends nothing.

--enqueue (a PostgreSQL store) records the run and queues each transcript as one job for
'arbiter worker', then prints the run id; once it is done, the same command without
--enqueue asks nothing and prints the scores (--wait does so itself).`,
		Example: `  arbiter check judge --judge openai/gpt-4.1
  arbiter check judge --transcripts trials/ --checklist checklist.yaml --judge ollama/llama3.1:8b --db check.db --format json
  arbiter check judge --judge openai/gpt-4.1 --judge anthropic/claude-opus-4-7 --dry-run --batch`,
		Args: oldBatchArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := checkReportFormat(format, inspectOut); err != nil {
				return err
			}
			if len(rf.models) == 0 {
				return badInput("no judge model: pass --judge provider/model")
			}
			enqueue, err := a.enqueueing(cmd, rf.db)
			if err != nil {
				return err
			}
			if opt.BatchSize < 1 {
				return badInput("--questions-per-request %d: want at least 1", opt.BatchSize)
			}
			cl, err := check.LoadChecklist(checklist)
			if err != nil {
				return inputError(err)
			}
			ropt, err := read.options(cmd)
			if err != nil {
				return err
			}
			ts, skipped, err := check.LoadTranscriptsWith(transcripts, ropt, skipBad)
			if err != nil {
				return inputError(err)
			}
			a.skippedNote(skipped)
			if opt.Cases, err = builtinCaseDescriptions(); err != nil {
				return err
			}
			if cases != "" {
				more, err := loadCases(cases)
				if err != nil {
					return err
				}
				maps.Copy(opt.Cases, more)
			}
			if cl.Edited() && !a.quiet {
				fmt.Fprintf(a.stderr, "note: %s was edited after it was frozen (hash %.12s, now %.12s); scores record %.12s\n",
					cl.Source, cl.StatedHash, cl.Hash, cl.Hash)
			}
			e, done, err := a.checkExec(ctx, &rf)
			if err != nil {
				return err
			}
			defer done()
			for _, m := range rf.models {
				opt.Judges = append(opt.Judges, llm.ModelName(m))
			}
			opt.Replicates = rf.replicates
			opt.FollowUps = noneIfZero(opt.FollowUps)
			if enqueue {
				// With --wait the run is followed to its end, then judged below from the
				// store: it asks nothing and prints the scores.
				if wait, err := a.judgeEnqueue(ctx, cmd, e, cl, ts, opt, rf.retries); err != nil || !wait {
					return err
				}
			}
			j, err := check.Judge(ctx, e, cl, ts, opt)
			if err != nil {
				return err
			}
			if !a.quiet {
				fmt.Fprintf(a.stderr, "judge: run %s; %d transcripts, %d questions; %s\n", j.Run, len(j.Transcripts),
					len(cl.Items()), requestsText(j.Requests))
			}
			if err := a.printRunCost(ctx, e.Store, j.Run, rf.configPath); err != nil {
				return err
			}
			if err := a.writeJudgementAs(j, skipped, format, inspectOut, answers, &figures); err != nil {
				return err
			}
			if j.Failed > 0 {
				return fmt.Errorf("%d judge requests failed after retries and their questions are missing; run the same command again to ask only those", j.Failed)
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&transcripts, "transcripts", []string{"builtin"}, "transcript file or folder (JSON, JSONL, chat messages or Speaker: text), or builtin (repeatable)")
	cmd.Flags().BoolVar(&skipBad, "skip-bad", false, "judge the good transcript files and list the bad ones as skipped, instead of refusing them all")
	read.register(cmd.Flags())
	cmd.Flags().StringVar(&checklist, "checklist", "builtin", "checklist file (YAML) or builtin (38 LLM Court questions)")
	cmd.Flags().StringVar(&cases, "cases", "", "YAML file mapping case_id to its description, for transcripts without one (the court's bundled cases are known)")
	reportFormatFlag(cmd.Flags(), &format)
	registerInspect(cmd, &inspectOut)
	cmd.Flags().StringVar(&answers, "answers", "", "also write every answer with its justification to this file (JSONL)")
	cmd.Flags().IntVar(&opt.BatchSize, "questions-per-request", 10, "questions of one dimension asked in one judge request")
	cmd.Flags().IntVar(&opt.FollowUps, "follow-ups", 2, "times unanswered questions are asked again (0: none)")
	registerModelFlags(cmd, &rf, "judge", "judge model (repeatable)")
	figures.register(cmd, "figure of the Quality Score per dimension")
	a.registerBatch(cmd, &rf)
	registerEnqueue(cmd)
	return cmd
}

// oldBatchArgs takes no arguments, and tells a user of the judge's old --batch N (the
// questions per request, before --batch meant the providers' batch APIs) its new name.
func oldBatchArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 1 && cmd.Flags().Changed("batch") {
		if n, err := strconv.Atoi(args[0]); err == nil {
			return badInput("--batch takes no number: it sends the requests through the providers' batch APIs; for %d questions per request pass --questions-per-request %d", n, n)
		}
	}
	return cobra.NoArgs(cmd, args)
}

// writeJudgement prints the scores, with the files --skip-bad left out, and, when asked,
// writes the figures and every rating.
func (a *app) writeJudgement(j *check.Judgement, skipped []check.Skipped, format, answers string, figures *figureFlags) error {
	s := check.Score(j)
	s.Skipped = skipped
	if err := check.WriteScores(a.stdout, s, format); err != nil {
		return err
	}
	if err := figures.writeListed(a.stdout, format, check.Figures(s)); err != nil {
		return err
	}
	if answers == "" {
		return nil
	}
	f, err := os.Create(answers)
	if err != nil {
		return fmt.Errorf("--answers: %w", err)
	}
	if err := check.WriteRatings(f, j); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// builtinCaseDescriptions maps every bundled court case to court.CaseDescription of it:
// the one source of the descriptions of the bundled transcripts (which carry none) and
// of any transcript of a bundled case without one.
func builtinCaseDescriptions() (map[string]string, error) {
	cs, err := court.Builtin()
	if err != nil {
		return nil, err
	}
	m := make(map[string]string, len(cs))
	for _, c := range cs {
		m[c.ID] = court.CaseDescription(c)
	}
	return m, nil
}

// loadCases reads a YAML mapping of case_id to description.
func loadCases(path string) (map[string]string, error) {
	b, err := input.ReadYAMLFile(context.Background(), path)
	if err != nil {
		return nil, usageError{err}
	}
	var m map[string]string
	if err := input.DecodeYAML(path, b, &m); err != nil {
		if _, ok := err.(*input.ValidationError); ok {
			return nil, usageError{err}
		}
		return nil, badInput("%s: want a mapping of case_id to description: %s", path, input.YAMLError(err))
	}
	return m, nil
}

func (a *app) checkReportCmd() *cobra.Command {
	var db, runRef, format, answers, inspectOut string
	var figures figureFlags
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Re-render a stored judge run without calling any model",
		Long: `Report rebuilds a judge run's scores from the results store alone, parsing the stored
replies again, and prints them in any format. It never calls a model.

--format inspect --out DIR writes the run as an Inspect eval log in DIR instead (task
rpa-check): one sample per transcript, with its QS, its QS per dimension and its retries
as scores and the judges' answers as the output; QS, QS per dimension and the retry
rate R as metrics. 'check judge' takes the same flags.`,
		Example: `  arbiter check report --db check.db --format md
  arbiter check report --db check.db --format inspect --out logs/
  arbiter check report --db check.db --run check-judge-3f2a --format latex`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := checkReportFormat(format, inspectOut); err != nil {
				return err
			}
			st, err := a.openExistingStore(ctx, db)
			if err != nil {
				return err
			}
			defer st.Close()
			j, err := check.Rescore(ctx, st, runRef)
			if err != nil {
				return usageError{err}
			}
			return a.writeJudgementAs(j, nil, format, inspectOut, answers, &figures)
		},
	}
	cmd.Flags().StringVar(&answers, "answers", "", "also write every answer with its justification to this file (JSONL)")
	dbFlag(cmd.Flags(), &db)
	cmd.Flags().StringVar(&runRef, "run", "latest", "judge run id (or a unique prefix); see 'arbiter runs --kind check-judge'")
	reportFormatFlag(cmd.Flags(), &format)
	registerInspect(cmd, &inspectOut)
	figures.register(cmd, "figure of the Quality Score per dimension")
	return cmd
}
