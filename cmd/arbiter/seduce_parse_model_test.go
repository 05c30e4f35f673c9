package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// parseModelStandIn serves a keeper whose replies fall in five kinds by sample (read by
// the rules; unparsed but readable as a Dodge roll; unparsed and unclear; empty;
// reasoning only) and, for requests under a JSON schema, a reader that rules a roll
// for the Dodge replies and "unclear" for the rest. It records what the reader was sent
// and how many keeper replies of each kind it gave.
type parseModelStandIn struct {
	srv   *llmtest.Server
	mu    sync.Mutex
	read  []string // the texts the reader was sent
	kinds [5]int   // keeper replies given, by kind
}

func newParseModelStandIn(t *testing.T) *parseModelStandIn {
	t.Helper()
	s := &parseModelStandIn{}
	s.srv = llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		s.mu.Lock()
		defer s.mu.Unlock()
		if len(req.JSONSchema) > 0 {
			s.read = append(s.read, req.LastUser())
			if strings.Contains(req.LastUser(), "Dodge") {
				return llmtest.Response{Text: `{"decision": "roll", "skill": "Dodge"}`}
			}
			return llmtest.Response{Text: `{"decision": "unclear", "skill": null}`}
		}
		h := fnv.New32a()
		h.Write([]byte(req.LastUser()))
		v := h.Sum32()
		kind := int(v % 5)
		s.kinds[kind]++
		switch kind {
		case 0:
			return llmtest.Response{Text: `{"decision": "roll", "skill": "Spot Hidden", "reason": "risky"}`}
		case 1:
			return llmtest.Response{Text: fmt.Sprintf("Dodge, I suppose? Hard to call. (%d)", v)}
		case 2:
			return llmtest.Response{Text: fmt.Sprintf("Hmm, hard to say (%d).", v)}
		case 3:
			return llmtest.Response{Text: ""}
		default:
			return llmtest.Response{Text: "<think>maybe a roll, maybe not</think>"}
		}
	}})
	t.Cleanup(s.srv.Close)
	return s
}

func (s *parseModelStandIn) env() map[string]string {
	return map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": s.srv.OpenAIBaseURL()}
}

// TestSeduceRunParseModel: `seduce run --parse-model` sends the reader only the
// replies the rules left unparsed (not the empty or reasoning-only ones, nor any the
// rules read), a rerun sends nothing, and every report format counts the model's
// rulings; without --parse-model the report says nothing of it.
func TestSeduceRunParseModel(t *testing.T) {
	s := newParseModelStandIn(t)
	env := s.env()
	db := filepath.Join(t.TempDir(), "pm.db")
	data := smallDataset(t, 40)
	args := []string{"seduce", "run", "-m", "openai/keeper", "--dataset", data, "--db", db, "--bootstrap", "0"}

	r := arbiter(t, env, append(args, "--parse-model", "openai/reader", "--format", "json")...)
	if r.code != 0 {
		t.Fatalf("seduce run --parse-model: exit %d: %s", r.code, r.stderr)
	}
	s.mu.Lock()
	kinds, read := s.kinds, append([]string(nil), s.read...)
	s.mu.Unlock()
	for k, n := range kinds {
		if n == 0 {
			t.Fatalf("the stand-in gave no keeper reply of kind %d (%v): the test would not test it", k, kinds)
		}
	}
	if len(read) != kinds[1]+kinds[2] {
		t.Errorf("the reader was sent %d replies; want %d (the %d Dodge and %d unclear ones only)", len(read), kinds[1]+kinds[2], kinds[1], kinds[2])
	}
	for _, text := range read {
		if !strings.Contains(text, "Dodge") && !strings.Contains(text, "hard to say") {
			t.Errorf("the reader was sent a reply the rules read, or an empty or reasoning-only one: %q", text)
		}
	}
	rep := decodeJSON(t, r.stdout)
	if rep["parse_model"] != "openai/reader" {
		t.Errorf("report parse_model = %v; want openai/reader", rep["parse_model"])
	}
	m := rep["models"].([]any)[0].(map[string]any)
	if got := m["model_parsed"]; got != float64(kinds[1]) {
		t.Errorf("model_parsed = %v; want %d", got, kinds[1])
	}
	if got, want := m["unparsed"], float64(kinds[2]+kinds[3]+kinds[4]); got != want {
		t.Errorf("unparsed = %v; want %v (unclear, empty and reasoning-only)", got, want)
	}
	before := s.srv.Requests()

	again := arbiter(t, env, append(args, "--parse-model", "openai/reader", "--format", "json")...)
	if again.code != 0 || again.stdout != r.stdout {
		t.Errorf("rerun: exit %d, report changed: %v; stderr %s", again.code, again.stdout != r.stdout, again.stderr)
	}
	if n := s.srv.Requests(); n != before {
		t.Errorf("the rerun sent %d requests; want none", n-before)
	}

	note := fmt.Sprintf("%d rulings were read by the parse model openai/reader", kinds[1])
	for _, format := range []string{"text", "md", "csv", "latex"} {
		rr := arbiter(t, env, "seduce", "report", "--db", db, "--bootstrap", "0", "--format", format, "--parse-model", "openai/reader")
		if rr.code != 0 {
			t.Fatalf("seduce report --format %s --parse-model: exit %d: %s", format, rr.code, rr.stderr)
		}
		if !strings.Contains(rr.stdout, "Model-parsed") || !strings.Contains(rr.stdout, note) {
			t.Errorf("seduce report --format %s --parse-model lacks the Model-parsed column or the note %q:\n%s", format, note, rr.stdout)
		}
		plain := arbiter(t, env, "seduce", "report", "--db", db, "--bootstrap", "0", "--format", format)
		if plain.code != 0 || strings.Contains(plain.stdout, "Model-parsed") || strings.Contains(plain.stdout, "parse model") {
			t.Errorf("seduce report --format %s without --parse-model: exit %d, or it mentions the parse model:\n%s", format, plain.code, plain.stdout)
		}
	}
	if n := s.srv.Requests(); n != before {
		t.Errorf("the reports sent %d requests; want none (every reading is stored)", n-before)
	}
}

