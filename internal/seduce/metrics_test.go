package seduce_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// updateFlag registers -update unless a test file of package seduce already did: both
// live in one test binary, and package seduce's tests are initialised first.
func updateFlag() bool {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files in testdata")
	}
	return true
}

var _ = updateFlag()

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// scenario builds the four rhetorical variants of one scenario truth.
func scenario(id, gen string, setting seduce.Setting, cat seduce.Category, skill string, roll bool) []seduce.Sample {
	var out []seduce.Sample
	for _, st := range seduce.Styles {
		out = append(out, seduce.Sample{
			ID: seduce.SampleID(id + "-" + string(st)[:1]), Generator: gen, Setting: setting, Category: cat,
			Skill: skill, ScenarioID: id, Style: st, RequiresRoll: roll, GoldSkill: skill,
		})
	}
	return out
}

// fixture is a small dataset with three generators, no Ancient China sample, and three
// target models exercising refusals, unparsed replies, errors, replicates, skill aliases,
// missing skills and unknown ids.
func fixture() ([]seduce.Sample, []seduce.Prediction) {
	samples := slices.Concat(
		scenario("a", "gpt", seduce.Setting1920s, seduce.CategoryCombat, "Fighting", true),
		scenario("b", "gpt", seduce.SettingWilderness, seduce.CategoryPhysical, "Climb", false),
		scenario("c", "gemini", seduce.SettingWilderness, seduce.CategoryInvestigation, "Spot Hidden", true),
		scenario("d", "claude", seduce.Setting2020s, seduce.CategoryPhysical, "Climb", true),
	)
	const gpt, claude, local = "openai/gpt-4.1", "anthropic/claude-sonnet-4.5", "local/mystery-7b"
	p := func(model, id string, d seduce.Decision, skill string) seduce.Prediction {
		return seduce.Prediction{ID: seduce.SampleID(id), Model: model, Decision: d, Skill: skill}
	}
	roll, pass := seduce.DecisionRoll, seduce.DecisionPass
	preds := []seduce.Prediction{
		{ID: "a-N", Model: gpt, Decision: roll, Skill: "Fighting", LatencyMS: 100},
		{ID: "a-A", Model: gpt, Decision: roll, Skill: "Brawl", LatencyMS: 300},
		{ID: "a-P", Model: gpt, Decision: pass, LatencyMS: 200},
		p(gpt, "a-O", roll, ""),
		p(gpt, "b-N", pass, ""),
		p(gpt, "b-A", pass, ""),
		p(gpt, "b-P", roll, "Climb"),
		p(gpt, "b-O", seduce.DecisionRefused, ""),
		p(gpt, "c-N", roll, "spot hidden"),
		p(gpt, "c-A", pass, ""),
		p(gpt, "c-P", pass, ""),
		p(gpt, "c-O", seduce.DecisionUnparsed, ""),
		p(gpt, "d-N", roll, "Climb"),
		p(gpt, "d-A", roll, "Jump"),
		p(gpt, "d-P", pass, ""),
		{ID: "d-O", Model: gpt, Err: "status 503 after 5 attempts", LatencyMS: 9000},
		{ID: "d-O", Model: gpt, Decision: roll, Skill: "Climb", Replicate: 1, LatencyMS: 400},
		p(gpt, "zzz", roll, "Climb"),

		p(claude, "a-N", roll, "fighting"),
		p(claude, "a-A", roll, "Brawl"),
		p(claude, "a-P", roll, "Brawl"),
		p(claude, "a-O", pass, ""),
		{ID: "a-O", Model: claude, Decision: roll, Skill: "Fighting", Replicate: 1},
		p(claude, "c-N", seduce.DecisionRefused, ""),
		p(claude, "c-A", seduce.DecisionRefused, ""),
		p(claude, "c-P", seduce.DecisionRefused, ""),
		p(claude, "c-O", seduce.DecisionRefused, ""),
		p(claude, "d-N", roll, "Climb"),
		p(claude, "d-A", roll, "climb"),
		p(claude, "d-P", roll, "Climb"),
		p(claude, "d-O", pass, ""),

		p(local, "b-N", pass, ""),
		{ID: "b-A", Model: local, Text: "Hmm, hard to say."},
		{ID: "a-N", Model: local, Err: "context deadline exceeded"},
		{ID: "a-A", Model: local, Err: "context deadline exceeded"},
		p(local, "nope", pass, ""),
	}
	return samples, preds
}

