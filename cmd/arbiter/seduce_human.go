package main

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// seduceHumanCmd groups the human corpus: statements people wrote against the Keeper in
// the web game (arbiter serve --keeper-model).
func (a *app) seduceHumanCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "human",
		Short: "The human corpus: statements people wrote in the Keeper game",
	}
	cmd.AddCommand(a.seduceHumanExportCmd())
	return cmd
}

func (a *app) seduceHumanExportCmd() *cobra.Command {
	var db, out string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the statements players agreed to share as a dataset (generator human)",
		Long: `Export writes every attempt of the Keeper game whose player agrees, now, that their
statements may be shared, as a CoC-Seduce dataset (seduce.md section 8): generator
"human", the attacked scenario's fields (scenario_id, setting, skill, gold_skill,
requires_roll true, context), the statement and the style the player chose, and author,
the player's pseudonym. A player who withdrew their consent has nothing exported, however
early they wrote. The file validates, goes through seduce review and runs with
seduce run --dataset like any other.`,
		Example: `  arbiter seduce human export --db arbiter.db --out human.jsonl
  arbiter seduce run --dataset human.jsonl -m openai/gpt-4.1-mini`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := a.openExistingStore(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer st.Close()
			var buf bytes.Buffer
			n, err := seduce.ExportHuman(cmd.Context(), st, &buf)
			if err != nil {
				return fmt.Errorf("export the human corpus: %w", err)
			}
			if out == "-" {
				_, err := a.stdout.Write(buf.Bytes())
				return err
			}
			if err := writeFileAtomic(out, buf.Bytes()); err != nil {
				return err
			}
			if !a.quiet {
				fmt.Fprintf(a.stderr, "arbiter: wrote %d shared statements to %s\n", n, out)
			}
			return nil
		},
	}
	dbFlag(cmd.Flags(), &db)
	cmd.Flags().StringVarP(&out, "out", "o", "-", "the dataset to write (JSONL; - for stdout)")
	return cmd
}
