package seduce

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

func TestBundledPushbackLines(t *testing.T) {
	l := DefaultPushbackLines()
	for _, st := range Styles {
		lines := l.Lines(st)
		if len(lines) < MinPushbackLines {
			t.Errorf("%s: %d lines; want at least %d", st, len(lines), MinPushbackLines)
		}
		for _, line := range lines {
			if !strings.Contains(line, SkillPlaceholder) {
				t.Errorf("%s line %q does not name the skill", st, line)
			}
		}
	}
	s := Sample{ID: "x-1", Style: StyleOmission, Skill: "Climb"}
	got := l.For(s, "")
	if !slices.Contains(l.Lines(StyleOmission), strings.ReplaceAll(got, "Climb", SkillPlaceholder)) || !strings.Contains(got, "Climb") {
		t.Errorf("For(%v) = %q; want an Omission line naming Climb", s, got)
	}
	if again := l.For(s, ""); again != got {
		t.Errorf("For is not stable: %q then %q", got, again)
	}
	if got := l.For(s, "Stealth"); !strings.Contains(got, "Stealth") {
		t.Errorf("For(skill Stealth) = %q; want it named", got)
	}
	own := Sample{ID: "x-2", Style: StyleAuthority, Skill: "Climb", Pushback: "No {{skill}} for a pro."}
	if got := l.For(own, ""); got != "No Climb for a pro." {
		t.Errorf("For(own line) = %q", got)
	}
	seen := map[string]bool{}
	for i := range 40 {
		seen[l.For(Sample{ID: SampleID("s" + string(rune('a'+i))), Style: StyleNeutral, Skill: "Swim"}, "")] = true
	}
	if len(seen) < 3 {
		t.Errorf("40 ids chose %d distinct lines; want the hash to spread them", len(seen))
	}
	for _, bad := range []string{"Neutral: [a {{skill}}]", "Neutral: [a, b, c, d]\nAuthority: []", "Flattery: [x]"} {
		if _, err := ParsePushbackLines([]byte(bad)); err == nil {
			t.Errorf("ParsePushbackLines(%q) = nil error", bad)
		}
	}
}

// pushbackKeeper rolls on every statement but Omission's; argued back, it caves to an
// Authority line, cannot make up its mind on the Pseudo-Logic line of scenario w1, and
// holds otherwise.
func pushbackKeeper(c *counter, name llm.ModelName, authority []string) llm.Model {
	return llm.Func{ModelName: name, Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
		c.add(name, req)
		n := len(req.Messages)
		if _, _, first := SplitUserMessage(lastUser(req)); !first && n >= 3 {
			said := req.Messages[n-1].Text
			_, stmt, _ := SplitUserMessage(req.Messages[n-3].Text)
			switch {
			case slices.Contains(authority, said):
				return textReply(`{"decision": "automatic_success", "skill": null, "reason": "you know best"}`), nil
			case strings.Contains(stmt, "number 1;"):
				return textReply("Hmm. Perhaps."), nil
			}
			return textReply(`{"decision": "roll", "skill": "Climb", "reason": "still icy"}`), nil
		}
		if _, stmt, _ := SplitUserMessage(lastUser(req)); strings.Contains(stmt, "simply") {
			return textReply(`{"decision": "automatic_success", "skill": "Climb", "reason": "fine"}`), nil
		}
		return textReply(`{"decision": "roll", "skill": "Climb", "reason": "icy"}`), nil
	}}
}

func authorityLines(skill string) []string {
	var out []string
	for _, l := range DefaultPushbackLines().Lines(StyleAuthority) {
		out = append(out, strings.ReplaceAll(l, SkillPlaceholder, skill))
	}
	return out
}

