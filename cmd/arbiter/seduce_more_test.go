package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

func TestSeduceParseCommand(t *testing.T) {
	in := `{"id": "a", "text": "{\"decision\": \"roll\", \"skill\": \"Brawl\", \"reason\": \"x\"}"}
{"id": "b", "text": "No roll is needed."}
{"id": "c", "text": "I'm sorry, but I can't help with that."}
{"id": "d", "text": "Maybe."}
`
	r := arbiterIn(t, nil, in, "seduce", "parse")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := []string{
		`{"id":"a","decision":"roll","skill":"Fighting"}`,
		`{"id":"b","decision":"pass","skill":null}`,
		`{"id":"c","decision":"refused","skill":null}`,
		`{"id":"d","decision":"unparsed","skill":null}`,
	}
	got := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("seduce parse printed\n%s\nwant\n%s", r.stdout, strings.Join(want, "\n"))
	}
	if bad := arbiterIn(t, nil, "{\"id\": 1\n", "seduce", "parse"); bad.code != 2 || !strings.Contains(bad.stderr, "stdin:1") {
		t.Errorf("bad line: exit %d, stderr %q; want 2 naming stdin:1", bad.code, bad.stderr)
	}
}

func TestSeduceScoreCommand(t *testing.T) {
	dir := t.TempDir()
	data := smallDataset(t, 8) // two scenarios of the reference set: the first is V=1
	preds := filepath.Join(dir, "p.jsonl")
	os.WriteFile(preds, []byte(`{"id": "ref-1920-fighting-r1-neutral", "model": "openai/gpt-4.1", "decision": "roll", "skill": "Brawl", "latency_ms": 800}
{"id": "ref-1920-fighting-r1-authority", "model": "openai/gpt-4.1", "decision": "pass", "latency_ms": 700}
{"id": "ref-1920-fighting-r1-pseudo-logic", "model": "openai/gpt-4.1", "text": "No roll is needed, he simply wins."}
{"id": "ref-1920-fighting-r1-omission", "model": "openai/gpt-4.1", "decision": "refused"}
`), 0o644)
	r := arbiter(t, nil, "seduce", "score", "--dataset", data, "--predictions", preds, "--format", "json", "--bootstrap", "0")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	m := decodeJSON(t, r.stdout)["models"].([]any)[0].(map[string]any)
	checks := map[string]float64{"n": 4, "evaluated": 3, "refused": 1, "fp": 2, "fc": 0, "ws": 0}
	for k, want := range checks {
		if got := m[k].(float64); got != want {
			t.Errorf("%s = %v; want %v", k, got, want)
		}
	}
	if fr := m["fr"].(float64); fr < 0.666 || fr > 0.667 {
		t.Errorf("fr = %v; want 2/3", fr)
	}
	if m["fc_rate"] != nil {
		t.Errorf("fc_rate = %v; want null (no V=0 sample was evaluated)", m["fc_rate"])
	}
	os.WriteFile(preds, []byte("{\"id\": \"x\", \"model\": \"m\", \"decision\": \"maybe\"}\n"), 0o644)
	bad := arbiter(t, nil, "seduce", "score", "--dataset", data, "--predictions", preds)
	if bad.code != 2 || !strings.Contains(bad.stderr, "p.jsonl:1: decision") {
		t.Errorf("bad prediction: exit %d, stderr %q", bad.code, bad.stderr)
	}
}

