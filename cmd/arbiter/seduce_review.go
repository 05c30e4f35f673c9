package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

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
	var dataset, reviewers, adjudicators string
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
			opt.Adjudicators = splitNames(adjudicators)
			if err := opt.DatasetInput(ctx, dataset); err != nil {
				return usageError{err}
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
			owner, err := review.NewOwnerToken(ctx, st, id)
			if err != nil {
				return err
			}
			fmt.Fprintln(a.stdout, id)
			fmt.Fprintf(a.stderr, "arbiter: the owner's token (the agreement page: /review/%s/agreement?token=…): %s\n", id, owner)
			return nil
		},
	}
	dbFlag(cmd.Flags(), &f.db)
	cmd.Flags().StringVar(&f.taxonomy, "taxonomy", "", "skill taxonomy file (YAML) replacing the built-in 16 skills")
	cmd.Flags().StringVar(&dataset, "dataset", "builtin", "dataset file (JSONL or CSV) or builtin")
	cmd.Flags().StringVar(&reviewers, "reviewers", "", "reviewer names, comma-separated (at least three); rater 1 of a sample is the one named earlier")
	cmd.Flags().StringVar(&adjudicators, "adjudicators", "", "reviewers who may settle disputed samples, comma-separated")
	cmd.Flags().Int64Var(&seed, "seed", 1, "seed of the assignment and of the third-review sample")
	return cmd
}

func splitNames(s string) []string {
	var out []string
	for r := range strings.SplitSeq(s, ",") {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, r)
		}
	}
	return out
}

func (a *app) reviewAssignmentsCmd() *cobra.Command {
	var f reviewFlags
	cmd := a.projectCmd(&cobra.Command{Use: "assignments", Short: "What a reviewer still has to decide, in their order"}, &f, true,
		f.textOrJSON, func(ctx context.Context, p *review.Project) error {
			ids, err := p.Remaining(ctx, f.reviewer)
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
		})
	cmd.Flags().StringVarP(&f.format, "format", "f", "text", "output format: text (one id a line) or json")
	return cmd
}

// projectCmd makes cmd a review subcommand on one open project: valid (when set) checks
// the flags first, then do runs with the project open (and a reviewer named when
// needReviewer).
func (a *app) projectCmd(cmd *cobra.Command, f *reviewFlags, needReviewer bool, valid func() error,
	do func(ctx context.Context, p *review.Project) error) *cobra.Command {
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if valid != nil {
			if err := valid(); err != nil {
				return err
			}
		}
		p, done, err := a.openProject(cmd.Context(), f, needReviewer)
		if err != nil {
			return err
		}
		defer done()
		return do(cmd.Context(), p)
	}
	f.register(cmd, needReviewer)
	return cmd
}

// textOrJSON refuses a --format other than text and json.
func (f *reviewFlags) textOrJSON() error {
	if f.format != "json" && f.format != "text" {
		return badInput("--format %q: want json or text", f.format)
	}
	return nil
}

func (a *app) reviewDecideCmd() *cobra.Command {
	var f reviewFlags
	var d review.Decision
	var sample string
	var sets []string
	valid := func() error {
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
		return nil
	}
	cmd := a.projectCmd(&cobra.Command{Use: "decide", Short: "Record a reviewer's decision on a sample (approve, correct with --set, reject)"},
		&f, true, valid, func(ctx context.Context, p *review.Project) error {
			changed, err := p.Decide(ctx, d)
			if err != nil {
				return reviewError(err)
			}
			if !a.quiet && !changed {
				fmt.Fprintf(a.stderr, "%s: %s's decision was already %s; nothing changed\n", sample, f.reviewer, d.Decision)
			}
			return nil
		})
	cmd.Flags().StringVar(&sample, "sample", "", "sample id")
	cmd.Flags().StringVar(&d.Decision, "decision", "", "approve, correct or reject")
	cmd.Flags().StringArrayVar(&sets, "set", nil, "field=value a correction sets (statement, context, truth, requires_roll, skill, gold_skill; repeatable)")
	cmd.Flags().StringVar(&d.Note, "note", "", "why (kept in the audit trail)")
	return cmd
}

func (a *app) reviewUndoCmd() *cobra.Command {
	var f reviewFlags
	var sample string
	cmd := a.projectCmd(&cobra.Command{Use: "undo", Short: "Take back a reviewer's decision on a sample (kept in the audit trail)"},
		&f, true, nil, func(ctx context.Context, p *review.Project) error {
			_, err := p.Undo(ctx, f.reviewer, seduce.SampleID(sample))
			return reviewError(err)
		})
	cmd.Flags().StringVar(&sample, "sample", "", "sample id")
	return cmd
}
