package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/review"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// reviewFlags are the flags the review subcommands share.
type reviewFlags struct {
	db, project, reviewer, taxonomy, format string
}

func (a *app) seduceReviewCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "review",
		Short: "Keeper curation: blind double review of a dataset, a third review of 10%, agreement, export",
		Long: `Review curates a dataset as the paper's Keepers did: every sample goes to two reviewers
who decide blind (approve, correct or reject), a seeded 10% (rounded up) to a third; every
change is kept in an audit trail; agreement and Cohen's kappa are measured between the first
two reviewers of each sample; the export is the curated dataset. The web UI ('arbiter serve',
/review) does the same by hand.`,
	}
	cmd.AddCommand(a.reviewNewCmd(), a.reviewAssignmentsCmd(), a.reviewDecideCmd(), a.reviewUndoCmd(),
		a.reviewAgreementCmd(), a.reviewExportCmd(), a.reviewInviteCmd())
	return cmd
}

func (f *reviewFlags) register(cmd *cobra.Command, reviewer bool) {
	dbFlag(cmd.Flags(), &f.db)
	cmd.Flags().StringVar(&f.project, "project", "", "review project id (printed by 'review new')")
	cmd.Flags().StringVar(&f.taxonomy, "taxonomy", "", "skill taxonomy file (YAML) replacing the built-in 16 skills")
	if reviewer {
		cmd.Flags().StringVar(&f.reviewer, "reviewer", "", "reviewer name")
	}
}

// reviewError makes the review package's bad-input errors exit 2.
func reviewError(err error) error {
	var ie *review.InputError
	if errors.As(err, &ie) {
		return usageError{err}
	}
	return err
}

// openProject opens the store and project f names.
func (a *app) openProject(ctx context.Context, f *reviewFlags, needReviewer bool) (*review.Project, func(), error) {
	if f.project == "" {
		return nil, nil, badInput("--project is required (the id 'arbiter seduce review new' printed)")
	}
	if needReviewer && f.reviewer == "" {
		return nil, nil, badInput("--reviewer is required")
	}
	sf := seduceFlags{taxonomy: f.taxonomy}
	tax, err := sf.loadTaxonomy()
	if err != nil {
		return nil, nil, err
	}
	st, err := a.openExistingStore(ctx, f.db)
	if err != nil {
		return nil, nil, err
	}
	p, err := review.Open(ctx, st, f.project, tax)
	if err != nil {
		st.Close()
		return nil, nil, reviewError(err)
	}
	return p, func() { st.Close() }, nil
}

func (a *app) reviewNewCmd() *cobra.Command {
	var f reviewFlags
	var dataset, reviewers string
	var seed int64
	cmd := &cobra.Command{
		Use:   "new",
		Short: "Start a review project over a dataset; prints its id",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			sf := seduceFlags{taxonomy: f.taxonomy}
			tax, err := sf.loadTaxonomy()
			if err != nil {
				return err
			}
			opt := review.NewOptions{Seed: seed, Taxonomy: tax}
			for r := range strings.SplitSeq(reviewers, ",") {
				if r = strings.TrimSpace(r); r != "" {
					opt.Reviewers = append(opt.Reviewers, r)
				}
			}
			if dataset == "" || dataset == "builtin" {
				ds, err := seduce.Builtin(tax)
				if err != nil {
					return err
				}
				opt.DatasetName, opt.Format, opt.Data = "reference.jsonl", seduce.FormatJSONL, review.EncodeDataset(ds)
			} else {
				format, err := seduce.FormatOf(dataset)
				if err != nil {
					return usageError{err}
				}
				data, err := input.ReadFile(ctx, dataset)
				if err != nil {
					return usageError{err}
				}
				opt.DatasetName, opt.Format, opt.Data = dataset, format, data
			}
			st, err := a.openStore(ctx, f.db)
			if err != nil {
				return err
			}
			defer st.Close()
			id, err := review.New(ctx, st, opt)
			if err != nil {
				return reviewError(err)
			}
			fmt.Fprintln(a.stdout, id)
			return nil
		},
	}
	dbFlag(cmd.Flags(), &f.db)
	cmd.Flags().StringVar(&f.taxonomy, "taxonomy", "", "skill taxonomy file (YAML) replacing the built-in 16 skills")
	cmd.Flags().StringVar(&dataset, "dataset", "builtin", "dataset file (JSONL or CSV) or builtin")
	cmd.Flags().StringVar(&reviewers, "reviewers", "", "reviewer names, comma-separated (at least three); rater 1 of a sample is the one named earlier")
	cmd.Flags().Int64Var(&seed, "seed", 1, "seed of the assignment and of the third-review sample")
	return cmd
}

