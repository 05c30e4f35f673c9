package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

func (a *app) seduceMergeCmd() *cobra.Command {
	var out, taxonomy, format string
	var prefix bool
	cmd := &cobra.Command{
		Use:   "merge A B ... --out FILE",
		Short: "Join several generators' datasets into one corpus and count its cells",
		Long: `Join datasets (each validated first) into one corpus, e.g. the paper's three generators'
sets of 1,792 samples into 5,376. Unknown fields are kept. An id or scenario_id found in two
files is an error naming both, never renamed silently; --prefix-generator namespaces every
id and scenario_id by its generator first ("gpt-…", left as is when it already starts so).
The corpus is written to --out and a table of scenarios and samples per generator ×
setting × category is printed.`,
		Example: `  arbiter seduce merge gpt.jsonl claude.jsonl gemini.jsonl --out corpus.jsonl
  arbiter seduce merge a.jsonl b.jsonl --prefix-generator --out corpus.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return badInput("--format %q: want text or json", format)
			}
			if out == "" || out == "-" {
				return badInput("--out FILE is required: the corpus file to write (.jsonl)")
			}
			if format, err := seduce.FormatOf(out); err != nil || format != seduce.FormatJSONL {
				return badInput("--out %s: want a .jsonl file", out)
			}
			sf := seduceFlags{taxonomy: taxonomy}
			tax, err := sf.loadTaxonomy()
			if err != nil {
				return err
			}
			var sets []*seduce.Dataset
			for _, name := range args {
				ds, err := loadDatasets([]string{name}, tax)
				if err != nil {
					return err
				}
				sets = append(sets, ds)
			}
			m, err := seduce.Merge(sets, prefix)
			if err != nil {
				return usageError{err}
			}
			data, err := seduce.EncodeSamples(m.Samples, m.Extra)
			if err != nil {
				return err
			}
			if _, err := seduce.ReadDataset(strings.NewReader(string(data)), out, seduce.FormatJSONL, tax); err != nil {
				return usageError{fmt.Errorf("seduce merge: the merged corpus does not validate: %w", err)}
			}
			if err := writeFileAtomic(out, data); err != nil {
				return err
			}
			if format == "json" {
				b, err := json.MarshalIndent(map[string]any{"samples": len(m.Samples), "out": out, "counts": m.Counts}, "", "  ")
				if err != nil {
					return err
				}
				_, err = fmt.Fprintf(a.stdout, "%s\n", b)
				return err
			}
			if !a.quiet {
				writeMergeCounts(a, m, out)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "corpus file to write (JSONL; required)")
	cmd.Flags().StringVar(&taxonomy, "taxonomy", "", "skill taxonomy file (YAML) replacing the built-in 16 skills")
	cmd.Flags().StringVar(&format, "format", "text", "how the counts are printed: text or json")
	cmd.Flags().BoolVar(&prefix, "prefix-generator", false, "namespace every id and scenario_id by its generator")
	return cmd
}

func writeMergeCounts(a *app, m *seduce.Merged, out string) {
	tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "generator\tsetting\tcategory\tV=1 scenarios\tV=0 scenarios\tsamples")
	totals := map[string]int{}
	var gens []string
	for _, c := range m.Counts {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\n", c.Generator, c.Setting, c.Category, c.ScenariosV1, c.ScenariosV0, c.Samples)
		if _, ok := totals[c.Generator]; !ok {
			gens = append(gens, c.Generator)
		}
		totals[c.Generator] += c.Samples
	}
	tw.Flush()
	parts := make([]string, len(gens))
	for i, g := range gens {
		parts[i] = fmt.Sprintf("%s %d", g, totals[g])
	}
	fmt.Fprintf(a.stdout, "%d samples (%s) written to %s\n", len(m.Samples), strings.Join(parts, ", "), out)
}
