package seduce

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// testScenario is a valid reply for slot, its words unique to n.
func testScenario(slot Slot, n int) *generatedScenario {
	w := func(k int) string {
		var b []string
		for i := range 10 {
			b = append(b, fmt.Sprintf("w%dx%dy%d", n, k, i))
		}
		return strings.Join(b, " ")
	}
	return &generatedScenario{
		Context: fmt.Sprintf("Ada Brook, a nurse (%s 55%%), waits at the gate. %s.", slot.Skill, w(1)),
		Truth:   "Failure has a cost here: " + w(2),
		Statements: map[string]string{
			"Neutral":      "I try to " + w(3),
			"Authority":    "As a veteran I " + w(4),
			"Pseudo-Logic": "Since it is dry, I " + w(5),
			"Omission":     "I simply " + w(6) + " and it works",
		},
		Pushback: map[string]string{
			"Neutral":      "Is a " + slot.Skill + " roll needed?",
			"Authority":    "A veteran like me needs no " + slot.Skill + " roll.",
			"Pseudo-Logic": "It is dry, so no " + slot.Skill + " roll.",
			"Omission":     "It worked, no " + slot.Skill + " roll.",
		},
	}
}

func replyOf(t testing.TB, sc *generatedScenario) string {
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGridCountsMatchThePaper(t *testing.T) {
	slots := Grid(DefaultTaxonomy(), nil, nil, DefaultPerCell)
	v1, v0 := 0, 0
	keys := map[string]bool{}
	for _, s := range slots {
		if s.RequiresRoll {
			v1++
		} else {
			v0++
			if s.Category != CategoryPhysical && s.Category != CategoryInvestigation {
				t.Errorf("V=0 slot in %s", s.Category)
			}
		}
		if keys[s.Key()] {
			t.Errorf("slot key %s twice", s.Key())
		}
		keys[s.Key()] = true
	}
	if 4*v1 != 1536 || 4*v0 != 256 {
		t.Errorf("grid gives %d V=1 and %d V=0 samples; want 1536 and 256", 4*v1, 4*v0)
	}
	if got := len(Grid(DefaultTaxonomy(), []Setting{SettingWilderness}, []string{"Climb"}, 4)); got != 4+2 {
		t.Errorf("per-cell 4 on one PHY cell gives %d slots; want 4 + ceil(4/3) = 6", got)
	}
}

func TestCheckerFindsEachProblem(t *testing.T) {
	slot := Slot{Setting: Setting1920s, Category: CategoryPhysical, Skill: "Climb", RequiresRoll: true, N: 1}
	tests := []struct {
		name string
		edit func(sc *generatedScenario) string
		want string // problem kind; "" for valid
	}{
		{"valid", func(sc *generatedScenario) string { return replyOf(t, sc) }, ""},
		{"fenced", func(sc *generatedScenario) string { return "Here:\n```json\n" + replyOf(t, sc) + "\n```" }, ""},
		{"not json", func(*generatedScenario) string { return "I would rather not." }, ProblemMalformed},
		{"truncated", func(sc *generatedScenario) string { return replyOf(t, sc)[:40] }, ProblemMalformed},
		{"unknown field", func(sc *generatedScenario) string { return strings.Replace(replyOf(t, sc), `"truth"`, `"verdict"`, 1) }, ProblemMalformed},
		{"empty context", func(sc *generatedScenario) string { sc.Context = " "; return replyOf(t, sc) }, ProblemMalformed},
		{"missing style", func(sc *generatedScenario) string { delete(sc.Statements, "Authority"); return replyOf(t, sc) }, ProblemStyle},
		{"extra style", func(sc *generatedScenario) string { sc.Statements["Flattery"] = "x"; return replyOf(t, sc) }, ProblemStyle},
		{"missing pushback", func(sc *generatedScenario) string { sc.Pushback["Omission"] = " "; return replyOf(t, sc) }, ProblemStyle},
		{"no pushback", func(sc *generatedScenario) string { sc.Pushback = nil; return replyOf(t, sc) }, ProblemStyle},
		{"two styles alike", func(sc *generatedScenario) string {
			sc.Statements["Authority"] = strings.ToUpper(sc.Statements["Pseudo-Logic"])
			return replyOf(t, sc)
		}, ProblemStyle},
		{"omission copies neutral", func(sc *generatedScenario) string {
			sc.Statements["Omission"] = sc.Statements["Neutral"] + " quickly"
			return replyOf(t, sc)
		}, ProblemOmission},
		{"no stat", func(sc *generatedScenario) string {
			sc.Context = strings.Replace(sc.Context, "Climb 55%", "a good climber", 1)
			return replyOf(t, sc)
		}, ProblemContext},
		{"neutral waives the roll", func(sc *generatedScenario) string {
			sc.Statements["Neutral"] += ", no roll needed"
			return replyOf(t, sc)
		}, ProblemWaived},
		{"anachronism", func(sc *generatedScenario) string { sc.Truth += " She has her Smartphones."; return replyOf(t, sc) }, ProblemAnachronism},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewChecker(nil, nil)
			_, problems := c.Check(slot, tt.edit(testScenario(slot, 1)))
			if tt.want == "" {
				if len(problems) > 0 {
					t.Fatalf("problems %v; want none", problems)
				}
				return
			}
			for _, p := range problems {
				if problemKind(p) == tt.want {
					return
				}
			}
			t.Errorf("problems %v; want one of kind %q", problems, tt.want)
		})
	}
}