func (a *app) reviewAssignmentsCmd() *cobra.Command {
	var f reviewFlags
	cmd := &cobra.Command{
		Use:   "assignments",
		Short: "What a reviewer still has to decide, in their order",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.format != "json" && f.format != "text" {
				return badInput("--format %q: want json or text", f.format)
			}
			p, done, err := a.openProject(cmd.Context(), &f, true)
			if err != nil {
				return err
			}
			defer done()
			ids, err := p.Remaining(cmd.Context(), f.reviewer)
			if err != nil {
				return reviewError(err)
			}
			if f.format == "text" {
				for _, id := range ids {
					fmt.Fprintln(a.stdout, id)
				}
				return nil
			}
			return json.NewEncoder(a.stdout).Encode(struct {
				Samples []seduce.SampleID `json:"samples"`
			}{ids})
		},
	}
	f.register(cmd, true)
	cmd.Flags().StringVarP(&f.format, "format", "f", "text", "output format: text (one id a line) or json")
	return cmd
}

func (a *app) reviewDecideCmd() *cobra.Command {
	var f reviewFlags
	var d review.Decision
	var sample string
	var sets []string
	cmd := &cobra.Command{
		Use:   "decide",
		Short: "Record a reviewer's decision on a sample (approve, correct with --set, reject)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if sample == "" || d.Decision == "" {
				return badInput("--sample and --decision are required")
			}
			d.Sample, d.Reviewer = seduce.SampleID(sample), f.reviewer
			for _, s := range sets {
				k, v, ok := strings.Cut(s, "=")
				if !ok {
					return badInput("--set %q: want field=value", s)
				}
				if d.Set == nil {
					d.Set = map[string]string{}
				}
				if _, dup := d.Set[k]; dup {
					return badInput("--set %s is given twice", k)
				}
				d.Set[k] = v
			}
			p, done, err := a.openProject(cmd.Context(), &f, true)
			if err != nil {
				return err
			}
			defer done()
			changed, err := p.Decide(cmd.Context(), d)
			if err != nil {
				return reviewError(err)
			}
			if !a.quiet && !changed {
				fmt.Fprintf(a.stderr, "%s: %s's decision was already %s; nothing changed\n", sample, f.reviewer, d.Decision)
			}
			return nil
		},
	}
	f.register(cmd, true)
	cmd.Flags().StringVar(&sample, "sample", "", "sample id")
	cmd.Flags().StringVar(&d.Decision, "decision", "", "approve, correct or reject")
	cmd.Flags().StringArrayVar(&sets, "set", nil, "field=value a correction sets (statement, context, truth, requires_roll, skill, gold_skill; repeatable)")
	cmd.Flags().StringVar(&d.Note, "note", "", "why (kept in the audit trail)")
	return cmd
}

func (a *app) reviewUndoCmd() *cobra.Command {
	var f reviewFlags
	var sample string
	cmd := &cobra.Command{
		Use:   "undo",
		Short: "Take back a reviewer's decision on a sample (kept in the audit trail)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, done, err := a.openProject(cmd.Context(), &f, true)
			if err != nil {
				return err
			}
			defer done()
			_, err = p.Undo(cmd.Context(), f.reviewer, seduce.SampleID(sample))
			return reviewError(err)
		},
	}
	f.register(cmd, true)
	cmd.Flags().StringVar(&sample, "sample", "", "sample id")
	return cmd
}