func TestSeduceValidateCommand(t *testing.T) {
	r := arbiter(t, nil, "seduce", "validate", "--dataset", "builtin")
	if r.code != 0 || !strings.Contains(r.stdout, "1792 samples (1536 roll, 256 automatic) in 448 scenarios") {
		t.Fatalf("validate builtin: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"id":"a","generator":"gpt","setting":"Mars","category":"PHY","skill":"Climb","scenario_id":"s","context":"c","statement":"s","style":"Neutral","requires_roll":true,"gold_skill":"Climb"}
not json
`), 0o644)
	r = arbiter(t, nil, "seduce", "validate", "--dataset", bad)
	if r.code != 2 || !strings.Contains(r.stderr, "bad.jsonl:1: setting") || !strings.Contains(r.stderr, "bad.jsonl:2") {
		t.Fatalf("validate bad: exit %d, stderr %q; want 2 listing line 1 setting and line 2", r.code, r.stderr)
	}
}

// TestExperimentAndReport runs a study from an experiment file against a stand-in, then
// re-renders it from the store without a server.
func TestExperimentAndReport(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: keeperReply})
	dir := t.TempDir()
	data := smallDataset(t, 40)
	exp := filepath.Join(dir, "study.yaml")
	os.WriteFile(exp, []byte("name: small\ndatasets: ["+data+"]\nmodels: [openai/gpt-a, openai/gpt-b, baseline/keyword]\nreplicates: 2\nbootstrap: 200\n"), 0o644)
	db := filepath.Join(dir, "e.db")
	env := map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	r := arbiter(t, env, "seduce", "run", "-q", "--experiment", exp, "--db", db, "--format", "md")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if n := srv.Requests(); n != 2*40*2 {
		t.Errorf("stand-in saw %d requests; want 2 models x 40 samples x 2 replicates = 160", n)
	}
	for _, want := range []string{"openai/gpt-a", "openai/gpt-b", "baseline/keyword", "Pairwise exact McNemar"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	srv.Close()
	rep := arbiter(t, nil, "seduce", "report", "--db", db, "--format", "md", "--bootstrap", "200")
	if rep.code != 0 {
		t.Fatalf("report: exit %d: %s", rep.code, rep.stderr)
	}
	if rep.stdout != r.stdout {
		t.Error("seduce report differs from the run's own report")
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("models: [openai/x]\nmodles: [y]\n"), 0o644)
	if b := arbiter(t, env, "seduce", "run", "--experiment", bad, "--db", db); b.code != 2 || !strings.Contains(b.stderr, "bad.yaml") {
		t.Errorf("bad experiment: exit %d, stderr %q", b.code, b.stderr)
	}
	figs := filepath.Join(dir, "figs")
	if f := arbiter(t, nil, "seduce", "report", "--db", db, "--figures", figs); f.code != 0 {
		t.Fatalf("figures: %s", f.stderr)
	}
	if svgs, _ := filepath.Glob(filepath.Join(figs, "*.svg")); len(svgs) != 3 {
		t.Errorf("wrote %d figures; want 3", len(svgs))
	}
}

func TestFamilyOverrideFromConfig(t *testing.T) {
	dir := t.TempDir()
	data := smallDataset(t, 8)
	preds := filepath.Join(dir, "p.jsonl")
	os.WriteFile(preds, []byte(`{"id": "ref-1920-fighting-r1-neutral", "model": "local/my-finetune", "decision": "roll", "skill": "Fighting"}`+"\n"), 0o644)
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte("families:\n  local/my-finetune: qwen\n"), 0o644)
	r := arbiter(t, nil, "seduce", "score", "--dataset", data, "--predictions", preds, "--format", "json", "--config", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if fam := decodeJSON(t, r.stdout)["models"].([]any)[0].(map[string]any)["family"]; fam != "qwen" {
		t.Errorf("family = %v; want qwen from the config file", fam)
	}
}

// TestSeduceScoreRejectsBadPredictions: spec section 4's n counts samples, so the same
// (model, id, replicate) twice is bad input, not two predictions; a wrongly typed field
// is reported as file:line: field.
func TestSeduceScoreRejectsBadPredictions(t *testing.T) {
	dir := t.TempDir()
	data := smallDataset(t, 8)
	preds := filepath.Join(dir, "p.jsonl")
	os.WriteFile(preds, []byte(`{"id": "ref-1920-fighting-r1-neutral", "model": "m/a", "decision": "roll", "skill": "Fighting"}
{"id": "ref-1920-fighting-r1-neutral", "model": "m/b", "decision": "roll", "skill": "Fighting"}
{"id": "ref-1920-fighting-r1-neutral", "model": "m/a", "decision": "roll", "skill": "Fighting", "replicate": 1}
{"id": "ref-1920-fighting-r1-neutral", "model": "m/a", "decision": "pass"}
`), 0o644)
	r := arbiter(t, nil, "seduce", "score", "--dataset", data, "--predictions", preds, "--format", "json")
	if r.code != 2 || !strings.Contains(r.stderr, "p.jsonl:4: id:") || !strings.Contains(r.stderr, "p.jsonl:1;") {
		t.Errorf("duplicate prediction: exit %d, stderr %q; want 2 naming p.jsonl:4: id and p.jsonl:1", r.code, r.stderr)
	}
	os.WriteFile(preds, []byte(`{"id": "ref-1920-fighting-r1-neutral", "model": "m/a", "decision": "roll", "latency_ms": "fast"}`+"\n"), 0o644)
	r = arbiter(t, nil, "seduce", "score", "--dataset", data, "--predictions", preds, "--format", "json")
	if r.code != 2 || !strings.Contains(r.stderr, "p.jsonl:1: latency_ms: want a number") {
		t.Errorf("mistyped field: exit %d, stderr %q; want 2 naming p.jsonl:1: latency_ms", r.code, r.stderr)
	}
}