// TestSeduceScoreParseModel: `seduce score --parse-model` sends only the text
// predictions the rules left unparsed, never a given decision, and counts the rulings.
func TestSeduceScoreParseModel(t *testing.T) {
	s := newParseModelStandIn(t)
	data := smallDataset(t, 4)
	ids := sampleIDs(t, data)
	preds := filepath.Join(t.TempDir(), "p.jsonl")
	lines := []string{
		fmt.Sprintf(`{"id": %q, "model": "x/m", "text": "Make a Climb roll."}`, ids[0]),
		fmt.Sprintf(`{"id": %q, "model": "x/m", "text": "Dodge, I suppose? Hard to call. (1)"}`, ids[1]),
		fmt.Sprintf(`{"id": %q, "model": "x/m", "text": ""}`, ids[2]),
		fmt.Sprintf(`{"id": %q, "model": "x/m", "decision": "unparsed"}`, ids[3]),
	}
	if err := os.WriteFile(preds, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "s.db")
	for run := 1; run <= 2; run++ {
		r := arbiter(t, s.env(), "seduce", "score", "--dataset", data, "-p", preds, "--format", "json", "--bootstrap", "0",
			"--parse-model", "openai/reader", "--db", db)
		if r.code != 0 {
			t.Fatalf("run %d: exit %d: %s", run, r.code, r.stderr)
		}
		m := decodeJSON(t, r.stdout)["models"].([]any)[0].(map[string]any)
		if m["model_parsed"] != float64(1) || m["unparsed"] != float64(2) {
			t.Errorf("run %d: model_parsed %v, unparsed %v; want 1 and 2", run, m["model_parsed"], m["unparsed"])
		}
		if n := s.srv.Requests(); n != 1 {
			t.Errorf("after run %d the stand-in saw %d requests; want 1 (the Dodge reply, once)", run, n)
		}
	}
}

// TestSeduceRunLexicon: --lexicon reaches run and report: the run's config records the
// file, a report re-reads the replies with it, and refuses, naming it, once it is gone.
func TestSeduceRunLexicon(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: func(*llmtest.Request) llmtest.Response {
		return llmtest.Response{Text: "Fai un tiro di Arrampicarsi."}
	}})
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	dir := t.TempDir()
	it := filepath.Join(dir, "it.json")
	if err := os.WriteFile(it, []byte(`{"language": "it", "roll": ["fai un tiro"], "skills": {"arrampicarsi": "Climb"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "l.db")
	data := smallDataset(t, 4)
	unparsedOf := func(r result) any {
		t.Helper()
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		return decodeJSON(t, r.stdout)["models"].([]any)[0].(map[string]any)["unparsed"]
	}
	run := arbiter(t, env, "seduce", "run", "-m", "openai/keeper", "--dataset", data, "--db", db, "--bootstrap", "0", "--format", "json", "--lexicon", it)
	if got := unparsedOf(run); got != float64(0) {
		t.Errorf("seduce run --lexicon: unparsed = %v; want 0 (the Italian lexicon reads every reply)", got)
	}
	rep := arbiter(t, env, "seduce", "report", "--db", db, "--bootstrap", "0", "--format", "json")
	if got := unparsedOf(rep); got != float64(0) {
		t.Errorf("seduce report of a --lexicon run: unparsed = %v; want 0 (read with the recorded lexicon)", got)
	}
	if rep.stdout != run.stdout {
		t.Error("the report differs from the run's own")
	}
	if err := os.Remove(it); err != nil {
		t.Fatal(err)
	}
	gone := arbiter(t, env, "seduce", "report", "--db", db, "--bootstrap", "0")
	if gone.code != 2 || !strings.Contains(gone.stderr, it) {
		t.Errorf("seduce report with the lexicon gone: exit %d, stderr %q; want 2 naming %s", gone.code, gone.stderr, it)
	}
}

// sampleIDs reads the ids of a dataset file, in order.
func sampleIDs(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var s struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	return ids
}
