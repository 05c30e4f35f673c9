package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) courtCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "court",
		Short: "The LLM Court: play the defense, simulate trials, generate and check case records",
		Long: `The LLM Court: a courtroom where LLM agents play the judge, the prosecutor and the
witnesses, under a fixed procedure, and the defense is played by a person or a model.

  play       play the defense in the terminal (the browser game is 'arbiter serve', /court)
  simulate   run cases × seeds as trials with a model or a script for the defense, one
             transcript per trial for 'arbiter check judge'
  generate   have a model write a case record from a prior ("theft case"), validated
  cases      list the bundled and stored cases, export one to a file
  validate   check case records against the contract

Case records (JSON, or JSONL with one per line) follow ../shared/spec/court.md section 1;
five cases are bundled (summit-ridge, chateau-trespass, museum-code, dukes-yard,
haunted-estate). --cases takes builtin, a file or folder, stored (every case in the store)
or stored:ID.`,
	}
	cmd.AddCommand(a.courtValidateCmd())
	cmd.AddCommand(a.courtGenerateCmd(), a.courtCasesCmd(), a.courtPlayCmd(), a.courtSimulateCmd(), a.courtWatchCmd())
	return cmd
}

func (a *app) courtValidateCmd() *cobra.Command {
	var path, db string
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check case records against the contract; exit 2 listing every error",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cases, err := a.loadCourtCases(cmd.Context(), path, db)
			if err != nil {
				return err
			}
			for _, c := range cases {
				fmt.Fprintf(a.stdout, "%s: ok: %s (%s), %d evidence, %d witnesses\n",
					c.ID, c.Title, c.Kind, len(c.Evidence), len(c.Witnesses))
			}
			fmt.Fprintf(a.stdout, "%d case(s) valid\n", len(cases))
			return nil
		},
	}
	cmd.Flags().StringVar(&path, "cases", "builtin", "case records: a .json or .jsonl file, a folder of them, builtin, or stored[:ID] (cases kept in --db)")
	dbFlag(cmd.Flags(), &db)
	return cmd
}
