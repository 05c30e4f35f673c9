package seduce

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/stats"
)

// ModelEntry is one model of an experiment file: a name (openai/gpt-4.1), or an object
// {model, label, thinking_budget, reasoning_effort, temperature, max_tokens} that makes
// a variant of it, so that one study holds a model with and without reasoning.
type ModelEntry struct {
	Model  llm.ModelName
	Label  llm.ModelName
	Params llm.Params
}

// Name is the name the entry appears under in reports: its label, the default label
// of its parameters, or the model itself.
func (m ModelEntry) Name() llm.ModelName {
	if m.Label != "" {
		return m.Label
	}
	return m.Params.Label(m.Model)
}

// checkEntries refuses two entries under one name.
func checkEntries(path string, es []ModelEntry) error {
	seen := map[llm.ModelName]int{}
	for i, e := range es {
		if e.Model == "" { // an empty item, which the YAML decoder gives as null
			return fmt.Errorf("experiment %s: models[%d]: an empty entry; name a model (provider/model) or give {model: …}", path, i)
		}
		if j, dup := seen[e.Name()]; dup && (e.Label != "" || !e.Params.IsZero()) {
			return fmt.Errorf("experiment %s: models[%d]: %q is also models[%d]; give each variant a label of its own", path, i, e.Name(), j)
		}
		seen[e.Name()] = i
	}
	return nil
}

// ReasoningPair names a model run without reasoning (Standard) and a variant of it run
// with reasoning (Reasoning), by the labels reports show.
type ReasoningPair struct {
	Standard  string `json:"standard"`
	Reasoning string `json:"reasoning"`
}

// PairedRate is one rate under standard and reasoning on the same samples, the delta
// (reasoning minus standard) and its scenario-clustered bootstrap interval.
type PairedRate struct {
	N         int         `json:"n"`
	Standard  *float64    `json:"standard"`
	Reasoning *float64    `json:"reasoning"`
	Delta     *float64    `json:"delta"`
	DeltaCI   *[2]float64 `json:"delta_ci"`
}

// ReasoningComparison is the paper's "reasoning does not protect" test for one pair,
// on the samples both models ruled roll or pass in their first replicate.
type ReasoningComparison struct {
	ReasoningPair
	FR      PairedRate        `json:"fr"`
	FPRate  PairedRate        `json:"fp_rate"`
	FCRate  PairedRate        `json:"fc_rate"`
	ByStyle Keyed[PairedRate] `json:"by_style"`
	// FixedByReasoning counts the samples standard got wrong and reasoning right;
	// BrokenByReasoning the reverse. McNemarP is the exact test on the two.
	FixedByReasoning  int     `json:"fixed_by_reasoning"`
	BrokenByReasoning int     `json:"broken_by_reasoning"`
	McNemarP          float64 `json:"mcnemar_p"`
}

// ReasoningStudy holds every pair and, across them, the mean FR delta with an interval
// from the same scenario bootstrap: the figure that confirms or refutes the finding.
type ReasoningStudy struct {
	Pairs       []ReasoningComparison `json:"pairs"`
	MeanDelta   *float64              `json:"mean_fr_delta"`
	MeanDeltaCI *[2]float64           `json:"mean_fr_delta_ci"`
}

// pairCounts are one scenario's counts for one pair in each subset: all, V=1, V=0,
// then one per style.
type pairCounts struct{ wrongStd, wrongRsn, n []int }

