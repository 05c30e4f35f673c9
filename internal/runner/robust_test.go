package runner_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// standIn is a model reached through the real OpenAI adapter and the retry wrapper.
func standIn(t *testing.T, srv *llmtest.Server, name llm.ModelName) llm.Model {
	t.Helper()
	m, err := openai.New(name, config.Endpoint{Provider: "openai", BaseURL: srv.OpenAIBaseURL(), Key: "sk-test"}, openai.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return llm.WithRetry(m, llm.DefaultRetry(), nil, nil)
}

func planFor(run store.RunID, models map[llm.ModelName]llm.Model, n, concurrency int) runner.Plan {
	p := runner.Plan{Run: run, Models: models, Concurrency: concurrency, NoCache: true}
	for name := range models {
		for i := range n {
			item := fmt.Sprintf("%s-item-%04d", name, i)
			p.Jobs = append(p.Jobs, runner.Job{Key: runner.JobKey(name, item, 0), Model: name, Item: item, Request: llm.UserText("sys", item)})
		}
	}
	return p
}

func openFile(t *testing.T, path string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func begin(t *testing.T, st *store.Store, run store.RunID) {
	t.Helper()
	if _, err := st.BeginRun(context.Background(), store.Run{ID: run, Kind: "seduce", Config: []byte(`{}`), Version: "t"}); err != nil {
		t.Fatal(err)
	}
}

// TestTwoProcessesOnOneRunPayOnce: the same run started twice at once on one store
// file (two stores, two holders) sends every request once, and both finish with every
// job accounted for.
func TestTwoProcessesOnOneRunPayOnce(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Latency: 2 * time.Millisecond})
	defer srv.Close()
	name := llm.ModelName("openai/gm")
	path := filepath.Join(t.TempDir(), "shared.db")
	const jobs, run = 120, store.RunID("seduce-shared")
	begin(t, openFile(t, path), run)
	var wg sync.WaitGroup
	sums := make([]runner.Summary, 2)
	errs := make([]error, 2)
	for i := range 2 {
		st := openFile(t, path)
		plan := planFor(run, map[llm.ModelName]llm.Model{name: standIn(t, srv, name)}, jobs, 4)
		wg.Go(func() { sums[i], errs[i] = runner.Run(context.Background(), st, plan) })
	}
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil {
			t.Fatalf("runner %d: %v", i, errs[i])
		}
		s := sums[i]
		if s.Resumed+s.Answered+s.Failed+s.Elsewhere != jobs {
			t.Errorf("runner %d summary %+v does not account for all %d jobs", i, s, jobs)
		}
	}
	if got := srv.Requests(); got != jobs {
		t.Errorf("stand-in saw %d requests; want %d (each once)", got, jobs)
	}
	for body, n := range srv.Bodies() {
		if n != 1 {
			t.Errorf("request %.12s sent %d times", body, n)
		}
	}
	if got := sums[0].Asked + sums[1].Asked; got != jobs {
		t.Errorf("asked %d + %d; want %d in all", sums[0].Asked, sums[1].Asked, jobs)
	}
	stats, err := openFile(t, path).RunStats(context.Background(), run)
	if err != nil || stats.Answered != jobs {
		t.Errorf("store after both: %+v, %v; want %d answered", stats, err, jobs)
	}
}

// TestTwoRealProcesses runs the test binary twice at once as two runner processes on one
// store file.
func TestTwoRealProcesses(t *testing.T) {
	if os.Getenv("RUNNER_HELPER_STORE") != "" {
		helperProcess(t)
		return
	}
	srv := llmtest.NewServer(llmtest.Options{Latency: 2 * time.Millisecond})
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "shared.db")
	begin(t, openFile(t, path), "seduce-procs")
	var wg sync.WaitGroup
	outs := make([]string, 2)
	errs := make([]error, 2)
	for i := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTwoRealProcesses$")
		cmd.Env = append(os.Environ(), "RUNNER_HELPER_STORE="+path, "RUNNER_HELPER_URL="+srv.OpenAIBaseURL())
		wg.Go(func() {
			b, err := cmd.CombinedOutput()
			outs[i], errs[i] = string(b), err
		})
	}
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil {
			t.Fatalf("process %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	if got := srv.Requests(); got != 100 {
		t.Errorf("stand-in saw %d requests from two processes; want 100 (each once)\n%s\n%s", got, outs[0], outs[1])
	}
	stats, err := openFile(t, path).RunStats(context.Background(), "seduce-procs")
	if err != nil || stats.Answered != 100 {
		t.Errorf("store after both: %+v, %v; want 100 answered", stats, err)
	}
}