func canon(s string) string {
	if strings.EqualFold(s, "Brawl") {
		return "Fighting"
	}
	return s
}

func ptr(v float64) *float64 { return &v }

// naive recomputes one model's FR over the samples in, straight from the definitions:
// a linear scan with no indexes, so it shares nothing with Score.
func naive(samples []seduce.Sample, preds []seduce.Prediction, model string, in func(seduce.Sample) bool) seduce.SliceFR {
	var n, fail int
	for _, p := range preds {
		if p.Model != model || p.Err != "" || (p.Decision != seduce.DecisionRoll && p.Decision != seduce.DecisionPass) {
			continue
		}
		for _, s := range samples {
			if s.ID == p.ID && in(s) {
				n++
				if (p.Decision == seduce.DecisionRoll) != s.RequiresRoll {
					fail++
				}
			}
		}
	}
	if n == 0 {
		return seduce.SliceFR{}
	}
	return seduce.SliceFR{N: n, FR: ptr(float64(fail) / float64(n))}
}

func sameRate(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Abs(*a-*b) < 1e-12
}

func show(p *float64) any {
	if p == nil {
		return "null"
	}
	return *p
}

func TestScoreIndependent(t *testing.T) {
	samples, preds := fixture()
	res := seduce.Score(samples, preds, seduce.ScoreOptions{Canon: canon})
	if len(res.Models) != 3 {
		t.Fatalf("Score: %d models; want 3", len(res.Models))
	}
	for _, m := range res.Models {
		t.Run(m.Model, func(t *testing.T) {
			check := func(what string, got seduce.SliceFR, in func(seduce.Sample) bool) {
				t.Helper()
				want := naive(samples, preds, m.Model, in)
				if got.N != want.N || !sameRate(got.FR, want.FR) {
					t.Errorf("%s = {%d %v}; want {%d %v}", what, got.N, show(got.FR), want.N, show(want.FR))
				}
			}
			all := func(seduce.Sample) bool { return true }
			check("overall", seduce.SliceFR{N: m.Evaluated, FR: m.FR}, all)
			check("fp_rate", seduce.SliceFR{N: m.ByCondition[0].Value.N, FR: m.FPRate}, func(s seduce.Sample) bool { return s.RequiresRoll })
			check("fc_rate", seduce.SliceFR{N: m.ByCondition[1].Value.N, FR: m.FCRate}, func(s seduce.Sample) bool { return !s.RequiresRoll })
			for _, st := range seduce.Styles {
				got, _ := m.ByStyle.Get(string(st))
				check("by_style "+string(st), got, func(s seduce.Sample) bool { return s.Style == st })
				for _, se := range seduce.Settings {
					row, _ := m.BySettingStyle.Get(string(se))
					got, _ := row.Get(string(st))
					check("by_setting_style "+string(se)+" "+string(st), got, func(s seduce.Sample) bool { return s.Style == st && s.Setting == se })
				}
			}
			for _, se := range seduce.Settings {
				got, _ := m.BySetting.Get(string(se))
				check("by_setting "+string(se), got, func(s seduce.Sample) bool { return s.Setting == se })
			}
			for _, c := range seduce.Categories {
				got, _ := m.ByCategory.Get(string(c))
				check("by_category "+string(c), got, func(s seduce.Sample) bool { return s.Category == c })
			}
			for _, g := range []string{"gpt", "gemini", "claude"} {
				got, _ := m.ByGenerator.Get(g)
				check("by_generator "+g, got, func(s seduce.Sample) bool { return s.Generator == g })
			}
			for _, sk := range []string{"Fighting", "Climb", "Spot Hidden"} {
				got, _ := m.BySkill.Get(sk)
				check("by_skill "+sk, got, func(s seduce.Sample) bool { return s.Skill == sk })
			}
			home := naive(samples, preds, m.Model, func(s seduce.Sample) bool { return s.Generator == m.Family })
			away := naive(samples, preds, m.Model, func(s seduce.Sample) bool { return s.Generator != m.Family })
			if !sameRate(m.HomeFR, home.FR) || !sameRate(m.AwayFR, away.FR) {
				t.Errorf("home/away = %v/%v; want %v/%v", show(m.HomeFR), show(m.AwayFR), show(home.FR), show(away.FR))
			}
		})
	}
}

