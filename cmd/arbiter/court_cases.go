package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// originBuiltin is the origin the listing gives a bundled case.
const originBuiltin = "builtin"

func (a *app) courtCasesCmd() *cobra.Command {
	var db, format, export, out, importFile string
	cmd := &cobra.Command{
		Use:   "cases",
		Short: "List the bundled and stored case records, export one to a file, or import one",
		Long: `List the five bundled case records and every case kept in the results store (by
'arbiter court generate', or saved from the game), with where each came from.

--export ID writes one case record file (to --out, or stdout), which 'arbiter court validate
--cases FILE' loads back. --import FILE validates a case record file written by hand (.json,
or .jsonl for several) and stores its cases, which makes them playable in the browser
('arbiter serve'); a case whose id is taken, by a bundled or a stored case, is refused and
then nothing is stored. Court commands read stored cases with --cases stored (every one)
or --cases stored:ID.`,
		Example: `  arbiter court cases
  arbiter court cases --export riverside-theft --out riverside-theft.json
  arbiter court cases --import my-case.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if format != "text" && format != "json" {
				return badInput("--format %q: want text or json", format)
			}
			if importFile != "" && export != "" {
				return badInput("--import and --export: one at a time")
			}
			if export == "" && out != "-" {
				return badInput("--out is for --export ID: say which case to write")
			}
			st, err := a.openStore(ctx, db)
			if err != nil {
				return err
			}
			defer st.Close()
			if export != "" {
				return a.exportCourtCase(ctx, st, export, out)
			}
			if importFile != "" {
				return a.importCourtCases(ctx, st, importFile)
			}
			return a.listCourtCases(ctx, st, format)
		},
	}
	fs := cmd.Flags()
	dbFlag(fs, &db)
	fs.StringVarP(&format, "format", "f", "text", "listing format: text or json")
	fs.StringVar(&export, "export", "", "write the case with this id as a case record file")
	fs.StringVarP(&out, "out", "o", "-", "the file --export writes (- for stdout)")
	fs.StringVar(&importFile, "import", "", "validate the case records in this file and store them (playable in 'arbiter serve')")
	return cmd
}

// caseEntry is one line of the listing.
type caseEntry struct {
	ID      string     `json:"case_id"`
	Title   string     `json:"title"`
	Kind    string     `json:"kind"`
	Origin  string     `json:"origin"`
	Prior   string     `json:"prior,omitempty"`
	Model   string     `json:"model,omitempty"`
	Created *time.Time `json:"created,omitempty"`
}

func (a *app) listCourtCases(ctx context.Context, st *store.Store, format string) error {
	builtin, err := court.Builtin()
	if err != nil {
		return err
	}
	var entries []caseEntry
	for _, c := range builtin {
		entries = append(entries, caseEntry{ID: c.ID, Title: c.Title, Kind: string(c.Kind), Origin: originBuiltin})
	}
	stored, err := st.CourtCases(ctx)
	if err != nil {
		return err
	}
	for _, sc := range stored {
		var head struct {
			Title string `json:"title"`
			Kind  string `json:"kind"`
		}
		_ = json.Unmarshal(sc.Record, &head) // a record is validated before it is stored
		created := sc.Created
		entries = append(entries, caseEntry{ID: sc.ID, Title: head.Title, Kind: head.Kind, Origin: string(sc.Origin),
			Prior: sc.Prior, Model: sc.Model, Created: &created})
	}
	if format == "json" {
		if entries == nil {
			entries = []caseEntry{}
		}
		b, err := json.MarshalIndent(map[string]any{"cases": entries}, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(a.stdout, "%s\n", b)
		return err
	}
	tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tTITLE\tKIND\tORIGIN\tPRIOR\tMODEL\tDATE")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, e := range entries {
		date := "-"
		if e.Created != nil {
			date = e.Created.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.ID, e.Title, e.Kind, e.Origin, dash(e.Prior), dash(e.Model), date)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(stored) == 0 {
		fmt.Fprintf(a.stderr, "no stored cases in %s: 'arbiter court generate --prior TEXT --model M' writes one\n", st.Path())
	}
	return nil
}

// exportCourtCase writes the case id, a stored one before a bundled one, as a case
// record file.
func (a *app) exportCourtCase(ctx context.Context, st *store.Store, id, out string) error {
	var record []byte
	sc, err := st.CourtCase(ctx, id)
	switch {
	case err == nil:
		record = sc.Record
	case errors.Is(err, store.ErrNotFound):
		builtin, berr := court.Builtin()
		if berr != nil {
			return berr
		}
		for _, c := range builtin {
			if c.ID == id {
				if record, err = json.Marshal(c); err != nil {
					return err
				}
			}
		}
		if record == nil {
			return badInput("--export %s: no such case in store %s nor among the bundled cases (see 'arbiter court cases')", id, st.Path())
		}
	default:
		return err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, record, "", "  "); err != nil {
		return fmt.Errorf("export case %s: %w", id, err)
	}
	pretty.WriteByte('\n')
	if err := writeOut(out, a.stdout, pretty.Bytes()); err != nil {
		return err
	}
	if out != "-" && !a.quiet {
		fmt.Fprintf(a.stderr, "wrote case %s to %s\n", id, out)
	}
	return nil
}

// importCourtCases validates the case file path and stores its cases: all of them, or
// none when one is invalid or its id is taken.
func (a *app) importCourtCases(ctx context.Context, st *store.Store, path string) error {
	cases, err := court.LoadCases(path)
	if err != nil {
		return usageError{err}
	}
	builtin, err := court.Builtin()
	if err != nil {
		return err
	}
	for _, c := range cases {
		taken := slices.ContainsFunc(builtin, func(b *court.Case) bool { return b.ID == c.ID })
		if _, err := st.CourtCase(ctx, c.ID); err == nil {
			taken = true
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if taken {
			return badInput("--import %s: case_id %q is taken (see 'arbiter court cases'); give the case another id", path, c.ID)
		}
	}
	for _, c := range cases {
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if err := st.AddCourtCase(ctx, store.CourtCase{ID: c.ID, Origin: store.CaseSaved, Record: b}); err != nil {
			return err
		}
		if !a.quiet {
			fmt.Fprintf(a.stderr, "stored case %s (%s) in %s: play it with 'arbiter serve' or 'arbiter court play --cases stored:%s'\n", c.ID, c.Title, st.Path(), c.ID)
		}
	}
	return nil
}

// storedCourtCases reads the cases kept in the store at db: every one when id is "",
// else the one named. A stored record is checked like a file, labelled stored:ID.
func (a *app) storedCourtCases(ctx context.Context, db, id string) ([]*court.Case, error) {
	st, err := a.openStore(ctx, db)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var stored []*store.CourtCase
	if id != "" {
		sc, err := st.CourtCase(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil, badInput("--cases stored:%s: no such case in store %s (see 'arbiter court cases')", id, st.Path())
		}
		if err != nil {
			return nil, err
		}
		stored = append(stored, sc)
	} else if stored, err = st.CourtCases(ctx); err != nil {
		return nil, err
	}
	if len(stored) == 0 {
		return nil, badInput("--cases stored: no cases in store %s: 'arbiter court generate' writes one", st.Path())
	}
	var cases []*court.Case
	var errs []court.FieldError
	for _, sc := range stored {
		cs, err := court.ParseCases(sc.Record, "stored:"+sc.ID)
		var ve *court.ValidationError
		switch {
		case errors.As(err, &ve):
			errs = append(errs, ve.Errs...)
		case err != nil:
			return nil, err
		default:
			cases = append(cases, cs...)
		}
	}
	if len(errs) > 0 {
		return nil, usageError{&court.ValidationError{Errs: errs}}
	}
	return cases, nil
}