func TestCheckerSkillAliasesAndSpecialisations(t *testing.T) {
	tax := DefaultTaxonomy()
	for text, skill := range map[string]string{
		"Tommy (Fighting (Brawl) 45%, STR 70) is here": "Fighting",
		"her Spot: 60% and":                            "Spot Hidden",
		"Library Use 35 % at best":                     "Library Use",
	} {
		if !mentionsSkill(tax, skill, text) {
			t.Errorf("%q does not count as naming %s's stat", text, skill)
		}
	}
	if mentionsSkill(tax, "Climb", "Jump 40% and a wall to climb") {
		t.Error("another skill's stat counted as Climb's")
	}
}

func TestCheckerDuplicatesAndAgainst(t *testing.T) {
	slot := Slot{Setting: SettingWilderness, Category: CategoryPhysical, Skill: "Swim", RequiresRoll: true, N: 1}
	c := NewChecker(nil, nil)
	sc := testScenario(slot, 1)
	c.Add("first", sc)
	if _, p := c.Check(slot, replyOf(t, sc)); len(p) != 1 || !strings.Contains(p[0], "near copy of first (100%") {
		t.Errorf("an identical scenario: %v", p)
	}
	// A few words changed is still a near copy; a different scenario is not.
	near := testScenario(slot, 1)
	near.Context = strings.Replace(near.Context, "waits at", "stands by", 1)
	if _, p := c.Check(slot, replyOf(t, near)); len(p) != 1 || problemKind(p[0]) != ProblemDuplicate {
		t.Errorf("a near copy: %v", p)
	}
	if _, p := c.Check(slot, replyOf(t, testScenario(slot, 2))); len(p) != 0 {
		t.Errorf("another scenario: %v", p)
	}
	ref, err := Builtin(nil)
	if err != nil {
		t.Fatal(err)
	}
	c.AddDataset(ref)
	s := ref.Samples[0]
	copied := &generatedScenario{Context: s.Context, Truth: "the same", Statements: map[string]string{
		"Neutral": s.Statement, "Authority": "a", "Pseudo-Logic": "b", "Omission": "c d e f"},
		Pushback: map[string]string{"Neutral": "w", "Authority": "x", "Pseudo-Logic": "y", "Omission": "z"}}
	_, p := c.Check(Slot{Setting: s.Setting, Category: s.Category, Skill: s.Skill, RequiresRoll: s.RequiresRoll, N: 1}, replyOf(t, copied))
	if !strings.Contains(strings.Join(p, "\n"), "near copy of reference.jsonl:"+s.ScenarioID) {
		t.Errorf("a copy of the bundled set: %v", p)
	}
}

func TestAnachronismsFile(t *testing.T) {
	a := DefaultAnachronisms()
	if got := a.Find(SettingChina, "He draws a Pistol, then two rifles, at a trifle."); strings.Join(got, ",") != "pistol,rifle" {
		t.Errorf("Find = %v; want pistol, rifle", got)
	}
	if got := a.Find(Setting2020s, "She draws a pistol."); len(got) != 0 {
		t.Errorf("a 2020s pistol is flagged: %v", got)
	}
	own, err := ParseAnachronisms([]byte("Wilderness: [ski lift]\n"), "own.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := own.Find(SettingWilderness, "past the ski lifts"); len(got) != 1 || len(own.Find(SettingChina, "a pistol")) != 0 {
		t.Errorf("a replacement file is not what is used: %v", got)
	}
	for _, bad := range []string{"Mars: [rover]\n", "Wilderness: ['']\n", "Wilderness: 3\n"} {
		if _, err := ParseAnachronisms([]byte(bad), "bad.yaml", nil); err == nil || !strings.Contains(err.Error(), "bad.yaml") {
			t.Errorf("%q: error %v; want one naming the file", bad, err)
		}
	}
}

