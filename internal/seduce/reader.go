package seduce

import (
	"encoding/json"
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// ReaderSettings are how a benchmark run reads its replies, recorded with the run
// (store.Run.Reader): the taxonomy and the added lexicons as text, not as paths, so
// that a worker on another machine, the report and the web pages read every reply as
// the machine that began the run did.
type ReaderSettings struct {
	// Taxonomy is the taxonomy's YAML ("" for the built-in one).
	Taxonomy string `json:"taxonomy,omitempty"`
	// TaxonomyName is where it was read from, for errors.
	TaxonomyName string `json:"taxonomy_name,omitempty"`
	// Lexicons are the texts of the lexicon files added to the built-in ones.
	Lexicons []string `json:"lexicons,omitempty"`
}

// ReaderOf is the settings of tax and lex (nil: the built-in ones) as a run records them.
func ReaderOf(tax *Taxonomy, lex *Lexicon) json.RawMessage {
	var rs ReaderSettings
	if tax != nil && tax != DefaultTaxonomy() {
		rs.Taxonomy, rs.TaxonomyName = string(tax.Text()), tax.Source
	}
	if lex != nil {
		for _, t := range lex.Extensions() {
			rs.Lexicons = append(rs.Lexicons, string(t))
		}
	}
	b, err := json.Marshal(rs)
	if err != nil {
		panic(err) // strings only
	}
	return b
}

// Reading is the taxonomy and lexicon a run's replies are read with.
type Reading struct {
	Taxonomy *Taxonomy
	Lexicon  *Lexicon
}

// ReadingOf opens the reading a stored benchmark run recorded. A run recorded before
// readings were kept has none: it is read as its configuration names (the taxonomy and
// lexicon files at their paths), else with the built-in ones.
func ReadingOf(run *store.Run) (Reading, error) {
	if len(run.Reader) == 0 {
		cfg, err := RunConfigOf(run)
		if err != nil {
			return Reading{}, err
		}
		r := Reading{Taxonomy: DefaultTaxonomy()}
		if cfg.Taxonomy != "" {
			if r.Taxonomy, err = LoadTaxonomy(cfg.Taxonomy); err != nil {
				return Reading{}, fmt.Errorf("run %s: %w", run.ID, err)
			}
		}
		if len(cfg.Lexicons) > 0 {
			if r.Lexicon, err = LoadLexicons(cfg.Lexicons); err != nil {
				return Reading{}, &LexiconsError{Run: run.ID, Lexicons: cfg.Lexicons, Err: err}
			}
		}
		return r, nil
	}
	var rs ReaderSettings
	if err := json.Unmarshal(run.Reader, &rs); err != nil {
		return Reading{}, fmt.Errorf("run %s: reader: %w", run.ID, err)
	}
	r := Reading{Taxonomy: DefaultTaxonomy()}
	if rs.Taxonomy != "" {
		t, err := ParseTaxonomy([]byte(rs.Taxonomy), rs.TaxonomyName)
		if err != nil {
			return Reading{}, fmt.Errorf("run %s: recorded taxonomy: %w", run.ID, err)
		}
		r.Taxonomy = t
	}
	if len(rs.Lexicons) > 0 {
		texts := make([][]byte, len(rs.Lexicons))
		names := make([]string, len(rs.Lexicons))
		for i, t := range rs.Lexicons {
			texts[i], names[i] = []byte(t), fmt.Sprintf("recorded lexicon %d", i+1)
		}
		lex, err := ParseLexicons(texts, names)
		if err != nil {
			return Reading{}, fmt.Errorf("run %s: %w", run.ID, err)
		}
		r.Lexicon = lex
	}
	return r, nil
}

// Read is a reply as this reading stores it beside the reply.
func (r Reading) Read(reply *llm.Reply) string {
	return OutcomeOf(FromReplyWith(reply, r.Taxonomy, r.Lexicon))
}

// OpenReader is the reader of a stored benchmark run: how a worker reads the replies
// of a run it did not begin. It is the benchmark's entry in runner.Readers.
func OpenReader(run *store.Run) (func(*llm.Reply) string, error) {
	r, err := ReadingOf(run)
	if err != nil {
		return nil, err
	}
	return r.Read, nil
}