func helperProcess(t *testing.T) {
	name := llm.ModelName("openai/gm")
	m, err := openai.New(name, config.Endpoint{Provider: "openai", BaseURL: os.Getenv("RUNNER_HELPER_URL"), Key: "sk-test"}, openai.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := openFile(t, os.Getenv("RUNNER_HELPER_STORE"))
	sum, err := runner.Run(context.Background(), st, planFor("seduce-procs", map[llm.ModelName]llm.Model{name: m}, 100, 4))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Resumed+sum.Answered+sum.Elsewhere != 100 {
		t.Fatalf("summary %+v", sum)
	}
	fmt.Printf("helper: %+v\n", sum)
}

// TestDeadHoldersJobsAreTakenOver: claims of a process that stopped renewing them
// (already run out, or running out soon) do not block the run for good.
func TestDeadHoldersJobsAreTakenOver(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(llmtest.Options{})
	defer srv.Close()
	name := llm.ModelName("openai/gm")
	st := openFile(t, filepath.Join(t.TempDir(), "s.db"))
	plan := planFor("seduce-dead", map[llm.ModelName]llm.Model{name: standIn(t, srv, name)}, 20, 4)
	begin(t, st, plan.Run)
	keys := func(js []runner.Job) (out []string) {
		for _, j := range js {
			out = append(out, j.Key)
		}
		return out
	}
	if _, err := st.Claim(ctx, plan.Run, "elsewhere:1:dead", keys(plan.Jobs[:5]), time.Now(), -time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Claim(ctx, plan.Run, "elsewhere:2:dying", keys(plan.Jobs[5:10]), time.Now(), 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	sum, err := runner.Run(ctx, st, plan)
	if err != nil || sum.Answered != 20 || srv.Requests() != 20 {
		t.Fatalf("Run = %+v, %v (%d requests); want all 20 answered once", sum, err, srv.Requests())
	}
}

// bigReplies answers with a long text, so that a small disk fills quickly.
func bigReplies(req *llmtest.Request) llmtest.Response {
	return llmtest.Response{Text: strings.Repeat("The Keeper calls for a roll. ", 300) + req.LastUser()}
}

// TestStopsAskingWhenTheStoreCannotWrite: once a result cannot be kept, no request
// beyond those already in flight is sent.
func TestStopsAskingWhenTheStoreCannotWrite(t *testing.T) {
	const concurrency, jobs = 4, 500
	check := func(t *testing.T, srv *llmtest.Server, st *store.Store, run store.RunID, err error) {
		t.Helper()
		stats, serr := st.RunStats(context.Background(), run)
		if serr != nil {
			t.Fatal(serr)
		}
		if got := srv.Requests(); got > int64(stats.Jobs+concurrency) {
			t.Errorf("stand-in saw %d requests, %d results kept: more than %d requests after the first failed write", got, stats.Jobs, concurrency)
		}
		if err == nil || !strings.Contains(err.Error(), "no more requests were sent") {
			t.Fatalf("Run = %v; want the store failure", err)
		}
		if n := strings.Count(err.Error(), "\n"); n != 0 {
			t.Errorf("error has %d lines; want one: %v", n+1, err)
		}
		t.Logf("%d requests sent, %d results kept: %v", srv.Requests(), stats.Jobs, err)
	}

	t.Run("disk full", func(t *testing.T) {
		dir := t.TempDir()
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
			t.Skipf("cannot mount a small tmpfs (%v: %s); the trigger case covers a failing write", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", dir).Run() })
		srv := llmtest.NewServer(llmtest.Options{Responder: bigReplies})
		defer srv.Close()
		name := llm.ModelName("openai/gm")
		st, err := store.Open(context.Background(), filepath.Join(dir, "full.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		plan := planFor("seduce-full", map[llm.ModelName]llm.Model{name: standIn(t, srv, name)}, jobs, concurrency)
		begin(t, st, plan.Run)
		_, err = runner.Run(context.Background(), st, plan)
		check(t, srv, st, plan.Run, err)
	})

	t.Run("write refused", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "refuse.db")
		st := openFile(t, path)
		srv := llmtest.NewServer(llmtest.Options{})
		defer srv.Close()
		name := llm.ModelName("openai/gm")
		plan := planFor("seduce-refused", map[llm.ModelName]llm.Model{name: standIn(t, srv, name)}, jobs, concurrency)
		begin(t, st, plan.Run)
		// From the 13th result on, the file refuses to take more, as a full or
		// read-only disk does.
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`CREATE TRIGGER refuse BEFORE INSERT ON results WHEN (SELECT count(*) FROM results) >= 13
			BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
			t.Fatal(err)
		}
		_, err = runner.Run(context.Background(), st, plan)
		check(t, srv, st, plan.Run, err)
	})
}

// TestRefusedCredentialsStopThatModel: a model's first 401 (or 403) stops its other
// requests; the other models of the run go on, and the run ends in an error naming it.
func TestRefusedCredentialsStopThatModel(t *testing.T) {
	const concurrency = 4
	bad, good := llm.ModelName("openai/bad"), llm.ModelName("openai/good")
	check := func(t *testing.T, sum runner.Summary, err error, status int, refused int64) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), string(bad)) || !strings.Contains(err.Error(), fmt.Sprintf("HTTP %d", status)) ||
			strings.Contains(err.Error(), "\n") {
			t.Fatalf("Run = %v; want one line naming %s and HTTP %d", err, bad, status)
		}
		if refused == 0 || refused > concurrency {
			t.Errorf("%d requests answered %d; want at most %d (those in flight at the first)", refused, status, concurrency)
		}
		if sum.Answered != 50 {
			t.Errorf("summary %+v; want all 50 of %s answered", sum, good)
		}
	}
	t.Run("401 from the stand-in", func(t *testing.T) {
		srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
			if req.Model == "bad" {
				return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultUnauthorized}}
			}
			return llmtest.Echo(req)
		}})
		defer srv.Close()
		st := openFile(t, filepath.Join(t.TempDir(), "s.db"))
		plan := planFor("seduce-401", map[llm.ModelName]llm.Model{bad: standIn(t, srv, bad), good: standIn(t, srv, good)}, 50, concurrency)
		begin(t, st, plan.Run)
		sum, err := runner.Run(context.Background(), st, plan)
		check(t, sum, err, 401, srv.StatusCount(401))
		if srv.StatusCount(200) != 50 {
			t.Errorf("stand-in answered %d; want 50", srv.StatusCount(200))
		}
	})
	t.Run("403", func(t *testing.T) {
		var refused atomic.Int64
		forbidden := llm.Func{ModelName: bad, Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
			refused.Add(1)
			return nil, &llm.Error{Provider: "openai", Status: 403, Message: "this key may not use the model"}
		}}
		ok := llm.Func{ModelName: good, Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
			return &llm.Reply{Text: "ok"}, nil
		}}
		st := openFile(t, filepath.Join(t.TempDir(), "s.db"))
		plan := planFor("seduce-403", map[llm.ModelName]llm.Model{bad: forbidden, good: ok}, 50, concurrency)
		begin(t, st, plan.Run)
		sum, err := runner.Run(context.Background(), st, plan)
		check(t, sum, err, 403, refused.Load())
	})
}
