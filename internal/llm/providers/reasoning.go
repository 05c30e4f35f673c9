package providers

import (
	"encoding/json"
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// VariantSpec asks for a variant of an opened model: Base with Params under Label
// (the default label when empty).
type VariantSpec struct {
	Base   llm.ModelName
	Label  llm.ModelName
	Params llm.Params
}

// AddVariants turns the set's models into the variants specs ask for. A spec's base
// must be in the set; a base no spec keeps as itself is dropped from Names, so that
// only what was asked for is run. Parameters a provider cannot carry, and two models
// under one label, are errors naming the model, before any request.
func (s *Set) AddVariants(specs []VariantSpec, keepBase map[llm.ModelName]bool) error {
	if len(specs) == 0 {
		return nil
	}
	if s.variants == nil {
		s.variants = map[llm.ModelName]*llm.Variant{}
	}
	var names []llm.ModelName
	seen := map[llm.ModelName]bool{}
	for _, n := range s.Names {
		if keepBase[n] {
			names = append(names, n)
			seen[n] = true
		}
	}
	for _, sp := range specs {
		inner, ok := s.Models[sp.Base]
		if !ok {
			return fmt.Errorf("model %s: not opened", sp.Base)
		}
		if _, isVariant := s.variants[sp.Base]; isVariant {
			return fmt.Errorf("model %s: a variant cannot be the base of another", sp.Base)
		}
		v, err := llm.NewVariant(inner, sp.Base, sp.Label, sp.Params)
		if err != nil {
			return err
		}
		label := v.Name()
		if seen[label] {
			return fmt.Errorf("model %s: label %q is used twice; give each variant a label of its own", sp.Base, label)
		}
		seen[label] = true
		names = append(names, label)
		s.variants[label] = v
		s.local[label] = s.local[sp.Base]
		s.Models[label] = v
	}
	for n := range s.Models {
		if !seen[n] {
			delete(s.Models, n)
		}
	}
	s.Names = names
	return nil
}

// Variant is the variant under label, or nil when label names a plain model.
func (s *Set) Variant(label llm.ModelName) *llm.Variant { return s.variants[label] }

// variantEndpoint identifies a variant for the cache and the run's identity: the
// model it asks, where (when not the provider's own endpoint), and its parameters, so
// that changing only a budget asks again even under the same label.
func (s *Set) variantEndpoint(v *llm.Variant) string {
	b, err := json.Marshal(v.Params())
	if err != nil {
		// Params holds only numbers and a string.
		panic(err)
	}
	out := string(v.Base()) + " " + string(b)
	if ep := s.Endpoint(v.Base()); ep != "" {
		out += " at " + ep
	}
	return out
}
