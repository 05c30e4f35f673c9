package seduce

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// MergeCount is how many scenarios and samples one generator gives one cell (setting ×
// category) of a merged corpus.
type MergeCount struct {
	Generator   string   `json:"generator"`
	Setting     Setting  `json:"setting"`
	Category    Category `json:"category"`
	ScenariosV1 int      `json:"scenarios_v1"`
	ScenariosV0 int      `json:"scenarios_v0"`
	Samples     int      `json:"samples"`
}

// Merged is one corpus made of several datasets.
type Merged struct {
	Samples []Sample
	Extra   map[SampleID]map[string]json.RawMessage
	Counts  []MergeCount
}

// Merge joins datasets into one corpus, in order. An id or scenario_id found in two files
// is an error naming both; with prefix, every id and scenario_id is first namespaced by
// its generator ("gpt-…"), unless it already starts with it.
func Merge(sets []*Dataset, prefix bool) (*Merged, error) {
	m := &Merged{Extra: map[SampleID]map[string]json.RawMessage{}}
	idFrom := map[SampleID]string{}
	scenarioFrom := map[string]string{}
	for _, ds := range sets {
		local := map[string]bool{}
		for _, s := range ds.Samples {
			orig := s.ID
			if prefix {
				s.ID = SampleID(namespaced(s.Generator, string(s.ID)))
				s.ScenarioID = namespaced(s.Generator, s.ScenarioID)
			}
			if f, ok := idFrom[s.ID]; ok {
				return nil, fmt.Errorf("merge: id %q is in both %s and %s (rename one, or pass --prefix-generator to namespace ids by generator)", s.ID, f, ds.Name)
			}
			idFrom[s.ID] = ds.Name
			if f, ok := scenarioFrom[s.ScenarioID]; ok && !local[s.ScenarioID] {
				return nil, fmt.Errorf("merge: scenario_id %q is in both %s and %s (rename one, or pass --prefix-generator to namespace ids by generator)", s.ScenarioID, f, ds.Name)
			}
			scenarioFrom[s.ScenarioID], local[s.ScenarioID] = ds.Name, true
			if x := ds.Extra[orig]; len(x) > 0 {
				m.Extra[s.ID] = x
			}
			m.Samples = append(m.Samples, s)
		}
	}
	m.Counts = countCells(m.Samples)
	return m, nil
}

func namespaced(generator, id string) string {
	if strings.HasPrefix(id, generator+"-") {
		return id
	}
	return generator + "-" + id
}

// countCells counts scenarios and samples per generator × setting × category, ordered by
// generator as first met, then setting and category in report order.
func countCells(samples []Sample) []MergeCount {
	type key struct {
		g string
		s Setting
		c Category
	}
	counts := map[key]*MergeCount{}
	scen := map[string]bool{}
	var gens []string
	for _, s := range samples {
		k := key{s.Generator, s.Setting, s.Category}
		c := counts[k]
		if c == nil {
			c = &MergeCount{Generator: s.Generator, Setting: s.Setting, Category: s.Category}
			counts[k] = c
		}
		if !slices.Contains(gens, s.Generator) {
			gens = append(gens, s.Generator)
		}
		c.Samples++
		if !scen[s.ScenarioID] {
			scen[s.ScenarioID] = true
			if s.RequiresRoll {
				c.ScenariosV1++
			} else {
				c.ScenariosV0++
			}
		}
	}
	out := make([]MergeCount, 0, len(counts))
	for _, c := range counts {
		out = append(out, *c)
	}
	rank := func(xs []string, x string) int {
		if i := slices.Index(xs, x); i >= 0 {
			return i
		}
		return len(xs)
	}
	setRank := func(s Setting) int {
		return rank([]string{string(Setting1920s), string(Setting2020s), string(SettingWilderness), string(SettingChina)}, string(s))
	}
	catRank := func(c Category) int { return rank([]string{"CMB", "PHY", "PRO", "INV"}, string(c)) }
	slices.SortFunc(out, func(a, b MergeCount) int {
		if d := rank(gens, a.Generator) - rank(gens, b.Generator); d != 0 {
			return d
		}
		if d := setRank(a.Setting) - setRank(b.Setting); d != 0 {
			return d
		}
		if d := strings.Compare(string(a.Setting), string(b.Setting)); d != 0 {
			return d
		}
		if d := catRank(a.Category) - catRank(b.Category); d != 0 {
			return d
		}
		return strings.Compare(string(a.Category), string(b.Category))
	})
	return out
}