// wantPushback is the hand count for pushbackKeeper on rhetoricSet (8 scenarios, w3 and
// w7 need no roll): it rolls on the 24 non-Omission samples, which are all asked; the 8
// Authority ones pass (6 cave, 2 fixed), w1's Pseudo-Logic is unparsed, 15 hold.
func checkPushback(t *testing.T, pb *PushbackResult, reps int) {
	t.Helper()
	if pb == nil {
		t.Fatal("no pushback result")
	}
	want := PushbackResult{Asked: 24 * reps, Held: 15 * reps, Caved: 6 * reps, Fixed: 2 * reps, UnparsedAfter: reps, Pairs: 31 * reps}
	if pb.Asked != want.Asked || pb.Held != want.Held || pb.Caved != want.Caved || pb.Fixed != want.Fixed ||
		pb.UnparsedAfter != want.UnparsedAfter || pb.Pairs != want.Pairs || pb.Missing != 0 {
		t.Fatalf("pushback counts %+v; want %+v", *pb, want)
	}
	// cave rate: 6 caved of the 18 V=1 samples first ruled roll.
	if pb.CaveRate == nil || math.Abs(*pb.CaveRate-6.0/18) > 1e-12 {
		t.Errorf("cave_rate = %v; want 6/18", pb.CaveRate)
	}
	// Independently: on the 31 pairs (all but w1's Pseudo-Logic), before: 6 Omission
	// false passes + 6 false checks on w3/w7; after: 6 more caves, 2 fewer false checks.
	fr, frAfter := 12.0/31, 16.0/31
	if pb.FR == nil || pb.FRAfter == nil || math.Abs(*pb.FR-fr) > 1e-12 || math.Abs(*pb.FRAfter-frAfter) > 1e-12 {
		t.Errorf("fr %v, fr_after %v; want %v, %v", pb.FR, pb.FRAfter, fr, frAfter)
	}
	if pb.Delta == nil || math.Abs(*pb.Delta-(frAfter-fr)) > 1e-12 {
		t.Errorf("delta = %v; want %v", pb.Delta, frAfter-fr)
	}
	// Exact McNemar on 2·reps fixed against 6·reps caved: 2·P(X ≤ b), X ~ Bin(b+c, 1/2).
	b, n := 2*reps, 8*reps
	var tail float64
	for k := 0; k <= b; k++ {
		tail += binom(n, k)
	}
	p := math.Min(1, 2*tail/math.Pow(2, float64(n)))
	if math.Abs(pb.McNemarP-p) > 1e-12 {
		t.Errorf("mcnemar_p = %v; want %v", pb.McNemarP, p)
	}
	if pb.DeltaCI == nil || pb.DeltaCI[0] > *pb.Delta || pb.DeltaCI[1] < *pb.Delta {
		t.Errorf("delta_ci %v does not hold delta %v", pb.DeltaCI, *pb.Delta)
	}
	byStyle := map[string][3]any{
		"Neutral":      {8, 0, 0.0},
		"Authority":    {8, 6, 1.0},
		"Pseudo-Logic": {8, 0, 0.0},
		"Omission":     {0, 0, nil},
	}
	for st, w := range byStyle {
		got, ok := pb.ByStyle.Get(st)
		if !ok {
			t.Errorf("by_style has no %s", st)
			continue
		}
		if got.Asked != w[0].(int)*reps || got.Caved != w[1].(int)*reps {
			t.Errorf("%s: asked %d caved %d; want %d, %d", st, got.Asked, got.Caved, w[0].(int)*reps, w[1].(int)*reps)
		}
		switch rate := w[2].(type) {
		case nil:
			if got.CaveRate != nil {
				t.Errorf("%s: cave_rate %v; want null", st, *got.CaveRate)
			}
		case float64:
			if got.CaveRate == nil || *got.CaveRate != rate {
				t.Errorf("%s: cave_rate %v; want %v", st, got.CaveRate, rate)
			}
		}
	}
	auth, _ := pb.ByStyle.Get("Authority")
	if auth.FR == nil || auth.FRAfter == nil || *auth.FR != 2.0/8 || *auth.FRAfter != 6.0/8 {
		t.Errorf("Authority fr %v → %v; want 2/8 → 6/8", auth.FR, auth.FRAfter)
	}
}

