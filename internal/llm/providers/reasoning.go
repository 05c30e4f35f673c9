package providers

import (
	"encoding/json"
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// Arrange makes the set's models the entries, in their order: an entry with neither
// parameters nor a label is its base model itself, any other is a variant of it. Every
// base must be in the set; a model no entry names is dropped, so only what was asked
// for is run. Parameters a provider cannot carry, and two models under one label, are
// errors naming the model, before any request.
//
// An entry is a spec whose Label may be empty (the default label of its parameters).
func (s *Set) Arrange(entries []llm.Spec) error {
	if s.variants == nil {
		s.variants = map[llm.ModelName]*llm.Variant{}
	}
	var names []llm.ModelName
	seen := map[llm.ModelName]bool{}
	for _, e := range entries {
		inner, ok := s.Models[e.Base]
		if !ok {
			return fmt.Errorf("model %s: not opened", e.Base)
		}
		if _, isVariant := s.variants[e.Base]; isVariant {
			return fmt.Errorf("model %s: a variant cannot be the base of another", e.Base)
		}
		label := e.Base
		var v *llm.Variant
		if e.Label != "" || !e.Params.IsZero() {
			var err error
			if v, err = llm.NewVariant(inner, e.Base, e.Label, e.Params); err != nil {
				return err
			}
			label = v.Name()
		}
		if seen[label] {
			if _, taken := s.variants[label]; v == nil && !taken {
				continue // a base named twice is asked once
			}
			return fmt.Errorf("model %s: label %q is used twice; give each variant a label of its own", e.Base, label)
		}
		seen[label] = true
		names = append(names, label)
		if v != nil {
			s.variants[label] = v
			s.local[label] = s.local[e.Base]
		}
	}
	models := make(map[llm.ModelName]llm.Model, len(names))
	for _, n := range names {
		if v, ok := s.variants[n]; ok {
			models[n] = v
		} else {
			models[n] = s.Models[n]
		}
	}
	for n := range s.local {
		if !seen[n] {
			delete(s.local, n)
		}
	}
	s.Models, s.Names = models, names
	return nil
}

// Variant is the variant under label, or nil when label names a plain model.
func (s *Set) Variant(label llm.ModelName) *llm.Variant { return s.variants[label] }

// Label is the label under which a model named on the command line runs: the name
// itself when the set holds it, else the label of the one variant of it that the flags
// made (--reasoning-effort on a command whose roles name their models).
func (s *Set) Label(name llm.ModelName) llm.ModelName {
	if _, ok := s.Models[name]; ok {
		return name
	}
	found, n := name, 0
	for label, v := range s.variants {
		if v.Base() == name {
			found, n = label, n+1
		}
	}
	if n == 1 {
		return found
	}
	return name
}

// Spec is the model under label as data, for the run's record and for every way its
// requests are sent.
func (s *Set) Spec(label llm.ModelName) llm.Spec {
	if v, ok := s.variants[label]; ok {
		return v.Spec()
	}
	return llm.PlainSpec(label)
}

// Specs are the specs of the set's models, in its order.
func (s *Set) Specs() []llm.Spec {
	out := make([]llm.Spec, len(s.Names))
	for i, n := range s.Names {
		out[i] = s.Spec(n)
	}
	return out
}

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
