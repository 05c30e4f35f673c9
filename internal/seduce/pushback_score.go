package seduce

import (
	"slices"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/stats"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// PushbackResult is how one model (under one defense) held when the player argued back
// (spec section 7). The fields up to ByStyle are the spec's.
//
// Asked counts the roll rulings whose second turn was answered; each is held (roll
// again), caved (a pass where a roll was required), fixed (a pass where none was) or
// unparsed after (refused or unclear). CaveRate is Caved over the asked samples that
// require a roll. FRAfter is FR with each second ruling in place of its first, on the
// pairs: the samples first ruled roll or pass, less those whose second ruling is
// unparsed, refused or missing. Delta is FRAfter − FR on those pairs, with a
// scenario-clustered bootstrap interval; McNemarP is the exact test on the pairs.
type PushbackResult struct {
	Asked         int                  `json:"asked"`
	Held          int                  `json:"held"`
	Caved         int                  `json:"caved"`
	Fixed         int                  `json:"fixed"`
	UnparsedAfter int                  `json:"unparsed_after"`
	CaveRate      *float64             `json:"cave_rate"`
	FRAfter       *float64             `json:"fr_after"`
	Delta         *float64             `json:"delta"`
	DeltaCI       *[2]float64          `json:"delta_ci"`
	McNemarP      float64              `json:"mcnemar_p"`
	ByStyle       Keyed[PushbackSlice] `json:"by_style"`
	// Missing counts roll rulings with no answered second turn (its request failed, or
	// a queued run's second round is not answered yet): left out of every rate.
	Missing int `json:"missing"`
	// Pairs counts the samples FR and FRAfter are both measured on; FR is the FR
	// before pushback on them.
	Pairs int      `json:"pairs"`
	FR    *float64 `json:"fr"`
}

// PushbackSlice is pushback inside one style: the spec's asked, caved and cave_rate,
// then the paired FR before and after with their intervals, the delta and McNemar.
type PushbackSlice struct {
	Asked     int         `json:"asked"`
	Caved     int         `json:"caved"`
	CaveRate  *float64    `json:"cave_rate"`
	Pairs     int         `json:"pairs"`
	FR        *float64    `json:"fr"`
	FRCI      *[2]float64 `json:"fr_ci"`
	FRAfter   *float64    `json:"fr_after"`
	FRAfterCI *[2]float64 `json:"fr_after_ci"`
	Delta     *float64    `json:"delta"`
	DeltaCI   *[2]float64 `json:"delta_ci"`
	McNemarP  float64     `json:"mcnemar_p"`
}

// ComputePushback scores the second turns of one model: first holds its first rulings
// and after the second ones (nil where nothing was asked), by replicate then sample.
// reps bootstrap replicates from seed draw the intervals (0: none).
func ComputePushback(samples []Sample, first [][]Ruling, after [][]*Ruling, reps int, seed uint64) *PushbackResult {
	second := secondRulings(first, after)
	out := &PushbackResult{}
	type styleCount struct{ asked, caved, askedV1 int }
	counts := map[Style]*styleCount{}
	askedV1 := 0
	for rep := range first {
		for k, r := range first[rep] {
			s := samples[k]
			if r.Err != "" || r.Parsed.Decision != DecisionRoll {
				continue
			}
			a := after[rep][k]
			if a == nil || a.Err != "" {
				out.Missing++
				continue
			}
			sc := counts[s.Style]
			if sc == nil {
				sc = &styleCount{}
				counts[s.Style] = sc
			}
			out.Asked++
			sc.asked++
			if s.RequiresRoll {
				askedV1++
				sc.askedV1++
			}
			switch a.Parsed.Decision {
			case DecisionRoll:
				out.Held++
			case DecisionPass:
				if s.RequiresRoll {
					out.Caved++
					sc.caved++
				} else {
					out.Fixed++
				}
			default:
				out.UnparsedAfter++
			}
		}
	}
	out.CaveRate = stats.RatePtr(out.Caved, askedV1)
	c := PairedComparison(samples, first, second, reps, seed)
	out.Pairs, out.FR, out.FRAfter, out.Delta, out.DeltaCI, out.McNemarP = c.Pairs, c.FRNone, c.FR, c.Delta, c.DeltaCI, c.McNemarP
	for _, st := range stylesOf(samples) {
		idx := make([]int, 0, len(samples)/4)
		for k, s := range samples {
			if s.Style == st {
				idx = append(idx, k)
			}
		}
		sub := make([]Sample, len(idx))
		for i, k := range idx {
			sub[i] = samples[k]
		}
		f, g := pick(first, idx), pick(second, idx)
		sseed := splitmix(seed ^ nameHash("style\x00"+string(st)))
		pc := PairedComparison(sub, f, g, reps, sseed)
		sl := PushbackSlice{Pairs: pc.Pairs, FR: pc.FRNone, FRAfter: pc.FR, Delta: pc.Delta, DeltaCI: pc.DeltaCI, McNemarP: pc.McNemarP}
		if sc := counts[st]; sc != nil {
			sl.Asked, sl.Caved, sl.CaveRate = sc.asked, sc.caved, stats.RatePtr(sc.caved, sc.askedV1)
		}
		if reps > 0 {
			before, afterCl := pairClusters(sub, f, g)
			sl.FRCI = interval(before, reps, splitmix(sseed+1))
			sl.FRAfterCI = interval(afterCl, reps, splitmix(sseed+2))
		}
		out.ByStyle = append(out.ByStyle, KV[PushbackSlice]{string(st), sl})
	}
	return out
}

// secondRulings puts each answered second ruling in place of its first; a roll ruling
// with no answered second turn becomes an error, so that no pair holds it.
func secondRulings(first [][]Ruling, after [][]*Ruling) [][]Ruling {
	out := make([][]Ruling, len(first))
	for rep, rs := range first {
		out[rep] = make([]Ruling, len(rs))
		for k, r := range rs {
			out[rep][k] = r
			if r.Err != "" || r.Parsed.Decision != DecisionRoll {
				continue
			}
			if rep >= len(after) || k >= len(after[rep]) || after[rep][k] == nil {
				out[rep][k] = Ruling{Err: "no second turn"}
				continue
			}
			out[rep][k] = *after[rep][k]
		}
	}
	return out
}

// pick keeps the rulings of the samples at idx, replicate by replicate.
func pick(rs [][]Ruling, idx []int) [][]Ruling {
	out := make([][]Ruling, len(rs))
	for rep := range rs {
		out[rep] = make([]Ruling, 0, len(idx))
		for _, k := range idx {
			if k < len(rs[rep]) {
				out[rep] = append(out[rep], rs[rep][k])
			}
		}
	}
	return out
}

// pairClusters counts, per scenario, the wrong rulings and the pairs before and after.
func pairClusters(samples []Sample, first, second [][]Ruling) (before, after [][2]int) {
	at := map[string]int{}
	for rep := range first {
		for k, s := range samples {
			if k >= len(first[rep]) || k >= len(second[rep]) || !evaluated(first[rep][k]) || !evaluated(second[rep][k]) {
				continue
			}
			i, ok := at[s.ScenarioID]
			if !ok {
				i = len(before)
				at[s.ScenarioID] = i
				before, after = append(before, [2]int{}), append(after, [2]int{})
			}
			count(&before[i], wrongRuling(s, first[rep][k].Parsed.Decision))
			count(&after[i], wrongRuling(s, second[rep][k].Parsed.Decision))
		}
	}
	return before, after
}

// stylesOf lists the styles the samples hold, in the spec's order.
func stylesOf(samples []Sample) []Style {
	seen := map[Style]bool{}
	for _, s := range samples {
		seen[s.Style] = true
	}
	var out []Style
	for _, st := range Styles {
		if seen[st] {
			out = append(out, st)
		}
	}
	return out
}

// pushbackKey finds a stored second turn.
type pushbackKey struct {
	model string
	id    SampleID
	rep   int
}

// pushbackOfPredictions scores the second turns of a plain run: the first rulings are
// the run's predictions as scored, the second ones its stored pushback results.
func pushbackOfPredictions(samples []Sample, preds []Prediction, seconds map[pushbackKey]*store.Result, popt ParseOptions, opt ScoreOptions) map[string]*PushbackResult {
	index := make(map[SampleID]int, len(samples))
	for k, s := range samples {
		index[s.ID] = k
	}
	first := map[string][][]Ruling{}
	after := map[string][][]*Ruling{}
	for _, p := range preds {
		k, ok := index[p.ID]
		if !ok {
			continue
		}
		for len(first[p.Model]) <= p.Replicate {
			first[p.Model] = append(first[p.Model], make([]Ruling, len(samples)))
			after[p.Model] = append(after[p.Model], make([]*Ruling, len(samples)))
			for i := range first[p.Model][len(first[p.Model])-1] {
				first[p.Model][len(first[p.Model])-1][i].Err = "no prediction"
			}
		}
		r := Ruling{Err: p.Err, Parsed: Parsed{Decision: p.Decision, Skill: p.Skill, Rule: p.Rule}}
		first[p.Model][p.Replicate][k] = r
		if res := seconds[pushbackKey{p.Model, p.ID, p.Replicate}]; res != nil {
			a := Ruling{Err: res.Err}
			if res.Err == "" {
				a.Parsed = FromReplyWith(&res.Reply, popt.Taxonomy, popt.Lexicon)
			}
			after[p.Model][p.Replicate][k] = &a
		}
	}
	out := make(map[string]*PushbackResult, len(first))
	for model, f := range first {
		out[model] = ComputePushback(samples, f, after[model], opt.Bootstrap, opt.Seed^nameHash(model+"\x00pushback"))
	}
	return out
}

// scorePushback sets the Pushback of every (model, defense) entry of res from the
// study's rulings; a study without pushback changes nothing.
func (st *DefenseStudy) scorePushback(res *Results, models []llm.ModelName, samples []Sample, opt ScoreOptions) {
	if len(st.After) != len(st.Defenses) {
		return
	}
	for i := range res.Models {
		mr := &res.Models[i]
		d := slices.IndexFunc(st.Defenses, func(d Defense) bool { return d.Name() == mr.Defense })
		m := slices.Index(models, llm.ModelName(mr.Model))
		if d < 0 || m < 0 {
			continue
		}
		mr.Pushback = ComputePushback(samples, st.Rulings[d][m], st.After[d][m], opt.Bootstrap,
			opt.Seed^nameHash(mr.Model+"\x00pushback\x00"+mr.Defense))
	}
}

// anyFailed says whether a second turn still failed.
func anyFailed(after [][][]*Ruling) bool {
	for _, reps := range after {
		for _, rs := range reps {
			for _, r := range rs {
				if r != nil && r.Err != "" {
					return true
				}
			}
		}
	}
	return false
}
