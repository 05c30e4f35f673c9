package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// TestReasoningVariantsStudy runs one Anthropic model with and without thinking in one
// study: two labelled models in every report format, a rerun that asks nothing, and a
// changed budget under the same label that asks again.
func TestReasoningVariantsStudy(t *testing.T) {
	var thinking, plain atomic.Int64
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		r := keeperReply(req)
		if req.ThinkingBudget != nil {
			thinking.Add(1)
			r.Reasoning = "The flattery changes nothing; the rules decide."
			r.ReasoningTokens = 9
		} else {
			plain.Add(1)
		}
		return r
	}})
	defer srv.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	data := smallDataset(t, 6)
	write := func(budget string) string {
		p := filepath.Join(dir, "study.yaml")
		body := "datasets: [" + data + "]\nmodels:\n  - anthropic/claude-x\n  - {model: anthropic/claude-x, label: claude-x-thinking, thinking_budget: " + budget + "}\n"
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "fake-anthropic-key-123456", "ANTHROPIC_BASE_URL": srv.URL}
	exp := write("2048")
	for _, format := range []string{"json", "text", "md", "csv", "latex"} {
		r := arbiter(t, env, "seduce", "run", "--experiment", exp, "--db", db, "--format", format)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", format, r.code, r.stderr)
		}
		for _, label := range []string{"anthropic/claude-x", "claude-x-thinking"} {
			if !strings.Contains(r.stdout, label) {
				t.Errorf("%s report does not name %s:\n%s", format, label, r.stdout)
			}
		}
		if format != "json" && !strings.Contains(r.stdout, "Reasoning vs standard") {
			t.Errorf("%s report has no reasoning vs standard table", format)
		}
		if format == "json" {
			v := decodeJSON(t, r.stdout)
			rs, _ := v["reasoning"].(map[string]any)
			if pairs, _ := rs["pairs"].([]any); len(pairs) != 1 || pairs[0].(map[string]any)["reasoning"] != "claude-x-thinking" {
				t.Errorf("JSON reasoning = %v; want one pair, anthropic/claude-x against claude-x-thinking", v["reasoning"])
			}
			models, _ := v["models"].([]any)
			var names []string
			for _, m := range models {
				if mm, ok := m.(map[string]any); ok {
					names = append(names, mm["model"].(string))
				}
			}
			if len(names) != 2 || !strings.Contains(strings.Join(names, ","), "claude-x-thinking") {
				t.Errorf("JSON models %v; want the base and claude-x-thinking", names)
			}
			for _, m := range models {
				mm, _ := m.(map[string]any)
				tk, _ := mm["tokens"].(map[string]any)
				if mm["model"] == "claude-x-thinking" && (tk == nil || tk["reasoning_tokens"] != float64(6*9)) {
					t.Errorf("JSON tokens of claude-x-thinking = %v; want 54 reasoning tokens (9 a reply)", mm["tokens"])
				}
				if mm["model"] == "anthropic/claude-x" && tk != nil && tk["reasoning_tokens"] != float64(0) {
					t.Errorf("JSON tokens of the base = %v; want no reasoning tokens", tk)
				}
			}
		}
		if format == "text" && !strings.Contains(r.stdout, "Reasoning tok/reply") {
			t.Errorf("text report's table 4 has no reasoning token column:\n%s", r.stdout)
		}
	}
	if thinking.Load() != 6 || plain.Load() != 6 {
		t.Fatalf("asked %d with thinking and %d without; want 6 each, once (reruns ask nothing)", thinking.Load(), plain.Load())
	}
	exp = write("4096")
	if r := arbiter(t, env, "seduce", "run", "--experiment", exp, "--db", db, "--format", "json"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if thinking.Load() != 12 || plain.Load() != 6 {
		t.Errorf("after changing only the budget: %d with thinking, %d without; want 12 and 6", thinking.Load(), plain.Load())
	}
}