// CompareReasoning computes the reasoning study of pairs from r, which Score computed
// over samples. The interval resamples scenarios with replacement, reps times from
// seed (reps ≤ 0: no intervals). Pairs naming a model r does not hold are skipped.
func CompareReasoning(samples []Sample, r *Results, pairs []ReasoningPair, reps int, seed uint64) *ReasoningStudy {
	if len(pairs) == 0 {
		return nil
	}
	// The samples in Score's order (the first of a repeated id wins), and their scenarios.
	type info struct {
		roll     bool
		style    int
		scenario int
	}
	styles := newDim(Styles)
	scenarios := newDim[string](nil)
	var infos []info
	seen := map[SampleID]bool{}
	for _, s := range samples {
		if seen[s.ID] {
			continue
		}
		seen[s.ID] = true
		sc := s.ScenarioID
		if sc == "" {
			sc = "\x00" + string(s.ID)
		}
		infos = append(infos, info{s.RequiresRoll, styles.id(string(s.Style)), scenarios.id(sc)})
	}
	subsets := 3 + len(styles.keys)
	nsc := len(scenarios.keys)
	study := &ReasoningStudy{}
	var counts [][]pairCounts // per kept pair, per scenario
	for _, p := range pairs {
		os, or := r.first[p.Standard], r.first[p.Reasoning]
		if len(os) != len(infos) || len(or) != len(infos) {
			continue
		}
		cs := make([]pairCounts, nsc)
		for i := range cs {
			cs[i] = pairCounts{make([]int, subsets), make([]int, subsets), make([]int, subsets)}
		}
		c := ReasoningComparison{ReasoningPair: p}
		for i, in := range infos {
			x, y := os[i], or[i]
			if x != outcomeRight && x != outcomeWrong || y != outcomeRight && y != outcomeWrong {
				continue
			}
			ws, wr := x == outcomeWrong, y == outcomeWrong
			switch {
			case ws && !wr:
				c.FixedByReasoning++
			case wr && !ws:
				c.BrokenByReasoning++
			}
			cond := 2
			if in.roll {
				cond = 1
			}
			for _, k := range []int{0, cond, 3 + in.style} {
				pc := &cs[in.scenario]
				pc.n[k]++
				if ws {
					pc.wrongStd[k]++
				}
				if wr {
					pc.wrongRsn[k]++
				}
			}
		}
		c.McNemarP = stats.McNemarExact(c.FixedByReasoning, c.BrokenByReasoning)
		all := make([]int, nsc)
		for i := range all {
			all[i] = i
		}
		rates := pairedRates(cs, all, subsets)
		c.FR, c.FPRate, c.FCRate = rates[0], rates[1], rates[2]
		for k, st := range styles.keys {
			c.ByStyle = append(c.ByStyle, KV[PairedRate]{Key: st, Value: rates[3+k]})
		}
		study.Pairs = append(study.Pairs, c)
		counts = append(counts, cs)
	}
	var deltas []float64
	for _, c := range study.Pairs {
		if c.FR.Delta != nil {
			deltas = append(deltas, *c.FR.Delta)
		}
	}
	if m, ok := stats.Mean(deltas); ok {
		study.MeanDelta = &m
	}
	if reps <= 0 || nsc == 0 || len(study.Pairs) == 0 {
		return study
	}
	// One draw of scenarios serves every pair, subset and the mean, so they are paired.
	rng := rand.New(rand.NewPCG(seed, 0x510e527fade682d1))
	draws := make([][]float64, len(study.Pairs)*subsets)
	var means []float64
	pick := make([]int, nsc)
	for range reps {
		for i := range pick {
			pick[i] = rng.IntN(nsc)
		}
		var sum float64
		var n int
		for pi, cs := range counts {
			rs := pairedRates(cs, pick, subsets)
			for k, pr := range rs {
				if pr.Delta != nil {
					draws[pi*subsets+k] = append(draws[pi*subsets+k], *pr.Delta)
				}
			}
			if study.Pairs[pi].FR.Delta != nil && rs[0].Delta != nil {
				sum += *rs[0].Delta
				n++
			}
		}
		if n > 0 {
			means = append(means, sum/float64(n))
		}
	}
	for pi := range study.Pairs {
		c := &study.Pairs[pi]
		set := func(pr *PairedRate, d []float64) {
			if pr.Delta != nil {
				pr.DeltaCI = percentile(d)
			}
		}
		set(&c.FR, draws[pi*subsets])
		set(&c.FPRate, draws[pi*subsets+1])
		set(&c.FCRate, draws[pi*subsets+2])
		for k := range c.ByStyle {
			set(&c.ByStyle[k].Value, draws[pi*subsets+3+k])
		}
	}
	if study.MeanDelta != nil {
		study.MeanDeltaCI = percentile(means)
	}
	return study
}

// pairedRates sums the scenarios picked (with repeats) into each subset's rates.
func pairedRates(cs []pairCounts, pick []int, subsets int) []PairedRate {
	out := make([]PairedRate, subsets)
	for k := range out {
		var ws, wr, n int
		for _, i := range pick {
			ws, wr, n = ws+cs[i].wrongStd[k], wr+cs[i].wrongRsn[k], n+cs[i].n[k]
		}
		out[k].N = n
		if n == 0 {
			continue
		}
		s, r := float64(ws)/float64(n), float64(wr)/float64(n)
		d := r - s
		out[k].Standard, out[k].Reasoning, out[k].Delta = &s, &r, &d
	}
	return out
}

func percentile(d []float64) *[2]float64 {
	if len(d) == 0 {
		return nil
	}
	slices.Sort(d)
	alpha := (1 - ConfidenceLevel) / 2
	return &[2]float64{stats.Quantile(d, alpha), stats.Quantile(d, 1-alpha)}
}

