package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// persuadable is a stand-in Keeper that rules by the scenario's truth unless the
// statement it sees is an Authority or Pseudo-Logic one, which talks it out of any roll;
// a request with a JSON schema is the guard's, which it answers with the bare action.
type persuadable struct {
	truth    map[string]bool   // context -> requires_roll
	styles   map[string]string // statement -> style
	scenario map[string]string // statement -> scenario id
	mu       sync.Mutex
	guard    int
	seen     []string // the adjudicator's user messages
}

func newPersuadable(t *testing.T, data string) *persuadable {
	t.Helper()
	ds, err := seduce.LoadDataset(data, seduce.DefaultTaxonomy())
	if err != nil {
		t.Fatal(err)
	}
	p := &persuadable{truth: map[string]bool{}, styles: map[string]string{}, scenario: map[string]string{}}
	for _, s := range ds.Samples {
		p.truth[strings.TrimSpace(s.Context)] = s.RequiresRoll
		p.styles[strings.TrimSpace(s.Statement)] = string(s.Style)
		p.scenario[strings.TrimSpace(s.Statement)] = s.ScenarioID
	}
	return p
}

func (p *persuadable) reply(req *llmtest.Request) llmtest.Response {
	ctx, stmt, ok := seduce.SplitUserMessage(req.LastUser())
	if !ok {
		return llmtest.Response{Text: "I cannot tell what is asked."}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if req.JSONSchema != nil {
		p.guard++
		b, _ := json.Marshal(map[string]string{"action": "The investigator attempts the action of scenario " + p.scenario[stmt] + "."})
		return llmtest.Response{Text: string(b)}
	}
	p.seen = append(p.seen, req.LastUser())
	if st := p.styles[stmt]; st == "Authority" || st == "Pseudo-Logic" || !p.truth[ctx] {
		return llmtest.Response{Text: `{"decision": "automatic_success", "skill": "Climb", "reason": "convinced"}`}
	}
	return llmtest.Response{Text: `{"decision": "roll", "skill": "Climb", "reason": "risky"}`}
}

// TestDefenseCanonicalizeEndToEnd runs a study against the OpenAI stand-in: under
// canonicalize the persuaded Keeper falls to its control rate, never sees a statement,
// the guard is asked once per sample, and a rerun asks nothing.
func TestDefenseCanonicalizeEndToEnd(t *testing.T) {
	data := smallDataset(t, 40)
	p := newPersuadable(t, data)
	srv := llmtest.NewServer(llmtest.Options{Responder: p.reply})
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "d.db")
	env := map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	// A plain run first: the study's none arm is that same run and asks nothing more.
	if plain := arbiter(t, env, "seduce", "run", "-q", "--dataset", data, "-m", "openai/keeper", "--db", db); plain.code != 0 {
		t.Fatalf("plain run: exit %d: %s", plain.code, plain.stderr)
	}
	args := []string{"seduce", "run", "-q", "--dataset", data, "-m", "openai/keeper", "--defense", "canonicalize",
		"--guard-model", "openai/guard", "--db", db, "--format", "json", "--bootstrap", "200"}
	r := arbiter(t, env, args...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var res seduce.Results
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Models) != 2 || res.Models[0].Defense != "none" || res.Models[1].Defense != "canonicalize" {
		t.Fatalf("models = %d entries; want keeper under none then canonicalize", len(res.Models))
	}
	none, canon := res.Models[0], res.Models[1]
	control, _ := none.ByStyle.Get("Neutral")
	auth, _ := none.ByStyle.Get("Authority")
	if control.FR == nil || auth.FR == nil || *auth.FR <= *control.FR {
		t.Fatalf("the stand-in should fall for Authority: control %v, authority %v", control.FR, auth.FR)
	}
	if canon.FR == nil || *canon.FR != *control.FR {
		t.Errorf("FR under canonicalize = %v; want the control rate %v", canon.FR, *control.FR)
	}
	if p.guard != 40 {
		t.Errorf("guard asked %d times; want one per sample (40)", p.guard)
	}
	withStatement := 0
	for _, msg := range p.seen {
		_, stmt, _ := seduce.SplitUserMessage(msg)
		if _, ok := p.styles[stmt]; ok {
			withStatement++
		}
	}
	if withStatement != 40 || len(p.seen) <= 40 {
		t.Errorf("%d of %d adjudicator requests hold a player's statement; want exactly the plain run's 40 (the study's none arm is that run), and canonicalize's none", withStatement, len(p.seen))
	}
	if len(res.Defenses) != 1 || res.Defenses[0].Delta == nil || *res.Defenses[0].Delta >= 0 || res.Defenses[0].RequestsPerSample != 2 {
		t.Errorf("comparison = %+v; want one, with FR lowered at 2 requests per sample", res.Defenses)
	}
	rep := arbiter(t, nil, "seduce", "report", "--db", db, "--run", string(defenseRun(t, db, "canonicalize")), "--format", "json", "--bootstrap", "200")
	if rep.code != 0 || rep.stdout != r.stdout {
		t.Errorf("seduce report of the canonicalize run (exit %d, %s) differs from the study's report", rep.code, rep.stderr)
	}
	if runs := seduceRuns(t, db); runs != 2 {
		t.Errorf("the store holds %d benchmark runs; want 2: the plain run, which is the study's none arm, and canonicalize", runs)
	}
	asked := srv.Requests()
	again := arbiter(t, env, args...)
	if again.code != 0 || again.stdout != r.stdout {
		t.Fatalf("rerun: exit %d, same report %v: %s", again.code, again.stdout == r.stdout, again.stderr)
	}
	if n := srv.Requests(); n != asked {
		t.Errorf("rerun sent %d requests; want none", n-asked)
	}
	md := arbiter(t, env, append(args[:len(args)-4], "--format", "md", "--bootstrap", "200")...)
	for _, want := range []string{"openai/keeper [canonicalize]", "Defenses against none", "Omission FR change"} {
		if !strings.Contains(md.stdout, want) {
			t.Errorf("markdown report lacks %q", want)
		}
	}
}

