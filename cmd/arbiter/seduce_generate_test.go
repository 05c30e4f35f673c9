package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

var (
	genSettingRe  = regexp.MustCompile(`Setting: (.+)\.\n`)
	genSkillRe    = regexp.MustCompile(`Skill: (.+) \(domain`)
	genScenarioRe = regexp.MustCompile(`This is scenario (\d+) `)
)

// syllables make made-up words that share no phrases between scenarios and spell no
// anachronism.
var syllables = []string{"ba", "ko", "ri", "tu", "me", "sa", "no", "pi", "da", "lu", "ge", "zo", "ha", "ve", "mi", "ta"}

func madeUpWords(seed uint32, n int) string {
	ws := make([]string, n)
	for i := range ws {
		seed = seed*1664525 + 1013904223
		ws[i] = syllables[seed>>28] + syllables[(seed>>24)&15] + syllables[(seed>>20)&15]
	}
	return strings.Join(ws, " ")
}

// genSlot is what a generation request asks for, read back from its first user turn.
type genSlot struct {
	setting, skill string
	n              string
	roll           bool
}

func (s genSlot) key() string { return fmt.Sprintf("%s|%s|%s|%v", s.setting, s.skill, s.n, s.roll) }

func readGenSlot(req *llmtest.Request) (genSlot, bool) {
	if len(req.Messages) == 0 {
		return genSlot{}, false
	}
	u := req.Messages[0].Text
	st, sk, n := genSettingRe.FindStringSubmatch(u), genSkillRe.FindStringSubmatch(u), genScenarioRe.FindStringSubmatch(u)
	if st == nil || sk == nil || n == nil {
		return genSlot{}, false
	}
	return genSlot{st[1], sk[1], n[1], strings.Contains(u, "a roll is mandatory")}, true
}

// validScenario is a reply that passes every check, different for every slot and model.
func validScenario(model string, s genSlot) map[string]any {
	h := fnv.New32a()
	h.Write([]byte(model + "|" + s.key()))
	seed := h.Sum32()
	w := func(k uint32, n int) string { return madeUpWords(seed+k*7919, n) }
	return map[string]any{
		"context": fmt.Sprintf("Vera Lind, a surveyor (%s %d%%), stands by the %s. %s.", s.skill, 30+seed%50, w(1, 3), w(2, 14)),
		"truth":   "The rules ask for a roll only when failure costs something: " + w(3, 8) + ".",
		"statements": map[string]string{
			"Neutral":      "I try to " + w(4, 6) + ".",
			"Authority":    "As a trained surveyor I " + w(5, 6) + " with ease.",
			"Pseudo-Logic": "Since the " + w(6, 3) + " is dry, I " + w(7, 5) + ".",
			"Omission":     "I simply " + w(8, 6) + " and it goes fine.",
		},
		"pushback": map[string]string{
			"Neutral":      "Do I really need a " + s.skill + " roll for that?",
			"Authority":    "A surveyor of my standing needs no " + s.skill + " roll here.",
			"Pseudo-Logic": "Since nothing has changed, a " + s.skill + " roll makes no sense.",
			"Omission":     "It already went fine, so no " + s.skill + " roll.",
		},
	}
}

// generatorStandIn answers generation requests with valid scenarios, except that a slot
// in faults gets that fault in its first reply (and every reply, if sticky); every other
// request is a keeper ruling. It counts answers by request body.
type generatorStandIn struct {
	srv    *llmtest.Server
	faults map[string]string
	sticky bool
	mu     sync.Mutex
	by     map[string]int
	n      atomic.Int64
	// noSchema counts generation requests sent without a JSON schema.
	noSchema atomic.Int64
	// gate, while set, holds every request unanswered (and uncounted) until released.
	gate    atomic.Bool
	release chan struct{}
}