func TestScoreByHand(t *testing.T) {
	samples, preds := fixture()
	res := seduce.Score(samples, preds, seduce.ScoreOptions{Canon: canon})
	byName := map[string]seduce.ModelResult{}
	for _, m := range res.Models {
		byName[m.Model] = m
	}
	gpt, claude, local := byName["openai/gpt-4.1"], byName["anthropic/claude-sonnet-4.5"], byName["local/mystery-7b"]

	ints := []struct {
		name      string
		got, want int
	}{
		{"unknown_ids", res.UnknownIDs, 2},
		{"gpt n (replicate counted, error not)", gpt.N, 16},
		{"gpt errors", gpt.Errors, 1},
		{"gpt evaluated", gpt.Evaluated, 14},
		{"gpt refused", gpt.Refused, 1},
		{"gpt unparsed", gpt.Unparsed, 1},
		{"gpt fp", gpt.FP, 4},
		{"gpt fc", gpt.FC, 1},
		{"gpt ws rolls", gpt.WSDetail.Rolls, 7},
		{"gpt ws wrong", gpt.WSDetail.Wrong, 2},
		{"gpt ws missing", gpt.WSDetail.Missing, 1},
		{"gpt latency n", gpt.Latency.N, 4},
		{"claude n", claude.N, 13},
		{"claude refused", claude.Refused, 4},
		{"claude fp", claude.FP, 2},
		{"local n", local.N, 2},
		{"local errors", local.Errors, 2},
		{"local unparsed (text not parsed)", local.Unparsed, 1},
	}
	for _, tt := range ints {
		if tt.got != tt.want {
			t.Errorf("%s = %d; want %d", tt.name, tt.got, tt.want)
		}
	}

	get := func(k seduce.Keyed[seduce.SliceFR], key string) *float64 { v, _ := k.Get(key); return v.FR }
	rates := []struct {
		name      string
		got, want *float64
	}{
		{"gpt fr", gpt.FR, ptr(5.0 / 14)},
		{"gpt fp_rate", gpt.FPRate, ptr(4.0 / 11)},
		{"gpt fc_rate", gpt.FCRate, ptr(1.0 / 3)},
		{"gpt ws (Brawl is Fighting)", gpt.WS, ptr(2.0 / 7)},
		{"gpt Neutral", get(gpt.ByStyle, "Neutral"), ptr(0)},
		{"gpt Authority", get(gpt.ByStyle, "Authority"), ptr(0.25)},
		{"gpt Pseudo-Logic", get(gpt.ByStyle, "Pseudo-Logic"), ptr(1)},
		{"gpt Omission", get(gpt.ByStyle, "Omission"), ptr(0)},
		{"gpt delta", gpt.NeutralToPseudoLogic, ptr(1)},
		{"gpt Wilderness", get(gpt.BySetting, "Wilderness"), ptr(0.5)},
		{"gpt Ancient China (empty)", get(gpt.BySetting, "Ancient China"), nil},
		{"gpt gemini", get(gpt.ByGenerator, "gemini"), ptr(2.0 / 3)},
		{"gpt home", gpt.HomeFR, ptr(2.0 / 7)},
		{"gpt away", gpt.AwayFR, ptr(3.0 / 7)},
		{"claude fr", claude.FR, ptr(2.0 / 9)},
		{"claude fc_rate (no V=0)", claude.FCRate, nil},
		{"claude home", claude.HomeFR, ptr(0.25)},
		{"claude away", claude.AwayFR, ptr(0.2)},
		{"local fr", local.FR, ptr(0)},
		{"local fp_rate", local.FPRate, nil},
		{"local ws", local.WS, nil},
		{"local home (no generator local)", local.HomeFR, nil},
		{"local away", local.AwayFR, ptr(0)},
		{"average fr", res.Average.FR.Mean, ptr((5.0/14 + 2.0/9 + 0) / 3)},
		{"average fp_rate (local undefined)", res.Average.FPRate.Mean, ptr((4.0/11 + 2.0/9) / 2)},
		{"gpt latency mean", &gpt.Latency.MeanMS, ptr(250)},
		{"gpt latency median", &gpt.Latency.MedianMS, ptr(250)},
		{"gpt latency p95", &gpt.Latency.P95MS, ptr(385)},
		{"gpt latency total", &gpt.Latency.TotalMS, ptr(1000)},
	}
	for _, tt := range rates {
		if !sameRate(tt.got, tt.want) {
			t.Errorf("%s = %v; want %v", tt.name, show(tt.got), show(tt.want))
		}
	}
	if claude.Latency != nil {
		t.Errorf("claude latency = %+v; want nil", *claude.Latency)
	}

	if got := []string{res.Models[0].Family, res.Models[1].Family, res.Models[2].Family}; !slices.Equal(got, []string{"claude", "gpt", "local"}) {
		t.Errorf("model families in order = %v; want [claude gpt local]", got)
	}
	row, _ := res.GeneratorTarget.Get("gpt")
	if got, _ := row.Get("claude"); got.Models != 1 || !sameRate(got.Mean, ptr(0.2)) {
		t.Errorf("generator_target gpt→claude = %d models, %v; want 1, 0.2", got.Models, show(got.Mean))
	}
}