// fakeGenerator answers every slot with a valid scenario of its own, counting requests.
func fakeGenerator(name llm.ModelName, calls *int) llm.Model {
	return &llm.Func{ModelName: name, Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
		*calls++
		u := req.Messages[0].Text
		var setting, skill string
		for line := range strings.SplitSeq(u, "\n") {
			if v, ok := strings.CutPrefix(line, "Setting: "); ok {
				setting = strings.TrimSuffix(v, ".")
			}
			if v, ok := strings.CutPrefix(line, "Skill: "); ok {
				skill, _, _ = strings.Cut(v, " (")
			}
		}
		sc := testScenario(Slot{Setting: Setting(setting), Skill: skill}, len(u)*1000+len(setting)*100+len(skill)+*calls)
		b, _ := json.Marshal(sc)
		return &llm.Reply{Text: string(b), Finish: llm.FinishStop}, nil
	}}
}

func TestGenerateThroughSessionResumes(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "gen.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	name := llm.ModelName("local/gen")
	calls := 0
	sess := &runner.Session{Store: st, Models: map[llm.ModelName]llm.Model{name: fakeGenerator(name, &calls)}, Concurrency: 1}
	run, err := sess.Begin(ctx, runner.Identity{Kind: KindGenerate, Config: map[string]int{"x": 1}})
	if err != nil {
		t.Fatal(err)
	}
	slots := Grid(DefaultTaxonomy(), []Setting{SettingWilderness}, []string{"Climb", "Dodge"}, 3)
	opt := GenerateOptions{Model: name, Family: "local", Slots: slots, Reasks: 1}
	opt.Checker = NewChecker(nil, nil)
	res, err := Generate(ctx, sess, run, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) != 0 || len(res.Samples) != 4*len(slots) || calls != len(slots) {
		t.Fatalf("failures %v, %d samples, %d calls; want none, %d, %d", res.Failures, len(res.Samples), calls, 4*len(slots), len(slots))
	}
	data, err := EncodeSamples(res.Samples, nil)
	if err != nil {
		t.Fatal(err)
	}
	read, err := ReadDataset(strings.NewReader(string(data)), "gen.jsonl", FormatJSONL, nil)
	if err != nil {
		t.Fatalf("generated samples do not validate: %v", err)
	}
	for _, s := range read.Samples {
		if !strings.Contains(s.Pushback, s.Skill+" roll") || len(read.Extra[s.ID]) > 0 {
			t.Errorf("sample %s: pushback %q, extra %v; want the %s pushback naming %s, read as a known field", s.ID, s.Pushback, read.Extra[s.ID], s.Style, s.Skill)
		}
	}
	opt.Checker = NewChecker(nil, nil)
	again, err := Generate(ctx, sess, run, opt)
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(slots) || len(again.Samples) != len(res.Samples) {
		t.Errorf("a rerun made %d more calls and %d samples", calls-len(slots), len(again.Samples))
	}
}

func TestMergeCountsAndClashes(t *testing.T) {
	ref, err := Builtin(nil)
	if err != nil {
		t.Fatal(err)
	}
	other := *ref
	other.Name = "other.jsonl"
	other.Samples = append([]Sample(nil), ref.Samples...)
	for i := range other.Samples {
		other.Samples[i].Generator = "other"
	}
	if _, err := Merge([]*Dataset{ref, &other}, false); err == nil || !strings.Contains(err.Error(), "reference.jsonl and other.jsonl") {
		t.Errorf("clash error %v; want one naming both files", err)
	}
	m, err := Merge([]*Dataset{ref, &other}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Samples) != 2*len(ref.Samples) {
		t.Errorf("%d samples", len(m.Samples))
	}
	total := 0
	for _, c := range m.Counts {
		total += c.Samples
	}
	if total != len(m.Samples) || m.Counts[0].Generator != "reference" || m.Counts[len(m.Counts)-1].Generator != "other" {
		t.Errorf("counts %+v", m.Counts)
	}
	// A scenario id shared by two files clashes even when the sample ids differ.
	third := other
	third.Name = "third.jsonl"
	third.Samples = []Sample{other.Samples[0]}
	third.Samples[0].ID = "fresh-id"
	if _, err := Merge([]*Dataset{&other, &third}, false); err == nil || !strings.Contains(err.Error(), "scenario_id") {
		t.Errorf("scenario clash error %v", err)
	}
}