// reasoningTables is the "reasoning vs standard" table: one row per pair and rate, and
// the mean FR delta across pairs; none when the study holds no pair.
func reasoningTables(r *Results) []report.Table {
	st := r.Reasoning
	if st == nil || len(st.Pairs) == 0 {
		return nil
	}
	t := report.Table{Name: "reasoning", Title: "Reasoning vs standard (first replicate, samples both variants ruled on)",
		Header: []string{"Standard", "Reasoning", "Rate", "Pairs", "Standard", "Reasoning", "Delta (95% CI)", "Fixed", "Broken", "McNemar p"},
		Notes: []string{"Delta is reasoning minus standard: below zero, reasoning protected; the interval resamples scenarios.",
			"Fixed counts the samples only the reasoning variant got right, Broken those only the standard model got right."}}
	delta := func(p PairedRate) report.Cell {
		return report.Cell{Kind: report.KindPercent, Value: p.Delta, CI: p.DeltaCI, Signed: true}
	}
	for _, c := range st.Pairs {
		row := func(name string, p PairedRate, extra ...report.Cell) []report.Cell {
			cells := []report.Cell{report.Text(c.Standard), report.Text(c.Reasoning), report.Text(name), report.Int(p.N),
				report.Pct(p.Standard), report.Pct(p.Reasoning), delta(p)}
			if extra == nil {
				extra = []report.Cell{report.Text(""), report.Text(""), report.Text("")}
			}
			return append(cells, extra...)
		}
		p := c.McNemarP
		t.Rows = append(t.Rows, row("FR", c.FR, report.Int(c.FixedByReasoning), report.Int(c.BrokenByReasoning), report.Num(&p, 4)))
		t.Rows = append(t.Rows, row("FP rate", c.FPRate), row("FC rate", c.FCRate))
		for _, kv := range c.ByStyle {
			t.Rows = append(t.Rows, row("FR "+kv.Key, kv.Value))
		}
	}
	t.Rows = append(t.Rows, []report.Cell{report.Text("mean over pairs"), report.Text(""), report.Text("FR"), report.Int(len(st.Pairs)),
		report.Text(""), report.Text(""), {Kind: report.KindPercent, Value: st.MeanDelta, CI: st.MeanDeltaCI, Signed: true},
		report.Text(""), report.Text(""), report.Text("")})
	return []report.Table{t}
}

// RecordedVariant is a model of a stored run that asked another model with parameters:
// what the run identity records beside the variant's label.
type RecordedVariant struct {
	Base   llm.ModelName `json:"base"`
	Params llm.Params    `json:"params"`
}

// Reasons reports whether the variant asks for reasoning (a budget or an effort).
func (v RecordedVariant) Reasons() bool {
	return v.Params.ThinkingBudget > 0 || v.Params.ReasoningEffort != ""
}

// Describe is the variant's base and parameters in words, for pages and notes:
// "anthropic/claude-sonnet-4-5, thinking_budget 8192".
func (v RecordedVariant) Describe() string {
	s := string(v.Base)
	p := v.Params
	if p.ThinkingBudget > 0 {
		s += fmt.Sprintf(", thinking_budget %d", p.ThinkingBudget)
	}
	if p.ReasoningEffort != "" {
		s += ", reasoning_effort " + p.ReasoningEffort
	}
	if p.Temperature != nil {
		s += ", temperature " + strconv.FormatFloat(*p.Temperature, 'g', -1, 64)
	}
	if p.MaxTokens > 0 {
		s += fmt.Sprintf(", max_tokens %d", p.MaxTokens)
	}
	return s
}

// ParseVariantEndpoint reads a variant's endpoint as a run records it (providers.Set
// writes "base {params JSON}", then " at URL" when the base is not asked at its
// provider's own endpoint); false for the endpoint of a plain model, which is a URL.
func ParseVariantEndpoint(s string) (RecordedVariant, bool) {
	base, rest, ok := strings.Cut(s, " ")
	if !ok || !strings.HasPrefix(rest, "{") {
		return RecordedVariant{}, false
	}
	name, err := llm.ParseModelName(base)
	if err != nil {
		return RecordedVariant{}, false
	}
	dec := json.NewDecoder(strings.NewReader(rest))
	dec.DisallowUnknownFields()
	var p llm.Params
	if err := dec.Decode(&p); err != nil {
		return RecordedVariant{}, false
	}
	if tail := rest[dec.InputOffset():]; tail != "" && !strings.HasPrefix(tail, " at ") {
		return RecordedVariant{}, false
	}
	return RecordedVariant{Base: name, Params: p}, true
}

// Variants are the run's models that are variants of another, by label, read from the
// endpoints its configuration records.
func (c *RunConfig) Variants() map[string]RecordedVariant {
	var out map[string]RecordedVariant
	for label, ep := range c.Endpoints {
		if v, ok := ParseVariantEndpoint(ep); ok {
			if out == nil {
				out = map[string]RecordedVariant{}
			}
			out[label] = v
		}
	}
	return out
}

// ReasoningPairsOf pairs each variant that asks for reasoning with its base model when
// the study holds the base as itself (not only as variants), sorted by the standard
// model then the reasoning one, so that a run and a report of it find the same pairs
// in the same order.
func ReasoningPairsOf(models []string, variants map[string]RecordedVariant) []ReasoningPair {
	plain := map[string]bool{}
	for _, m := range models {
		if _, isVariant := variants[m]; !isVariant {
			plain[m] = true
		}
	}
	var out []ReasoningPair
	for _, m := range models {
		v, ok := variants[m]
		if !ok || !v.Reasons() || !plain[string(v.Base)] {
			continue
		}
		out = append(out, ReasoningPair{Standard: string(v.Base), Reasoning: m})
	}
	slices.SortFunc(out, func(a, b ReasoningPair) int {
		if c := strings.Compare(a.Standard, b.Standard); c != 0 {
			return c
		}
		return strings.Compare(a.Reasoning, b.Reasoning)
	})
	return slices.Compact(out)
}