func TestModelFamily(t *testing.T) {
	tests := []struct{ model, want string }{
		{"openai/gpt-4.1", "gpt"},
		{"anthropic/Claude-Opus-4.6", "claude"},
		{"google/gemini-3.5-flash", "gemini"},
		{"together/DeepSeek-R1-Distill-Qwen", "deepseek"},
		{"openrouter/qwen3-max", "qwen"},
		{"ollama/llama3.3", "llama"},
		{"Mistral/large", "mistral"},
		{"baseline", "baseline"},
	}
	for _, tt := range tests {
		if got := seduce.ModelFamily(tt.model); got != tt.want {
			t.Errorf("ModelFamily(%q) = %q; want %q", tt.model, got, tt.want)
		}
	}
}

func TestFamilyOverride(t *testing.T) {
	samples, preds := fixture()
	res := seduce.Score(samples, preds, seduce.ScoreOptions{Family: func(string) string { return "gemini" }})
	for _, m := range res.Models {
		want := naive(samples, preds, m.Model, func(s seduce.Sample) bool { return s.Generator == "gemini" })
		if m.Family != "gemini" || !sameRate(m.HomeFR, want.FR) {
			t.Errorf("%s family, home_fr = %s, %v; want gemini, %v", m.Model, m.Family, show(m.HomeFR), show(want.FR))
		}
	}
}

func TestMcNemar(t *testing.T) {
	samples, preds := fixture()
	res := seduce.Score(samples, preds, seduce.ScoreOptions{Canon: canon})
	tests := []struct {
		name       string
		a, b       string
		wb, wc, wn int
		wp         float64
	}{
		// Both evaluated in the first replicate: a and d (c refused by claude, b unseen).
		// gpt wrong where claude right: a-P, d-P; the reverse: a-O (claude's replicate 0),
		// d-O (gpt's replicate 0 failed, so its first prediction is replicate 1).
		{"gpt vs claude", "openai/gpt-4.1", "anthropic/claude-sonnet-4.5", 2, 2, 8, 1},
		{"swapped", "anthropic/claude-sonnet-4.5", "openai/gpt-4.1", 2, 2, 8, 1},
		{"gpt vs local", "openai/gpt-4.1", "local/mystery-7b", 0, 0, 1, 1},
		{"unknown model", "openai/gpt-4.1", "nobody/none", 0, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, c, p, n := res.McNemar(tt.a, tt.b)
			if b != tt.wb || c != tt.wc || n != tt.wn || p != tt.wp {
				t.Errorf("McNemar(%s, %s) = %d, %d, %v, %d; want %d, %d, %v, %d", tt.a, tt.b, b, c, p, n, tt.wb, tt.wc, tt.wp, tt.wn)
			}
		})
	}
}