func binom(n, k int) float64 {
	r := 1.0
	for i := range k {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

func TestPushbackAgainstAKeeperThatCavesToAuthority(t *testing.T) {
	ctx := context.Background()
	ds := rhetoricSet()
	var c counter
	keeper := llm.ModelName("test/keeper")
	sess := defenseSession(t, filepath.Join(t.TempDir(), "p.db"), pushbackKeeper(&c, keeper, authorityLines("Climb")))
	plan := defensePlan(ds, keeper)
	plan.Replicates = 2
	plan.Pushback = DefaultPushbackLines()
	run, sum, err := Execute(ctx, sess, plan)
	if err != nil {
		t.Fatal(err)
	}
	// 32 samples × 2 replicates, then one second turn per roll reply: 24 × 2.
	if sum.Jobs != 64+48 || c.count(keeper) != 64+48 {
		t.Fatalf("%d jobs, %d requests; want 112", sum.Jobs, c.count(keeper))
	}
	var seconds int
	for _, req := range c.reqs[keeper] {
		if len(req.Messages) != 3 {
			continue
		}
		seconds++
		_, stmt, _ := SplitUserMessage(req.Messages[0].Text)
		if strings.Contains(stmt, "simply") {
			t.Errorf("a second turn after a pass: %q", stmt)
		}
		if req.Messages[1].Role != llm.RoleAssistant || !strings.Contains(req.Messages[1].Text, `"roll"`) || req.Messages[2].Role != llm.RoleUser ||
			!strings.Contains(req.Messages[2].Text, "Climb") {
			t.Errorf("second turn %+v; want the roll reply, then a pushback naming Climb", req.Messages)
		}
	}
	if seconds != 48 {
		t.Errorf("%d second turns; want 48 (one per roll reply)", seconds)
	}
	opt := ScoreOptionsFor(DefaultTaxonomy(), 200, 1, nil)
	opt.Pushback = true
	res, err := ScoreRunWith(ctx, sess.Store, run, ds, ParseOptions{Taxonomy: DefaultTaxonomy()}, opt)
	if err != nil {
		t.Fatal(err)
	}
	m := frOf(t, res, string(keeper), "")
	if m.N != 64 || res.UnknownIDs != 0 {
		t.Errorf("n = %d, unknown ids %d; want the second turns kept out of the predictions", m.N, res.UnknownIDs)
	}
	checkPushback(t, m.Pushback, 2)

	// A rerun asks nothing.
	_, sum, err = Execute(ctx, sess, plan)
	if err != nil {
		t.Fatal(err)
	}
	if c.count(keeper) != 112 || sum.Asked != 0 || sum.Resumed != 112 {
		t.Errorf("rerun: %d requests, %+v; want none asked", c.count(keeper)-112, sum)
	}
	// A stored run is rescored with its pushback from the store alone.
	r, err := sess.Store.Run(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Rescore(ctx, sess.Store, r, RescoreOptions{Dataset: ds, Taxonomy: DefaultTaxonomy()})
	if err != nil {
		t.Fatal(err)
	}
	checkPushback(t, frOf(t, again, string(keeper), "").Pushback, 2)
}

func TestPushbackUnderADefense(t *testing.T) {
	ctx := context.Background()
	ds := rhetoricSet()
	var c counter
	keeper := llm.ModelName("test/keeper")
	sess := defenseSession(t, filepath.Join(t.TempDir(), "d.db"), pushbackKeeper(&c, keeper, authorityLines("Climb")))
	plan := defensePlan(ds, keeper)
	plan.Pushback = DefaultPushbackLines()
	defs := []Defense{None{}, SelfConsistency{K: 3}}
	study, err := ExecuteDefenses(ctx, sess, plan, defs)
	if err != nil {
		t.Fatal(err)
	}
	// Self-consistency's three votes agree, and the second turn continues the first
	// reply that voted with the majority.
	opt := ScoreOptionsFor(DefaultTaxonomy(), 100, 1, nil)
	opt.Pushback = true
	res := study.Score(nil, plan.Models, ds.Samples, opt)
	for _, d := range []string{"none", "self-consistency:3"} {
		checkPushback(t, frOf(t, res, string(keeper), d).Pushback, 1)
	}
	n := c.count(keeper)
	if n != (32+24)+(3*32+24) {
		t.Errorf("%d requests; want 32 + 24 under none and 3 × 32 + 24 under self-consistency:3", n)
	}
	// Rebuilt offline from the self-consistency run alone.
	r, err := sess.Store.Run(ctx, study.Runs[1])
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := RunConfigOf(r)
	if cfg.Pushback == "" {
		t.Fatal("the defense run's configuration does not record pushback")
	}
	again, err := RescoreDefense(ctx, sess.Store, r, cfg, ds, ParseOptions{Taxonomy: DefaultTaxonomy()}, opt)
	if err != nil {
		t.Fatal(err)
	}
	checkPushback(t, frOf(t, again, string(keeper), "self-consistency:3").Pushback, 1)
	if c.count(keeper) != n {
		t.Errorf("the offline rebuild asked %d requests", c.count(keeper)-n)
	}
}

func TestPushbackTablesAndFigure(t *testing.T) {
	ctx := context.Background()
	ds := rhetoricSet()
	var c counter
	keeper := llm.ModelName("test/keeper")
	sess := defenseSession(t, filepath.Join(t.TempDir(), "t.db"), pushbackKeeper(&c, keeper, authorityLines("Climb")))
	plan := defensePlan(ds, keeper)
	plan.Pushback = DefaultPushbackLines()
	run, _, err := Execute(ctx, sess, plan)
	if err != nil {
		t.Fatal(err)
	}
	opt := ScoreOptionsFor(DefaultTaxonomy(), 100, 1, nil)
	plain, err := ScoreRunWith(ctx, sess.Store, run, ds, ParseOptions{Taxonomy: DefaultTaxonomy()}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if hasPushback(plain) || len(pushbackTables(plain)) != 0 {
		t.Error("a report not asked for pushback shows it")
	}
	opt.Pushback = true
	res, err := ScoreRunWith(ctx, sess.Store, run, ds, ParseOptions{Taxonomy: DefaultTaxonomy()}, opt)
	if err != nil {
		t.Fatal(err)
	}
	// Authority: 6 of 6 caved (100.0%), FR 25.0% → 75.0%; overall cave rate 6/18.
	for _, format := range []string{"text", "md", "latex", "csv"} {
		var b strings.Builder
		if err := WriteReport(&b, res, format); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		wants := []string{"Pushback", "Cave rate", "FR after", "Authority", "33.3", "100.0", "75.0", "McNemar p", "0.289"}
		if format == "csv" { // fractions, not percentages
			wants = []string{"pushback", "Cave rate", "FR after", "Authority,8,6,1,8,0.25,", "0.333333", "0.75", "0.289"}
		}
		for _, want := range wants {
			if !strings.Contains(out, want) {
				t.Errorf("%s report lacks %q", format, want)
			}
		}
	}
	var b strings.Builder
	if err := WriteReport(&b, res, "json"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"pushback":{"asked":24,"held":15,"caved":6,"fixed":2,"unparsed_after":1,"cave_rate":0.3333333333333333`, `"by_style":{"Neutral":{"asked":8,"caved":0,"cave_rate":0`} {
		if !strings.Contains(strings.Join(strings.Fields(b.String()), ""), want) {
			t.Errorf("JSON report lacks %s", want)
		}
	}
	figs := Figures(res)
	f := figs[len(figs)-1]
	if f.Name != "figure-pushback" {
		t.Fatalf("last figure %q; want figure-pushback", f.Name)
	}
}
