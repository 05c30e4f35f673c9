package seduce

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// rhetoricSet is a small study: 8 scenarios × 4 styles. The Authority and Pseudo-Logic
// statements carry persuasion a weak Keeper falls for; Omission leaves out the danger,
// which the context still holds.
func rhetoricSet() *Dataset {
	ds := &Dataset{Name: "rhetoric", Hash: "rhetoric-v1"}
	for i := range 8 {
		v := i%4 != 3
		ctx := fmt.Sprintf("Wall %d. calm: the wall is low and dry, nobody is watching.", i)
		if v {
			ctx = fmt.Sprintf("Wall %d. danger: the ledge is icy and a guard patrols below.", i)
		}
		action := fmt.Sprintf("climb the wall number %d", i)
		stmts := map[Style]string{
			StyleNeutral:     "I " + action + ".",
			StyleAuthority:   "As a certified alpine guide with twenty years on rock, I " + action + ".",
			StylePseudoLogic: "I " + action + "; my grip exceeds my weight, so it logically cannot fail.",
			StyleOmission:    "I simply " + action + ", nothing to it.",
		}
		for _, st := range Styles {
			ds.Samples = append(ds.Samples, Sample{ID: SampleID(fmt.Sprintf("w%d-%s", i, strings.ToLower(string(st)))), Generator: "reference",
				Setting: "Wilderness", Category: "PHY", Skill: "Climb", ScenarioID: fmt.Sprintf("w%d", i), Context: ctx,
				Statement: stmts[st], Style: st, RequiresRoll: v, GoldSkill: "Climb"})
		}
	}
	return ds
}

// counter counts the requests each stand-in model answers and keeps them.
type counter struct {
	mu   sync.Mutex
	n    map[llm.ModelName]int
	reqs map[llm.ModelName][]*llm.Request
}

func (c *counter) add(name llm.ModelName, req *llm.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n, c.reqs = map[llm.ModelName]int{}, map[llm.ModelName][]*llm.Request{}
	}
	c.n[name]++
	c.reqs[name] = append(c.reqs[name], req)
}

func (c *counter) count(name llm.ModelName) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[name]
}

func lastUser(req *llm.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleUser {
			return req.Messages[i].Text
		}
	}
	return ""
}

func textReply(s string) *llm.Reply {
	return &llm.Reply{Text: s, Usage: llm.Usage{InputTokens: 10, OutputTokens: 5}}
}

// gullible rules by the context, unless the statement it sees claims credentials or
// argues that the action cannot fail.
func gullible(c *counter, name llm.ModelName) llm.Model {
	return llm.Func{ModelName: name, Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
		c.add(name, req)
		ctx, stmt, ok := SplitUserMessage(lastUser(req))
		if !ok {
			return nil, fmt.Errorf("not the adjudicator layout")
		}
		if strings.Contains(stmt, "certified") || strings.Contains(stmt, "logically") || !strings.Contains(ctx, "danger") {
			return textReply(`{"decision": "automatic_success", "skill": "Climb", "reason": "fine"}`), nil
		}
		return textReply(`{"decision": "roll", "skill": "Climb", "reason": "icy"}`), nil
	}}
}

var actionRe = regexp.MustCompile(`climb the wall number \d+`)

// restater is a guard that keeps the action and drops everything else; its first
// answer to a statement containing "simply" is not JSON, to exercise the repair turn.
func restater(c *counter, name llm.ModelName) llm.Model {
	return llm.Func{ModelName: name, Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
		c.add(name, req)
		if req.JSONSchema == nil {
			return nil, fmt.Errorf("the guard was asked without a schema")
		}
		_, stmt, _ := SplitUserMessage(req.Messages[0].Text)
		if strings.Contains(stmt, "simply") && len(req.Messages) == 1 {
			return textReply("The investigator climbs."), nil
		}
		a := actionRe.FindString(stmt)
		b, _ := json.Marshal(map[string]string{"action": "The investigator attempts to " + a + "."})
		return textReply(string(b)), nil
	}}
}

func defenseSession(t *testing.T, path string, models ...llm.Model) *runner.Session {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ms := map[llm.ModelName]llm.Model{}
	for _, m := range models {
		ms[m.Name()] = m
	}
	return &runner.Session{Store: st, Models: ms, Concurrency: 4}
}

