package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

// bodyLog records the body of every request a stand-in answers, canonicalised (keys
// sorted, the streaming switch dropped), whether it came alone or as a batch line.
type bodyLog struct {
	mu     sync.Mutex
	bodies []string
}

func (l *bodyLog) add(body []byte) {
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		panic(err)
	}
	delete(v, "stream")
	delete(v, "stream_options")
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	l.mu.Lock()
	l.bodies = append(l.bodies, string(b))
	l.mu.Unlock()
}

// take returns the bodies recorded so far, sorted, and forgets them.
func (l *bodyLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.bodies
	l.bodies = nil
	slices.Sort(out)
	return out
}

// aliasReply rules like keeperReply, but names skills as the study's own taxonomy
// aliases them ("Peering" for Spot Hidden), so a reply is read differently with and
// without that taxonomy.
func aliasReply(req *llmtest.Request) llmtest.Response {
	ctx, stmt, ok := seduce.SplitUserMessage(req.LastUser())
	if !ok {
		return llmtest.Response{Text: "I cannot tell what is asked."}
	}
	h := fnv.New32a()
	h.Write([]byte(ctx + stmt + req.Model))
	switch v := h.Sum32(); v % 4 {
	case 0:
		return llmtest.Response{Text: "No roll is needed here; the investigator simply does it."}
	case 1:
		return llmtest.Response{Text: `{"decision": "roll", "skill": "Peering", "reason": "the light is poor"}`}
	default:
		return llmtest.Response{Text: fmt.Sprintf(`{"decision": "roll", "skill": "Climb", "reason": "risk %d"}`, v%7)}
	}
}

var replyRow = regexp.MustCompile(`(?s)<tr><td class="id"><code>([^<]*)</code>.*?</td><td>([^<]*)(?:<span class="variant">[^<]*</span>)?</td><td><span class="decision[^"]*">([^<]*)</span></td><td>([^<]*)</td>`)

// repliesPage reads every row of a run's replies page as "model item decision skill".
func repliesPage(t *testing.T, db, run string) []string {
	t.Helper()
	base := serveStore(t, db)
	var rows []string
	for page := 1; ; page++ {
		code, body := httpGet(t, fmt.Sprintf("%s/runs/%s/replies?page=%d", base, run, page))
		if code == 404 && page > 1 {
			break
		}
		if code != 200 {
			t.Fatalf("replies page %d of %s: %d\n%s", page, run, code, body)
		}
		ms := replyRow.FindAllStringSubmatch(body, -1)
		if len(ms) == 0 {
			break
		}
		for _, m := range ms {
			rows = append(rows, strings.Join([]string{m[2], m[1], m[3], m[4]}, " "))
		}
	}
	slices.Sort(rows)
	return rows
}

// scores keeps the parts of a JSON report that say what the replies were read as,
// leaving out what depends on timing (latency, wall time).
func scores(t *testing.T, report string) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, m := range decodeJSON(t, report)["models"].([]any) {
		mm := m.(map[string]any)
		keep := map[string]any{}
		for _, k := range []string{"n", "errors", "evaluated", "refused", "unparsed", "fp", "fc", "fr", "fp_rate", "fc_rate", "ws",
			"by_style", "by_setting", "by_generator", "home_fr", "away_fr", "family"} {
			keep[k] = mm[k]
		}
		out[mm["model"].(string)] = keep
	}
	return out
}

