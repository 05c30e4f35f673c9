package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/inspect/inspecttest"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// inspectLog is what the tests read back of a written log.
type inspectLog struct {
	Eval struct {
		Model               string         `json:"model"`
		Task                string         `json:"task"`
		Metadata            map[string]any `json:"metadata"`
		ModelGenerateConfig map[string]any `json:"model_generate_config"`
	} `json:"eval"`
	Results struct {
		Scores []struct {
			Name    string `json:"name"`
			Metrics map[string]struct {
				Value float64 `json:"value"`
			} `json:"metrics"`
		} `json:"scores"`
	} `json:"results"`
	Samples []struct {
		ID     string `json:"id"`
		Epoch  int    `json:"epoch"`
		Target string `json:"target"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
		Scores map[string]struct {
			Value       any    `json:"value"`
			Explanation string `json:"explanation"`
		} `json:"scores"`
	} `json:"samples"`
}

// readInspectLogs validates every log in dir against Inspect's EvalLog schema and
// decodes it.
func readInspectLogs(t *testing.T, dir string) map[string]inspectLog {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no logs in %s (%v)", dir, err)
	}
	out := map[string]inspectLog{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := inspecttest.Validate(b); err != nil {
			t.Errorf("%s does not validate against EvalLog: %v", filepath.Base(p), err)
		}
		var l inspectLog
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[p] = l
	}
	return out
}

// failingKeeper is keeperReply with openai/other failing for good (400) on a few samples.
func failingKeeper(req *llmtest.Request) llmtest.Response {
	h := fnv.New32a()
	h.Write([]byte(req.LastUser()))
	if req.Model == "other" && h.Sum32()%5 == 0 {
		return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultBadRequest}}
	}
	r := keeperReply(req)
	if req.ReasoningEffort != "" {
		r.Reasoning = "The rules decide, not the player's tone."
		r.ReasoningTokens = 7
	}
	return r
}

// TestInspectSeduceLogs runs a study of two models, a reasoning variant and a defense
// with replicates, and checks its Inspect logs: every one validates against Inspect's
// EvalLog schema, their metrics are the JSON report's numbers, every ruling of the run
// is a sample of exactly one log (failed requests as samples with an error), and a log
// read back through 'seduce score --predictions' gives the run's FR.
func TestInspectSeduceLogs(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: failingKeeper})
	defer srv.Close()
	dir := t.TempDir()
	data := smallDataset(t, 12)
	exp := filepath.Join(dir, "study.yaml")
	body := "datasets: [" + data + "]\nreplicates: 2\nbootstrap: 200\nmodels:\n  - openai/keeper\n  - openai/other\n" +
		"  - {model: openai/keeper, label: keeper-high, reasoning_effort: high}\ndefenses: [self-consistency:3]\n"
	if err := os.WriteFile(exp, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "s.db")
	env := map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	args := []string{"seduce", "run", "-q", "--experiment", exp, "--db", db, "--retries", "0"}
	run := arbiter(t, env, append(args, "--format", "json")...)
	if run.code != 0 && run.code != 1 {
		t.Fatalf("run: exit %d: %s", run.code, run.stderr)
	}
	var res seduce.Results
	if err := json.Unmarshal([]byte(run.stdout), &res); err != nil {
		t.Fatalf("report: %v\n%s", err, run.stdout)
	}
	logDir := filepath.Join(dir, "logs")
	again := arbiter(t, env, append(args, "--format", "inspect", "--out", logDir)...)
	if again.code != run.code {
		t.Fatalf("run --format inspect: exit %d, want %d as the run: %s", again.code, run.code, again.stderr)
	}
	logs := readInspectLogs(t, logDir)
	if len(logs) != 6 || len(res.Models) != 6 {
		t.Fatalf("%d logs for %d report entries; want one per model and defense (3 x 2)", len(logs), len(res.Models))
	}
	errors := 0
	type key struct {
		model, defense, id string
		epoch              int
	}
	seen := map[key]bool{}
	for path, l := range logs {
		defense, _ := l.Eval.Metadata["defense"].(string)
		var mr *seduce.ModelResult
		for i := range res.Models {
			if res.Models[i].Model == l.Eval.Model && res.Models[i].Defense == defense {
				mr = &res.Models[i]
			}
		}
		if mr == nil || l.Eval.Task != "coc-seduce" {
			t.Fatalf("%s: model %s under %q (task %s) is not in the report", path, l.Eval.Model, defense, l.Eval.Task)
		}
		m := l.Results.Scores[0].Metrics
		for name, want := range map[string]*float64{"fr": mr.FR, "fp_rate": mr.FPRate, "fc_rate": mr.FCRate, "ws": mr.WS} {
			got, ok := m[name]
			if want == nil && ok || want != nil && (!ok || got.Value != *want) {
				t.Errorf("%s: %s = %v; the report says %v", filepath.Base(path), name, got.Value, want)
			}
		}
		for name, ci := range map[string]*[2]float64{"fr": mr.FRCI, "fp_rate": mr.FPRateCI, "fc_rate": mr.FCRateCI} {
			_, has := m[name+"_ci_lower"]
			if ci == nil {
				if has || name == "fr" {
					t.Errorf("%s: %s interval in the log %v; in the report %v (bootstrap 200)", filepath.Base(path), name, has, ci)
				}
				continue
			}
			if !has || m[name+"_ci_lower"].Value != ci[0] || m[name+"_ci_upper"].Value != ci[1] {
				t.Errorf("%s: %s interval = [%v, %v]; the report says %v", filepath.Base(path), name, m[name+"_ci_lower"].Value, m[name+"_ci_upper"].Value, *ci)
			}
		}
		if len(l.Samples) != mr.N+mr.Errors || len(l.Samples) != 12*2 {
			t.Errorf("%s: %d samples; want the report's n + errors = %d, 12 samples x 2 replicates", path, len(l.Samples), mr.N+mr.Errors)
		}
		failed := 0
		for _, s := range l.Samples {
			k := key{l.Eval.Model, defense, s.ID, s.Epoch}
			if seen[k] {
				t.Errorf("%v is in the logs twice", k)
			}
			seen[k] = true
			if s.Error != nil {
				failed++
				continue
			}
			if sc, ok := s.Scores["ruling"]; !ok || sc.Explanation == "" {
				t.Errorf("%s: sample %s epoch %d has no ruling score with the parser's rule", path, s.ID, s.Epoch)
			}
		}
		if failed != mr.Errors {
			t.Errorf("%s: %d samples with an error; the report counts %d errors", path, failed, mr.Errors)
		}
		errors += failed
		if l.Eval.Model == "keeper-high" && l.Eval.ModelGenerateConfig["reasoning_effort"] != "high" {
			t.Errorf("%s: generate config %v; want reasoning_effort high", path, l.Eval.ModelGenerateConfig)
		}
		if defense != "none" {
			continue
		}
		// The none arm's samples are the stored replies: read back, they score as the run.
		back := arbiter(t, nil, "seduce", "score", "--dataset", data, "--predictions", path, "--format", "json", "--bootstrap", "0")
		if back.code != 0 && back.code != 1 {
			t.Fatalf("score %s: exit %d: %s", path, back.code, back.stderr)
		}
		var br seduce.Results
		if err := json.Unmarshal([]byte(back.stdout), &br); err != nil || len(br.Models) != 1 {
			t.Fatalf("score %s: %v\n%s", path, err, back.stdout)
		}
		if br.Models[0].FR == nil || mr.FR == nil || *br.Models[0].FR != *mr.FR || br.Models[0].N != mr.N || br.Models[0].Errors != mr.Errors {
			t.Errorf("%s read back: FR %v (n %d, errors %d); the run's %v (n %d, errors %d)", filepath.Base(path),
				ptrString(br.Models[0].FR), br.Models[0].N, br.Models[0].Errors, ptrString(mr.FR), mr.N, mr.Errors)
		}
	}
	if errors == 0 {
		t.Error("no failed request in the logs: the stand-in should fail some of openai/other's")
	}
	// The report of one stored run writes the same logs.
	repDir := filepath.Join(dir, "report")
	rep := arbiter(t, nil, "seduce", "report", "--db", db, "--run", string(defenseRun(t, db, "self-consistency:3")), "--bootstrap", "200",
		"--format", "inspect", "--out", repDir)
	if rep.code != 0 {
		t.Fatalf("report --format inspect: exit %d: %s", rep.code, rep.stderr)
	}
	for path := range readInspectLogs(t, repDir) {
		a, _ := os.ReadFile(path)
		b, _ := os.ReadFile(filepath.Join(logDir, filepath.Base(path)))
		if string(a) != string(b) {
			t.Errorf("%s from seduce report differs from the run's", filepath.Base(path))
		}
	}
}

func ptrString(p *float64) string {
	if p == nil || math.IsNaN(*p) {
		return "null"
	}
	return fmt.Sprint(*p)
}

// TestInspectFormatNeedsOut: --format inspect without --out is bad input, and so is
// --out with a report format.
func TestInspectFormatNeedsOut(t *testing.T) {
	for _, args := range [][]string{
		{"seduce", "report", "--db", ":memory:", "--format", "inspect"},
		{"seduce", "run", "--db", ":memory:", "--format", "text", "--out", t.TempDir()},
	} {
		r := arbiter(t, nil, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "--out") {
			t.Errorf("%v: exit %d, %q; want 2 naming --out", args, r.code, r.stderr)
		}
	}
}
