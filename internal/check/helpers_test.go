package check

import (
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// standIn starts an llmtest server speaking the OpenAI wire format.
func standIn(t *testing.T, r llmtest.Responder) *llmtest.Server {
	t.Helper()
	s := llmtest.NewServer(llmtest.Options{Responder: r})
	t.Cleanup(s.Close)
	return s
}

// openStore opens a store in a file, so a test can reopen it to check resuming.
func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "arbiter.db")
	}
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// execFor connects names (openai/<id>) to the stand-in through the real OpenAI adapter,
// wrapped for retries as the command does, over st.
func execFor(t *testing.T, s *llmtest.Server, st *store.Store, names ...string) *runner.Session {
	t.Helper()
	models := map[llm.ModelName]llm.Model{}
	policy := llm.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, Timeout: 10 * time.Second}
	// Connections the client dialled but never used would hold up the server's Close
	// for its 5s grace period (net/http counts them as new, not idle): close them first.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	t.Cleanup(client.CloseIdleConnections)
	for _, n := range names {
		name := llm.ModelName(n)
		m, err := openai.New(name, config.Endpoint{Provider: "openai", BaseURL: s.OpenAIBaseURL(), Key: "sk-test"}, openai.Options{HTTPClient: client})
		if err != nil {
			t.Fatalf("openai.New: %v", err)
		}
		models[name] = llm.WithRetry(m, policy, nil, nil)
	}
	return &runner.Session{Store: st, Models: models, Concurrency: 4, Version: "test"}
}

// questionLine matches a numbered question the judge prompt or a follow-up lists.
var questionLine = regexp.MustCompile(`(?m)^Q(\d+) - (.+)$`)

// asked returns the questions a judge request lists in its last user message.
func asked(req *llmtest.Request) map[int]string {
	out := map[int]string{}
	for _, m := range questionLine.FindAllStringSubmatch(req.LastUser(), -1) {
		n, _ := strconv.Atoi(m[1])
		out[n] = m[2]
	}
	return out
}

var trialLine = regexp.MustCompile(`(?m)^Trial (\S+?)[,.]`)

// trialOf reads the trial id from the first message of a judge conversation.
func trialOf(req *llmtest.Request) string {
	if len(req.Messages) == 0 {
		return ""
	}
	m := trialLine.FindStringSubmatch(req.Messages[0].Text)
	if m == nil {
		return ""
	}
	return m[1]
}

// judgeReply answers every asked question in the spec's line format, "no" when no says
// so for (trial, question text).
func judgeReply(req *llmtest.Request, no func(trial, question string) bool) string {
	qs := asked(req)
	var b strings.Builder
	for n := 1; n <= 200; n++ {
		text, ok := qs[n]
		if !ok {
			continue
		}
		ans := "yes"
		if no != nil && no(trialOf(req), text) {
			ans = "no"
		}
		b.WriteString("Q" + strconv.Itoa(n) + " - " + text + ": " + ans + " (reasoning: see [T1].)\n")
	}
	return b.String()
}

// bodies collects every request's full text (system and messages), for tests that must
// show something never reached a model.
type bodies struct {
	mu   sync.Mutex
	text []string
}

func (b *bodies) add(req *llmtest.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var s strings.Builder
	s.WriteString(req.System)
	for _, m := range req.Messages {
		s.WriteString("\n")
		s.WriteString(m.Text)
	}
	b.text = append(b.text, s.String())
}

func (b *bodies) any(substr string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range b.text {
		if strings.Contains(t, substr) {
			return true
		}
	}
	return false
}

func ptr[T any](v T) *T { return &v }
