package seduce

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/arbiter-eval/arbiter/internal/input"
)

// ParsedLine is one output line of `arbiter seduce parse`: Skill is null when the reply
// named none. Rule and Span, the rule that decided and the text it read, are written
// only when explaining.
type ParsedLine struct {
	ID       string   `json:"id"`
	Decision Decision `json:"decision"`
	Skill    *string  `json:"skill"`
	Rule     string   `json:"rule,omitempty"`
	Span     *string  `json:"span,omitempty"`
	// ParsedBy is "model" for a ruling a model read after the rules left it unparsed.
	ParsedBy string `json:"parsed_by,omitempty"`
	// Text is the reply itself, written only when exporting the unparsed replies: the
	// line is then an input line of `seduce parse` again, ready to label by hand or to
	// read with --parse-model.
	Text *string `json:"text,omitempty"`
}

// ParseOptions are how `arbiter seduce parse` reads replies.
type ParseOptions struct {
	Taxonomy *Taxonomy // nil: DefaultTaxonomy
	Lexicon  *Lexicon  // nil: DefaultLexicon
	// Explain adds to each line the rule that decided and the span of text it read.
	Explain bool
	// Rules, when set, keeps only the lines whose deciding rule is one of them (the
	// abstentions of one kind: "conditional", "contradiction", "none", …).
	Rules []string
	// Unparsed keeps only the replies left unparsed, each with its text: an export of
	// the abstentions to review in bulk.
	Unparsed bool
	// Second, when set, may replace the unparsed rulings of all the lines at once (a
	// model's reading, see ModelParse): the whole input is then read before any line is
	// written, and a bad line writes nothing.
	Second func(texts []string, parsed []Parsed) error
}

// ParseLine parses one input line {"id": …, "text": …}.
func ParseLine(line []byte, tax *Taxonomy) (ParsedLine, error) {
	return parseLine(line, ParseOptions{Taxonomy: tax})
}

func parseLine(line []byte, opt ParseOptions) (ParsedLine, error) {
	out, _, err := parseKept(line, opt)
	return out, err
}

// parseKept parses one input line and says whether opt's filters keep it.
func parseKept(line []byte, opt ParseOptions) (ParsedLine, bool, error) {
	id, text, err := readLine(line)
	if err != nil {
		return ParsedLine{}, false, err
	}
	p := ParseReplyWith(text, opt.Taxonomy, opt.Lexicon)
	return lineOf(id, text, p, opt), opt.keeps(p), nil
}

// keeps says whether a ruling passes the --rule and --unparsed filters.
func (opt ParseOptions) keeps(p Parsed) bool {
	if opt.Unparsed && p.Decision != DecisionUnparsed {
		return false
	}
	return len(opt.Rules) == 0 || slices.Contains(opt.Rules, p.Rule)
}

// lineOf is the output line for a reply's ruling.
func lineOf(id, text string, p Parsed, opt ParseOptions) ParsedLine {
	out := ParsedLine{ID: id, Decision: p.Decision}
	if opt.Unparsed {
		out.Text = &text
	}
	if opt.Explain {
		span := p.Span
		out.Rule, out.Span = p.Rule, &span
	}
	if p.How == HowModel {
		out.ParsedBy = "model"
	}
	if p.Skill != "" {
		skill := p.Skill
		out.Skill = &skill
	}
	return out
}

// readLine reads the id and text of one input line.
func readLine(line []byte) (id, text string, err error) {
	var in struct {
		ID   *json.RawMessage `json:"id"`
		Text *string          `json:"text"`
	}
	if err := json.Unmarshal(line, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return "", "", fmt.Errorf("%s: want a string", te.Field)
		}
		return "", "", fmt.Errorf("json: not a JSON object: %s", jsonProblem(err))
	}
	if in.ID == nil {
		return "", "", fmt.Errorf("id: missing")
	}
	if err := json.Unmarshal(*in.ID, &id); err != nil {
		return "", "", fmt.Errorf("id: want a string, got %s", describeJSON(*in.ID))
	}
	if in.Text == nil {
		return "", "", fmt.Errorf("text: missing")
	}
	return id, *in.Text, nil
}

// ParseLines is `arbiter seduce parse`: it reads {"id": …, "text": …} lines from r and
// writes one {"id": …, "decision": …, "skill": …} line per input line to w, in the same
// order. Blank lines are skipped. It stops at the first bad line with an error naming
// name and the line number; lines before it have been written.
func ParseLines(r io.Reader, name string, w io.Writer, tax *Taxonomy) error {
	return ParseLinesWith(r, name, w, ParseOptions{Taxonomy: tax})
}

// ParseLinesWith is ParseLines with a lexicon and, when explaining, the rule and span
// of each ruling.
func ParseLinesWith(r io.Reader, name string, w io.Writer, opt ParseOptions) error {
	if opt.Taxonomy == nil {
		opt.Taxonomy = DefaultTaxonomy()
	}
	if opt.Lexicon == nil {
		opt.Lexicon = DefaultLexicon()
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if opt.Second != nil {
		return parseAll(r, name, enc, opt)
	}
	for l, err := range input.Lines(context.Background(), r, name) {
		if err != nil {
			return err
		}
		trimmed := bytes.TrimSpace(l.Text)
		if len(trimmed) == 0 {
			continue
		}
		out, keep, perr := parseKept(trimmed, opt)
		if perr != nil {
			return fmt.Errorf("%s:%d: %w", name, l.N, perr)
		}
		if !keep {
			continue
		}
		if werr := enc.Encode(out); werr != nil {
			return fmt.Errorf("parse %s:%d: write: %w", name, l.N, werr)
		}
	}
	return nil
}

// parseAll reads every line, lets opt.Second read again what the rules left unparsed,
// then writes every line.
func parseAll(r io.Reader, name string, enc *json.Encoder, opt ParseOptions) error {
	var ids, texts []string
	var parsed []Parsed
	for l, err := range input.Lines(context.Background(), r, name) {
		if err != nil {
			return err
		}
		trimmed := bytes.TrimSpace(l.Text)
		if len(trimmed) == 0 {
			continue
		}
		id, text, err := readLine(trimmed)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, l.N, err)
		}
		ids, texts = append(ids, id), append(texts, text)
		parsed = append(parsed, ParseReplyWith(text, opt.Taxonomy, opt.Lexicon))
	}
	if err := opt.Second(texts, parsed); err != nil {
		return err
	}
	for i, id := range ids {
		if !opt.keeps(parsed[i]) {
			continue
		}
		if err := enc.Encode(lineOf(id, texts[i], parsed[i], opt)); err != nil {
			return fmt.Errorf("parse %s: write: %w", name, err)
		}
	}
	return nil
}