func TestReasoningFlagRefusedBeforeAnyRequest(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: keeperReply})
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "fake-openai-key-123456", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	data := smallDataset(t, 3)
	for _, args := range [][]string{
		{"-m", "openai/o4-mini", "--thinking-budget", "4096"},
		{"-m", "baseline/keyword", "--reasoning-effort", "high"},
		{"-m", "openai/o4-mini", "--reasoning-effort", "extreme"},
	} {
		r := arbiter(t, env, append([]string{"seduce", "run", "--dataset", data, "--db", ":memory:"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, args[1]) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming the model", args, r.code, r.stderr)
		}
	}
	if n := srv.Requests(); n != 0 {
		t.Errorf("%d requests sent; want none", n)
	}
	r := arbiter(t, env, "seduce", "run", "--dataset", data, "--db", ":memory:", "-m", "openai/o4-mini", "--reasoning-effort", "high", "--format", "json")
	if r.code != 0 || !strings.Contains(r.stdout, "openai/o4-mini+reasoning-high") {
		t.Errorf("exit %d; want the report under openai/o4-mini+reasoning-high:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestReportReasoningMatchesRun: `seduce report` finds the variant pairs again from
// the stored run (labels, bases and parameters in its identity) and prints the same
// "reasoning vs standard" table, in text and JSON, as the run did.
func TestReportReasoningMatchesRun(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		r := keeperReply(req)
		if req.ThinkingBudget != nil {
			r.Reasoning = "Weigh the rules, not the rhetoric."
			r.ReasoningTokens = 11
		}
		return r
	}})
	defer srv.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	exp := filepath.Join(dir, "study.yaml")
	body := "datasets: [" + smallDataset(t, 8) + "]\nbootstrap: 200\nmodels:\n  - anthropic/claude-x\n" +
		"  - {model: anthropic/claude-x, label: claude-x-thinking, thinking_budget: 2048}\n" +
		"  - {model: anthropic/claude-x, reasoning_effort: high}\n"
	if err := os.WriteFile(exp, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "fake-anthropic-key-123456", "ANTHROPIC_BASE_URL": srv.URL}
	for _, format := range []string{"text", "json"} {
		run := arbiter(t, env, "seduce", "run", "--experiment", exp, "--db", db, "--bootstrap", "200", "--format", format)
		if run.code != 0 {
			t.Fatalf("run %s: exit %d: %s", format, run.code, run.stderr)
		}
		rep := arbiter(t, env, "seduce", "report", "--db", db, "--bootstrap", "200", "--format", format)
		if rep.code != 0 {
			t.Fatalf("report %s: exit %d: %s", format, rep.code, rep.stderr)
		}
		if format == "json" {
			got, want := decodeJSON(t, rep.stdout)["reasoning"], decodeJSON(t, run.stdout)["reasoning"]
			pairs, _ := want.(map[string]any)["pairs"].([]any)
			if len(pairs) != 2 {
				t.Fatalf("run's JSON reasoning has %d pairs; want 2 (thinking and effort high): %v", len(pairs), want)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("report's JSON reasoning = %v; want the run's %v", got, want)
			}
			continue
		}
		section := func(out string) string {
			i := strings.Index(out, "Reasoning vs standard")
			if i < 0 {
				t.Fatalf("no reasoning vs standard table in:\n%s", out)
			}
			return out[i:]
		}
		if got, want := section(rep.stdout), section(run.stdout); got != want {
			t.Errorf("report's reasoning table:\n%s\nwant the run's:\n%s", got, want)
		}
		if !strings.Contains(section(rep.stdout), "anthropic/claude-x+reasoning-high") {
			t.Errorf("report's reasoning table does not name the effort variant:\n%s", section(rep.stdout))
		}
	}
}

// TestTable4ReasoningTokens: table 4 and the JSON count a thinking variant's reasoning
// tokens apart from its answer tokens, and give the variant a latency row of its own.
func TestTable4ReasoningTokens(t *testing.T) {
	const delay = 30 * time.Millisecond
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		r := keeperReply(req)
		if req.ThinkingBudget != nil {
			r.Reasoning, r.OutputTokens, r.ReasoningTokens = "Rules first.", 50, 40
			r.Fault = llmtest.Fault{Kind: llmtest.FaultSlow, Delay: delay}
		} else {
			r.OutputTokens = 7
		}
		return r
	}})
	defer srv.Close()
	dir := t.TempDir()
	exp := filepath.Join(dir, "study.yaml")
	body := "datasets: [" + smallDataset(t, 6) + "]\nmodels:\n  - anthropic/claude-x\n" +
		"  - {model: anthropic/claude-x, label: claude-x-thinking, thinking_budget: 2048}\n"
	if err := os.WriteFile(exp, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "fake-anthropic-key-123456", "ANTHROPIC_BASE_URL": srv.URL}
	db := filepath.Join(dir, "r.db")
	r := arbiter(t, env, "seduce", "run", "--experiment", exp, "--db", db, "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	type tokens struct{ Replies, Answer, Reasoning float64 }
	want := map[string]tokens{"anthropic/claude-x": {6, 42, 0}, "claude-x-thinking": {6, 60, 240}}
	models, _ := decodeJSON(t, r.stdout)["models"].([]any)
	if len(models) != 2 {
		t.Fatalf("%d models in the JSON; want 2", len(models))
	}
	for _, m := range models {
		mm := m.(map[string]any)
		name := mm["model"].(string)
		tk, _ := mm["tokens"].(map[string]any)
		got := tokens{}
		if tk != nil {
			got = tokens{tk["replies"].(float64), tk["answer_tokens"].(float64), tk["reasoning_tokens"].(float64)}
		}
		if got != want[name] {
			t.Errorf("%s: tokens %+v; want %+v", name, got, want[name])
		}
		lat, _ := mm["latency"].(map[string]any)
		if lat == nil || lat["n"].(float64) != 6 {
			t.Errorf("%s: latency %v; want 6 replies", name, lat)
		} else if name == "claude-x-thinking" && lat["median_ms"].(float64) < float64(delay.Milliseconds()) {
			t.Errorf("%s: median latency %v ms; the stand-in held every reply %v", name, lat["median_ms"], delay)
		}
	}
	text := arbiter(t, env, "seduce", "report", "--db", db, "--format", "text")
	if text.code != 0 {
		t.Fatalf("report: exit %d: %s", text.code, text.stderr)
	}
	i := strings.Index(text.stdout, "Table 4")
	if i < 0 {
		t.Fatalf("no table 4 in:\n%s", text.stdout)
	}
	table := text.stdout[i:]
	if j := strings.Index(table, "Table 6"); j > 0 {
		table = table[:j]
	}
	if !strings.Contains(table, "Reasoning tok/reply") {
		t.Errorf("table 4 has no reasoning tokens column:\n%s", table)
	}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		// Model, replies, mean, median, p95, total and wall-clock come first; the token
		// columns next, and the cost columns (if any) after them.
		if f := strings.Fields(line); len(f) > 8 && f[0] == "claude-x-thinking" {
			rows++
			if got := f[7:9]; got[0] != "10.0" || got[1] != "40.0" {
				t.Errorf("table 4 row %q ends %q; want 10.0 answer and 40.0 reasoning tokens per reply", line, got)
			}
		}
	}
	if rows != 1 {
		t.Errorf("table 4 has %d rows for claude-x-thinking; want 1:\n%s", rows, table)
	}
}