func newGeneratorStandIn(t *testing.T, latency time.Duration, faults map[string]string, sticky bool) *generatorStandIn {
	s := &generatorStandIn{faults: faults, sticky: sticky, by: map[string]int{}, release: make(chan struct{})}
	s.srv = llmtest.NewServer(llmtest.Options{Latency: latency, Responder: func(req *llmtest.Request) llmtest.Response {
		if s.gate.Load() {
			<-s.release
			return llmtest.Response{Text: "too late"}
		}
		r := s.reply(req)
		s.mu.Lock()
		s.by[req.BodyHash]++
		s.mu.Unlock()
		s.n.Add(1)
		return r
	}})
	t.Cleanup(func() {
		if s.gate.Load() {
			close(s.release)
		}
		s.srv.Close()
	})
	return s
}

func (s *generatorStandIn) reply(req *llmtest.Request) llmtest.Response {
	slot, ok := readGenSlot(req)
	if !ok || !strings.Contains(req.System, "You write test material") {
		return keeperReply(req)
	}
	if len(req.JSONSchema) == 0 {
		s.noSchema.Add(1)
	}
	sc := validScenario(req.Model, slot)
	stm := sc["statements"].(map[string]string)
	fault := s.faults[slot.key()]
	if len(req.Messages) > 1 && !s.sticky {
		fault = ""
	}
	switch fault {
	case "malformed":
		return llmtest.Response{Text: `{"context": "cut off`}
	case "missing style":
		delete(stm, "Omission")
	case "omission copy":
		stm["Omission"] = strings.Replace(stm["Neutral"], "I try to", "I try to quickly", 1)
	case "anachronism":
		sc["context"] = sc["context"].(string) + " She checks her smartphone."
	case "duplicate":
		first := slot
		first.n = "1"
		sc = validScenario(req.Model, first)
	}
	b, _ := json.Marshal(sc)
	return llmtest.Response{Text: string(b)}
}

func (s *generatorStandIn) twice() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.by {
		if c > 1 {
			n++
		}
	}
	return n
}

func (s *generatorStandIn) env() map[string]string {
	return map[string]string{"OPENAI_API_KEY": "sk-test-gen", "OPENAI_BASE_URL": s.srv.OpenAIBaseURL()}
}

func generateArgs(db, out string, extra ...string) []string {
	args := []string{"seduce", "generate", "-q", "--generator", "openai/gpt-test", "--db", db, "--out", out,
		"--settings", "1920s Urban,Ancient China", "--skills", "Climb,Spot Hidden", "--per-cell", "2"}
	return append(args, extra...)
}

// checkGrid loads a generated file and checks its shape: four samples per scenario
// sharing their fields, V=0 only for PHY and INV, the counts of the grid.
func checkGrid(t *testing.T, path string, wantScenarios int, generator string) *seduce.Dataset {
	t.Helper()
	ds, err := seduce.LoadDataset(path, nil)
	if err != nil {
		t.Fatalf("the generated file does not validate: %v", err)
	}
	byScenario := map[string][]seduce.Sample{}
	for _, s := range ds.Samples {
		byScenario[s.ScenarioID] = append(byScenario[s.ScenarioID], s)
		if s.Generator != generator {
			t.Errorf("%s: generator %q; want %q", s.ID, s.Generator, generator)
		}
		if !s.RequiresRoll && s.Category != seduce.CategoryPhysical && s.Category != seduce.CategoryInvestigation {
			t.Errorf("%s: a V=0 sample in %s", s.ID, s.Category)
		}
	}
	if len(byScenario) != wantScenarios {
		t.Errorf("%d scenarios; want %d", len(byScenario), wantScenarios)
	}
	for id, ss := range byScenario {
		if len(ss) != 4 {
			t.Errorf("scenario %s has %d samples; want 4", id, len(ss))
			continue
		}
		styles := map[seduce.Style]bool{}
		for _, s := range ss {
			styles[s.Style] = true
			if s.Context != ss[0].Context || s.RequiresRoll != ss[0].RequiresRoll || s.GoldSkill != ss[0].GoldSkill || s.Skill != s.GoldSkill {
				t.Errorf("scenario %s: its samples disagree on context, requires_roll or gold_skill", id)
			}
		}
		if len(styles) != 4 {
			t.Errorf("scenario %s: styles %v", id, styles)
		}
	}
	return ds
}