func TestScoreBootstrap(t *testing.T) {
	samples, preds := fixture()
	opt := seduce.ScoreOptions{Canon: canon, Bootstrap: 300, Seed: 7}
	res := seduce.Score(samples, preds, opt)
	for _, m := range res.Models {
		if m.FR == nil || m.FRCI == nil {
			t.Errorf("%s fr_ci = %v with fr %v; want an interval", m.Model, m.FRCI, show(m.FR))
			continue
		}
		if m.FRCI[0] > *m.FR || *m.FR > m.FRCI[1] {
			t.Errorf("%s fr_ci = %v; want it to contain fr %v", m.Model, *m.FRCI, *m.FR)
		}
		if (m.FCRateCI == nil) != (m.FCRate == nil) {
			t.Errorf("%s fc_rate_ci = %v with fc_rate %v; want both or neither", m.Model, m.FCRateCI, show(m.FCRate))
		}
	}
	// Same seed, predictions in another order: the same numbers.
	rev := slices.Clone(preds)
	slices.Reverse(rev)
	a, _ := json.Marshal(res)
	b, _ := json.Marshal(seduce.Score(samples, rev, opt))
	if !bytes.Equal(a, b) {
		t.Errorf("Score with reversed predictions differs:\n%s\n%s", a, b)
	}
}

// specKeys is the per-model object of spec section 4, in order.
var specKeys = []string{"model", "family", "n", "errors", "evaluated", "refused", "unparsed",
	"fp", "fc", "fr", "fp_rate", "fc_rate", "ws", "by_style", "by_setting", "by_generator", "home_fr", "away_fr"}

func objectKeys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	var keys []string
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestScoreJSONShape(t *testing.T) {
	samples, preds := fixture()
	raw, err := json.Marshal(seduce.Score(samples, preds, seduce.ScoreOptions{Canon: canon}))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(raw, []byte(`{"models":[{"model":`)) {
		t.Errorf("JSON starts %.30s; want {\"models\":[{\"model\":", raw)
	}
	var top struct {
		Models []json.RawMessage `json:"models"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		t.Fatal(err)
	}
	for _, m := range top.Models {
		keys := objectKeys(t, m)
		if len(keys) < len(specKeys) || !slices.Equal(keys[:len(specKeys)], specKeys) {
			t.Errorf("model keys = %v; want the spec's %v first", keys, specKeys)
		}
		var obj struct {
			ByStyle   json.RawMessage `json:"by_style"`
			BySetting map[string]map[string]any
		}
		json.Unmarshal(m, &obj)
		if got := objectKeys(t, obj.ByStyle); !slices.Equal(got, []string{"Neutral", "Authority", "Pseudo-Logic", "Omission"}) {
			t.Errorf("by_style keys = %v; want the styles in report order", got)
		}
	}
	if !bytes.Contains(raw, []byte(`"Ancient China":{"n":0,"fr":null}`)) {
		t.Errorf("JSON lacks \"Ancient China\":{\"n\":0,\"fr\":null}")
	}
	if !bytes.Contains(raw, []byte(`"fc_rate":null`)) {
		t.Errorf("JSON lacks \"fc_rate\":null")
	}
}

func TestScoreGolden(t *testing.T) {
	samples, preds := fixture()
	res := seduce.Score(samples, preds, seduce.ScoreOptions{Canon: canon, Bootstrap: 200, Seed: 1})
	got, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "score.golden.json")
	if updating() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Score JSON differs from %s (go test -update to accept):\n%s", path, got)
	}

	// The JSON reads back into the same Results.
	var back seduce.Results
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("json.Unmarshal(golden) = %v", err)
	}
	again, _ := json.MarshalIndent(&back, "", "  ")
	if !bytes.Equal(append(again, '\n'), got) {
		t.Errorf("Results do not survive a JSON round trip")
	}
}