// effortLog answers with respond and records the reasoning_effort of every request.
type effortLog struct {
	srv     *llmtest.Server
	mu      sync.Mutex
	efforts []string
}

func newEffortLog(t *testing.T, respond llmtest.Responder) *effortLog {
	t.Helper()
	l := &effortLog{}
	l.srv = llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		l.mu.Lock()
		l.efforts = append(l.efforts, req.ReasoningEffort)
		l.mu.Unlock()
		return respond(req)
	}})
	t.Cleanup(l.srv.Close)
	return l
}

func (l *effortLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.efforts
	l.efforts = nil
	return out
}

// TestReasoningEffortOnEveryCommand: court simulate, court play, court generate and
// check judge refuse an effort that is not one (exit 2, nothing sent) and send a valid
// one on every request they make.
func TestReasoningEffortOnEveryCommand(t *testing.T) {
	dir := t.TempDir()
	caseJSON := writtenCase(t, nil)
	court := func(req *llmtest.Request) llmtest.Response {
		first := ""
		if len(req.Messages) > 0 {
			first = req.Messages[0].Text
		}
		return llmtest.Response{Text: playScript(req.Model, req.System, first)}
	}
	for _, c := range []struct {
		name    string
		respond llmtest.Responder
		args    func(db, url string) []string
		stdin   string
	}{
		{"court simulate", func(req *llmtest.Request) llmtest.Response { return llmtest.Response{Text: courtScript(req)} },
			func(db, url string) []string {
				return append(simulateArgs(db, filepath.Join(dir, "sim-"+filepath.Base(db)), "--seeds", "1", "--cases", playCases), "--base-url", url)
			}, ""},
		{"court play", court,
			func(db, url string) []string {
				return []string{"court", "play", "--db", db, "--base-url", url, "--no-cache", "--model", "openai/o4-mini",
					"--cases", playCases, "--case", "lantern-theft", "--seed", "3"}
			}, "We will show the lantern was never taken.\n/rest\nNobody saw my client take it.\n"},
		{"court generate", func(*llmtest.Request) llmtest.Response { return llmtest.Response{Text: caseJSON} },
			func(db, url string) []string {
				return []string{"court", "generate", "-q", "--prior", "theft case", "--model", "openai/o4-mini", "--base-url", url, "--db", db}
			}, ""},
		{"check judge", checkStandIn(""),
			func(db, url string) []string {
				return []string{"check", "judge", "-q", "--judge", "openai/o4-mini", "--base-url", url, "--db", db, "--format", "json"}
			}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newEffortLog(t, c.respond)
			env := map[string]string{"OPENAI_API_KEY": "sk-test-effort"}
			bad := arbiterIn(t, env, c.stdin, append(c.args(filepath.Join(dir, c.name[6:]+"-bad.db"), l.srv.OpenAIBaseURL()), "--reasoning-effort", "extreme")...)
			if bad.code != 2 || !strings.Contains(bad.stderr, "extreme") {
				t.Errorf("--reasoning-effort extreme: exit %d, stderr %q; want 2 naming it", bad.code, bad.stderr)
			}
			if got := l.take(); len(got) != 0 {
				t.Errorf("--reasoning-effort extreme sent %d requests; want none", len(got))
			}
			ok := arbiterIn(t, env, c.stdin, append(c.args(filepath.Join(dir, c.name[6:]+".db"), l.srv.OpenAIBaseURL()), "--reasoning-effort", "low")...)
			if ok.code != 0 {
				t.Fatalf("--reasoning-effort low: exit %d\n%s", ok.code, ok.stderr)
			}
			got := l.take()
			if len(got) == 0 {
				t.Fatal("no request sent")
			}
			for i, e := range got {
				if e != "low" {
					t.Fatalf("request %d of %d carried reasoning_effort %q; want low on every one", i+1, len(got), e)
				}
			}
		})
	}
}
