package main

import (
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

// TestSeduceOnSharedPostgres: a run of the bundled set on a PostgreSQL store, its report
// from a second invocation, and a second person's identical run that asks the provider
// nothing, its every answer coming from the shared store.
func TestSeduceOnSharedPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bundled set")
	}
	pg := storetest.PostgresDSN(t)
	srv := llmtest.NewServer(llmtest.Options{Responder: keeperReply})
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "sk-test-pg", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	args := []string{"seduce", "run", "-q", "-m", "openai/gpt-standin", "--db", pg, "--concurrency", "32", "--format", "json", "--bootstrap", "0"}
	first := arbiter(t, env, args...)
	if first.code != 0 {
		t.Fatalf("seduce run --db postgres: exit %d\n%s", first.code, first.stderr)
	}
	asked := srv.Requests()
	if asked != 1792 {
		t.Fatalf("first run asked %d requests; want 1792 (the bundled set)", asked)
	}
	if strings.Contains(first.stderr, "sk-test-pg") {
		t.Error("the API key reached stderr")
	}
	report := arbiter(t, env, "seduce", "report", "--db", pg, "--format", "json", "--bootstrap", "0")
	if report.code != 0 || !strings.Contains(report.stdout, "openai/gpt-standin") {
		t.Fatalf("seduce report --db postgres: exit %d\n%s\n%s", report.code, report.stdout, report.stderr)
	}
	// Another machine: ARBITER_DB instead of --db, the same command otherwise.
	env2 := map[string]string{"OPENAI_API_KEY": "sk-test-pg-2", "OPENAI_BASE_URL": srv.OpenAIBaseURL(), "ARBITER_DB": pg}
	second := arbiter(t, env2, append([]string{"seduce", "run", "-q", "-m", "openai/gpt-standin"}, args[7:]...)...)
	if second.code != 0 {
		t.Fatalf("second seduce run: exit %d\n%s", second.code, second.stderr)
	}
	if got := srv.Requests(); got != asked {
		t.Errorf("the second run asked %d more requests; want 0 (the shared store answers)", got-asked)
	}
	if second.stdout != first.stdout {
		t.Error("the second run's report differs from the first")
	}
	runs := arbiter(t, env2, "runs")
	if runs.code != 0 || !strings.Contains(runs.stdout, "seduce") {
		t.Errorf("runs on ARBITER_DB=postgres: exit %d\n%s\n%s", runs.code, runs.stdout, runs.stderr)
	}
}
