package seduce

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/arbiter-eval/arbiter/internal/input"
)

// PredictionKey is one model's ruling on one sample in one replicate: spec section 4's
// n counts samples, so a key may come only once.
type PredictionKey struct {
	Model, ID string
	Replicate int
}

// ReadPredictions reads spec section 2 lines from r, named path in errors; a line with
// text instead of decision is parsed as the runner would parse it. Any bad line rejects
// the whole file, and the error lists every bad line. seen holds the keys already read,
// with where, across every predictions file of a command; ReadPredictions adds to it.
func ReadPredictions(r io.Reader, path string, tax *Taxonomy, seen map[PredictionKey]string) ([]Prediction, error) {
	return ReadPredictionsWith(r, path, ParseOptions{Taxonomy: tax}, seen)
}

// ReadPredictionsWith is ReadPredictions parsing text with opt's taxonomy and lexicon;
// a prediction parsed from text keeps the deciding rule in Rule.
func ReadPredictionsWith(r io.Reader, path string, opt ParseOptions, seen map[PredictionKey]string) ([]Prediction, error) {
	tax := opt.Taxonomy
	if tax == nil {
		tax = DefaultTaxonomy()
	}
	var out []Prediction
	var problems input.Errors
	for l, err := range input.Lines(context.Background(), r, path) {
		if err != nil {
			return nil, err
		}
		n, line := l.N, bytes.TrimSpace(l.Text)
		if len(line) == 0 {
			continue
		}
		var p Prediction
		if err := json.Unmarshal(line, &p); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				problems.Addf(path, n, "", "%s: want %s, got a JSON %s", te.Field, jsonKind(te.Type.Kind()), te.Value)
			} else {
				problems.Addf(path, n, "", "not a JSON object: %v", err)
			}
			continue
		}
		// "text": "" is a reply that said nothing, unparsed as in `parse`; only a line
		// with neither text nor decision is incomplete.
		var hasText struct {
			Text *string `json:"text"`
		}
		_ = json.Unmarshal(line, &hasText) // the line decoded above
		key := PredictionKey{p.Model, string(p.ID), p.Replicate}
		if first, dup := seen[key]; dup && p.ID != "" && p.Model != "" {
			problems.Addf(path, n, "", "id: %q already has a prediction from %s at %s; give repeats distinct \"replicate\" numbers", p.ID, p.Model, first)
			continue
		}
		seen[key] = fmt.Sprintf("%s:%d", path, n)
		switch {
		case p.ID == "":
			problems.Addf(path, n, "", "id: missing")
		case p.Model == "":
			problems.Addf(path, n, "", "model: missing")
		case p.Decision == "" && hasText.Text == nil && p.Err == "":
			problems.Addf(path, n, "", "decision: missing (give decision or text)")
		case p.Decision != "":
			switch p.Decision {
			case DecisionRoll, DecisionPass, DecisionRefused, DecisionUnparsed:
				if c, ok := tax.Canonical(p.Skill); ok {
					p.Skill = c
				}
			default:
				problems.Addf(path, n, "", "decision: %q is not roll, pass, refused or unparsed", p.Decision)
			}
		default:
			if p.Err == "" {
				parsed := ParseReplyWith(p.Text, tax, opt.Lexicon)
				p.Decision, p.Skill, p.Rule = parsed.Decision, parsed.Skill, parsed.Rule
			}
		}
		out = append(out, p)
	}
	if err := problems.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// jsonKind names what a field of kind k holds, in JSON's words.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a " + k.String()
}
