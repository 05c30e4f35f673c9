package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/review"
)

// The review commands that read a project out: agreement, export, invite.

func (a *app) reviewAgreementCmd() *cobra.Command {
	var f reviewFlags
	cmd := a.projectCmd(&cobra.Command{Use: "agreement", Short: "Agreement and Cohen's kappa between the first two reviewers, and the disagreements"},
		&f, false, f.textOrJSON, func(ctx context.Context, p *review.Project) error {
			ag, err := p.Agreement(ctx)
			if err != nil {
				return err
			}
			if f.format == "json" {
				return json.NewEncoder(a.stdout).Encode(ag)
			}
			return ag.WriteText(a.stdout)
		})
	cmd.Flags().StringVarP(&f.format, "format", "f", "text", "output format: text or json")
	return cmd
}

func (a *app) reviewExportCmd() *cobra.Command {
	var f reviewFlags
	var out string
	valid := func() error {
		if out == "" {
			return badInput("--out is required")
		}
		if strings.HasSuffix(strings.ToLower(out), ".csv") {
			return badInput("--out %s: the export is JSONL", out)
		}
		return nil
	}
	cmd := a.projectCmd(&cobra.Command{Use: "export", Short: "Write the curated dataset (JSONL) and, beside it, the audit trail",
		Long: `Export writes the curated dataset: rejected samples left out, corrections applied,
review_status and reviewed_by on each (samples still unsettled are kept as they were, with
review_status pending or disputed). The audit trail goes beside it, in F.audit.jsonl (F
without its .jsonl).`}, &f, false, valid, func(ctx context.Context, p *review.Project) error {
		var data, trail bytes.Buffer
		sum, err := p.Export(ctx, &data)
		if err != nil {
			return err
		}
		if err := p.WriteAudit(ctx, &trail); err != nil {
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
	})
	cmd.Flags().StringVar(&out, "out", "", "file the curated dataset is written to (JSONL)")
	return cmd
}

func (a *app) reviewInviteCmd() *cobra.Command {
	var f reviewFlags
	return a.projectCmd(&cobra.Command{Use: "invite", Short: "Print a reviewer's token for a public server (arbiter serve --public); an older one stops working"},
		&f, true, nil, func(ctx context.Context, p *review.Project) error {
			tok, err := p.Invite(ctx, f.reviewer)
			if err != nil {
				return reviewError(err)
			}
			fmt.Fprintln(a.stdout, tok)
			return nil
		})
}
