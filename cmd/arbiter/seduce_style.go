package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/stylometry"
)

func (a *app) seduceStyleCmd() *cobra.Command {
	var f seduceFlags
	var stopWords string
	var top int
	cmd := &cobra.Command{
		Use:   "style",
		Short: "Compare the generators' rhetoric: statement length, em-dashes, distinctive words",
		Long: `Style measures the player's statements of a dataset per generator and style (paper
section 5.2): the mean length in o200k_base tokens (with its standard deviation) and in
words, em-dashes (U+2014) per 100 tokens, and the words that set each generator apart:
its top TF-IDF terms against the other generators (idf ln(N/df), so a word they all use
never ranks; also per generator x style against every such pair) beside its words of
highest z-scored log-odds ratio against all the others (Monroe, Colaresi and Quinn 2008).
No model is asked; the tokenizer is built in.

--format json prints the shape of spec seduce.md section 5; --figures DIR also writes the
em-dash chart as SVG.`,
		Example: `  arbiter seduce style --dataset corpus.jsonl
  arbiter seduce style --dataset gpt.jsonl --dataset claude.jsonl --format md --figures figs`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(f.format); err != nil {
				return err
			}
			if top < 1 {
				return badInput("--top %d: want at least 1", top)
			}
			opt := stylometry.Options{TopTerms: top}
			if stopWords != "" {
				words, err := readStopWords(stopWords)
				if err != nil {
					return err
				}
				opt.StopWords = words
			}
			tax, err := f.loadTaxonomy()
			if err != nil {
				return err
			}
			ds, err := loadDatasets(f.datasets, tax)
			if err != nil {
				return err
			}
			rep, err := stylometry.Measure(ds.Samples, opt)
			if err != nil {
				return err
			}
			if err := stylometry.Write(a.stdout, rep, f.format); err != nil {
				return fmt.Errorf("write style report: %w", err)
			}
			return f.figures.writeListed(a.stdout, f.format, []report.Figure{stylometry.Figure(rep)})
		},
	}
	f.registerData(cmd)
	reportFormatFlag(cmd.Flags(), &f.format)
	f.figures.register(cmd, "figure")
	cmd.Flags().StringVar(&stopWords, "stop-words", "", "stop-word file (one word a line, # comments) replacing the built-in list")
	cmd.Flags().IntVar(&top, "top", stylometry.DefaultTopTerms, "TF-IDF terms and log-odds words listed per generator (and TF-IDF terms per generator x style)")
	return cmd
}

// readStopWords reads a --stop-words file; a bad one is bad input.
func readStopWords(path string) (map[string]bool, error) {
	fh, err := input.Open(path)
	if err != nil {
		return nil, usageError{err}
	}
	defer fh.Close()
	words, err := stylometry.ParseStopWords(fh, path)
	if err != nil {
		return nil, usageError{err}
	}
	return words, nil
}