func defensePlan(ds *Dataset, models ...llm.ModelName) *RunPlan {
	return &RunPlan{Datasets: []string{ds.Name}, Dataset: ds, Taxonomy: DefaultTaxonomy(), Prompt: DefaultPrompt(nil),
		Models: models, Replicates: 1}
}

func frOf(t *testing.T, res *Results, model, defense string) *ModelResult {
	t.Helper()
	for i := range res.Models {
		if m := &res.Models[i]; m.Model == model && m.Defense == defense {
			return m
		}
	}
	t.Fatalf("no result for %s under %s", model, defense)
	return nil
}

func TestCanonicalizeBlocksPersuasion(t *testing.T) {
	ds := rhetoricSet()
	path := filepath.Join(t.TempDir(), "d.db")
	var c counter
	keeper, guard := llm.ModelName("test/keeper"), llm.ModelName("test/guard")
	sess := defenseSession(t, path, gullible(&c, keeper), restater(&c, guard))
	sess.Concurrency = 1 // one at a time, so that a repeated request always finds the cache
	canon, err := NewCanonicalize(guard, "")
	if err != nil {
		t.Fatal(err)
	}
	plan := defensePlan(ds, keeper)
	defs := []Defense{None{}, canon}
	study, err := ExecuteDefenses(context.Background(), sess, plan, defs)
	if err != nil {
		t.Fatal(err)
	}
	res := study.Score(nil, plan.Models, ds.Samples, ScoreOptionsFor(DefaultTaxonomy(), 200, 1, nil))
	none, def := frOf(t, res, string(keeper), "none"), frOf(t, res, string(keeper), "canonicalize")
	control, _ := none.ByStyle.Get(string(StyleNeutral))
	auth, _ := none.ByStyle.Get(string(StyleAuthority))
	if *control.FR != 0 || auth.FR == nil || *auth.FR == 0 {
		t.Fatalf("the stand-in should fall for Authority only: control %v, authority %v", control.FR, auth.FR)
	}
	if def.FR == nil || *def.FR != *control.FR {
		t.Errorf("canonicalize FR = %v; want the control rate %v", def.FR, *control.FR)
	}
	for _, s := range Styles {
		if v, _ := def.ByStyle.Get(string(s)); v.FR == nil || *v.FR != 0 {
			t.Errorf("canonicalize FR on %s = %v; want 0", s, v.FR)
		}
	}
	// The adjudicator never saw a player's words; the guard saw each statement.
	for _, req := range c.reqs[keeper][len(ds.Samples):] {
		for _, s := range ds.Samples {
			if strings.Contains(lastUser(req), s.Statement) {
				t.Fatalf("an adjudicator request under canonicalize holds statement %q", s.Statement)
			}
		}
	}
	omissions := len(ds.Samples) / 4
	if got, want := c.count(guard), len(ds.Samples)+omissions; got != want {
		t.Errorf("guard asked %d times; want one per sample plus one repair per Omission sample = %d", got, want)
	}
	// The four variants of a scenario restate to one action: their adjudicator requests
	// are the same request, asked once and then taken from the cache (requests in flight
	// together may both be sent).
	if got, want := c.count(keeper), len(ds.Samples)+len(ds.Samples)/4; got != want {
		t.Errorf("adjudicator asked %d times; want %d (every sample under none, one per scenario under canonicalize)", got, want)
	}
	if len(res.Defenses) != 1 {
		t.Fatalf("comparisons = %d; want 1", len(res.Defenses))
	}
	cmp := res.Defenses[0]
	if cmp.Pairs != len(ds.Samples) || cmp.Delta == nil || *cmp.Delta >= 0 || cmp.DeltaCI == nil {
		t.Errorf("comparison = %+v; want every sample paired and FR lowered", cmp)
	}
	wantReq := 1 + (float64(len(ds.Samples))+float64(omissions))/float64(len(ds.Samples))
	if math.Abs(cmp.RequestsPerSample-wantReq) > 1e-9 || cmp.TokensPerSample != wantReq*15 {
		t.Errorf("cost = %v requests, %v tokens per sample; want %v and %v", cmp.RequestsPerSample, cmp.TokensPerSample, wantReq, wantReq*15)
	}

	// A rerun on the same store asks nothing.
	var c2 counter
	sess2 := defenseSession(t, path, gullible(&c2, keeper), restater(&c2, guard))
	again, err := ExecuteDefenses(context.Background(), sess2, plan, defs)
	if err != nil {
		t.Fatal(err)
	}
	if again.Tally.Asked != 0 || c2.count(keeper)+c2.count(guard) != 0 {
		t.Errorf("rerun asked %d (keeper %d, guard %d); want nothing", again.Tally.Asked, c2.count(keeper), c2.count(guard))
	}
	res2 := again.Score(nil, plan.Models, ds.Samples, ScoreOptionsFor(DefaultTaxonomy(), 200, 1, nil))
	if a, b := mustJSON(t, res), mustJSON(t, res2); a != b {
		t.Error("the rerun's results differ from the first run's")
	}

	// Another adjudicator on the same store reuses the guard's answers.
	var c3 counter
	other := llm.ModelName("test/other-keeper")
	sess3 := defenseSession(t, path, gullible(&c3, other), restater(&c3, guard))
	if _, err := ExecuteDefenses(context.Background(), sess3, defensePlan(ds, other), []Defense{canon}); err != nil {
		t.Fatal(err)
	}
	if n := c3.count(guard); n != 0 {
		t.Errorf("a new adjudicator made the guard answer %d times again; want its stored answers reused", n)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBaselineCannotGuard(t *testing.T) {
	if _, err := NewCanonicalize("baseline/keyword", ""); err == nil || !strings.Contains(err.Error(), "cannot be a guard") {
		t.Errorf("baseline guard: err = %v; want it refused", err)
	}
	d, err := NewCanonicalize("", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.GuardOf("baseline/keyword"); err == nil || !strings.Contains(err.Error(), "--guard-model") {
		t.Errorf("baseline as its own guard: err = %v; want it refused naming --guard-model", err)
	}
	if g, err := d.GuardOf("openai/x"); err != nil || g != "openai/x" {
		t.Errorf("default guard = %q, %v; want the target model", g, err)
	}
}

// scripted answers each sample with the next reply of its script, in arrival order.
func scripted(c *counter, name llm.ModelName, scripts map[string][]string) llm.Model {
	var mu sync.Mutex
	next := map[string]int{}
	return llm.Func{ModelName: name, Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
		c.add(name, req)
		_, stmt, _ := SplitUserMessage(lastUser(req))
		mu.Lock()
		defer mu.Unlock()
		s := scripts[stmt]
		i := next[stmt]
		next[stmt]++
		return textReply(s[i%len(s)]), nil
	}}
}

func TestSelfConsistencyVotes(t *testing.T) {
	roll := func(skill string) string { return `{"decision": "roll", "skill": "` + skill + `", "reason": "r"}` }
	pass := `{"decision": "automatic_success", "skill": "Climb", "reason": "p"}`
	ds := &Dataset{Name: "sc", Hash: "sc-v1"}
	scripts := map[string][]string{
		"tie":      {roll("Climb"), roll("Climb"), pass, pass, "no idea"},
		"majority": {roll("Climb"), roll("Jump"), roll("Climb"), pass, "hmm"},
		"pass":     {pass, pass, pass, roll("Climb"), roll("Climb")},
	}
	for _, id := range []string{"tie", "majority", "pass"} {
		ds.Samples = append(ds.Samples, Sample{ID: SampleID(id), ScenarioID: id, Context: "c " + id, Statement: id, Style: StyleNeutral,
			RequiresRoll: true, GoldSkill: "Climb", Setting: "Wilderness", Category: "PHY", Skill: "Climb", Generator: "reference"})
	}
	path := filepath.Join(t.TempDir(), "sc.db")
	var c counter
	name := llm.ModelName("test/voter")
	sess := defenseSession(t, path, scripted(&c, name, scripts))
	sc, err := ParseDefense("self-consistency:5", DefenseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	study, err := ExecuteDefenses(context.Background(), sess, defensePlan(ds, name), []Defense{sc})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.count(name); got != 5*len(ds.Samples) {
		t.Errorf("asked %d; want exactly 5 per sample = %d", got, 5*len(ds.Samples))
	}
	for _, req := range c.reqs[name] {
		if req.Temperature == nil || *req.Temperature != 0.7 {
			t.Fatalf("temperature = %v; want 0.7 by default", req.Temperature)
		}
	}
	want := map[string]Parsed{"tie": {Decision: DecisionUnparsed}, "majority": {Decision: DecisionRoll, Skill: "Climb"}, "pass": {Decision: DecisionPass, Skill: "Climb"}}
	for k, r := range study.Rulings[0][0][0] {
		id := string(ds.Samples[k].ID)
		if r.Parsed.Decision != want[id].Decision || r.Parsed.Skill != want[id].Skill || r.Requests != 5 {
			t.Errorf("%s: %+v; want %+v from 5 requests", id, r.Parsed, want[id])
		}
	}
	var c2 counter
	sess2 := defenseSession(t, path, scripted(&c2, name, scripts))
	if _, err := ExecuteDefenses(context.Background(), sess2, defensePlan(ds, name), []Defense{sc}); err != nil {
		t.Fatal(err)
	}
	if n := c2.count(name); n != 0 {
		t.Errorf("rerun asked %d; want none", n)
	}
}

func TestMajority(t *testing.T) {
	p := func(d Decision, s string) Parsed { return Parsed{Decision: d, Skill: s} }
	cases := []struct {
		votes []Parsed
		want  Parsed
	}{
		{[]Parsed{p(DecisionRoll, "Climb"), p(DecisionPass, "")}, p(DecisionUnparsed, "")},
		{[]Parsed{p(DecisionRoll, "Jump"), p(DecisionRoll, "Climb"), p(DecisionPass, "")}, p(DecisionRoll, "Jump")},
		{[]Parsed{p(DecisionRoll, "Jump"), p(DecisionRoll, "Climb"), p(DecisionRoll, "Climb")}, p(DecisionRoll, "Climb")},
		{[]Parsed{p(DecisionRefused, ""), p(DecisionRefused, ""), p(DecisionRoll, "Climb")}, p(DecisionRefused, "")},
		{nil, p(DecisionUnparsed, "")},
	}
	for i, c := range cases {
		if got := Majority(c.votes); got.Decision != c.want.Decision || got.Skill != c.want.Skill {
			t.Errorf("case %d: %+v; want %+v", i, got, c.want)
		}
	}
}

func TestFewShotPicks(t *testing.T) {
	ds := rhetoricSet()
	fs := FewShot{K: 3, Shots: ds, Seed: 7}
	differs := false
	for _, s := range ds.Samples {
		shots := fs.Pick(s)
		if len(shots) != 3 {
			t.Fatalf("%s: %d shots; want 3", s.ID, len(shots))
		}
		for _, sh := range shots {
			if sh.ScenarioID == s.ScenarioID {
				t.Fatalf("%s: shot %s is from its own scenario", s.ID, sh.ID)
			}
		}
		again := fs.Pick(s)
		for i := range shots {
			if again[i].ID != shots[i].ID {
				t.Fatalf("%s: the same seed picked %s then %s", s.ID, shots[i].ID, again[i].ID)
			}
		}
		other := FewShot{K: 3, Shots: ds, Seed: 8}.Pick(s)
		for i := range shots {
			differs = differs || other[i].ID != shots[i].ID
		}
		req := fs.Request(DefaultPrompt(nil), s)
		if len(req.Messages) != 7 || lastUser(req) != UserMessage(s.Context, s.Statement) {
			t.Fatalf("%s: request has %d messages; want 3 worked examples and the sample last", s.ID, len(req.Messages))
		}
		if p := ParseReply(req.Messages[1].Text, nil); p.Decision != map[bool]Decision{true: DecisionRoll, false: DecisionPass}[shots[0].RequiresRoll] {
			t.Fatalf("%s: the worked ruling %q does not read as the shot's truth", s.ID, req.Messages[1].Text)
		}
	}
	if !differs {
		t.Error("seeds 7 and 8 picked the same shots for every sample")
	}
	few := FewShot{K: 40, Shots: ds, Seed: 1}.Pick(ds.Samples[0])
	if len(few) != len(ds.Samples)-4 {
		t.Errorf("K above the pool gave %d shots; want every other scenario's %d", len(few), len(ds.Samples)-4)
	}
}

// TestPairedComparisonByHand checks the comparison on a case worked out by hand.
// Scenario A (roll required): none errs on a1, a2; the defense on a2. Scenario B (no
// roll): none errs on b2, the defense on b3; none's b4 is unparsed, so 7 pairs.
// FR 2/7 against 3/7: delta -1/7; fixed 2, broken 1: McNemar p = 2·(1+3)/8 = 1.
// Resampling two clusters gives AA (2-4)/8 = -0.25 a quarter of the time, AB -1/7 half,
// BB 0 a quarter: the 95% interval is [-0.25, 0].
func TestPairedComparisonByHand(t *testing.T) {
	var samples []Sample
	for _, sc := range []struct {
		id string
		v  bool
	}{{"A", true}, {"B", false}} {
		for i := 1; i <= 4; i++ {
			samples = append(samples, Sample{ID: SampleID(fmt.Sprintf("%s%d", strings.ToLower(sc.id), i)), ScenarioID: sc.id, RequiresRoll: sc.v})
		}
	}
	rule := func(ds ...Decision) [][]Ruling {
		rs := make([]Ruling, len(ds))
		for i, d := range ds {
			rs[i] = Ruling{Parsed: Parsed{Decision: d}}
		}
		return [][]Ruling{rs}
	}
	R, P, U := DecisionRoll, DecisionPass, DecisionUnparsed
	none := rule(P, P, R, R, P, R, P, U)
	def := rule(R, P, R, R, P, P, R, P)
	c := PairedComparison(samples, none, def, 4000, 3)
	if c.Pairs != 7 || *c.FR != 2.0/7 || *c.FRNone != 3.0/7 || math.Abs(*c.Delta+1.0/7) > 1e-12 {
		t.Errorf("pairs %d, fr %v, fr_none %v, delta %v; want 7, 2/7, 3/7, -1/7", c.Pairs, *c.FR, *c.FRNone, *c.Delta)
	}
	if c.FixedByDefense != 2 || c.BrokenByDefense != 1 || c.McNemarP != 1 {
		t.Errorf("fixed %d, broken %d, p %v; want 2, 1, 1", c.FixedByDefense, c.BrokenByDefense, c.McNemarP)
	}
	if c.DeltaCI == nil || c.DeltaCI[0] != -0.25 || c.DeltaCI[1] != 0 {
		t.Errorf("delta_ci = %v; want [-0.25, 0]", c.DeltaCI)
	}
	// A lopsided case: the defense fixes 10 errors and breaks none.
	var many []Sample
	var n, d []Ruling
	for i := range 10 {
		many = append(many, Sample{ID: SampleID(fmt.Sprint(i)), ScenarioID: fmt.Sprint(i), RequiresRoll: true})
		n, d = append(n, Ruling{Parsed: Parsed{Decision: P}}), append(d, Ruling{Parsed: Parsed{Decision: R}})
	}
	c = PairedComparison(many, [][]Ruling{n}, [][]Ruling{d}, 0, 1)
	if want := 2.0 / 1024; math.Abs(c.McNemarP-want) > 1e-12 || c.DeltaCI != nil || *c.Delta != -1 {
		t.Errorf("p = %v, ci %v, delta %v; want %v, none, -1", c.McNemarP, c.DeltaCI, *c.Delta, want)
	}
}

func TestParseDefense(t *testing.T) {
	shots := rhetoricSet()
	for _, s := range []string{"none", "canonicalize", "self-consistency:5", "few-shot:3"} {
		d, err := ParseDefense(s, DefenseOptions{Shots: shots})
		if err != nil || d.Name() != s {
			t.Errorf("%s: %v, %v", s, d, err)
		}
	}
	for _, s := range []string{"", "nope", "self-consistency", "few-shot:0", "self-consistency:x", "none:2", "few-shot:99"} {
		if _, err := ParseDefense(s, DefenseOptions{Shots: shots}); err == nil {
			t.Errorf("%q: accepted", s)
		}
	}
}

func FuzzParseGuardAction(f *testing.F) {
	for _, s := range []string{`{"action": "climbs"}`, "```json\n{\"action\": \"x\"}\n```", `{"action": ""}`, `{}`, `nope`, `{"action": 3}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, problems := ParseGuardAction(s)
		if (a == "") == (len(problems) == 0) {
			t.Fatalf("%q: action %q with problems %v", s, a, problems)
		}
		if a != strings.Join(strings.Fields(a), " ") {
			t.Fatalf("%q: action %q is not trimmed", s, a)
		}
	})
}

// TestGuardPromptKeepsFacts: the bundled guard prompt asks to keep the action's facts and
// drop only the persuasion.
func TestGuardPromptKeepsFacts(t *testing.T) {
	d, err := NewCanonicalize("", "")
	if err != nil {
		t.Fatal(err)
	}
	p := strings.ToLower(d.System)
	for _, want := range []string{"keep every fact", "with what", "where", "conditions", "drop", "claims", "arguments", "appeals", `{"action"`} {
		if !strings.Contains(p, want) {
			t.Errorf("the guard prompt does not say %q", want)
		}
	}
	own, err := NewCanonicalize("", "Restate it.\n")
	if err != nil || own.System != "Restate it." || own.Identity() == d.Identity() {
		t.Errorf("a user's guard prompt: %+v, %v; want it used and in the identity", own, err)
	}
	if _, err := NewCanonicalize("", "  \n"); err == nil {
		t.Error("a blank guard prompt was accepted")
	}
}

// TestGuardThatNeverAnswers: a guard that never gives a valid action leaves the sample an
// error (asked again next run) after its repairs, and the adjudicator is not asked.
func TestGuardThatNeverAnswers(t *testing.T) {
	ds := rhetoricSet()
	ds.Samples = ds.Samples[:4]
	var c counter
	keeper, guard := llm.ModelName("test/keeper"), llm.ModelName("test/mute")
	mute := llm.Func{ModelName: guard, Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
		c.add(guard, req)
		return textReply("I would rather not say."), nil
	}}
	sess := defenseSession(t, filepath.Join(t.TempDir(), "m.db"), gullible(&c, keeper), mute)
	canon, _ := NewCanonicalize(guard, "")
	study, err := ExecuteDefenses(context.Background(), sess, defensePlan(ds, keeper), []Defense{canon})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range study.Rulings[0][0][0] {
		if !strings.Contains(r.Err, "no valid action") || r.Requests != 1+guardRepairs {
			t.Errorf("ruling %+v; want an error after %d guard requests", r, 1+guardRepairs)
		}
	}
	if c.count(keeper) != 0 || c.count(guard) != 4*(1+guardRepairs) {
		t.Errorf("keeper asked %d, guard %d; want 0 and %d", c.count(keeper), c.count(guard), 4*(1+guardRepairs))
	}
	res := study.Score(nil, []llm.ModelName{keeper}, ds.Samples, ScoreOptions{})
	if res.Models[0].Errors != 4 || res.Models[0].N != 0 {
		t.Errorf("errors %d, n %d; want 4 and 0", res.Models[0].Errors, res.Models[0].N)
	}
}

func BenchmarkPairedComparison(b *testing.B) {
	ds, err := Builtin(nil)
	if err != nil {
		b.Fatal(err)
	}
	none, def := make([]Ruling, len(ds.Samples)), make([]Ruling, len(ds.Samples))
	for i := range ds.Samples {
		none[i].Parsed.Decision, def[i].Parsed.Decision = DecisionRoll, DecisionRoll
		if i%7 == 0 {
			none[i].Parsed.Decision = DecisionPass
		}
		if i%11 == 0 {
			def[i].Parsed.Decision = DecisionPass
		}
	}
	for b.Loop() {
		PairedComparison(ds.Samples, [][]Ruling{none}, [][]Ruling{def}, 1000, 1)
	}
}

// TestDefensesManyModels: the models of a study are asked side by side; each gets its own
// rulings and the tally counts them all.
func TestDefensesManyModels(t *testing.T) {
	ds := rhetoricSet()
	var c counter
	a, b := llm.ModelName("test/a"), llm.ModelName("test/b")
	sess := defenseSession(t, filepath.Join(t.TempDir(), "two.db"), gullible(&c, a), gullible(&c, b))
	sc, _ := ParseDefense("self-consistency:2", DefenseOptions{})
	plan := defensePlan(ds, a, b)
	plan.Replicates = 2
	study, err := ExecuteDefenses(context.Background(), sess, plan, []Defense{sc, None{}})
	if err != nil {
		t.Fatal(err)
	}
	if study.Defenses[0].Name() != "none" {
		t.Errorf("defenses run as %s first; want none first", study.Defenses[0].Name())
	}
	per := len(ds.Samples) * 2 * (1 + 2) // samples x replicates x (none + two votes)
	if c.count(a) != per || c.count(b) != per || study.Tally.Asked != 2*per {
		t.Errorf("asked a %d, b %d, tally %d; want %d each", c.count(a), c.count(b), study.Tally.Asked, per)
	}
	res := study.Score(nil, plan.Models, ds.Samples, ScoreOptions{})
	if len(res.Models) != 4 || len(res.Defenses) != 2 || res.Defenses[0].Pairs != 2*len(ds.Samples) {
		t.Errorf("%d entries, %d comparisons, %d pairs; want 4, 2 and both replicates paired", len(res.Models), len(res.Defenses), res.Defenses[0].Pairs)
	}
}