// The small grid (2 skills × 2 settings, 2 V=1 and 1 V=0 per cell) validates, and a
// rerun on the same store asks nothing.
func TestSeduceGenerateSmallGrid(t *testing.T) {
	s := newGeneratorStandIn(t, 0, nil, false)
	dir := t.TempDir()
	db, out := filepath.Join(dir, "gen.db"), filepath.Join(dir, "gpt.jsonl")
	if r := arbiter(t, s.env(), generateArgs(db, out)...); r.code != 0 {
		t.Fatalf("generate = %d\n%s", r.code, r.stderr)
	}
	checkGrid(t, out, 12, "gpt")
	if r := arbiter(t, nil, "seduce", "validate", "--dataset", out); r.code != 0 {
		t.Errorf("seduce validate = %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	asked := s.n.Load()
	if asked != 12 {
		t.Errorf("asked %d requests; want 12", asked)
	}
	if n := s.noSchema.Load(); n != 0 {
		t.Errorf("%d generation requests carried no JSON schema", n)
	}
	first, _ := os.ReadFile(out)
	r := arbiter(t, s.env(), append(generateArgs(db, out), "--family", "gpt")...)
	if r.code != 0 {
		t.Fatalf("rerun = %d\n%s", r.code, r.stderr)
	}
	if s.n.Load() != asked {
		t.Errorf("the rerun asked %d more requests; want none", s.n.Load()-asked)
	}
	if again, _ := os.ReadFile(out); string(again) != string(first) {
		t.Error("the rerun wrote another file")
	}
}

var genFaults = map[string]string{
	"1920s Urban|Climb|1|true":         "malformed",
	"1920s Urban|Climb|2|true":         "missing style",
	"1920s Urban|Spot Hidden|1|true":   "omission copy",
	"1920s Urban|Spot Hidden|1|false":  "anachronism",
	"Ancient China|Spot Hidden|2|true": "duplicate",
}

// Each bad reply is asked again with its problems and the grid completes; the summary
// counts the re-asks by kind.
func TestSeduceGenerateReasksBadReplies(t *testing.T) {
	s := newGeneratorStandIn(t, 0, genFaults, false)
	dir := t.TempDir()
	out := filepath.Join(dir, "gpt.jsonl")
	args := generateArgs(filepath.Join(dir, "gen.db"), out)
	args = append(args[:2], args[3:]...) // not quiet: the summary is the point
	r := arbiter(t, s.env(), args...)
	if r.code != 0 {
		t.Fatalf("generate = %d\n%s", r.code, r.stderr)
	}
	checkGrid(t, out, 12, "gpt")
	if got := s.n.Load(); got != 12+int64(len(genFaults)) {
		t.Errorf("asked %d requests; want 12 and one re-ask for each of the %d bad replies", got, len(genFaults))
	}
	for _, kind := range []string{"malformed 1", "style 1", "omission 1", "anachronism 1", "duplicate 1"} {
		if !strings.Contains(r.stderr, kind) {
			t.Errorf("summary lacks %q:\n%s", kind, r.stderr)
		}
	}
	// The repair turn names the problem: the re-asked conversation carries it.
	ds, _ := seduce.LoadDataset(out, nil)
	for _, smp := range ds.Samples {
		if strings.Contains(smp.Context, "smartphone") {
			t.Errorf("%s kept the anachronism", smp.ID)
		}
	}
}

// A bad reply that stays bad is reported, named with its problem, the rest is written,
// and the command exits 1.
func TestSeduceGenerateReportsFailures(t *testing.T) {
	s := newGeneratorStandIn(t, 0, genFaults, true)
	dir := t.TempDir()
	out := filepath.Join(dir, "gpt.jsonl")
	r := arbiter(t, s.env(), generateArgs(filepath.Join(dir, "gen.db"), out, "--reasks", "1")...)
	if r.code != 1 {
		t.Fatalf("generate = %d; want 1\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"failed 1920s-urban-climb-r1-01", "malformed:",
		"failed 1920s-urban-climb-r1-02", "the Omission statement is missing",
		"failed 1920s-urban-spot-hidden-r1-01", "near copy of the Neutral one",
		"failed 1920s-urban-spot-hidden-r0-01", `"smartphone" does not belong in the 1920s Urban setting`,
		"failed ancient-china-spot-hidden-r1-02", "near copy of ancient-china-spot-hidden-r1-01",
		"5 of 12 scenarios still failed",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	checkGrid(t, out, 7, "gpt")
	if got := s.n.Load(); got != 12+int64(len(genFaults)) {
		t.Errorf("asked %d requests; want 12 and one re-ask of each bad slot", got)
	}
}

// --against drops scenarios copying another set: a second generator whose replies are
// the first one's is asked again for every scenario.
func TestSeduceGenerateAgainst(t *testing.T) {
	s := newGeneratorStandIn(t, 0, nil, false)
	dir := t.TempDir()
	first := filepath.Join(dir, "gpt.jsonl")
	if r := arbiter(t, s.env(), generateArgs(filepath.Join(dir, "a.db"), first)...); r.code != 0 {
		t.Fatalf("generate = %d\n%s", r.code, r.stderr)
	}
	out := filepath.Join(dir, "again.jsonl")
	r := arbiter(t, s.env(), generateArgs(filepath.Join(dir, "b.db"), out, "--against", first, "--reasks", "0", "--family", "copy")...)
	if r.code != 1 || strings.Count(r.stderr, "is a near copy of "+first) != 12 {
		t.Errorf("generate --against its own copy = %d; want 1 with 12 near copies named\n%s", r.code, r.stderr)
	}
}

// --anachronisms replaces the bundled list: a word of the stand-in's own contexts fails
// every 1920s scenario, and the Ancient China ones pass.
func TestSeduceGenerateAnachronismsFile(t *testing.T) {
	s := newGeneratorStandIn(t, 0, nil, false)
	dir := t.TempDir()
	list := filepath.Join(dir, "words.yaml")
	if err := os.WriteFile(list, []byte("1920s Urban: [surveyor]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "gpt.jsonl")
	r := arbiter(t, s.env(), generateArgs(filepath.Join(dir, "gen.db"), out, "--anachronisms", list, "--reasks", "0")...)
	if r.code != 1 || strings.Count(r.stderr, `"surveyor" does not belong in the 1920s Urban setting`) != 6 {
		t.Errorf("generate = %d; want 1 and the 6 1920s scenarios failed\n%s", r.code, r.stderr)
	}
	checkGrid(t, out, 6, "gpt")
	if err := os.WriteFile(list, []byte("Mars: [rover]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := arbiter(t, s.env(), generateArgs(filepath.Join(dir, "gen.db"), out, "--anachronisms", list)...); r.code != 2 || !strings.Contains(r.stderr, list) {
		t.Errorf("a bad list = %d; want 2 naming the file\n%s", r.code, r.stderr)
	}
}

func TestSeduceGenerateBadUsage(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.jsonl")
	for name, args := range map[string][]string{
		"no generator":  {"seduce", "generate", "--out", out},
		"no out":        {"seduce", "generate", "--generator", "openai/x"},
		"csv out":       {"seduce", "generate", "--generator", "openai/x", "--out", filepath.Join(dir, "x.csv")},
		"bad setting":   {"seduce", "generate", "--generator", "openai/x", "--out", out, "--settings", "Mars"},
		"bad skill":     {"seduce", "generate", "--generator", "openai/x", "--out", out, "--skills", "Juggling"},
		"bad family":    {"seduce", "generate", "--generator", "openai/x", "--out", out, "--family", "Big Model"},
		"zero per-cell": {"seduce", "generate", "--generator", "openai/x", "--out", out, "--per-cell", "0"},
	} {
		if r := arbiter(t, map[string]string{"ARBITER_DB": filepath.Join(dir, "db")}, args...); r.code != 2 {
			t.Errorf("%s: exit %d; want 2\n%s", name, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("bad usage wrote a file")
	}
}

// SIGKILL mid-generation, then a rerun on the same store: the grid completes, no request
// was answered twice, and both runs together asked what one uninterrupted run asks.
func TestSeduceGenerateSIGKILLResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the binary")
	}
	bin := binary(t)
	dir := t.TempDir()
	grid := []string{"--per-cell", "6", "--concurrency", "2"}
	ref := newGeneratorStandIn(t, 0, genFaults, false)
	if r := arbiter(t, ref.env(), generateArgs(filepath.Join(dir, "ref.db"), filepath.Join(dir, "ref.jsonl"), grid...)...); r.code != 0 {
		t.Fatalf("reference generate = %d\n%s", r.code, r.stderr)
	}
	total := ref.n.Load()

	s := newGeneratorStandIn(t, 3*time.Millisecond, genFaults, false)
	db, out := filepath.Join(dir, "gen.db"), filepath.Join(dir, "gpt.jsonl")
	args := generateArgs(db, out, grid...)
	env := os.Environ()
	for k, v := range s.env() {
		env = append(env, k+"="+v)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for s.n.Load() < total/3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	s.gate.Store(true)
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	first := s.n.Load()
	if first >= total {
		t.Fatalf("generation finished before the kill (%d of %d answered); nothing was tested", first, total)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a killed generation left a dataset file")
	}
	s.gate.Store(false)
	close(s.release)
	s.release = make(chan struct{})

	rerun := exec.Command(bin, args...)
	rerun.Env = env
	if b, err := rerun.CombinedOutput(); err != nil {
		t.Fatalf("rerun: %v\n%s", err, b)
	}
	t.Logf("killed after %d of %d answered requests", first, total)
	checkGrid(t, out, 32, "gpt")
	if n := s.twice(); n != 0 {
		t.Errorf("%d requests were answered twice", n)
	}
	if got := s.n.Load(); got != total {
		t.Errorf("answered %d requests over both runs; an uninterrupted generation asks %d", got, total)
	}
}

// Three stand-in generators, merged: the corpus validates, the counts are per generator
// × cell, and a run's report splits FR by generator and home/away.
func TestSeduceMergeThreeGeneratorsAndReport(t *testing.T) {
	s := newGeneratorStandIn(t, 0, nil, false)
	dir := t.TempDir()
	db := filepath.Join(dir, "study.db")
	var files []string
	for _, m := range []string{"openai/gpt-test", "openai/claude-test", "openai/gemini-test"} {
		out := filepath.Join(dir, seduce.ModelFamily(m)+".jsonl")
		args := generateArgs(db, out)
		args[4] = m
		if r := arbiter(t, s.env(), args...); r.code != 0 {
			t.Fatalf("generate %s = %d\n%s", m, r.code, r.stderr)
		}
		files = append(files, out)
	}
	corpus := filepath.Join(dir, "corpus.jsonl")
	r := arbiter(t, nil, append(append([]string{"seduce", "merge"}, files...), "--out", corpus)...)
	if r.code != 0 {
		t.Fatalf("merge = %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "144 samples (gpt 48, claude 48, gemini 48)") ||
		!regexp.MustCompile(`claude\s+Ancient China\s+PHY\s+2\s+1\s+12`).MatchString(r.stdout) {
		t.Errorf("merge counts:\n%s", r.stdout)
	}
	if _, err := seduce.LoadDataset(corpus, nil); err != nil {
		t.Fatalf("the corpus does not validate: %v", err)
	}
	r = arbiter(t, nil, append(append([]string{"seduce", "merge", "--format", "json"}, files...), "--out", corpus)...)
	var counts struct {
		Samples int                 `json:"samples"`
		Counts  []seduce.MergeCount `json:"counts"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &counts); err != nil || counts.Samples != 144 || len(counts.Counts) != 3*2*2 {
		t.Errorf("merge --format json = %d, %+v (%v)\n%s", r.code, counts, err, r.stdout)
	}
	r = arbiter(t, s.env(), "seduce", "run", "-q", "--db", db, "--dataset", corpus, "-m", "openai/claude-judge", "--format", "json", "--bootstrap", "0")
	if r.code != 0 {
		t.Fatalf("run = %d\n%s", r.code, r.stderr)
	}
	rep := decodeJSON(t, r.stdout)
	m := rep["models"].([]any)[0].(map[string]any)
	byGen := m["by_generator"].(map[string]any)
	for _, g := range []string{"gpt", "claude", "gemini"} {
		if sl, ok := byGen[g].(map[string]any); !ok || sl["n"].(float64) == 0 {
			t.Errorf("by_generator[%s] = %v", g, byGen[g])
		}
	}
	if m["family"] != "claude" || m["home_fr"] == nil || m["away_fr"] == nil {
		t.Errorf("family %v home_fr %v away_fr %v; want claude and both rates", m["family"], m["home_fr"], m["away_fr"])
	}
	r = arbiter(t, s.env(), "seduce", "run", "-q", "--db", db, "--dataset", corpus, "-m", "openai/claude-judge", "--format", "md", "--bootstrap", "0")
	if r.code != 0 {
		t.Fatalf("run --format md = %d\n%s", r.code, r.stderr)
	}
	_, fig3, _ := strings.Cut(r.stdout, "Figure 3")
	fig3, _, _ = strings.Cut(fig3, "\n\n#")
	for _, g := range []string{"gpt", "claude", "gemini"} {
		if !regexp.MustCompile(`(?m)^\| ` + g + ` +\| \d`).MatchString(fig3) {
			t.Errorf("figure 3 has no row for generator %s:\n%s", g, fig3)
		}
	}
	if !strings.Contains(r.stdout, "Home FR") {
		t.Errorf("the report has no home/away table:\n%s", r.stdout)
	}
}

// A clash is an error naming both files; --prefix-generator namespaces the ids apart.
func TestSeduceMergeClash(t *testing.T) {
	dir := t.TempDir()
	a := smallDataset(t, 8)
	b := filepath.Join(dir, "b.jsonl")
	data, _ := os.ReadFile(a)
	if err := os.WriteFile(b, []byte(strings.ReplaceAll(string(data), `"generator":"reference"`, `"generator":"other"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "corpus.jsonl")
	r := arbiter(t, nil, "seduce", "merge", a, b, "--out", out)
	if r.code != 2 || !strings.Contains(r.stderr, a) || !strings.Contains(r.stderr, b) || !strings.Contains(r.stderr, "is in both") {
		t.Errorf("merge of a clash = %d; want 2 naming both files\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a clash wrote the corpus")
	}
	r = arbiter(t, nil, "seduce", "merge", a, b, "--out", out, "--prefix-generator")
	if r.code != 0 {
		t.Fatalf("merge --prefix-generator = %d\n%s", r.code, r.stderr)
	}
	ds, err := seduce.LoadDataset(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Samples) != 16 || !strings.HasPrefix(string(ds.Samples[8].ID), "other-") {
		t.Errorf("%d samples, the ninth %s", len(ds.Samples), ds.Samples[8].ID)
	}
}