func (a *app) reviewAgreementCmd() *cobra.Command {
	var f reviewFlags
	cmd := &cobra.Command{
		Use:   "agreement",
		Short: "Agreement and Cohen's kappa between the first two reviewers, and the disagreements",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.format != "json" && f.format != "text" {
				return badInput("--format %q: want json or text", f.format)
			}
			p, done, err := a.openProject(cmd.Context(), &f, false)
			if err != nil {
				return err
			}
			defer done()
			ag, err := p.Agreement(cmd.Context())
			if err != nil {
				return err
			}
			if f.format == "json" {
				return json.NewEncoder(a.stdout).Encode(ag)
			}
			return writeAgreementText(a, ag)
		},
	}
	f.register(cmd, false)
	cmd.Flags().StringVarP(&f.format, "format", "f", "text", "output format: text or json")
	return cmd
}

func writeAgreementText(a *app, ag *review.Agreement) error {
	num := func(v *float64) string {
		if v == nil {
			return "—"
		}
		return fmt.Sprintf("%.3f", *v)
	}
	tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "samples\t%d\ndecided\t%d\ndouble reviewed\t%d\nthird reviewed\t%d\n", ag.Samples, ag.Decided, ag.DoubleReviewed, ag.ThirdReviewed)
	fmt.Fprintf(tw, "raw agreement\t%s\nkappa (decision)\t%s\nkappa (requires_roll)\t%s\n", num(ag.RawAgreement), num(ag.Kappa), num(ag.GroundTruth.Kappa))
	for _, c := range ag.ByCategory {
		fmt.Fprintf(tw, "%s\tn=%d raw %s kappa %s\n", c.Category, c.N, num(c.RawAgreement), num(c.Kappa))
	}
	for _, r := range ag.Reviewers {
		fmt.Fprintf(tw, "reviewer %s\t%d/%d decided\n", r.Reviewer, r.Decided, r.Assigned)
	}
	ids := make([]string, len(ag.Disagreements))
	for i, id := range ag.Disagreements {
		ids[i] = string(id)
	}
	fmt.Fprintf(tw, "disagreements\t%d %s\n", len(ids), strings.Join(ids, " "))
	return tw.Flush()
}

func (a *app) reviewExportCmd() *cobra.Command {
	var f reviewFlags
	var out string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the curated dataset (JSONL) and, beside it, the audit trail",
		Long: `Export writes the curated dataset: rejected samples left out, corrections applied,
review_status and reviewed_by on each (samples still unsettled are kept as they were, with
review_status pending or disputed). The audit trail goes beside it, in F.audit.jsonl (F
without its .jsonl).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return badInput("--out is required")
			}
			if strings.HasSuffix(strings.ToLower(out), ".csv") {
				return badInput("--out %s: the export is JSONL", out)
			}
			p, done, err := a.openProject(cmd.Context(), &f, false)
			if err != nil {
				return err
			}
			defer done()
			var data, trail bytes.Buffer
			sum, err := p.Export(cmd.Context(), &data)
			if err != nil {
				return err
			}
			if err := p.WriteAudit(cmd.Context(), &trail); err != nil {
				return err
			}
			auditPath := strings.TrimSuffix(out, filepath.Ext(out)) + ".audit.jsonl"
			if err := writeFileAtomic(out, data.Bytes()); err != nil {
				return err
			}
			if err := writeFileAtomic(auditPath, trail.Bytes()); err != nil {
				return err
			}
			if !a.quiet {
				fmt.Fprintf(a.stderr, "wrote %d samples to %s (%d corrected, %d rejected left out, %d pending, %d disputed); audit trail in %s\n",
					sum.Written, out, sum.Corrected, sum.Rejected, sum.Pending, sum.Disputed, auditPath)
			}
			return nil
		},
	}
	f.register(cmd, false)
	cmd.Flags().StringVar(&out, "out", "", "file the curated dataset is written to (JSONL)")
	return cmd
}

func (a *app) reviewInviteCmd() *cobra.Command {
	var f reviewFlags
	cmd := &cobra.Command{
		Use:   "invite",
		Short: "Print a reviewer's token for a public server (arbiter serve --public); an older one stops working",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, done, err := a.openProject(cmd.Context(), &f, true)
			if err != nil {
				return err
			}
			defer done()
			tok, err := p.Invite(cmd.Context(), f.reviewer)
			if err != nil {
				return reviewError(err)
			}
			fmt.Fprintln(a.stdout, tok)
			return nil
		},
	}
	f.register(cmd, true)
	return cmd
}