// TestOneStudyThreeWays: one study (a plain model, an OpenAI reasoning variant, an
// Anthropic thinking variant under a label of its own, a taxonomy of its own) asked
// directly, through the providers' batch APIs, and queued for two workers on
// PostgreSQL sends the same multiset of request bodies each way (never a label as a
// model name), and gives the same scores and the same decisions on the replies page.
func TestOneStudyThreeWays(t *testing.T) {
	if testing.Short() {
		t.Skip("runs one study three ways, with worker processes")
	}
	pg := storetest.PostgresDSN(t)
	var log bodyLog
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		log.add(req.Body)
		return aliasReply(req)
	}}, llmtest.BatchOptions{})
	defer srv.Close()
	dir := t.TempDir()
	tax, err := os.ReadFile("../../internal/seduce/data/taxonomy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(tax, []byte("\naliases:\n")) {
		t.Fatal("the bundled taxonomy has no aliases: section to extend")
	}
	taxPath := filepath.Join(dir, "taxonomy.yaml")
	tax = bytes.Replace(tax, []byte("\naliases:\n"), []byte("\naliases:\n  Peering: Spot Hidden\n"), 1)
	if err := os.WriteFile(taxPath, tax, 0o644); err != nil {
		t.Fatal(err)
	}
	study := filepath.Join(dir, "study.yaml")
	body := "datasets: [" + smallDataset(t, 12) + "]\ntaxonomy: " + taxPath + "\nmodels:\n" +
		"  - openai/gpt-4.1-mini\n" +
		"  - {model: openai/o3, reasoning_effort: high}\n" +
		"  - {model: anthropic/claude-sonnet-4-5, label: sonnet-thinking, thinking_budget: 4096}\n"
	if err := os.WriteFile(study, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OPENAI_API_KEY": "sk-test-oneway", "OPENAI_BASE_URL": srv.OpenAIBaseURL(),
		"ANTHROPIC_API_KEY": "sk-ant-test-oneway", "ANTHROPIC_BASE_URL": srv.URL}
	const want = 3 * 12
	runArgs := func(db string, more ...string) []string {
		return append([]string{"seduce", "run", "-q", "--experiment", study, "--db", db, "--format", "json", "--bootstrap", "0"}, more...)
	}

	// (a) directly.
	dbA := filepath.Join(dir, "direct.db")
	a := arbiter(t, env, runArgs(dbA)...)
	if a.code != 0 {
		t.Fatalf("direct: exit %d\n%s", a.code, a.stderr)
	}
	direct := log.take()
	if len(direct) != want {
		t.Fatalf("direct run sent %d requests; want %d", len(direct), want)
	}
	for _, b := range direct {
		if strings.Contains(b, "sonnet-thinking") || strings.Contains(b, "+reasoning") {
			t.Fatalf("a label was sent as a model name: %s", b)
		}
	}
	checkVariants(t, direct)

	// (b) through the batch APIs.
	dbB := filepath.Join(dir, "batch.db")
	b := arbiter(t, env, runArgs(dbB, "--batch", "--batch-poll", "10ms")...)
	if b.code != 0 {
		t.Fatalf("batch: exit %d\n%s", b.code, b.stderr)
	}
	if srv.BatchesCreated() == 0 {
		t.Fatal("the batch run created no batch")
	}
	if batched := log.take(); !reflect.DeepEqual(batched, direct) {
		t.Errorf("batched bodies differ from direct ones:\n%s", bodyDiff(direct, batched))
	}

	// (c) queued for two workers on PostgreSQL.
	enq := arbiter(t, env, runArgs(pg, "--enqueue")...)
	runID := strings.TrimSpace(enq.stdout)
	if enq.code != 0 || !strings.HasPrefix(runID, "seduce-") {
		t.Fatalf("enqueue: exit %d, stdout %q\n%s", enq.code, enq.stdout, enq.stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin := binary(t)
	var workers []*exec.Cmd
	for range 2 {
		c := exec.CommandContext(ctx, bin, "worker", "--db", pg, "--exit-when-idle", "--concurrency", "4")
		c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
		for k, v := range env {
			c.Env = append(c.Env, k+"="+v)
		}
		c.Stderr = &strings.Builder{}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		workers = append(workers, c)
	}
	for i, w := range workers {
		if err := w.Wait(); err != nil {
			t.Fatalf("worker %d: %v\n%s", i, err, w.Stderr)
		}
	}
	if queued := log.take(); !reflect.DeepEqual(queued, direct) {
		t.Errorf("queued bodies differ from direct ones:\n%s", bodyDiff(direct, queued))
	}
	c := arbiter(t, env, "seduce", "report", "--db", pg, "--run", runID, "--format", "json", "--bootstrap", "0")
	if c.code != 0 {
		t.Fatalf("report of the queued run: exit %d\n%s", c.code, c.stderr)
	}

	// The same scores and the same decisions on the replies page, each way.
	sa := scores(t, a.stdout)
	if len(sa) != 3 {
		t.Fatalf("direct report has %d models; want 3", len(sa))
	}
	if sb := scores(t, b.stdout); !reflect.DeepEqual(sb, sa) {
		t.Errorf("batch report differs from direct:\n%v\n%v", sb, sa)
	}
	if sc := scores(t, c.stdout); !reflect.DeepEqual(sc, sa) {
		t.Errorf("queued report differs from direct:\n%v\n%v", sc, sa)
	}
	id := func(db string) string {
		r := arbiter(t, nil, "runs", "--db", db)
		m := regexp.MustCompile(`seduce-[0-9a-f]{12}`).FindString(r.stdout)
		if m == "" {
			t.Fatalf("runs lists no seduce run in %s:\n%s", db, r.stdout)
		}
		return m
	}
	pa := repliesPage(t, dbA, id(dbA))
	if len(pa) != want {
		t.Fatalf("direct replies page has %d rows; want %d", len(pa), want)
	}
	peering := 0
	for _, r := range pa {
		if strings.HasSuffix(r, " Peering") {
			t.Fatalf("a reply naming Peering was read without the study's taxonomy: %s", r)
		}
		if strings.Contains(r, " roll Spot Hidden") {
			peering++
		}
	}
	if peering == 0 {
		t.Fatal("no reply named the taxonomy's alias; the test would not see a worker reading with the default taxonomy")
	}
	if pb := repliesPage(t, dbB, id(dbB)); !reflect.DeepEqual(pb, pa) {
		t.Errorf("batch replies page differs from direct:\n%v\n%v", pb, pa)
	}
	if pc := repliesPage(t, pg, runID); !reflect.DeepEqual(pc, pa) {
		t.Errorf("queued replies page differs from direct:\n%v\n%v", pc, pa)
	}
}

// checkVariants checks that the variants' parameters are on their requests: o3 with
// reasoning_effort high, Claude with thinking of 4,096 tokens, the plain model with
// neither.
func checkVariants(t *testing.T, bodies []string) {
	t.Helper()
	count := map[string]int{}
	for _, b := range bodies {
		var v struct {
			Model    string `json:"model"`
			Effort   string `json:"reasoning_effort"`
			Thinking *struct {
				Type   string `json:"type"`
				Budget int    `json:"budget_tokens"`
			} `json:"thinking"`
		}
		if err := json.Unmarshal([]byte(b), &v); err != nil {
			t.Fatal(err)
		}
		switch {
		case v.Model == "o3" && v.Effort == "high" && v.Thinking == nil:
		case v.Model == "claude-sonnet-4-5" && v.Thinking != nil && v.Thinking.Type == "enabled" && v.Thinking.Budget == 4096 && v.Effort == "":
		case v.Model == "gpt-4.1-mini" && v.Effort == "" && v.Thinking == nil:
		default:
			t.Errorf("request with the wrong parameters for its model: %s", b)
		}
		count[v.Model]++
	}
	if count["o3"] != 12 || count["claude-sonnet-4-5"] != 12 || count["gpt-4.1-mini"] != 12 {
		t.Errorf("requests per model %v; want 12 each", count)
	}
}

// bodyDiff says which bodies one multiset has that the other lacks.
func bodyDiff(want, got []string) string {
	n := map[string]int{}
	for _, b := range want {
		n[b]++
	}
	for _, b := range got {
		n[b]--
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d bodies against %d\n", len(got), len(want))
	for b, k := range n {
		switch {
		case k > 0:
			fmt.Fprintf(&sb, "missing %d×: %.300s\n", k, b)
		case k < 0:
			fmt.Fprintf(&sb, "extra %d×: %.300s\n", -k, b)
		}
	}
	return sb.String()
}