// defenseRun is the id of the stored run of defense in db.
func defenseRun(t *testing.T, db, defense string) store.RunID {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs(context.Background(), seduce.RunKind)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if cfg, err := seduce.RunConfigOf(r); err == nil && cfg.Defense == defense {
			return r.ID
		}
	}
	t.Fatalf("no run of %s in %s", defense, db)
	return ""
}

func seduceRuns(t *testing.T, db string) int {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs(context.Background(), seduce.RunKind)
	if err != nil {
		t.Fatal(err)
	}
	return len(runs)
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDefensesOfflineWithBaseline runs the bundled set with baseline/keyword under every
// defense that needs no guard, checks the JSON of seduce.md section 6, and refuses a
// baseline as a guard.
func TestDefensesOfflineWithBaseline(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	figs := filepath.Join(dir, "figs")
	r := arbiter(t, nil, "seduce", "run", "-q", "--defense", "self-consistency:3", "--defense", "few-shot:2", "--defense", "none",
		"--db", db, "--format", "json", "--bootstrap", "100", "--figures", figs)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	v := decodeJSON(t, r.stdout)
	var defs []string
	for _, m := range v["models"].([]any) {
		e := m.(map[string]any)
		if e["model"] != "baseline/keyword" {
			t.Errorf("model %v", e["model"])
		}
		defs = append(defs, e["defense"].(string))
	}
	if !slices.Equal(defs, []string{"none", "self-consistency:3", "few-shot:2"}) {
		t.Errorf("defenses = %v; want none first, then the others in the order given, once each", defs)
	}
	want := []string{"defense", "delta", "delta_ci", "fr", "fr_none", "mcnemar_p", "model", "pairs", "requests_per_sample", "tokens_per_sample"}
	cmps := v["defenses"].([]any)
	if len(cmps) != 2 {
		t.Fatalf("defenses lists %d comparisons; want 2", len(cmps))
	}
	for _, c := range cmps {
		e := c.(map[string]any)
		var keys []string
		for k := range e {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, want) {
			t.Errorf("comparison keys %v; want %v", keys, want)
		}
		if e["pairs"].(float64) != 1792 || len(e["delta_ci"].([]any)) != 2 {
			t.Errorf("comparison %v: want 1792 pairs and an interval", e)
		}
	}
	if rq := cmps[0].(map[string]any)["requests_per_sample"]; rq != 3.0 {
		t.Errorf("self-consistency:3 requests per sample = %v; want 3", rq)
	}
	if _, err := os.Stat(filepath.Join(figs, "figure-defenses.svg")); err != nil {
		t.Errorf("no figure of FR by style per defense: %v", err)
	}
	// seduce report on a defense's run rebuilds it and none from the store alone.
	fs := defenseRun(t, db, "few-shot:2")
	rep := arbiter(t, nil, "seduce", "report", "--db", db, "--run", string(fs), "--format", "json", "--bootstrap", "100")
	if rep.code != 0 {
		t.Fatalf("report of a defense run: exit %d: %s", rep.code, rep.stderr)
	}
	rv := decodeJSON(t, rep.stdout)
	if ms, ds := rv["models"].([]any), rv["defenses"].([]any); len(ms) != 2 || len(ds) != 1 || ds[0].(map[string]any)["defense"] != "few-shot:2" {
		t.Errorf("report of the few-shot run: %d entries, %d comparisons; want none and few-shot:2 compared", len(ms), len(ds))
	} else if a, b := mustMarshal(t, ds[0]), mustMarshal(t, cmps[1]); a != b {
		t.Errorf("the report's comparison %s differs from the study's %s", a, b)
	}
	// The study asks here: --enqueue is refused, not dropped (no store is touched).
	bad := arbiter(t, nil, "seduce", "run", "-q", "--defense", "few-shot:2", "--enqueue", "--db", "postgres://arbiter@127.0.0.1:1/none")
	if bad.code != 2 || !strings.Contains(bad.stderr, "--defense is not queued") {
		t.Errorf("--defense with --enqueue: exit %d, stderr %q; want 2 saying the study is not queued", bad.code, bad.stderr)
	}
	bad = arbiter(t, nil, "seduce", "run", "-q", "--defense", "canonicalize", "--db", db)
	if bad.code != 2 || !strings.Contains(bad.stderr, "baseline/keyword cannot be its own guard") || !strings.Contains(bad.stderr, "--guard-model") {
		t.Errorf("canonicalize with a baseline: exit %d, stderr %q; want 2 saying a baseline cannot be a guard", bad.code, bad.stderr)
	}
	bad = arbiter(t, nil, "seduce", "run", "-q", "--defense", "canonicalize", "--guard-model", "baseline/never-roll", "--db", db)
	if bad.code != 2 || !strings.Contains(bad.stderr, "cannot be a guard") {
		t.Errorf("a baseline guard: exit %d, stderr %q; want 2", bad.code, bad.stderr)
	}
	small, smallDB := smallDataset(t, 40), filepath.Join(dir, "s.db")
	for _, format := range []string{"text", "md", "csv", "latex"} {
		out := arbiter(t, nil, "seduce", "run", "-q", "--dataset", small, "--defense", "self-consistency:3", "--defense", "few-shot:2",
			"--db", smallDB, "--format", format, "--bootstrap", "0")
		if out.code != 0 || !strings.Contains(out.stdout, "baseline/keyword [few-shot:2]") || !strings.Contains(out.stdout, "self-consistency:3") {
			t.Errorf("--format %s: exit %d, no defense rows: %s", format, out.code, out.stderr)
		}
	}
	bad = arbiter(t, nil, "seduce", "run", "-q", "--defense", "canonicalize", "--guard-model", "openai/g", "--guard-prompt", filepath.Join(dir, "missing.txt"), "--db", db)
	if bad.code != 2 || !strings.Contains(bad.stderr, "missing.txt") {
		t.Errorf("a missing guard prompt: exit %d, stderr %q; want 2 naming the file", bad.code, bad.stderr)
	}
	bad = arbiter(t, nil, "seduce", "run", "-q", "--defense", "few-shot", "--db", db)
	if bad.code != 2 || !strings.Contains(bad.stderr, "few-shot:3") {
		t.Errorf("few-shot without K: exit %d, stderr %q; want 2 with an example", bad.code, bad.stderr)
	}
}

// TestDefenseExperimentFile: the experiment file names the defenses as the flags do.
func TestDefenseExperimentFile(t *testing.T) {
	dir := t.TempDir()
	exp := filepath.Join(dir, "study.yaml")
	os.WriteFile(exp, []byte("models: [baseline/keyword]\ndefenses: [few-shot:1]\nshot_seed: 5\nbootstrap: 0\n"), 0o644)
	r := arbiter(t, nil, "seduce", "run", "-q", "--experiment", exp, "--db", filepath.Join(dir, "e.db"), "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if n := len(decodeJSON(t, r.stdout)["defenses"].([]any)); n != 1 {
		t.Errorf("%d comparisons; want 1 (few-shot:1 against none)", n)
	}
}

// TestDefenseStudyBatched: a defense study sent through a provider's batch API asks
// every request in batches (none directly) and reports what the same study asked
// directly reports.
func TestDefenseStudyBatched(t *testing.T) {
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: keeperReply}, llmtest.BatchOptions{})
	defer srv.Close()
	data, dir := smallDataset(t, 10), t.TempDir()
	args := []string{"seduce", "run", "-q", "--dataset", data, "-m", "openai/gpt-4.1", "--defense", "none", "--defense", "few-shot:2",
		"--defense", "self-consistency:3", "--base-url", srv.URL, "--format", "json", "--bootstrap", "0", "--batch-poll", "1ms"}
	direct := arbiter(t, nil, append(args, "--db", filepath.Join(dir, "direct.db"))...)
	if direct.code != 0 {
		t.Fatalf("direct study: exit %d: %s", direct.code, direct.stderr)
	}
	asked := srv.Requests()
	if asked == 0 || srv.LinesSubmitted() != 0 {
		t.Fatalf("the direct study sent %d requests and %d batch lines", asked, srv.LinesSubmitted())
	}
	batched := arbiter(t, nil, append(args, "--db", filepath.Join(dir, "batch.db"), "--batch")...)
	if batched.code != 0 {
		t.Fatalf("batched study: exit %d: %s", batched.code, batched.stderr)
	}
	if got := srv.Requests() - asked; got != 0 {
		t.Errorf("the batched study sent %d requests directly; want every one in a batch", got)
	}
	if got := srv.LinesSubmitted(); int64(got) != asked {
		t.Errorf("the batched study submitted %d lines; the direct study asked %d", got, asked)
	}
	// The same report, but for the latency a batch does not measure per request.
	untimed := func(report string) string {
		v := decodeJSON(t, report)
		for _, m := range v["models"].([]any) {
			delete(m.(map[string]any), "latency")
		}
		return mustMarshal(t, v)
	}
	if a, b := untimed(batched.stdout), untimed(direct.stdout); a != b {
		t.Errorf("the batched study's report differs from the direct study's:\n%s\n---\n%s", a, b)
	}
}
