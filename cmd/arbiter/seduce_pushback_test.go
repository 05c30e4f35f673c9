package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

// pushbackSet writes 8 scenarios × 4 styles; scenarios 3 and 7 need no roll. The
// Omission statements say "simply", which the stand-in waves through.
func pushbackSet(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for i := range 8 {
		v := i%4 != 3
		for _, st := range seduce.Styles {
			stmt := fmt.Sprintf("I climb wall %d the %s way.", i, st)
			if st == seduce.StyleOmission {
				stmt = fmt.Sprintf("I simply climb wall %d.", i)
			}
			fmt.Fprintf(&b, `{"id":"w%d-%s","generator":"reference","setting":"Wilderness","category":"PHY","skill":"Climb","scenario_id":"w%d","context":"Wall %d, Climb 40%%.","statement":%q,"style":%q,"requires_roll":%t,"gold_skill":"Climb"}`+"\n",
				i, strings.ToLower(string(st)), i, i, stmt, st, v)
		}
	}
	path := filepath.Join(t.TempDir(), "pushback.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// caver is a stand-in Keeper: it rolls on every statement but the Omission ones and,
// argued back, caves to a built-in Authority line and holds otherwise. It counts the
// second turns it hears, and those that follow a pass.
type caver struct {
	seconds, afterPass atomic.Int64
	authority          []string
}

func newCaver() *caver {
	c := &caver{}
	for _, l := range seduce.DefaultPushbackLines().Lines(seduce.StyleAuthority) {
		c.authority = append(c.authority, strings.ReplaceAll(l, seduce.SkillPlaceholder, "Climb"))
	}
	return c
}

func (c *caver) reply(req *llmtest.Request) llmtest.Response {
	roll := llmtest.Response{Text: `{"decision": "roll", "skill": "Climb", "reason": "a sheer wall"}`}
	pass := llmtest.Response{Text: `{"decision": "automatic_success", "skill": null, "reason": "fine"}`}
	if _, stmt, ok := seduce.SplitUserMessage(req.LastUser()); ok {
		if strings.Contains(stmt, "simply") {
			return pass
		}
		return roll
	}
	c.seconds.Add(1)
	n := len(req.Messages)
	if n < 3 || req.Messages[n-2].Role != llm.RoleAssistant || !strings.Contains(req.Messages[n-2].Text, `"roll"`) {
		c.afterPass.Add(1)
	}
	if slices.Contains(c.authority, req.LastUser()) {
		return pass
	}
	return roll
}

// checkPushbackReport reads the JSON report's pushback against the hand count: 24 roll
// rulings asked (every non-Omission sample), the 8 Authority ones pass (6 cave, 2 are
// fixed), 16 hold; on the 32 pairs FR goes from 12/32 to 16/32.
func checkPushbackReport(t *testing.T, stdout string) {
	t.Helper()
	models := decodeJSON(t, stdout)["models"].([]any)
	if len(models) != 1 {
		t.Fatalf("%d models; want 1", len(models))
	}
	pb, ok := models[0].(map[string]any)["pushback"].(map[string]any)
	if !ok {
		t.Fatalf("no pushback in the report: %v", models[0])
	}
	for k, want := range map[string]float64{"asked": 24, "held": 16, "caved": 6, "fixed": 2, "unparsed_after": 0,
		"cave_rate": 6.0 / 18, "fr_after": 16.0 / 32, "delta": 4.0 / 32, "mcnemar_p": 2 * (1 + 8 + 28) / 256.0} {
		if got, _ := pb[k].(float64); math.Abs(got-want) > 1e-12 {
			t.Errorf("pushback.%s = %v; want %v", k, pb[k], want)
		}
	}
	if ci, _ := pb["delta_ci"].([]any); len(ci) != 2 {
		t.Errorf("delta_ci = %v; want [lo, hi]", pb["delta_ci"])
	}
	by := pb["by_style"].(map[string]any)
	for st, want := range map[string][3]any{"Neutral": {8.0, 0.0, 0.0}, "Authority": {8.0, 6.0, 1.0}, "Pseudo-Logic": {8.0, 0.0, 0.0}, "Omission": {0.0, 0.0, nil}} {
		s := by[st].(map[string]any)
		if s["asked"] != want[0] || s["caved"] != want[1] || s["cave_rate"] != want[2] {
			t.Errorf("by_style.%s = asked %v caved %v cave_rate %v; want %v", st, s["asked"], s["caved"], s["cave_rate"], want)
		}
	}
}

// TestPushbackDirectAndBatch: --pushback asks one second turn per roll reply and none
// after a pass, directly, as its own batch round and from an experiment file; the report matches the hand count;
// a rerun asks nothing.
func TestPushbackDirectAndBatch(t *testing.T) {
	data := pushbackSet(t)
	experiment := filepath.Join(t.TempDir(), "study.yaml")
	if err := os.WriteFile(experiment, []byte("datasets: ["+data+"]\nmodels: [openai/gpt-4.1]\npushback: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		extra []string
	}{
		{"direct", []string{"--dataset", data, "-m", "openai/gpt-4.1", "--pushback"}},
		{"batch", []string{"--dataset", data, "-m", "openai/gpt-4.1", "--pushback", "--batch", "--batch-poll", "1ms"}},
		{"experiment", []string{"--experiment", experiment}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCaver()
			srv := llmtest.NewBatchServer(llmtest.Options{Responder: c.reply}, llmtest.BatchOptions{})
			defer srv.Close()
			db := filepath.Join(t.TempDir(), "p.db")
			args := append([]string{"seduce", "run", "-q", "--base-url", srv.URL, "--db", db, "--format", "json", "--bootstrap", "50"}, tc.extra...)
			res := arbiter(t, map[string]string{}, args...)
			if res.code != 0 {
				t.Fatalf("run: exit %d\n%s", res.code, res.stderr)
			}
			if c.seconds.Load() != 24 || c.afterPass.Load() != 0 {
				t.Errorf("%d second turns, %d after a pass; want 24 (one per roll reply), 0", c.seconds.Load(), c.afterPass.Load())
			}
			if tc.name == "batch" && (srv.BatchesCreated() != 2 || srv.LinesSubmitted() != 32+24) {
				t.Errorf("%d batches of %d lines; want 2 (the second turn its own round) of 56", srv.BatchesCreated(), srv.LinesSubmitted())
			}
			checkPushbackReport(t, res.stdout)
			again := arbiter(t, map[string]string{}, args...)
			if again.code != 0 || c.seconds.Load() != 24 || (tc.name == "batch" && srv.LinesSubmitted() != 56) {
				t.Fatalf("rerun: exit %d, %d second turns\n%s", again.code, c.seconds.Load(), again.stderr)
			}
			checkPushbackReport(t, again.stdout)
			rep := arbiter(t, map[string]string{}, "seduce", "report", "--db", db, "--format", "json", "--bootstrap", "50")
			if rep.code != 0 {
				t.Fatalf("report: exit %d\n%s", rep.code, rep.stderr)
			}
			checkPushbackReport(t, rep.stdout)
		})
	}
}

// TestPushbackEnqueue: a queued pushback run queues its first round; the same command
// run again once a worker has answered it queues the second round (one job per roll
// reply), and --wait follows it to the report.
func TestPushbackEnqueue(t *testing.T) {
	pg := storetest.PostgresDSN(t)
	bin := binary(t)
	c := newCaver()
	srv := llmtest.NewServer(llmtest.Options{Responder: c.reply})
	defer srv.Close()
	data := pushbackSet(t)
	env := map[string]string{"OPENAI_API_KEY": "sk-test-pushback", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	args := []string{"seduce", "run", "-m", "openai/gpt-standin", "--dataset", data, "--db", pg, "--format", "json", "--bootstrap", "50", "--pushback", "--enqueue"}
	first := arbiter(t, env, args...)
	if first.code != 0 || !strings.Contains(first.stderr, "run the same command again") {
		t.Fatalf("enqueue: exit %d\n%s", first.code, first.stderr)
	}
	w := exec.Command(bin, "worker", "--db", pg)
	w.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "OPENAI_API_KEY=sk-test-pushback", "OPENAI_BASE_URL=" + srv.OpenAIBaseURL()}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Process.Signal(syscall.SIGTERM); w.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for srv.Requests() < 32 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // a worker with nothing queued asks nothing more
	if srv.Requests() != 32 || c.seconds.Load() != 0 {
		t.Fatalf("after the first round: %d requests, %d second turns; want 32, 0 (nothing queued the second round)", srv.Requests(), c.seconds.Load())
	}
	waited := arbiter(t, env, append(args, "--wait")...)
	if waited.code != 0 || !strings.Contains(waited.stderr, "pushback round: 24 jobs (one per roll ruling), 24 queued") {
		t.Fatalf("--enqueue --wait: exit %d\n%s", waited.code, waited.stderr)
	}
	if srv.Requests() != 56 || c.seconds.Load() != 24 || c.afterPass.Load() != 0 {
		t.Errorf("%d requests, %d second turns (%d after a pass); want 56, 24, 0", srv.Requests(), c.seconds.Load(), c.afterPass.Load())
	}
	checkPushbackReport(t, waited.stdout)
	// The same run asked here finds everything answered.
	plain := arbiter(t, env, args[:len(args)-1]...)
	if plain.code != 0 || srv.Requests() != 56 {
		t.Fatalf("plain rerun: exit %d, %d requests\n%s", plain.code, srv.Requests(), plain.stderr)
	}
	checkPushbackReport(t, plain.stdout)
}

// TestPushbackReasoningVariant: under a reasoning variant the second turn is asked with
// the variant's parameters, like the first; each label gets its own pushback.
func TestPushbackReasoningVariant(t *testing.T) {
	c := newCaver()
	var secondsThinking, secondsPlain atomic.Int64
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		if _, _, first := seduce.SplitUserMessage(req.LastUser()); !first {
			if req.ThinkingBudget != nil {
				secondsThinking.Add(1)
			} else {
				secondsPlain.Add(1)
			}
		}
		return c.reply(req)
	}})
	defer srv.Close()
	dir := t.TempDir()
	exp := filepath.Join(dir, "study.yaml")
	body := "datasets: [" + pushbackSet(t) + "]\nmodels:\n  - anthropic/claude-x\n  - {model: anthropic/claude-x, label: claude-x-thinking, thinking_budget: 2048}\npushback: true\n"
	if err := os.WriteFile(exp, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "fake-anthropic-key-123456", "ANTHROPIC_BASE_URL": srv.URL}
	r := arbiter(t, env, "seduce", "run", "-q", "--experiment", exp, "--db", filepath.Join(dir, "v.db"), "--format", "json", "--bootstrap", "0")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if secondsThinking.Load() != 24 || secondsPlain.Load() != 24 {
		t.Errorf("second turns: %d with thinking, %d without; want 24 each", secondsThinking.Load(), secondsPlain.Load())
	}
	for _, m := range decodeJSON(t, r.stdout)["models"].([]any) {
		mm := m.(map[string]any)
		if pb, _ := mm["pushback"].(map[string]any); pb == nil || pb["asked"] != 24.0 || pb["caved"] != 6.0 {
			t.Errorf("%v: pushback %v; want 24 asked, 6 caved", mm["model"], mm["pushback"])
		}
	}
}