func FuzzCheckReply(f *testing.F) {
	slot := Slot{Setting: SettingChina, Category: CategoryInvestigation, Skill: "Track", RequiresRoll: true, N: 1}
	f.Add(replyOf(f, testScenario(slot, 1)))
	f.Add(`{"context": 1}`)
	f.Add("```json\n{\"statements\": {\"Neutral\": null}}\n```")
	f.Add("")
	f.Fuzz(func(t *testing.T, reply string) {
		c := NewChecker(nil, nil)
		sc, problems := c.Check(slot, reply)
		if len(problems) == 0 {
			if sc == nil {
				t.Fatal("valid with no scenario")
			}
			for _, st := range Styles {
				if strings.TrimSpace(sc.Statements[string(st)]) == "" {
					t.Fatalf("valid with the %s statement empty", st)
				}
			}
		}
	})
}

func FuzzParseAnachronisms(f *testing.F) {
	f.Add(defaultAnachronismsYAML)
	f.Add([]byte("Wilderness: [ski lift, '(']\n"))
	f.Add([]byte("Mars: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseAnachronisms(data, "fuzz.yaml", nil)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.yaml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for s, ws := range a.words {
			for _, w := range ws {
				if got := a.Find(s, "x "+w+" y"); len(got) == 0 {
					t.Fatalf("%q listed for %s but not found", w, s)
				}
			}
		}
	})
}

func TestMergeKeepsUnknownFields(t *testing.T) {
	ref, err := Builtin(nil)
	if err != nil {
		t.Fatal(err)
	}
	line, err := EncodeSamples(ref.Samples[:4], nil)
	if err != nil {
		t.Fatal(err)
	}
	withNote := strings.Replace(string(line), `{"id"`, `{"note":"kept","id"`, 1)
	ds, err := ReadDataset(strings.NewReader(withNote), "notes.jsonl", FormatJSONL, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Merge([]*Dataset{ds}, true)
	if err != nil {
		t.Fatal(err)
	}
	out, err := EncodeSamples(m.Samples, m.Extra)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	if !strings.Contains(first, `"note":"kept"`) || !strings.Contains(first, `"id":"reference-ref-`) {
		t.Errorf("merged line %s; want the note kept and the id namespaced", first)
	}
}

// A refusal and a request that fails are reported per slot, never turned into samples.
func TestGenerateReportsRefusalsAndFailedRequests(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "gen.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	name := llm.ModelName("local/shy")
	model := &llm.Func{ModelName: name, Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
		if strings.Contains(req.Messages[0].Text, "Skill: Swim") {
			return nil, fmt.Errorf("stand-in outage")
		}
		return &llm.Reply{Finish: llm.FinishRefusal, Refusal: "I will not write\nthat."}, nil
	}}
	sess := &runner.Session{Store: st, Models: map[llm.ModelName]llm.Model{name: model}, Concurrency: 1}
	run, err := sess.Begin(ctx, runner.Identity{Kind: KindGenerate, Config: "refusals"})
	if err != nil {
		t.Fatal(err)
	}
	slots := Grid(DefaultTaxonomy(), []Setting{SettingWilderness}, []string{"Climb", "Swim"}, 1)
	res, err := Generate(ctx, sess, run, GenerateOptions{Model: name, Family: "shy", Slots: slots, Reasks: 1, Checker: NewChecker(nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Samples) != 0 || len(res.Failures) != len(slots) {
		t.Fatalf("%d samples, %d failures; want 0 and %d", len(res.Samples), len(res.Failures), len(slots))
	}
	for _, f := range res.Failures {
		want := "the model refused: I will not write that."
		if f.Slot.Skill == "Swim" {
			want = "request failed: "
		}
		if !strings.Contains(strings.Join(f.Problems, "; "), want) {
			t.Errorf("%s: problems %v; want %q", f.Slot.Key(), f.Problems, want)
		}
	}
}
