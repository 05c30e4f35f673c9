package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/store"
)

func (a *app) runsCmd() *cobra.Command {
	var db, kind string
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List the runs in a results store",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			st, err := a.openExistingStore(ctx, db)
			if err != nil {
				return err
			}
			defer st.Close()
			runs, err := st.Runs(ctx, store.Kind(kind))
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "RUN\tKIND\tSTATUS\tSTARTED\tANSWERED\tFAILED\tTOKENS")
			for _, r := range runs {
				s, err := st.RunStats(ctx, r.ID)
				if err != nil {
					return err
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\n", r.ID, r.Kind, r.Status, r.StartedAt.Format("2006-01-02 15:04"),
					s.Answered, s.Failed, s.InputTokens+s.OutputTokens)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			return a.showWorkers(ctx, st, runs)
		},
	}
	dbFlag(cmd.Flags(), &db)
	cmd.Flags().StringVar(&kind, "kind", "", "only runs of this kind: seduce, check-augment, check-filter or check-judge")
	return cmd
}
